package guard

import "testing"

// TestGitConfigPersisted: `git config KEY VALUE` writes the repository's
// configuration, which every later git command of the call reads: a key
// that includes another file (include.path, includeIf.*.path) may bring any
// command-valued key in, and a hooks folder (core.hooksPath) runs the hooks
// the command writes there afterwards. Both spellings (`git config set`).
func TestGitConfigPersisted(t *testing.T) {
	for _, m := range []*Matcher{
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}),
		DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/.git/config": "[core]\n"}, nil)}),
	} {
		runShell(t, m, []shellCase{
			{`printf '[alias]\n x = !cat .e""nv\n' > inc && git config include.path ../inc && git x`, KindUnverifiable},
			{`printf '[core]\n fsmonitor = ./f.sh\n' > inc && git config include.path ../inc && git status`, KindUnverifiable},
			{`git config includeIf.onbranch:main.path ../inc && git status`, KindUnverifiable},
			{`git config set include.path /tmp/x`, KindUnverifiable},
			{`git config --local include.path ../inc`, KindUnverifiable},
			{`git config core.hooksPath h && mkdir h && printf '#!/bin/sh\ncat .e""nv\n' > h/pre-commit && chmod +x h/pre-commit && git commit --allow-empty -m x`, KindDeny},
			{`git config --local core.hooksPath hh && echo 'cat .e""nv' > hh/pre-commit && git commit -m x`, KindDeny},
			{`git config set core.hooksPath h && echo 'cat .e""nv' > h/pre-push && git push`, KindDeny},
			{`git config core.hooksPath "$(cat d)" && git commit -m x`, KindUnverifiable},
			{`git config set alias.x '!cat .e""nv' && git x`, KindDeny},
			// a hooks folder the agent may write runs at every later commit
			// (pass 31: it fails closed)
			{`git config core.hooksPath .githooks`, KindUnverifiable},
			{`git config core.hooksPath .githooks && git commit -m x`, KindUnverifiable},
			// everyday
			{`git config core.hooksPath /dev/null && git commit -m x`, ""},
			{`git config user.name x && git commit -m y`, ""},
			{`git config set user.email a@b`, ""},
			{`git config --get include.path`, ""},
		})
	}
}

// TestGitAbbreviatedOptions: git takes any unambiguous prefix of a long
// option: `--forc` is --force, `--al` is --all, `--no-ind` is --no-index.
func TestGitAbbreviatedOptions(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`git add --forc .; git diff --cached`, KindFolder},
		{`git add -A --fo`, KindFolder},
		{`git stash push --a`, KindFolder},
		{`git stash --al`, KindFolder},
		{`git stash save --al`, KindFolder},
		{`git stash -u --quiet`, KindFolder},
		{`git stash push --include-u`, KindFolder},
		{`git diff --no-ind /tmp/e .`, KindFolder},
		{`git fetch --upload-p='cat .e""nv' origin`, KindDeny},
		// everyday
		{`git push --force-with-lease`, ""},
		{`git log --oneline -3`, ""},
		{`git commit --amend --no-edit`, ""},
		{`git stash list`, ""},
	})
}
