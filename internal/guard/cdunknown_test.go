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
// the rules it may land in. Reads there, literal cds, mktemp's new folders
// and `$OUT/x` writes stay allowed.
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
		{`cd "$(git rev-parse --show-toplevel)" && echo x > notes.txt`, true, cdWhy},
		{`cd "$(mktemp -d -p "$x")" && echo x > index.ts`, true, cdWhy},
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
		// near-benign: reads there, literal folders, mktemp's new folder,
		// a function's cd "$1" called with a literal, `$OUT/x`
		{`cd "$x"; ls`, false, nil},
		{`cd "$x"; cat a`, false, nil},
		{`cd "$x" && go test ./...`, false, nil},
		{`cd "$x" && git status > /tmp/s`, false, nil},
		{`cd "$x" && find . -name '*.go'`, false, nil},
		{`cd "$x" && cat a > /tmp/out`, false, nil},
		{`cd "$(git rev-parse --show-toplevel)" && make`, false, nil},
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
		{`(cd "$x" && make); echo x > out.txt`, false, nil},
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
		{`cd "$x"; cat a`, false, nil},
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
		{`cd "$x"; cat a`, false, nil}, // documented: a read after a computed cd is below an ordinary folder
	})
	// near-benign stay allowed
	runGate20(t, []gate20Case{
		{`HOME=/tmp/h; echo x > ~/notes.txt`, false, nil},
		{`HOME=/tmp/h; cd; cat a`, false, nil},
		{`HOME=/tmp/h; cd /tmp && echo x > notes`, false, nil},
	})
}
