package guard

import "testing"

// TestParallel: GNU parallel runs a command on arguments from `:::`, from
// a file or from stdin, or runs each argument as a command line.
func TestParallel(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"find . -type f | parallel cat", KindDeny},
		{"find . -name '*env' | parallel -j4 cat {}", KindDeny},
		{"parallel cat ::: .env", KindDeny},
		{"parallel --jobs 2 cat ::: src/a.go .env", KindDeny},
		{"parallel ::: 'cat .env'", KindDeny},
		{"parallel 'cat {}' ::: .env", KindDeny},
		{"parallel 'head -1 {} | base64' ::: .env", KindDeny},
		{"echo .env | parallel cat", KindDeny},
		{"echo 'cat .env' | parallel", KindDeny},
		{"ls -a | parallel cat", KindUnverifiable},
		{"parallel -a list cat", KindUnverifiable},
		{"parallel cat :::: list", KindUnverifiable},
		{"sem cat .env", KindDeny},
		{"parallel cat ::: src/a.go", ""},
		{"parallel 'wc -l {}' ::: src/a.go src/b.go", ""},
		{"find src -name '*.go' | parallel gofmt -l", ""},
		{"parallel -j4 echo ::: a b c", ""},
	})
}

// TestGitDiffNoIndex: git diff --no-index (or two paths, one outside the
// work tree, where git drops to it by itself) compares folders
// recursively, hidden names included.
func TestGitDiffNoIndex(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"git diff --no-index /tmp/e .", KindFolder},
		{"git diff --no-index -- /tmp/e .", KindFolder},
		{"git diff --no-index --stat /tmp/e .", KindFolder},
		{"git diff /tmp/empty .", KindFolder},
		{"git diff ~/empty .", KindFolder},
		{"git diff --no-index /dev/null .env", KindDeny},
		{"git diff --no-index src/a.go src/b.go", ""},
		{"git diff main feature", ""},
		{"git diff HEAD~1 -- src", ""},
		{"git diff --stat", ""},
	})
}

// TestCodeComputedCommand: code that runs a command built from its
// arguments, stdin or environment, or from a string with a computed hole,
// runs what the analysis cannot see.
func TestCodeComputedCommand(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`python3 -c "import os,sys; os.system(sys.argv[1])" 'cat .env'`, KindUnverifiable},
		{`python3 -c "import os; c=input(); os.system(f'{c} x')"`, KindUnverifiable},
		{`python3 -c "import os; os.system(os.environ['X'])"`, KindUnverifiable},
		{`python3 -c "import subprocess,sys; subprocess.run(sys.argv[1], shell=True)" x`, KindUnverifiable},
		{`node -e "require('child_process').execSync(process.argv[1])" 'cat .env'`, KindUnverifiable},
		{`ruby -e 'system(ARGV[0])' 'cat .env'`, KindUnverifiable},
		{"perl -e 'print `$ARGV[0]`' 'cat .env'", KindUnverifiable},
		{`php -r 'echo shell_exec($argv[1]);' 'cat .env'`, KindUnverifiable},
		{`python3 -c "import subprocess; print(subprocess.check_output(['git','status']).decode())"`, ""},
		{`python3 -c "import sys; print(sys.argv)" a b`, ""},
		{`node -e "console.log(process.env.HOME)"`, ""},
		{`python3 -c "import os; os.system('ls -la')"`, ""},
		// backticks run what the language decodes
		{"perl -e 'print `cat .e\\x6ev`'", KindDeny},
		{"perl -e 'print `cat .e\\x2a`'", KindDeny},
		{"ruby -e 'puts `cat .e\\x6ev`'", KindDeny},
		{"perl -e 'print `ls -la`'", ""},
	})
}

// TestEnvCommands: environment variables whose value a program runs as a
// command line (git's, pagers', editors', less's preprocessor), expands
// (PS4 under set -x) or reads flags from (RIPGREP_CONFIG_PATH), as a
// prefix or an assignment.
func TestEnvCommands(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"GIT_EXTERNAL_DIFF='cat .env #' git diff", KindDeny},
		{"export GIT_EXTERNAL_DIFF='cat .env #'; git diff", KindDeny},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='cat .env #' git diff", KindDeny},
		{"X='cat .env #' git --config-env=diff.external=X diff", KindUnverifiable},
		{"git --config-env diff.external=X diff", KindUnverifiable},
		{`GIT_CONFIG_PARAMETERS="'alias.x'='!cat .env'" git x`, KindDeny},
		{"GIT_EDITOR='cat .env #' git commit --amend", KindDeny},
		{"VISUAL='cat .env #' git commit", KindDeny},
		{"GIT_SEQUENCE_EDITOR='cat .env #' git rebase -i HEAD~2", KindDeny},
		{"GIT_SSH_COMMAND='cat .env #' git fetch", KindDeny},
		{"GIT_ASKPASS='cat .env #' git push", KindDeny},
		{"LESSOPEN='|cat .env #%s' less a.txt", KindDeny},
		{"PS4='$(cat .env)' bash -xc true", KindDeny},
		{"GIT_PAGER='cat .env' git -p log", KindDeny},
		{"PAGER='cat .env' man ls", KindDeny},
		{"GIT_EXTERNAL_DIFF=\"$X\" git diff", KindUnverifiable},
		{"RIPGREP_CONFIG_PATH=/tmp/rgcfg rg SECRET", KindFolder},
		{"LESS='+!cat .env' less a.txt", KindDeny},
		{"RSYNC_RSH='cat .env #' rsync a host:b", KindDeny},
		{"PERL5OPT='-Mstrict;print`cat .env`' perl -e 1", KindDeny},
		{"MANOPT='-P cat .env' man ls", KindDeny},
		{"SVN_EDITOR='cat .env #' svn commit", KindDeny},
		{"LESS=-R less a.txt", ""},
		{"RSYNC_RSH='ssh -p 2222' rsync -a src host:dst", ""},
		// through a wrapper's NAME=VALUE words
		{"env GIT_EXTERNAL_DIFF='cat .env #' git diff", KindDeny},
		{"env -i GIT_PAGER='cat .env' git -p log", KindDeny},
		{"env 'GIT_EXTERNAL_DIFF=cat .env #' git diff", KindDeny},
		{"sudo GIT_EDITOR='cat .env #' git commit", KindDeny},
		{"declare -x GIT_EDITOR='cat .env #'; git commit", KindDeny},
		{"X='cat .env #'; GIT_EDITOR=$X git commit", KindDeny},
		{"env FOO=bar git commit -m x", ""},
		{"sudo -u x FOO=1 ls", ""},
		{"GIT_EDITOR=vim git commit", ""},
		{"PAGER=less git log", ""},
		{"GIT_PAGER=cat git log -p", ""},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=bot git commit -m x", ""},
		{"EDITOR=true git commit", ""},
		{"rg SECRET", ""},
	})
}

// TestGitRunsCommands: git subcommands and configuration that run a
// command: rebase -x, difftool -x/--extcmd, filter-branch's filters,
// submodule foreach, a configuration the command writes and then points
// git at (GIT_CONFIG_GLOBAL, -c include.path).
func TestGitRunsCommands(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"git rebase -x 'cat .env' HEAD~1", KindDeny},
		{"git rebase --exec='cat .env' HEAD~1", KindDeny},
		{"git difftool -y -x 'cat .env #'", KindDeny},
		{"git difftool --extcmd='cat .env #'", KindDeny},
		{"git filter-branch --tree-filter 'cat .env' HEAD", KindDeny},
		{"git submodule foreach 'cat .env'", KindDeny},
		{"git submodule foreach --recursive 'cat ../.env'", KindDeny},
		{`printf '[alias]\n x = !cat .env\n' > /tmp/gc; GIT_CONFIG_GLOBAL=/tmp/gc git x`, KindDeny},
		{`printf '[core]\n pager = cat .e%s\n' nv > /tmp/gc; GIT_CONFIG_GLOBAL=/tmp/gc git log`, KindDeny},
		{`printf '[alias]\n x = !cat .env\n' > /tmp/gc; git -c include.path=/tmp/gc x`, KindDeny},
		// the command is safe, but rebase and pull write commits' files (pass 33)
		{"git rebase --exec 'make test' HEAD~3", KindUnverifiable},
		{"git submodule foreach git pull", KindUnverifiable},
		{"git submodule foreach git fetch", ""},
		{"git difftool -y", ""},
		{`printf '[user]\n name = bot\n' > /tmp/gc; GIT_CONFIG_GLOBAL=/tmp/gc git commit -m x`, ""},
	})
}

// TestGitRunsWhatTheCommandWrote: git options whose value is a command,
// the ext:: transport, names git reads on stdin, and programs, hooks,
// start-up files and configurations the command writes and then has run.
func TestGitRunsWhatTheCommandWrote(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"git ls-remote --upload-pack='cat .e* >&2 #' .", KindDeny},
		{"git fetch --upload-pack='cat .env >&2 #' .", KindDeny},
		{"git clone -u 'cat .env #' . d", KindDeny},
		{"git archive --remote=. --exec='cat .env' HEAD", KindDeny},
		{"git push --receive-pack='cat .env' . HEAD", KindDeny},
		{"git send-email --to-cmd='cat .env' x.patch", KindDeny},
		{"git clone --config core.sshCommand='cat .env #' host:x d", KindDeny},
		{"git -c protocol.ext.allow=always ls-remote 'ext::sh -c cat% .e*% >&2'", KindDeny},
		{"git ls-files -o | git hash-object -w --stdin-paths | git cat-file --batch", KindUnverifiable},
		{"git ls-files -o | git update-index --add --stdin && git diff --cached", KindUnverifiable},
		{`mkdir -p h && printf "#!/bin/sh\ncat .e*\n" > h/pre-commit && git -c core.hooksPath=h commit -qm x`, KindDeny},
		{`mkdir -p h && printf "#!/bin/sh\ncat .e*\n" > h/pre-commit && git config core.hooksPath h && git commit -qm x`, KindDeny},
		{`printf "[alias]\n\tx = !cat .e*\n" > c.cfg && GIT_CONFIG_GLOBAL=c.cfg git x`, KindDeny},
		{`printf "#!/bin/sh\ncat .e*\n" > git-x && chmod +x git-x && GIT_EXEC_PATH=. git x`, KindDeny},
		{`printf "#!/bin/sh\ncat .e*\n" > git-x && git --exec-path=. x`, KindDeny},
		{`mkdir -p t/hooks && printf "#!/bin/sh\ncat ../.e*\n" > t/hooks/post-checkout && git clone -q --template=t . cl`, KindDeny},
		{`printf "cat .e*\n" > x && BASH_ENV=x bash -c true`, KindDeny},
		{`printf "cat .e*\n" > x && ENV=x sh -i`, KindDeny},
		{"git clone https://github.com/x/y", ""},
		{"git fetch origin", ""},
		{"git push origin main", ""},
		{"git -c core.hooksPath=.githooks commit -m x", ""},
		{`printf "x\n" > notes.txt && git add notes.txt && git commit -m x`, ""},
	})
}

// TestUnquotedFilterGlobs: an unquoted glob as a search's name filter
// (`--include=*.go`, `-g *.go`) stays as written when no file is named so;
// it limits the search as the quoted one does.
func TestUnquotedFilterGlobs(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"grep -rn --include=*.go TODO .", ""},
		{"grep -rn --include='*.go' TODO .", ""},
		{"rg -g *.go TODO", ""},
		{"grep -rn --include=*env SECRET .", KindFolder},
		{"rg -g *env SECRET", KindFolder},
		{"grep -rn --include=$X SECRET .", KindFolder},
	})
}

// TestAttackerPass9: forms a tester got past the gate (each printed or
// deleted the secret when run): find's negated and alternative tests, a
// folder link made in the command then recursed, ripgrep's negated globs
// in the tools, zip -T's value, code that evaluates its stdin.
func TestAttackerPass9(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"find . -maxdepth 1 -type f ! -name a.txt | xargs cat", KindDeny},
		{"find . -maxdepth 1 -type f ! -name a.txt -delete", KindFolder},
		{"find . -maxdepth 1 -type f -name '*.txt' -o -type f -print | xargs cat", KindDeny},
		{"find . -type f -not -name '*.txt' -exec cat {} \\;", KindDeny},
		{"find . \\( -name '*.js' -o -type f \\) | xargs cat", KindDeny},
		{"ln -s . d; grep -r SECRET d/", KindFolder},
		{"ln -s $PWD d && rm -rf d/", KindFolder},
		{"ln -s . d; find d/ -delete", KindFolder},
		{"zip -q /tmp/z.zip a.txt -T --unzip-command 'cat .env #'", KindDeny},
		{`python3 -c "import sys;exec(open(0).read())" <<< "print(open('.env').read())"`, KindDeny}, // pass 16: the here-string's tokens name .env
		{`node -e 'eval(require("fs").readFileSync(0,"utf8"))' <<< x`, KindUnverifiable},
		{"find . -path ./node_modules -prune -o -name '*.js' -print | xargs cat", ""},
		{"find . \\( -name '*.js' -o -name '*.ts' \\) | xargs cat", ""},
		{"find . -name '*.js' -o -name '*.ts' | xargs grep x", ""},
		{"ln -s src d; grep -r x d", ""},
		{"zip -T x.zip a.js", ""},
		{`curl -s x | python3 -c "import json,sys; print(json.load(sys.stdin)['x'])"`, ""},
		{"gdb -batch -ex 'shell cat .env'", KindDeny},
		{`gdb -q -batch -ex 'python print(open(".env").read())'`, KindDeny},
		{"gdb -batch -ex '!cat .e*'", KindDeny},
		{"lldb -o 'platform shell cat .env'", KindDeny},
		{"gdb -batch -ex 'bt' ./a.out core", ""},
		{"python3 -m zipfile -c /tmp/z.zip . && unzip -p /tmp/z.zip", KindFolder},
		{"python3 -m tarfile -c /tmp/t.tar .", KindFolder},
		{"python3 -m zipfile -c /tmp/z.zip src", ""},
		{"python3 -m pytest -q", ""},
		{"jq -n --rawfile f .env '$f'", KindDeny},
		{"jq -n --slurpfile f ~/.ssh/id_rsa '$f'", KindDeny},
		{"jq --indent 2 --rawfile f .env -n '$f'", KindDeny},
		{"jq -n --rawfile f notes.txt '$f'", ""},
		{"jq '.env' package.json", ""},
	})
	// MCP shell tools: the tool part names a shell; any command key, stdin
	for _, c := range []struct {
		tool string
		args map[string]any
		deny bool
	}{
		{"mcp__mcp-server-commands__run_process", map[string]any{"mode": "shell", "command_line": "cat .env"}, true},
		{"mcp__x__run_command", map[string]any{"command": "sh", "stdin": "cat .env"}, true},
		{"mcp__x__shell", map[string]any{"commandLine": "cat .env"}, true},
		{"mcp__x__execute", map[string]any{"whatever": "cat .env"}, true},
		{"mcp__x__run_command", map[string]any{"command": "ls -la"}, false},
		{"mcp__x__run_process", map[string]any{"mode": "shell", "command_line": "npm test"}, false},
	} {
		if vs := m.Check(Call{Tool: c.tool, Args: c.args}); (len(vs) > 0) != c.deny {
			t.Errorf("%s %v: denied %v, want %v", c.tool, c.args, len(vs) > 0, c.deny)
		}
	}
	disk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/a.txt": "a"}, nil)})
	for _, tool := range []string{"Grep", "grep"} {
		for _, mm := range []*Matcher{m, disk} {
			if tool == "Grep" && mm == m {
				continue // without the disk Claude Code's Grep is taken to skip hidden names
			}
			vs := mm.Check(Call{Tool: tool, Args: map[string]any{"pattern": "SECRET", "path": tCwd, "glob": "!*.txt"}})
			if len(vs) == 0 {
				t.Errorf("%s with glob !*.txt (an exclusion: every other name) allowed", tool)
			}
		}
	}
}
