package guard

import "testing"

// Pass 21a: shell state and interpreter flags a fresh user used to write
// the gate's configuration. Each attack row was allowed by `pruner hook`
// and really wrote the file; each is denied with a reason naming what it
// writes, next to near-benign rows that stay allowed.

// HOME assigned in the command (any form): `~` and a bare `cd` name an
// unknown folder from there on.
func TestPass21aHomeSet(t *testing.T) {
	runGate20(t, []gate20Case{
		{`HOME=` + tCwd + `/.claude; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`export HOME=$PWD/.pi && cp /tmp/a ~/settings.json`, true, []string{"settings.json"}},
		{`HOME=` + tCwd + `/.pi/extensions; cd; echo evil > e.ts`, true, []string{"e.ts"}},
		{`HOME=` + tCwd + `/.pi/extensions; cd ~ && echo evil > e.ts`, true, []string{"e.ts"}},
		{`env HOME=` + tCwd + `/.pi sh -c 'echo x > ~/settings.json'`, true, []string{"settings.json"}},
		{`HOME=` + tCwd + `/.pi sh -c 'echo x > ~/settings.json'`, true, []string{"settings.json"}},
		{`HOME=` + tCwd + `/.pi cp /tmp/a ~/settings.json`, true, []string{"settings.json"}},
		{`declare HOME=` + tCwd + `/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`typeset -x HOME=` + tCwd + `/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`readonly HOME=` + tCwd + `/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`f() { local HOME=` + tCwd + `/.pi; echo x > ~/settings.json; }; f`, true, []string{"settings.json"}},
		{`printf -v HOME %s ` + tCwd + `/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`read -r HOME; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`HOME=/tmp/h; ls ~`, true, []string{"the command sets HOME; pruner cannot tell what ~ names"}},
		// near-benign: HOME set, no `~` used; `~` with HOME untouched
		{`HOME=/tmp/h git status`, false, nil},
		{`HOME=/tmp/h; cd /tmp/h && echo x > notes`, false, nil},
		{`echo x > ~/notes.txt`, false, nil},
		{`cd && echo x > notes.txt`, false, nil},
	})
}

// a cd into a glob: a word joined to it is a pattern, not the glob's text
func TestPass21aGlobCwd(t *testing.T) {
	runGate20(t, []gate20Case{
		{`cd ` + tCwd + `/.p*/ext*; echo x > e.ts`, true, []string{"e.ts", ".pi/extensions/"}},
		{`cd ` + tCwd + `/.p*; cd ext*; echo x > e.ts`, true, []string{"e.ts"}},
		{`cd /tmp/*; echo x > notes.txt`, false, nil},
	})
}

// git's output options write the file (or below the folder) they name
func TestPass21aGitOutputs(t *testing.T) {
	runGate20(t, []gate20Case{
		{`git log --output=.pi/settings.json`, true, []string{".pi/settings.json", "denies write"}},
		{`git diff --output .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`git show --outp=.claude/settings.json HEAD`, true, []string{".claude/settings.json"}},
		{`git rev-list --output=.pi/settings.json HEAD`, true, []string{".pi/settings.json"}},
		{`git whatchanged --output .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`git format-patch -o .pi/extensions HEAD~1`, true, []string{".pi/extensions"}},
		{`git format-patch -o.pi/extensions HEAD~1`, true, []string{".pi/extensions"}},
		{`git format-patch --output-directory=.pi/extensions HEAD~1`, true, []string{".pi/extensions"}},
		{`git format-patch --output-dir .pi/extensions HEAD~1`, true, []string{".pi/extensions"}},
		{`git bundle create .pi/settings.json HEAD`, true, []string{".pi/settings.json"}},
		{`git bundle create -q .pi/settings.json --all`, true, []string{".pi/settings.json"}},
		{`git init .pi/extensions/x`, true, []string{".pi/extensions/x"}},
		{`git init -q --bare .pi/extensions`, true, []string{".pi/extensions"}},
		{`git init --separate-git-dir=.pi/extensions/g repo`, true, []string{".pi/extensions/g"}},
		{`git archive -o .pi/settings.json HEAD`, true, []string{".pi/settings.json"}},
		{`git archive -o.pi/settings.json HEAD`, true, []string{".pi/settings.json"}},
		{`git archive --output=.pi/settings.json HEAD`, true, []string{".pi/settings.json"}},
		// near-benign: outputs elsewhere, options that write nothing
		{`git log --output=/tmp/log.txt`, false, nil},
		{`git format-patch -o /tmp/patches HEAD~1`, false, nil},
		{`git init /tmp/newrepo`, false, nil},
		{`git init`, false, nil},
		{`git bundle create /tmp/b.bundle HEAD`, false, nil},
		{`git bundle verify /tmp/b.bundle`, false, nil},
		{`git archive -o /tmp/a.tar HEAD`, false, nil},
		{`git diff --output-indicator-new=+ HEAD`, false, nil},
	})
}

// clustered short flags of node/bun, python, vim/ex/nvim: the code option
// in a cluster is read as the separate one
func TestPass21aInterpreterClusters(t *testing.T) {
	const w = `'require("fs").writeFileSync(".pi/settings.json","x")'`
	const py = `'open(".pi/settings.json","w").write("x")'`
	runGate20(t, []gate20Case{
		{`node -pe ` + w, true, []string{".pi/settings.json", "denies write"}},
		{`node -ep ` + w, true, []string{".pi/settings.json"}},
		{`node -p -e ` + w, true, []string{".pi/settings.json"}},
		{`node -ipe ` + w, true, []string{".pi/settings.json"}},
		{`bun --no-env-file -pe ` + w, true, []string{".pi/settings.json"}},
		{`deno eval ` + w, true, []string{".pi/settings.json"}},
		{`python3 -Sc ` + py, true, []string{".pi/settings.json"}},
		{`python3 -Ic ` + py, true, []string{".pi/settings.json"}},
		{`python3 -uc ` + py, true, []string{".pi/settings.json"}},
		{`python3 -IBsc ` + py, true, []string{".pi/settings.json"}},
		{`ex -sc 'wq! .pi/settings.json'`, true, []string{".pi/settings.json"}},
		{`vim -sc 'wq! .pi/settings.json'`, true, []string{".pi/settings.json"}},
		{`vim -esc 'wq! .pi/settings.json'`, true, []string{".pi/settings.json"}},
		{`nvim -es -c 'wq! .pi/settings.json'`, true, []string{".pi/settings.json"}},
		{`vim -Nu NONE -esc 'wq! .claude/settings.json'`, true, []string{".claude/settings.json"}},
		{`vi -esc 'w! .pi/extensions/e.ts'`, true, []string{".pi/extensions/e.ts"}},
		// near-benign: the same flags on harmless code and files
		{`node -pe '1+1'`, false, nil},
		{`node -pe 'require("fs").readFileSync("src/main.go","utf8")'`, false, nil},
		{`python3 -Sc 'print(1)'`, false, nil},
		{`vim -esc 'wq! /tmp/out.txt'`, false, nil},
		{`ex -sc '%s/a/b/g|wq' docs/a.md`, false, nil},
	})
}

// awk output redirections to a target that is not one literal: a
// variable (-v, an operand assignment, the code), ARGV[i], FILENAME, an
// expression
func TestPass21aAwkOutputs(t *testing.T) {
	var cases []gate20Case
	for _, awk := range []string{"awk", "gawk", "mawk", "nawk", "busybox awk"} {
		cases = append(cases,
			gate20Case{awk + ` -v f=.pi/settings.json 'BEGIN{print "x" > f}'`, true, []string{".pi/settings.json", "denies write"}},
			gate20Case{awk + ` 'BEGIN{print "x" > ARGV[1]}' .pi/settings.json`, true, []string{".pi/settings.json", "denies write"}},
			gate20Case{awk + ` '{print > FILENAME}' .pi/settings.json`, true, []string{".pi/settings.json", "denies write"}},
			gate20Case{awk + ` '{print > FILENAME}' docs/a.md`, false, nil},
		)
	}
	cases = append(cases, []gate20Case{
		{`awk 'BEGIN{printf "x" >> f}' f=.claude/settings.json`, true, []string{".claude/settings.json"}},
		{`awk --assign=f=.pi/extensions/e.ts 'BEGIN{print "x" > f}'`, true, []string{".pi/extensions/e.ts"}},
		{`awk '{print > $1}' list`, true, []string{"print > EXPR"}},
		{`awk '{print > "out/" $1}' list`, true, []string{"print > EXPR"}},
		{`awk '{f=$1; print > f}' list`, true, []string{"the variable f"}},
		{`awk 'BEGIN{getline f; print "x" > f}'`, true, []string{"the variable f"}},
		// near-benign: literal targets elsewhere, comparisons, a known -v
		{`awk -v f=/tmp/out 'BEGIN{print "x" > f}'`, false, nil},
		{`awk 'BEGIN{f="/tmp/o"; print 1 > f}'`, false, nil},
		{`awk '{print $1 > "/tmp/out"}' docs/a.md`, false, nil},
		{`awk '$3 > 5 {print $1}' docs/a.md`, false, nil},
		{`awk '{print ($1 > 2)}' docs/a.md`, false, nil},
		{`awk '{if ($1 > max) max = $1} END {print max}' docs/a.md`, false, nil},
	}...)
	runGate20(t, cases)
}

// HOME set by the builtins that take a variable's name, and loops
func TestPass21aHomeSetByName(t *testing.T) {
	runGate20(t, []gate20Case{
		{`declare -n r=HOME; r=` + tCwd + `/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`for HOME in ` + tCwd + `/.pi; do echo x > ~/settings.json; done`, true, []string{"settings.json"}},
		{`select HOME in ` + tCwd + `/.pi; do echo x > ~/settings.json; done`, true, []string{"settings.json"}},
		{`getopts a HOME; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`mapfile -t HOME < f; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`eval "HOME=` + tCwd + `/.pi"; echo x > ~/settings.json`, true, []string{"settings.json"}},
		{`HOME+=/proj/.pi; echo x > ~/settings.json`, true, []string{"settings.json"}},
		// near-benign: HOME read, not set
		{`: ${HOME:=/x}; echo x > ~/notes.txt`, false, nil},
		{`declare -n r=x; r=/tmp; echo x > ~/notes.txt`, false, nil},
		{`read -r name; echo x > ~/notes.txt`, false, nil},
	})
}
