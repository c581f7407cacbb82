package guard

import (
	"strings"
	"testing"
)

// A cd to a folder named only when the command runs (a variable, $(…), a
// computed pushd or tool folder) leaves the shell in any folder, a
// protected one included: a name the command then writes or edits may land
// in .pi/extensions/ (the gate's own configuration), .git/, ~/.ssh/. Each
// attack row was allowed and wrote pi's extension folder; each is denied
// with a reason that says the folder is known only at run time and names
// the rules it may land in. Reads there are TestComputedCdReads; literal
// cds, mktemp's new folders, the repository's top and `$OUT/x` writes stay
// allowed.
func TestComputedCdWrites(t *testing.T) {
	cdWhy := []string{"after a cd to a folder known only at run time", ".pi/extensions/", "denies write"}
	runGate20(t, []gate20Case{
		{`cd "$x"; echo > e.ts`, true, append([]string{`writes "e.ts"`}, cdWhy...)},
		{`cd "$(cat f)"; echo > e.ts`, true, cdWhy},
		{`cd $DIR && printf x > e.ts`, true, cdWhy},
		{`pushd "$x"; echo > e.ts`, true, cdWhy},
		{`pushd "$x" >/dev/null && cat /tmp/a > index.ts`, true, cdWhy},
		{`cd -- "$x"; echo > e.ts`, true, cdWhy},
		{`cd ${x:-.}; echo > e.ts`, true, cdWhy},
		{`(cd "$x"; tee ext.ts)`, true, append([]string{`"ext.ts"`}, cdWhy...)},
		{`cd "$x"/..; echo > e.ts`, true, cdWhy},
		{`cd "$x" || exit; cp /tmp/a b.ts`, true, cdWhy},
		{`cd "$x/sub"; echo > e.ts`, true, cdWhy},
		{`cd "$x"; cd sub; echo > e.ts`, true, cdWhy},
		{`cd "$x" && echo > "$PWD/e.ts"`, true, cdWhy},
		{`cd "$x"; curl -so e.ts http://example.com/e.ts`, true, cdWhy},
		{`cd "$x"; ln -sf /tmp/evil.ts e.ts`, true, cdWhy},
		{`cd "$x"; mv /tmp/evil.ts e.ts`, true, cdWhy},
		{`cd "$x" && sed -i 's/a/b/' e.ts`, true, cdWhy},
		{`cd "$x"; python3 -c 'open("e.ts","w").write("x")'`, true, cdWhy},
		// mktemp -p in a folder named at run time is itself a write there (pass 34)
		{`cd "$(mktemp -d -p "$x")" && echo x > index.ts`, true, []string{"mktemp, which makes a file with a random name in"}},
		{`cd "$(mktemp -d)$x" && echo x > index.ts`, true, cdWhy},
		{`cd "$(mktemp -d)/.." && echo x > index.ts`, true, cdWhy},
		{`env -C "$x" tee e.ts`, true, cdWhy},
		{`env --chdir="$x" sh -c 'echo > e.ts'`, true, cdWhy},
		{`uv --directory "$x" run python -c 'open("e.ts","w").write("x")'`, true, cdWhy},
		{`sh -c 'cd "$1"; echo > e.ts' _ "$x"`, true, cdWhy},
		{`f() { cd "$1"; echo > e.ts; }; f "$(cat p)"`, true, cdWhy},
		{`find "$x" -execdir sh -c 'echo > e.ts' \;`, true, cdWhy},
		{`cd -; echo x > e.ts`, true, cdWhy},
		// a name that is protected wherever it is keeps its own reason
		{`cd "$x"; echo > settings.json`, true, []string{"settings.json", "denies write"}},
		{`cd "$x"; echo > .env`, true, []string{".env"}},
		// near-benign: literal folders, mktemp's new folder, the
		// repository's top (the cwd or an ancestor: see TestRepoTopCd), a
		// function's cd "$1" called with a literal, `$OUT/x`
		{`cd "$(git rev-parse --show-toplevel)" && make`, false, nil},
		{`cd "$(git rev-parse --show-toplevel)" && echo x > notes.txt`, false, nil},
		{`cd /tmp && echo > e.ts`, false, nil},
		{`cd /tmp && echo > "$PWD/e.ts"`, false, nil},
		{`cd src && echo x > "$PWD/out.txt"`, false, nil},
		{`cd "$x" && cd /tmp && echo > e.ts`, false, nil},
		{`cd "$(mktemp -d)" && echo x > e.ts`, false, nil},
		{`cd "$(mktemp -d -t build.XXXX)" && echo x > e.ts`, false, nil},
		{`d=$(mktemp -d); cd "$d" && echo x > e.ts`, false, nil},
		{`cd "$(mktemp -d)/sub" && echo x > e.ts`, false, nil},
		{`f() { cd "$1"; echo > e.ts; }; f /tmp`, false, nil},
		{`sh -c 'cd "$1"; echo > e.ts' _ /tmp`, false, nil},
		{`echo > "$OUT/x"`, false, nil},
		{`cp a.txt "$OUT/e.ts"`, false, nil},
		{`for d in a b; do (cd "$d" && echo x > out); done`, false, nil},
		// a subshell's cd does not move the shell: after it a name is
		// written where the shell is
		{`(cd "$x"; echo > e.ts)`, true, cdWhy},
		{`y=$(cd "$x"; echo > e.ts)`, true, cdWhy},
		{`(cd "$x" || exit); echo x > out.txt`, false, nil},
		{`( (cd "$x"); echo > e.ts )`, false, nil},
		{`y=$(cd "$x" && pwd); echo x > out.txt`, false, nil},
		{`cd "$x" | cat; echo x > out.txt`, false, nil},
	})
}

// $PWD after a cd is each folder the shell may be in, not an ordinary
// folder from the environment: `cd .pi/extensions && echo > "$PWD/e.ts"`
// wrote the gate's extension folder.
func TestPWDAfterCd(t *testing.T) {
	runGate20(t, []gate20Case{
		{`cd .pi/extensions; echo > "$PWD/e.ts"`, true, []string{".pi/extensions/e.ts", ".pi/extensions/", "denies write"}},
		{`cd .pi/extensions && echo > "${PWD}/e.ts"`, true, []string{".pi/extensions/e.ts"}},
		{`cd .pi && echo > "$PWD/extensions/e.ts"`, true, []string{".pi/extensions/e.ts"}},
		{`cd .claude && cp /tmp/x "$PWD/settings.json"`, true, []string{"settings.json"}},
		{`cd .pi/extensions && echo x > "$(pwd)/e.ts"`, true, []string{".pi/extensions/e.ts"}},
		{"cd .pi/extensions && echo x > \"`pwd`/e.ts\"", true, []string{".pi/extensions/e.ts"}},
		{`cd .pi/extensions && d=$(pwd) && echo x > "$d/e.ts"`, true, []string{".pi/extensions/e.ts"}},
		{`cd .pi/extensions && d="$PWD" && echo x > "$d/e.ts"`, true, []string{".pi/extensions/e.ts"}},
		{`cd "$x" && echo x > "$(pwd)/e.ts"`, true, []string{"after a cd to a folder known only at run time"}},
		{`cd /tmp && echo > "$PWD/e.ts"`, false, nil},
		{`cd /tmp && echo > "$(pwd)/e.ts"`, false, nil},
		{`cd src && d=$(pwd) && echo x > "$d/out.txt"`, false, nil},
		{`cd src && d="$PWD" && echo x > "$d/out.txt"`, false, nil},
		{`echo x > "$(pwd)/out.txt"`, false, nil},
		{`cd src; cd ..; echo > "$PWD/out.txt"`, false, nil},
		{`cd src && cat "$PWD/main.go"`, false, nil},
	})
}

// the marker itself: a working folder named at run time may be a
// directory rule's whole folder when a name follows it, never a file
// rule's name, and an unknownSeg (`$OUT`) is neither
func TestUnknownCwdMatch(t *testing.T) {
	m := gate20Rules().Matcher(Env{Cwd: tCwd, Home: tHome})
	cases := []struct {
		path string
		want bool
	}{
		{"/" + unknownCwd + "/e.ts", true},          // .pi/extensions/e.ts, .git/e.ts
		{"/" + unknownCwd + "/sub/e.ts", true},      // .pi/extensions/sub/e.ts
		{"/" + unknownCwd, false},                   // the folder itself: not a name below it
		{"/" + unknownSeg + "/e.ts", false},         // $OUT/e.ts: an ordinary folder
		{"/" + unknownSeg + "/sub/e.ts", false},     //
		{"/" + unknownCwd + "/settings.json", true}, // a file rule by its own name
	}
	for _, c := range cases {
		d, hits := m.deniedOps(c.path, true, false, SetWrite, false)
		if got := d != 0; got != c.want {
			t.Errorf("%q: denied %v, want %v (hits %v)", strings.ReplaceAll(c.path, unknownStr, "?"), got, c.want, hits)
		}
	}
	// a file rule is never the folder itself: `.pi/settings.json` is not
	// matched by a name below the folder
	r, err := ParseRules([]byte(`{"paths":[{"path":".pi/settings.json","deny":["write"]}]}`), "test")
	if err != nil {
		t.Fatal(err)
	}
	fm := r.Matcher(Env{Cwd: tCwd, Home: tHome})
	if d, _ := fm.deniedOps("/"+unknownCwd+"/e.ts", true, false, SetWrite, false); d != 0 {
		t.Errorf("a file rule matched a name below a computed working folder")
	}
	if d, _ := fm.deniedOps("/"+unknownCwd+"/settings.json", true, false, SetWrite, false); d == 0 {
		t.Errorf("a file rule's own name below a computed working folder is not matched")
	}
}

// on Windows the computed folder keeps the cwd's drive
func TestComputedCdWindows(t *testing.T) {
	m := DefaultRules().Union(GateRules(`C:\Users\u\.pi\agent`, "")).Matcher(Env{Cwd: `C:\Users\u\proj`, Home: `C:\Users\u`})
	checkGate20(t, "windows", m, []gate20Case{
		{`cd "$x"; echo > e.ts`, true, []string{"after a cd to a folder known only at run time", ".pi/extensions/"}},
		{`cd "$x"; cd sub; echo > e.ts`, true, []string{"after a cd to a folder known only at run time"}},
		{`cd "$x"; cat a`, true, []string{`reads "a" after a cd to a folder known only at run time`, `".git/"`, `"~/.ssh/"`}},
		{`echo > "$OUT/e.ts"`, false, nil},
	})
}

// After the command assigns HOME a `~` may be any folder: the reason says
// so and names the rules that path may hit (every one, not only the first
// in rule order, which named ~/.pi/agent/settings.json for
// `HOME=proj/.claude; … > ~/settings.json`), and nothing else; a bare `cd`
// there is a cd to a folder known only at run time (it named node_modules/
// for a write to e.ts).
func TestHomeSetReasons(t *testing.T) {
	cases := []struct {
		cmd     string
		want    []string
		notWant []string
	}{
		{`HOME=` + tCwd + `/.claude; echo x > ~/settings.json`,
			[]string{"sets HOME, so pruner cannot tell what ~ names", `".claude/settings.json"`, `"~/.claude/settings.json"`, `".pi/settings.json"`},
			[]string{"node_modules", ".ssh", ".env"}},
		{`HOME=/tmp/h; cat ~/.ssh/id_rsa`, []string{"sets HOME", `"~/.ssh/"`}, []string{"settings.json", ".env", "auth.json"}},
		{`read -r HOME; cp /tmp/a ~/.claude/settings.json`, []string{"sets HOME", `"~/.claude/settings.json"`, `".claude/settings.json"`}, []string{"agent/settings.json", ".ssh"}},
		{`HOME=` + tCwd + `/.pi/extensions; cd; echo evil > e.ts`, []string{"after a cd to a folder known only at run time", `".pi/extensions/"`}, nil},
		{`HOME=` + tCwd + `/.pi/extensions; cd ~ && echo evil > e.ts`, []string{"after a cd to a folder known only at run time", `".pi/extensions/"`}, nil},
		// unverifiable: the rules below the home first
		{`HOME=/tmp/h; ls ~`, []string{"the command sets HOME", `deny bash ("~/`}, nil},
	}
	for name, m := range gate20Matchers() {
		for _, c := range cases {
			k, why := kindOf(m, c.cmd)
			if k == "" {
				t.Errorf("%s: %q: allowed, want denied", name, c.cmd)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(why, w) {
					t.Errorf("%s: %q: reason %q does not say %q", name, c.cmd, why, w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(why, w) {
					t.Errorf("%s: %q: reason %q names %q, which the path cannot hit", name, c.cmd, why, w)
				}
			}
		}
	}
	// a read there still reaches a folder rule without a leading dot
	// (the home may be any folder)
	r, err := ParseRules([]byte(`{"paths":[{"path":"secrets/","deny":["read"]}]}`), "test")
	if err != nil {
		t.Fatal(err)
	}
	checkGate20(t, "secrets", r.Matcher(Env{Cwd: tCwd, Home: tHome}), []gate20Case{
		{`HOME=/tmp/h; cd; cat a`, true, []string{"secrets/"}},
		{`cd "$x"; cat a`, true, []string{"known only at run time", `"secrets/"`}},
	})
	// near-benign stay allowed
	runGate20(t, []gate20Case{
		{`HOME=/tmp/h; echo x > ~/notes.txt`, false, nil},
		{`HOME=/tmp/h; cd /tmp && echo x > notes`, false, nil},
	})
}

// A read after a cd to a folder named only when the command runs may read
// a protected folder: ~/.ssh/ and .git/ deny read (`cd "$(cat f)"; cat
// id_rsa` read the user's key), and a program started there may read any
// file of it (its listing, a Makefile), as with the hook's own cwd there.
// Each is denied with a reason saying the folder is known only at run
// time and naming the folder rules that deny the read. A subshell's cd
// does not move the reads after it; builtins read nothing by their name.
func TestComputedCdReads(t *testing.T) {
	readWhy := []string{"after a cd to a folder known only at run time", `".git/"`, `"~/.ssh/"`, "denies read"}
	runWhy := append([]string{"where it may read any file"}, readWhy...)
	runGate20(t, []gate20Case{
		{`cd "$(cat f)"; cat id_rsa`, true, append([]string{`reads "id_rsa"`}, readWhy...)},
		{`cd "$x"; cat a`, true, append([]string{`reads "a"`}, readWhy...)},
		{`cd "$x" && cat a > /tmp/out`, true, readWhy},
		{`cd "$x" && head -c 100 config`, true, readWhy},
		{`pushd "$x" >/dev/null; base64 id_ed25519`, true, readWhy},
		{`cd -- "$x" && grep -n key known_hosts`, true, readWhy},
		{`cd "$x"/..; cat id_rsa`, true, readWhy},
		{`cd "$x" && cd sub && cat a`, true, readWhy},
		{`env -C "$x" cat id_rsa`, true, readWhy},
		{`sh -c 'cd "$1"; cat id_rsa' _ "$x"`, true, readWhy},
		{`f() { cd "$1"; cat id_rsa; }; f "$(cat p)"`, true, readWhy},
		{`cd "$x" && cp id_rsa /tmp/k`, true, readWhy},
		{`cd "$x" && tar cf /tmp/k.tar .`, true, []string{"reads every file below"}},
		{`cd "$x" && grep -r BEGIN .`, true, []string{"reads every file below"}},
		{`(cd "$x"; cat id_rsa)`, true, readWhy},
		// $0 is the shell's name as the agent starts it: unknown
		{`cd "$(dirname "$0")" && cat a`, true, readWhy},
		// a bare cd once the command set HOME: any folder
		{`HOME=/tmp/h; cd; cat a`, true, readWhy},
		{`y=$(cd "$x" && cat id_rsa)`, true, readWhy},
		// a program run there (its own name after the cd): a listing
		// reveals the names of ~/.ssh/ (as `ls ~/.ssh` is denied), make
		// and go read the folder's files
		{`cd "$x"; ls`, true, append([]string{`runs "ls"`}, runWhy...)},
		{`cd "$x" && make`, true, append([]string{`runs "make"`}, runWhy...)},
		{`cd "$x" && go test ./...`, true, readWhy},
		{`cd "$x" && git status > /tmp/s`, true, readWhy},
		{`cd "$x" && find . -name '*.go'`, true, readWhy},
		{`cd "$x" && ./run.sh`, true, readWhy},
		// near-benign: a builtin's name is looked up in the shell, the
		// cd of a subshell ends with it, a literal folder or mktemp's new
		// folder is where the reads are
		{`cd "$x" && cd /tmp && cat a`, false, nil},
		{`cd "$x" || exit`, false, nil},
		{`cd "$x" && pwd`, false, nil},
		{`(cd "$x" || exit); cat a`, false, nil},
		{`(cd "$x" || exit) && make && go test ./...`, false, nil},
		{`y=$(cd "$x" && pwd); cat a`, false, nil},
		{`cd "$(mktemp -d)" && cat a && ls && make`, false, nil},
		{`d=$(mktemp -d); cd "$d" && ls && cat a`, false, nil},
		{`cd /tmp && ls && cat a`, false, nil},
		{`cd src && make && cat a`, false, nil},
		{`for d in a b; do (cd "$d" && make); done`, false, nil},
		{`f() { cd "$1"; cat a; }; f /tmp`, false, nil},
	})
}

// $(git rev-parse --show-toplevel) is the top of the repository the shell
// is in: its folder or an ancestor (or nothing, outside a repository),
// literal folders the gate checks one by one. A cd there is allowed where
// none of them is (inside) a protected folder, and denied, with the
// folder's own rule, where one is (the cwd inside .pi/extensions/ or
// ~/.ssh/). A command that may change what git finds keeps the top
// computed.
func TestRepoTopCd(t *testing.T) {
	top := `cd "$(git rev-parse --show-toplevel)"`
	runGate20(t, []gate20Case{
		{top + ` && cat README.md`, false, nil},
		{top + ` && make`, false, nil},
		{top + ` && go test ./...`, false, nil},
		{top + ` && echo x > notes`, false, nil},
		{top + ` || exit 1; ls && cat a`, false, nil},
		{"cd `git rev-parse --show-toplevel` && make", false, nil},
		{`cd "$(git rev-parse --show-toplevel)/src" && make && echo x > out.txt`, false, nil},
		{`top=$(git rev-parse --show-toplevel); cd "$top" && make`, false, nil},
		{`cd "$(git rev-parse --show-cdup)" && cat README.md && echo x > notes`, false, nil},
		{`cd "$(git rev-parse --show-superproject-working-tree)" && make`, false, nil},
		// a protected name is protected at every candidate folder
		{top + ` && cat .env`, true, []string{".env"}},
		{top + ` && echo x > .pi/settings.json`, true, []string{".pi/settings.json"}},
		{top + ` && cat .git/config`, true, []string{".git/"}},
		{top + ` && echo x > .claude.json`, true, []string{"~/.claude.json"}},
		// what the command changes of git's search: computed
		{`export GIT_WORK_TREE="$x"; ` + top + ` && cat id_rsa`, true, []string{"known only at run time", `"~/.ssh/"`}},
		{`cd "$(GIT_DIR="$x" git rev-parse --show-toplevel)" && cat id_rsa`, true, []string{"known only at run time"}},
		{`cd "$(env GIT_WORK_TREE="$x" git rev-parse --show-toplevel)" && cat id_rsa`, true, []string{"known only at run time"}},
		{`alias git=false; ` + top + ` && cat id_rsa`, true, []string{"known only at run time"}},
		{`git() { echo "$x"; }; ` + top + ` && cat id_rsa`, true, []string{"known only at run time"}},
		{`PATH=/tmp/evil:$PATH; ` + top + ` && cat id_rsa`, true, []string{"known only at run time"}},
		{`cd "$(git -C "$x" rev-parse --show-toplevel)" && cat id_rsa`, true, []string{"known only at run time"}},
		{`cd "$(git rev-parse --show-toplevel --git-dir)" && cat id_rsa`, true, []string{"known only at run time"}},
		{`cd "$(git rev-parse --git-dir)" && cat config`, true, []string{"known only at run time"}},
	})
	// the cwd inside a protected folder: its top may be that folder
	files := map[string]string{tCwd + "/.pi/extensions/own.ts": "x"}
	for name, cwd := range map[string]string{
		"in .pi/extensions": tCwd + "/.pi/extensions",
		"in ~/.ssh":         tHome + "/.ssh",
	} {
		for _, env := range []Env{{Cwd: cwd, Home: tHome}, {Cwd: cwd, Home: tHome, FS: linkFS(files, nil)}} {
			m := gate20Rules().Matcher(env)
			cases := []gate20Case{
				{top + ` && echo x > notes`, true, []string{"notes", `".pi/extensions/" denies write`}},
				{`cd "$(git rev-parse --show-cdup)" && echo x > notes`, true, []string{"notes", `".pi/extensions/" denies write`}},
			}
			if name == "in ~/.ssh" {
				// every name there is protected (the rule denies bash)
				cases = []gate20Case{
					{top + ` && echo x > notes`, true, []string{`"~/.ssh/" denies`}},
					{top + ` && cat README.md`, true, []string{`"~/.ssh/" denies`}},
				}
			}
			checkGate20(t, name, m, cases)
		}
	}
}

// Code that changes its working folder to one computed when it runs
// (os.chdir(x), process.chdir, Dir.chdir, PowerShell's Set-Location $x)
// and then opens a name is the shell's computed cd: the name may be in
// .pi/extensions/, .git/ or ~/.ssh/ (each row was allowed). A literal
// folder is a word checked as a path, and the names after it keep their
// ordinary reading.
func TestComputedChdirInCode(t *testing.T) {
	why := []string{"after a cd to a folder known only at run time"}
	runGate20(t, []gate20Case{
		{`python3 -c 'import os; os.chdir(os.environ["X"]); open("e.ts","w").write("x")'`, true, append([]string{`".pi/extensions/"`, "denies write"}, why...)},
		{`python3 -c 'import os; os.chdir(os.environ["X"]); print(open("id_rsa").read())'`, true, append([]string{`"~/.ssh/"`, "denies read"}, why...)},
		{`python3 -c 'import os,sys; os.chdir(sys.argv[1]); print(open("id_rsa").read())' "$x"`, true, why},
		{`python3 -c 'import os; os.chdir(f"{os.environ["H"]}/.ssh"); print(open("id_rsa").read())'`, true, nil},
		{`node -e 'process.chdir(process.env.X); require("fs").writeFileSync("e.ts","x")'`, true, why},
		{`ruby -e 'Dir.chdir(ENV["X"]); puts File.read("id_rsa")'`, true, why},
		{`pwsh -Command 'Set-Location $env:X; Get-Content "id_rsa"'`, true, why},
		{`pwsh -c 'cd $env:X; Set-Content "e.ts" evil'`, true, why},
		// near-benign: a literal folder, no chdir
		{`python3 -c 'import os; os.chdir("/tmp"); open("x","w").write("x")'`, false, nil},
		{`python3 -c 'print(open("README.md").read())'`, false, nil},
		{`node -e 'console.log(process.cwd())'`, false, nil},
		{`pwsh -c 'Set-Location "/tmp"; Get-Content "a.txt"'`, false, nil},
	})
}
