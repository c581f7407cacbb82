package guard

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The differential test of the shell evaluator against real bash: for a
// script ending in `__probe WORD…`, every field the evaluator claims to
// know must be the argument bash passes, and a field it does not know
// must be a pattern that matches what bash passes (an unknown part
// matches anything there). bash runs `__probe` as a function printing
// "$#" and "$@" NUL-separated.

// bashFields runs script in bash in dir and returns the probe's fields
// (ok false when the script did not reach the probe).
func bashFields(t testing.TB, bash, dir, home, script string) ([]string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	full := "__probe() { printf '%s\\0' \"$#\" \"$@\"; exit 0; }\n" + script
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", full)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + filepath.Join(filepath.Dir(dir), "bin") + string(os.PathListSeparator) + os.Getenv("PATH"), "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout = &out
	_ = cmd.Run()
	parts := strings.Split(out.String(), "\x00")
	if len(parts) < 2 {
		return nil, false
	}
	// the first probe printed is compared (the evaluator's first, too)
	n, err := strconv.Atoi(parts[0])
	if err != nil || len(parts) < n+2 {
		return nil, false
	}
	return parts[1 : n+1], true
}

// evalFields runs the analysis and returns the fields of every probe it
// walks (a command whose arguments differ between paths is walked once per
// path: bash's run is one of them).
func evalFields(env Env, script string) ([][]field, bool) {
	out := &analysis{}
	a := newShellAnalyzer(env, out)
	a.dotglob = dotglobIn(script)
	var got [][]field
	a.probe = func(fs []field) { got = append(got, fs) }
	f, err := parseShell(script)
	if err != nil {
		return nil, false
	}
	a.file(f, script, source{})
	return got, len(got) > 0
}

// fieldRegexp turns a field's pattern into a regular expression for the
// values it stands for.
func fieldRegexp(f field) *regexp.Regexp {
	s := f.s
	var b strings.Builder
	b.WriteString("^(?s)")
	if f.dyn {
		// anything, then what follows the last dynamic part
		b.WriteString(".*")
		if i := strings.LastIndex(s, unknownSeg); i >= 0 {
			s = s[i+len(unknownSeg):]
		}
		s = strings.TrimPrefix(s, "/"+unknownStr)
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case '\\':
			if i+1 < len(rs) {
				i++
				b.WriteString(regexp.QuoteMeta(string(rs[i])))
			}
		case unknownRune:
			b.WriteString(".*") // unknown characters (a `/`-free guess is the gate's, not bash's)
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j < len(rs) {
				cls := string(rs[i+1 : j])
				cls = strings.Replace(cls, "!", "^", 1)
				b.WriteString("[" + cls + "]")
				i = j
			} else {
				b.WriteString(`\[`)
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(".*")
	}
	return re
}

func fieldCovers(f field, v string) bool {
	if !f.pattern() {
		return f.s == v
	}
	if f.glob && unescapeGlob(f.s) == v {
		return true // a glob that matched nothing stays as written
	}
	return fieldRegexp(f).MatchString(v)
}

func showFields(fs []field) string {
	var parts []string
	for _, f := range fs {
		if f.pattern() {
			parts = append(parts, fmt.Sprintf("pattern(%q)", f.s))
		} else {
			parts = append(parts, strconv.Quote(f.s))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// diffCheck compares one script's evaluator fields with bash's.
func diffCheck(t testing.TB, bash, dir, home, script string) {
	t.Helper()
	want, ok := bashFields(t, bash, dir, home, script)
	if !ok {
		return // bash did not reach the probe (a failing builtin): nothing to compare
	}
	lists, seen := evalFields(Env{Cwd: dir, Home: home}, script)
	if !seen {
		// the evaluator must reach every probe bash reaches, or it saw
		// no command: that is a claim too (nothing run)
		t.Errorf("%q: bash gives %q, the evaluator saw no probe", script, want)
		return
	}
	var shown []string
	for _, got := range lists {
		if accepts(got, want) {
			return
		}
		shown = append(shown, showFields(got))
	}
	t.Errorf("%q: bash passes %q; the evaluator claims %s", script, want, strings.Join(shown, " or "))
}

// accepts reports whether an evaluator field list admits bash's: equal
// when every field is known text at a known place, else every value bash
// passes matched by one of the fields.
func accepts(got []field, want []string) bool {
	known := true
	for _, f := range got {
		if f.pattern() || f.multi {
			known = false // a pattern, or alternatives: not a claim of the exact list
		}
	}
	if known {
		if len(got) != len(want) {
			return false
		}
		for i := range got {
			if got[i].s != want[i] {
				return false
			}
		}
		return true
	}
	for _, w := range want {
		covered := false
		for _, f := range got {
			if fieldCovers(f, w) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// diffEnv makes the directory the scripts run in: a project with .env.
func diffEnv(t testing.TB) (bash, dir, home string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: the differential test needs it")
	}
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	dir = filepath.Join(root, "proj")
	home = filepath.Join(root, "home")
	for _, p := range []string{dir + "/src", home, root + "/bin"} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{".env": "SECRET=x\n", "README.md": "r\n", "src/a.py": "a\n", "src/b.py": "b\n", "list": ".env\nREADME.md\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// __probe as a program too, for xargs and parallel to run
	if err := os.WriteFile(filepath.Join(root, "bin", "__probe"), []byte("#!/bin/sh\nprintf '%s\\0' \"$#\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bash, dir, home
}

// bashDiffCases are the shapes the evaluator computes: assignments,
// expansions with operators, producers for $(…) and pipes, read, set --,
// functions, sh -c, xargs, parallel; the last word is the probe's.
var bashDiffCases = []string{
	// assignments and plain expansions
	`x=.env; __probe $x "$x" ${x}`,
	`x='a b'; __probe $x "$x"`,
	`x='a  b '; IFS=' '; __probe $x`,
	`x=a,b,,c; IFS=,; __probe $x "$x"`,
	`x=a:b; IFS=:; y=$x; __probe $y`,
	`unset IFS; x='a b'; __probe $x "$IFS"`,
	`x=.e; x+=nv; __probe $x`,
	`x=; __probe $x "$x" a`,
	`__probe "" a ''`,
	`x=.e; y=${x}nv; __probe "$y"`,
	`__probe ~ ~/x "~"`,
	`__probe {a,b}.txt .e{n,x}v`,
	`__probe $'.e\x6ev' $'\101'`,
	`__probe .e\nv ".e\nv" '.e\nv'`,
	`__probe "a\"b" "a\$b" "a\\b" "a\b"`,
	// parameter operators
	`x=.envX; __probe ${x%X} ${x%?} ${x%%X*} ${x#.} ${x##*e}`,
	`x=.envX; __probe ${x/%?/} ${x/#./} ${x/X/} ${x//[A-Z]/}`,
	`x=X.env; __probe ${x/#?/}`,
	`x=.envXX; __probe ${x/X*/}`,
	`x=.eXnv; __probe ${x//[^a-z.]/}`,
	`x=.envX; __probe ${x%[[:upper:]]} ${x/[X]/} ${x//[A-Z]}`,
	`x=aXbXc; __probe ${x/X/-} ${x//X/-} ${x/#a/-} ${x/%c/-} ${x/X}`,
	`x=abc; __probe ${x/*/z} ${x/b*/z} ${x//?/z} ${x/#/z} ${x/%/z}`,
	`x='a*b'; __probe ${x/"*"/-} "${x/\*/-}"`,
	`x=.ENV; __probe ${x,,} ${x,} ${x^^} ${x^}`,
	`x=.env; __probe ${x^^[e]} ${x^^[X]} ${x,,[E]}`,
	`x=.envXYZ; __probe ${x:0:4} ${x:1} ${x: -3} ${x:(-3):2}`,
	`x=.env; __probe ${x:-d} ${y:-d} ${y-d} ${x:+a} ${y:+a}`,
	`y=; __probe ${y:-d} ${y-d} "${y:=e}" $y`,
	`x=.env; __probe ${#x} ${!x} ${x@Q}`,
	`x=abc; p='b*'; __probe ${x/$p/-} ${x/"$p"/-} ${x#"a"}`,
	`x=a.b.c; __probe ${x%.*} ${x%%.*} ${x#*.} ${x##*.}`,
	// printf and echo
	`__probe "$(printf %.4s .envXX)" "$(printf %-.4s .envXX)" "$(printf %4.4s .envXX)" "$(printf %.*s 4 .envXX)"`,
	`__probe "$(printf %5s ab)" "$(printf %-5sx ab)" "$(printf %.0s ab)x"`,
	`__probe "$(printf '%s-%s\n' a b c)" "$(printf %d 010)" "$(printf %x 255)" "$(printf %c abc)"`,
	`__probe "$(printf '%b' '.e\x6ev')" "$(printf '.e%sv' n)" "$(printf '%q' 'a b')"`,
	`__probe "$(printf '%05d' 42)" "$(printf '%+d' 5)" "$(printf '%i' 0x1F)" "$(printf %o 8)"`,
	`__probe "$(echo -n .env)" "$(echo -e '.e\x6ev')" "$(echo .e nv)" "$(echo -E 'a\tb')"`,
	`__probe "$(printf 'a\\cb')" "$(printf '%s\\n' x)"`,
	// producers in pipes and $(…)
	`__probe "$(echo .envX | head -c4)" "$(echo .envX | head --bytes=4)" "$(printf 'X\n.env' | tail -n1)" "$(printf '.env\nX' | head -n1)"`,
	`__probe "$(printf 'a\nb\nc\n' | head -n 2)" "$(printf 'a\nb\nc\n' | tail -n 2)" "$(printf 'a\nb\nc' | tail -n +2)" "$(printf 'abcdef' | tail -c 3)"`,
	`__probe "$(printf 'a\nb\nc\n' | head -n -1)" "$(printf 'abcdef' | head -c -2)" "$(printf 'a\nb\n' | head -1)" "$(printf 'abc' | tail -c +2)"`,
	`__probe "$(printf 'b\na\n' | tac)" "$(printf 'a\na\nb\n' | uniq)" "$(printf '.env\n' | cat)" "$(printf '.env' | tee /dev/null)"`,
	`__probe "$(printf 'X.env' | cut -c2-)" "$(printf 'a,.env' | cut -d, -f2)" "$(echo .eXv | sed 's/X/n/')"`,
	`__probe "$(echo .EXV | tr A-Z a-z)" "$(echo .eXnv | tr -d X)" "$(echo .e_v | tr _ n)" "$(echo abc | tr -s b)"`,
	`__probe "$(echo LmVudgo= | base64 -d)" "$(echo 2e656e76 | xxd -r -p)" "$(echo vne. | rev)"`,
	`__probe "$(basename /a/b/.env)" "$(dirname /a/b/.env)" "$(basename x.py .py)"`,
	`__probe $(echo .e nv) $(printf '%s\n' a b)`,
	`__probe "$(echo; echo x; echo)" "$(printf 'x\n\n\n')"`,
	// read
	`read a <<< ".env x"; __probe "$a"`,
	`read a b <<< ".env x y"; __probe "$a" "$b"`,
	`read -d, a <<< ".env,x"; __probe "$a"`,
	`read -n 4 a <<< ".envX"; __probe "$a"`,
	`read -N 4 a <<< ".envX"; __probe "$a"`,
	`IFS=x read a b <<< ".envxy"; __probe "$a" "$b"`,
	`IFS=, read a b <<< ".env,x"; __probe "$a" "$b"`,
	`read a <<< '.e\nv'; __probe "$a"`,
	`read -r a <<< '.e\nv'; __probe "$a"`,
	`read a <<< '  .env  '; __probe "$a"`,
	`IFS= read a <<< '  .env  '; __probe "$a"`,
	`read a b <<< '.env'; __probe "$a" "$b"`,
	`read <<< '.env x'; __probe "$REPLY"`,
	`printf '.env\nREADME.md\n' | { read a; read b; __probe "$a" "$b"; }`,
	`read a <<EOF
.env
EOF
__probe "$a"`,
	`read -a arr <<< ".e nv"; __probe "${arr[0]}${arr[1]}"`,
	"read -r a <<EOF\n.e\\\nnv\nEOF\n__probe \"$a\"",
	"read -r a <<EOF\n.e\\nv \\$x \\\\ \\a\nEOF\n__probe \"$a\"",
	"read -r a <<'EOF'\n.e\\\nnv\nEOF\n__probe \"$a\"",
	"x=.e; read -r a <<EOF\n${x}nv\nEOF\n__probe \"$a\"",
	"cat <<EOF | { read -r a; __probe \"$a\"; }\n.e\\\nnv\nEOF",
	`x=README.md; printf -v x '.e%sv' n; __probe "$x"`,
	`printf -v x '%s-%s' a b; __probe "$x"`,
	`a=(x .env); unset 'a[1]'; __probe "${a[1]}" "${a[0]}"`,
	`a=(.e nv 'a b'); __probe "${a[@]}" ${a[@]} "${a[*]}" "${a[1]}" "${#a[@]}"`,
	`a=(); __probe "${a[@]}" x`,
	`a=(src/*.py .e); __probe "${a[@]}" "${a[1]}"`,
	`a=([1]=README [0]=.e); __probe "${a[0]}"`,
	`if true; then y=.e; else y=README; fi; __probe ${y}nv`,
	`y=.e; false && y=README; __probe ${y}nv`,
	`case x in x) y=.e;; *) y=README;; esac; __probe ${y}nv`,
	`case x in x) y=.e;& y) y=${y}nv;; esac; __probe $y`,
	`cd src && f=a.py && __probe $f`,
	`read -r -d '' a <<< ".env"; __probe "$a"`,
	// positional parameters
	`set -- .e nv; __probe "$1$2" "$#" "$@" "$*"`,
	`set -- .e nv; IFS=; __probe "$*" $*`,
	`set -- .e nv; IFS=,; __probe "$*" $* "$@"x`,
	`set -- a b c; shift; __probe "$@" $#`,
	`set -- a b c; shift 2; __probe "$@" $#`,
	`set -- 'a b' c; __probe $@ "$@" $1`,
	`set -- ; __probe "$@" "$#" "$1"`,
	`set -- a; __probe x"$@"y "$@"`,
	`set -- a b; __probe x"$@"y`,
	`f() { __probe ".e$1" "$#"; }; f nv`,
	`f() { __probe "$@"; }; f .e nv`,
	`f() { g "$2" "$1"; }; g() { __probe "$1$2"; }; f nv .e`,
	`f() { local x=README; __probe $x; }; x=.env; f`,
	`f() { local x=README; }; x=.env; f; __probe $x`,
	`f() { x=README; }; x=.env; f; __probe $x`,
	`f() { x=README; }; x=.env; __probe $x`,
	`set -- a b; for v; do w=$v; done; __probe $w`,
	`x=.env; (x=README); __probe $x`,
	`x=.env; echo $(x=README) >/dev/null; __probe $x`,
	`x=.e; export x; __probe "$(sh -c 'echo ${x}nv')"`,
	`__probe "$(echo abc | tr '\x61' z)" "$(echo abc | tr '\141' z)" "$(echo a-c | tr 'a\-c' xyz)" "$(echo xay | tr -d '\n')"`,
	`__probe "$(echo LmVudg | base64 -d)" "$(echo LmVudg- | base64 -d)" "$(echo FZSW45I= | base32 -d)"`,
	`__probe "$(basename -a x/y z/w)" "$(basename .py .py)" "$(dirname a/)" "$(dirname a/b/)" "$(dirname /)" "$(basename a/)"`,
	`__probe "$(realpath README.md)" "$(readlink -f src/a.py)" "$(readlink README.md)"`,
	`x=.envXYZ; __probe ${#x} "${#x}"`,
	`IFS=,; __probe "$(printf '%s\n' a,b)" $(printf '%s\n' a,b)`,
	`f() { local IFS=,; x=a,b; __probe $x; }; f`,
	`f() { local IFS=,; }; f; x=a,b; __probe $x`,
	`sh -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$0$1" "$2"' .e nv`,
	`x=a; sh -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$x" "$1"' _ b`,
	`echo nv | xargs sh -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe .e"$1"' _`,
	`echo nv | xargs -I{} __probe .e{} {}x`,
	`echo "'a b'" c | xargs __probe`,
	`printf '%s\n' "a'b c'd" '"x\y" z' 'q\ r s\\t' | xargs bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _`,
	`printf 'a,b,\n' | xargs -d, bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _`,
	`printf '  "x y" z\n' | xargs -I{} bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _ [{}]`,
	`printf 'a b\nc\n' | xargs -L1 bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _`,
	`printf 'a\nb\n' | xargs -n1 bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _`,
	`printf 'x\0.env' | xargs -0 bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _`,
	// xargs and parallel build the probe's arguments
	`echo nv | xargs -I{} bash -c '__probe() { printf "%s\0" "$#" "$@"; }; __probe "$@"' _ .e{}`,
}

// TestParallelAgainstBash: GNU parallel's command lines (skipped without
// parallel).
func TestParallelAgainstBash(t *testing.T) {
	bash, dir, home := diffEnv(t)
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Skip("GNU parallel is not installed")
	}
	for _, s := range []string{
		`parallel --will-cite __probe .e{} ::: nv`,
		`parallel --will-cite __probe {}nv ::: .e`,
		`parallel --will-cite '__probe {1}{2}' ::: .e ::: nv`,
		`parallel --will-cite __probe {2}{1} ::: nv ::: .e`,
		`parallel --will-cite __probe x{.}y{/}z ::: a/b.c`,
		`parallel --will-cite __probe ::: 'a b'`,
		`parallel --will-cite '__probe "a  b"' ::: c`,
	} {
		diffCheck(t, bash, dir, home, s)
	}
}

// TestShellValuesAgainstBash is the differential test (skipped without
// bash; CI has it).
func TestShellValuesAgainstBash(t *testing.T) {
	bash, dir, home := diffEnv(t)
	for _, s := range bashDiffCases {
		diffCheck(t, bash, dir, home, s)
	}
}

// Pieces the generator composes: a setting, an expansion or producer
// feeding a variable, and the probe's words.
var (
	genValues = []string{".env", ".e", "nv", "X.env", ".envX", "a b", "a,b", ".e\\nv", "'.e nv'", "\"a  b\"", "", "src/*.py", ".e*", "x:y", "A.ENV"}
	genSetups = []string{"", "IFS=,; ", "IFS=; ", "IFS=x; ", "unset IFS; ", "set -- .e nv; ", "set -- 'a b' c; "}
	genOps    = []string{"$x", "\"$x\"", "${x}nv", "${x%?}", "${x#?}", "${x/X/}", "${x//[A-Z]/}", "${x/%?/}", "${x/#?/}", "${x:1}", "${x:0:3}",
		"${x,,}", "${x^^}", "${x:-d}", "${x:+y}", "\"$1$2\"", "\"$*\"", "$*", "\"$@\"", "${x%%[[:upper:]]*}", "${#x}"}
	genProducers = []string{"echo %s", "printf %%s %s", "printf %%.3s %s", "printf '%%s\\n' %s | head -n1", "printf %%s %s | head -c3",
		"printf %%s %s | tail -c3", "echo %s | tr a-z A-Z", "echo %s | rev", "printf '%%s\\n' %s | tail -n1"}
	genReads = []string{"read x <<< %s", "read -r x <<< %s", "IFS=, read x y <<< %s", "read -d, x <<< %s", "read -n 3 x <<< %s", "IFS= read -r x <<< %s",
		"read -N 2 x <<< %s", "read x y <<< %s", "printf '%%s\\n' %[1]s | { read x; read y; __probe \"$x\" \"$y\"; }; read x <<< %[1]s"}
	genFormats = []string{"%s", "%.2s", "%3s", "%-3s|", "%b", "%q", "%d", "%05d", "%x", "%c", "%s-%s", "%.*s", "[%s]\\n", "%%%s"}
	// wrappers put the probe inside a function, a child shell, xargs
	genWraps = []string{"%s", "f() { %s; }; f .e nv", "sh -c '%s' _ .e nv", "(%s)", "{ %s; }", "x=$x; %s", "set -- a .e; %s",
		"f() { local x=L; %s; }; f; %s"}
)

// genScript builds one script from the generator's choices.
func genScript(r *rand.Rand) string {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	var b strings.Builder
	b.WriteString(pick(genSetups))
	v := pick(genValues)
	switch r.IntN(3) {
	case 0:
		fmt.Fprintf(&b, "x=%s; ", v)
	case 1:
		fmt.Fprintf(&b, "x=$("+pick(genProducers)+"); ", v)
	default:
		fmt.Fprintf(&b, pick(genReads)+"; ", v)
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "x=$(printf '%s' %s %s); ", pick(genFormats), pick(genValues), pick(genValues))
	}
	var probe strings.Builder
	probe.WriteString("__probe")
	for k := r.IntN(3) + 1; k > 0; k-- {
		probe.WriteString(" " + pick(genOps))
	}
	w := pick(genWraps)
	p := probe.String()
	if strings.HasPrefix(w, "sh -c") {
		p = strings.ReplaceAll(p, "'", "")
		p = "__probe() { printf \"%s\\0\" \"$#\" \"$@\"; }; " + p
	}
	b.WriteString(strings.ReplaceAll(w, "%s", p))
	return b.String()
}

// TestShellValuesGenerated runs generated scripts through the same
// comparison (a fixed seed: the same scripts every run).
func TestShellValuesGenerated(t *testing.T) {
	bash, dir, home := diffEnv(t)
	r := rand.New(rand.NewPCG(16, 10))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		diffCheck(t, bash, dir, home, genScript(r))
	}
}

// FuzzShellValues: the fuzzer picks the generator's choices.
func FuzzShellValues(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(16), uint64(10))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		bash, dir, home := diffEnv(t)
		diffCheck(t, bash, dir, home, genScript(rand.New(rand.NewPCG(a, b))))
	})
}
