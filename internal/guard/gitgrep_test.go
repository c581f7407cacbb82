package guard

import (
	"encoding/binary"
	"testing"
)

// indexOf builds a version 2 git index listing paths (sorted by the
// caller), as parseGitIndex reads it.
func indexOf(paths ...string) string {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(paths)))
	for _, p := range paths {
		start := len(b)
		b = append(b, make([]byte, 60)...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
		b = append(b, 0)
		for (len(b)-start)%8 != 0 {
			b = append(b, 0)
		}
	}
	return string(b)
}

// TestGitGrepTracked: git grep searches the work-tree files git tracks,
// so with the disk and a readable index an untracked or ignored .env is
// not searched and a tracked one is. Options that widen the search
// (--untracked, --no-index, --no-exclude-standard, --recurse-submodules,
// abbreviated too), trees (history), an index or work tree the command
// changes or moves, an argument computed when it runs and no disk keep it
// a recursive read of the folder; pathspecs are globs (`*.env` matches
// .env, so the folder up to the first wildcard is read), magic ones
// (`:/`) are unverifiable; -O's pager runs as a command.
func TestGitGrepTracked(t *testing.T) {
	base := map[string]string{
		tCwd + "/.env": "SECRET=x", tCwd + "/m.go": "package m // TODO", tCwd + "/src/a.go": "package a",
		tCwd + "/.git/HEAD": "ref: refs/heads/main\n",
	}
	with := func(extra map[string]string) *Matcher {
		files := map[string]string{}
		for k, v := range base {
			files[k] = v
		}
		for k, v := range extra {
			files[k] = v
		}
		return DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	}
	untracked := with(map[string]string{tCwd + "/.git/index": indexOf("m.go", "src/a.go")})
	ignored := with(map[string]string{tCwd + "/.git/index": indexOf(".gitignore", "m.go", "src/a.go"), tCwd + "/.gitignore": ".env\n"})
	tracked := with(map[string]string{tCwd + "/.git/index": indexOf(".env", "m.go", "src/a.go")})
	trackedBelow := with(map[string]string{tCwd + "/.git/index": indexOf("m.go", "src/.env", "src/a.go"), tCwd + "/src/.env": "K=1"})
	badIndex := with(map[string]string{tCwd + "/.git/index": "DIRC\x00\x00\x00\x02\x00\x00\x00\x09"})
	worktree := with(map[string]string{tCwd + "/.git/index": indexOf("m.go"), tCwd + "/.git/config": "[core]\n\tworktree = /home/user\n"})
	noDisk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	submodules := with(map[string]string{tCwd + "/.git/index": indexOf("m.go", "src/a.go", "vendor/lib"), tCwd + "/.gitmodules": "[submodule \"lib\"]\n"})

	safe := []string{
		"git grep TODO", "git grep -n TODO", "git grep -in todo", "git grep -e TODO -e FIXME", "git grep -nE 'TODO|FIXME'",
		"git grep TODO -- '*.go'", "git grep -c TODO -- . ':!vendor'", "git grep --cached TODO",
		"git grep -- TODO", "git grep -A3 -B 2 TODO", "git grep --max-depth 2 TODO", "git grep -e TODO --and -e x",
		"git grep -w TODO | head", "git --no-pager grep TODO", "git grep -ie todo", "git grep TODO '*.go'",
		"git grep -n TODO . m.go",
	}
	for _, c := range safe {
		for name, m := range map[string]*Matcher{"untracked .env": untracked, "ignored .env": ignored} {
			if got, why := kindOf(m, c); got != "" {
				t.Errorf("%s: %q: got %q, want allowed (%s)", name, c, got, why)
			}
		}
		// a tracked .env is searched; what cannot be read or placed is not shown safe
		for name, m := range map[string]*Matcher{"tracked .env": tracked, "unreadable index": badIndex, "core.worktree": worktree, "no disk": noDisk,
			"submodules (submodule.recurse)": submodules} {
			if got, _ := kindOf(m, c); got == "" {
				t.Errorf("%s: %q allowed", name, c)
			}
		}
	}
	// without `--`, an argument that names a file (or is a glob) is a
	// pathspec; any other may be a revision (its tree: the folder's read)
	for _, m := range []*Matcher{untracked, tracked} {
		runShell(t, m, []shellCase{
			{"git grep TODO src", ""},
			{"git grep -n TODO src m.go", ""},
			{"git grep TODO HEAD", KindFolder},
			{"git grep TODO HEAD src", KindFolder},
			{"git grep TODO nosuch", KindFolder},
			{"git grep TODO src -- .", KindFolder}, // before --, src is a revision: its tree
			{"git grep TODO src -- m.go", ""},      // only m.go of it
			{"git grep TODO 'HEAD^{/fi*x}'", KindFolder},
			{"git grep TODO 'main@{1}' '*.go'", KindFolder},
			{"rm -r src; git grep TODO src", KindFolder},
			{"mv src x && git grep TODO src", KindFolder},
			{"git grep TODO .env", KindDeny},
			{"git grep TODO ':/'", KindUnverifiable},
		})
	}
	// --untracked: also the untracked files .gitignore does not surely
	// ignore (a tracked one is searched whatever .gitignore says)
	trackedIgnored := with(map[string]string{tCwd + "/.git/index": indexOf(".env", ".gitignore", "m.go"), tCwd + "/.gitignore": ".env\n"})
	runShell(t, ignored, []shellCase{
		{"git grep --untracked TODO", ""},
		{"git grep --untr -n TODO -- src", ""},
		{"git grep --untracked --no-exclude-standard TODO", KindFolder},
		{"echo x > .gitignore && git grep --untracked TODO", KindFolder},
		{"rm .gitignore; git grep --untracked TODO", KindFolder},
	})
	runShell(t, trackedIgnored, []shellCase{
		{"git grep --untracked TODO", KindFolder},
		{"git grep TODO", KindFolder},
	})
	runShell(t, trackedBelow, []shellCase{
		{"git grep TODO", KindFolder},
		{"git grep TODO -- src", KindFolder},
		{"git grep TODO -- 'sr?'", KindFolder},
		{"git grep TODO -- m.go", ""},
		{"git grep -l TODO -- m.go src/a.go", ""},
		{"git grep -l TODO -- m.go src", KindFolder},
		{"cd src && git grep TODO", KindFolder},
	})
	// wider than the tracked files, or not known to be only them
	for _, c := range []shellCase{
		{"git grep --untracked TODO", KindFolder},
		{"git grep --untr TODO", KindFolder},
		{"git grep --no-index TODO", KindFolder},
		{"git grep --no-ind TODO", KindFolder},
		{"git grep --untracked --no-exclude-standard TODO", KindFolder},
		{"git grep --recurse-submodules TODO", KindFolder},
		{"git grep TODO HEAD", KindFolder},
		{"git grep TODO main", KindFolder},
		{"git grep TODO main -- src", ""}, // history is not covered; src holds no protected path
		{"git grep -- S m.go", ""},
		{"git grep -- S HEAD", KindFolder},
		{"git grep --no-index S ../other", KindFolder},
		{"git grep --untracked S :/", KindUnverifiable},
		{"git grep --untracked S -- '*.env'", KindFolder},
		{"git grep --untracked S -- '.e*'", KindFolder},
		{"git grep --no-index S -- '[.]env'", KindFolder},
		{"git grep S -- ':/'", KindUnverifiable},
		{"git grep --untracked S -- ':(glob)*env'", KindUnverifiable},
		{"git grep S -- \"$X\"", KindUnverifiable},
		{"git grep \"$X\"", KindUnverifiable},
		{"git grep $OPTS TODO", KindUnverifiable},
		{"git grep -f .env x", KindDeny},
		{"git grep -O'cat .e\"\"nv; echo' TODO", KindDeny},
		{"git grep --open-files-in-pager='cat .e\"\"nv;' TODO", KindDeny},
		{"git grep -O\"$(cat p)\" TODO", KindUnverifiable},
		{"git add -A && git grep TODO", KindFolder},
		{"git add .env; git grep TODO", KindDeny},
		{"GIT_INDEX_FILE=/tmp/i git grep TODO", KindFolder},
		{"GIT_DIR=/tmp/r git grep TODO", KindFolder},
		{"git --work-tree=/ grep TODO", KindFolder},
		{"git -c core.worktree=/ grep TODO", KindFolder},
		{"git --icase-pathspecs grep TODO -- SRC", ""},
	} {
		if got, why := kindOf(untracked, c.cmd); got != c.want {
			t.Errorf("untracked .env: %q: got %q, want %q (%s)", c.cmd, got, c.want, why)
		}
	}
}
