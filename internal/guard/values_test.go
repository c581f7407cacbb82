package guard

import "testing"

// valuesMatchers are the two analyses every shell-value class is checked
// with: without the disk and with a project on it.
func valuesMatchers() map[string]*Matcher {
	return map[string]*Matcher{
		"no disk": DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}),
		"disk": DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{
			tCwd + "/.env": "SECRET=x", tCwd + "/README.md": "r", tCwd + "/src/a.py": "a", tCwd + "/src/b.py": "b"}, nil)}),
	}
}

func runValues(t *testing.T, cases []shellCase) {
	t.Helper()
	for name, m := range valuesMatchers() {
		for _, c := range cases {
			got, why := kindOf(m, c.cmd)
			if (got == "") != (c.want == "") {
				t.Errorf("%s: %q: got %q, want %q (%s)", name, c.cmd, got, c.want, why)
			}
		}
	}
}

// TestPositionalParametersExactOrUnknown: the class of attacker pass 10's
// findings 10, 23 and 24 — $1…, "$@", "$*", $# are the values bash
// binds (set --, a function's arguments at each call, sh -c's arguments,
// for without in), unknown where they are not known (the top level, a
// trap, a git alias's arguments, after a field that may split).
func TestPositionalParametersExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`set -- .e nv; cat "$1$2"`, KindDeny},
		{`set -- .e nv; cat $1$2`, KindDeny},
		{`set -euo pipefail -- .e nv; cat "$1$2"`, KindDeny},
		{`set -- x .e nv; shift; cat "$1$2"`, KindDeny},
		{`set -- .e nv; IFS=; cat "$*"`, KindDeny},
		{`set -- .e nv; IFS=; cat $*`, ""}, // unquoted: one field each, .e and nv
		{`set -- nv; cat .e"$@"`, KindDeny},
		{`set -- a nv; for x; do cat .e$x; done`, KindDeny},
		{`set -- $X nv; cat "$1$2"`, KindUnverifiable},
		{`set -- src/*.py nv; cat "$2"`, KindUnverifiable},
		{`f() { cat .e$1; }; f nv`, KindDeny},
		{`f() { cat "$1$2"; }; f .e nv`, KindDeny},
		{`f() { cat "$@"; }; f .env`, KindDeny},
		{`f() { g "$2" "$1"; }; g() { cat .e$1; }; f x nv`, KindDeny},
		{`f() { cat .e$1; }; f $X`, KindUnverifiable},
		{`f() { f x; }; f`, KindUnverifiable},
		{`sh -c 'cat .e$1' _ nv`, KindDeny},
		{`sh -c 'cat ${1}${2}' _ .e nv`, KindDeny},
		{`bash -c 'cat "$@"' _ .env`, KindDeny},
		{`sh -c 'cat .e$1' _`, ""}, // $1 is empty
		{`trap 'cat .e$1' EXIT; set -- nv`, KindUnverifiable},
		{`find . -maxdepth 1 -name README.md -exec sh -c 'cat .e$1' _ nv \;`, KindDeny},
		{`git -c 'alias.x=!f(){ cat .e$1; }; f' x nv`, KindUnverifiable},
		{`set -- .e nv; rm -f "$1$2"`, KindDeny},
		{`sh -c 'echo PWNED > .e$1' _ nv`, KindDeny},
		{`f(){ ln -s .e$1 x; }; f nv; cat x`, KindDeny},
		{`echo PWNED > >(f() { cat > .e$1; }; f nv)`, KindDeny},
		{`cat .e$1`, KindUnverifiable}, // the agent's shell: $1 unknown
		// everyday forms stay allowed
		{`f() { cat "$1"; }; f README.md`, ""},
		{`sh -c 'cat "$1"' _ README.md`, ""},
		{`for f in src/*.py; do sh -c 'wc -l "$1"' _ "$f"; done`, ""},
		{`set -- README.md; cat "$@"`, ""},
		{`f() { echo "$#" "$@"; }; f a b`, ""},
		{`git -c 'alias.x=!f(){ cat README.md; }; f' x nv`, ""},
		{`find . -name '*.py' -exec sh -c 'wc -l "$1"' _ {} \;`, ""},
	})
}

// TestScopedVariablesExactOrUnknown: a value set in a subshell, a pipeline
// element, a command substitution, a child shell, an uncalled function or
// as a function's local is not the value after it.
func TestScopedVariablesExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`x=.e; (x=READ); cat ${x}nv`, KindDeny},
		{`x=.e; echo $(x=READ); cat ${x}nv`, KindDeny},
		{`x=.e; echo READ | read x; cat ${x}nv`, KindUnverifiable},
		{`x=.e; f(){ x=READ; }; cat ${x}nv`, KindDeny},
		{`x=.e; f(){ local x=READ; }; f; cat ${x}nv`, KindDeny},
		{`x=.e; sh -c 'x=READ'; cat ${x}nv`, KindDeny},
		{`x=.e; export x; sh -c 'cat ${x}nv'`, KindDeny},
		{`x=README.md; sh -c 'cat .e$x'`, KindUnverifiable}, // not exported: the child's x is the environment's
		{`x=READ; f(){ x=.e; }; f; cat ${x}nv`, KindDeny},
		{`x=README.md; (cat $x)`, ""},
		{`x=README.md; export x; sh -c 'cat "$x"'`, ""},
	})
}

// TestReadBuiltinExactOrUnknown: finding 7's class — read's value is the
// record bash takes (-d, -n, -N, IFS, backslashes without -r, several
// names, successive reads, while read over known text) or unknown.
func TestReadBuiltinExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`read -d, a <<< ".env,x"; cat $a`, KindDeny},
		{`read -n 4 a <<< ".envX"; cat $a`, KindDeny},
		{`read -N 4 a <<< ".envX"; cat $a`, KindDeny},
		{`IFS=x read a b <<< ".envxy"; cat $a`, KindDeny},
		{`IFS=, read a b <<< ".env,x"; cat $a`, KindDeny},
		{`read a <<< '.e\nv'; cat $a`, KindDeny},
		{`read a b <<< 'x .env'; cat $b`, KindDeny},
		{`read -a w <<< '.e nv'; cat ${w[0]}${w[1]}`, KindDeny},
		{`printf 'README.md\n.env\n' | { read a; read b; cat $b; }`, KindDeny},
		{`printf 'README.md\n.e\\\nnv\n' | while read f; do cat "$f"; done`, KindDeny},
		{`printf 'README.md\n.env\n' | while read -r f; do wc -l "$f"; done`, KindDeny},
		{`printf 'x\n.env\n' | { cat >/dev/null; read a; cat $a; }`, KindUnverifiable},
		{`IFS=$X read a b <<< ".env,x"; cat $a`, KindUnverifiable},
		{`read -u 3 a; cat $a`, KindUnverifiable},
		{`read a <<< README.md; cat $a`, ""},
		{`printf 'README.md\n' | while read -r f; do wc -l "$f"; done`, ""},
		{`find . -name '*.py' | while read -r f; do wc -l "$f"; done`, ""},
	})
}

// TestParameterPatternsExactOrUnknown: finding 8's class — ${x#p},
// ${x%p}, ${x/p/r} (/#, /%, //), ${x^^p} match p as bash does (globs,
// classes, quoted parts literal) or are unknown.
func TestParameterPatternsExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`x=.envX; cat ${x/%?/}`, KindDeny},
		{`x=X.env; cat ${x/#?/}`, KindDeny},
		{`x=.envXX; cat ${x/X*/}`, KindDeny},
		{`x=.eXnv; cat ${x//[^a-z.]/}`, KindDeny},
		{`x=.envX; cat ${x%[[:upper:]]}`, KindDeny},
		{`x=.envX; cat ${x/[X]/}`, KindDeny},
		{`x=.envX; cat ${x//[A-Z]}`, KindDeny},
		{`x=.eYv; cat ${x/Y/n}`, KindDeny},
		{`x=.env; cat ${x^^[X]}`, KindDeny},
		{`x=.eXv; p='X'; cat ${x/$p/n}`, KindDeny},
		{`x=.eXv; cat ${x/X/$Y}`, KindUnverifiable},
		{`x=.eXv; cat ${x/X/&}`, KindUnverifiable}, // bash 5.2 patsub_replacement
		{`shopt -s nocasematch; x=.envx; cat ${x%X}`, KindUnverifiable},
		{`x=READMEX.md; cat ${x/X/}`, ""},
		{`f=src/a.py; cat ${f%.py}.py`, ""},
	})
}

// TestProducedTextExactOrUnknown: finding 9's class — printf (precision,
// width, `*`, %b, %q, integers), echo -e, head/tail -c/-n, tac, uniq give
// the text bash's tools give; sort, nl and options not modelled are
// unknown.
func TestProducedTextExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`cat "$(printf %.4s .envXX)"`, KindDeny},
		{`cat "$(printf %-.4s .envXX)"`, KindDeny},
		{`cat "$(printf %4.4s .envXX)"`, KindDeny},
		{`cat "$(printf %.*s 4 .envXX)"`, KindDeny},
		{`cat "$(printf '%b' '.e\x6ev')"`, KindDeny},
		{`echo .envX | head -c4 | xargs cat`, KindDeny},
		{`echo .envX | head --bytes=4 | xargs cat`, KindDeny},
		{`cat "$(printf 'X\n.env' | tail -n1)"`, KindDeny},
		{`cat "$(printf '.env\nX' | head -n1)"`, KindDeny},
		{`cat "$(printf '.env\nX\n' | tac | tail -1)"`, KindDeny},
		{`cat "$(printf 'X\n.env\n' | sort | head -1)"`, KindUnverifiable},
		{`cat "$(printf '%e' 1)"`, KindUnverifiable},
		{`cat "$(printf %.9s README.mdXX)"`, ""},
		{`cat "$(printf 'README.md\nX' | head -n1)"`, ""},
	})
}

// TestXargsParallelExactOrUnknown: findings 11 and 12's class — the
// arguments xargs builds (quotes, backslashes, -d, -0, -I inside words,
// -n/-L batches) and the command lines GNU parallel runs ({} and {n}
// inside words, several input sources) are bash's, or unknown.
func TestXargsParallelExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`echo nv | xargs -I{} cat .e{}`, KindDeny},
		{`xargs -I{} cat {}nv <<< .e`, KindDeny},
		{`xargs -i cat .e{} <<< nv`, KindDeny},
		{`xargs --replace=@ cat .e@ <<< nv`, KindDeny},
		{`echo '.e""nv' | xargs cat`, KindDeny},
		{`echo '.e\nv' | xargs cat`, KindDeny},
		{`echo "'.e'nv" | xargs cat`, KindDeny},
		{`printf 'x,.env' | xargs -d, cat`, KindDeny},
		{`printf '.envXREADME.md' | xargs -dX cat`, KindDeny},
		{`printf 'x\0.env' | xargs -0 cat`, KindDeny},
		{`printf 'x\nnv\n' | xargs -n1 sh -c 'cat .e$1' _`, KindDeny},
		{`echo nv | xargs -I{} cp README.md .e{}`, KindDeny},
		{`echo '.e""nv' | xargs rm`, KindDeny},
		{`printf 'x,.env' | xargs -d, rm -f`, KindDeny},
		{`echo "'.env" | xargs cat`, KindUnverifiable}, // xargs rejects the unmatched quote: not modelled
		{`cat list | xargs -I{} cat src/{}`, KindUnverifiable},
		{`parallel cat .e{} ::: nv`, KindDeny},
		{`parallel cat {}nv ::: .e`, KindDeny},
		{`parallel 'cat {1}{2}' ::: .e ::: nv`, KindDeny},
		{`parallel cat {2}{1} ::: nv ::: .e`, KindDeny},
		{`parallel rm .e{} ::: nv`, KindDeny},
		{`parallel cat .e{.}v ::: n.x`, KindDeny},
		{`echo README.md | xargs -I{} wc -l {}`, ""},
		{`printf 'README.md src/a.py' | xargs wc -l`, ""},
		{`parallel 'wc -l {}' ::: src/a.py README.md`, ""},
		{`find src -name '*.py' | parallel wc -l {}`, ""},
		{`parallel echo ::: a b ::: c d`, ""},
	})
}

// TestListingsAsValues: the everyday over-denies of attacker pass 10 —
// `$(ls GLOB)` with the disk is the names the glob expands to (files,
// sorted; folders, options, orders a locale could change: unknown).
func TestListingsAsValues(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "SECRET=x", tCwd + "/README.md": "r", tCwd + "/src/a.py": "a", tCwd + "/src/b.py": "b",
		tCwd + "/d/x.py/inner": "i"}
	disk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, disk, []shellCase{
		{"head -n 5 $(ls src/*.py)", ""},
		{"wc -l $(ls src/*.py README.md)", ""},
		{"cat $(ls .e*)", KindDeny},
		{"cat $(ls -a)", KindDeny}, // the disk's names: .env among them
		{"cat $(ls d/*.py)", ""},   // a folder: ls prints its content (inner), which cat opens in the cwd
		{"cat $(ls -l src/*.py)", KindUnverifiable},
		{`cat "$(ls R* .e* | head -1)"`, KindDeny},
	})
	noDisk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, noDisk, []shellCase{{"head -n 5 $(ls src/*.py)", KindUnverifiable}})
}

// TestUnknownIFSSplits: a known value split by an IFS computed at run
// time is unknown (its fields are not the value).
func TestUnknownIFSSplits(t *testing.T) {
	runValues(t, []shellCase{
		{`y=.envXREADME.md; IFS=$X; cat $y`, KindUnverifiable},
		{`IFS=$X; read a b <<< ".envXy"; cat $a`, KindUnverifiable},
		{`set -- .e nv; IFS=$X; cat "$*"`, KindUnverifiable},
		{`y=README.md; IFS=$X; cat "$y"`, ""},
		{`cat "$(echo LmVudg- | base64 -d)"`, KindUnverifiable}, // GNU stops at the bad character
		{`cat $(readlink x)`, KindUnverifiable},                 // a link's own text
	})
}

// TestAlternativesArePositionsUnknown: a word with alternatives
// (${x:+a} with x from the environment) may be no field at all: what
// follows it is at an unknown position.
func TestAlternativesArePositionsUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`set -- ${x:+a} .e nv; cat "$1$2"`, KindUnverifiable},
		{`f() { cat "$1$2"; }; f ${x:+a} .e nv`, KindUnverifiable},
		{`set -- ${x:-README.md}; cat "$1"`, KindUnverifiable},
	})
}

// TestComputedNamesAndChildScripts: printf -v, read, unset, declare of a
// name computed at run time may change any variable; a script run by
// `bash FILE ARGS` or `bash -s ARGS` gets ARGS as $1… and only exported
// variables.
func TestComputedNamesAndChildScripts(t *testing.T) {
	runValues(t, []shellCase{
		{`x=README.md; printf -v x '.e%sv' n; cat $x`, KindDeny},
		{`x=README.md; printf -v "$N" '.e%sv' n; cat $x`, KindUnverifiable},
		{`x=README.md; read "$N" <<< .env; cat $x`, KindUnverifiable},
		{`x=README.md; declare "$N=.env"; cat $x`, KindUnverifiable},
		{`a=(README.md .env); unset 'a[1]'; cat ${a[0]}`, KindUnverifiable},
		{`echo 'cat .e$1' > x.sh; bash x.sh nv`, KindDeny},
		{`bash -s nv <<< 'cat .e$1'`, KindDeny},
		{`x=.e; echo 'cat ${x}nv' > x.sh; bash x.sh`, KindUnverifiable},
		{`echo 'cat "$1"' > x.sh; bash x.sh README.md`, ""},
		{`x=README.md; printf -v y '%s' "$x"; cat "$y"`, ""},
	})
}

// TestFunctionsAndPlacesExactOrUnknown: every definition a walk meets may
// be the one a call runs (a redefinition inside an uncalled function or
// an if, a function named like a command); find -exec's {} is a name in
// its place (inside words too); slices of "$@" and arrays are elements;
// read -t, xargs -s and parallel's own replacement strings are unknown.
func TestFunctionsAndPlacesExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`touch .e; find .e -exec sh -c 'cat "$1$2"' _ {} nv \;`, KindDeny},
		{`find nv -maxdepth 0 -exec cat .e{} \;`, KindDeny},
		{`find . -name x -exec cat .e{} \;`, ""}, // .e./x
		{`g() { cat .e$1; }; h() { g() { :; }; }; g nv`, KindDeny},
		{`g() { cat .e$1; }; if false; then g() { :; }; fi; g nv`, KindDeny},
		{`echo() { cat .e"$1"; }; echo nv`, KindDeny},
		{`set -- .e; set -- "${@:1:1}nv"; cat "$1"`, KindUnverifiable},
		{`x=.e; read -t 0 x <<< README; cat ${x}nv`, KindDeny},
		{`parallel -I ,, cat .e,, ::: nv`, KindUnverifiable},
		{`printf '.e nv' | xargs -s 5 sh -c 'cat "$1$2"' _`, KindUnverifiable},
		{`find . -name '*.py' -exec wc -l {} +`, ""},
		{`find src -name '*.py' -exec sh -c 'wc -l "$1"' _ {} \;`, ""},
		{`f() { wc -l "$@"; }; f README.md src/a.py`, ""},
	})
}

// TestBranchesExactOrUnknown: a variable the paths through if, case,
// `&&`/`||` and loops leave with different values is one of them (a plain
// $x) or unknown; `cd d && f=x && cat $f` reads x.
func TestBranchesExactOrUnknown(t *testing.T) {
	runValues(t, []shellCase{
		{`if true; then y=.e; else y=README; fi; cat ${y}nv`, KindDeny},
		{`case x in x) y=.e;; *) y=README;; esac; cat ${y}nv`, KindDeny},
		{`y=.e; false && y=README; cat ${y}nv`, KindDeny},
		{`y=.e; true || y=README; cat ${y}nv`, KindDeny},
		{`y=.e; for i in; do y=README; done; cat ${y}nv`, KindDeny},
		{`y=.e; while false; do y=README; done; cat ${y}nv`, KindDeny},
		{`y=.e; if c; then y=$X; fi; cat ${y}nv`, KindUnverifiable},
		{`if c; then set -- .e nv; else set -- a b; fi; cat "$1$2"`, KindUnverifiable},
		{`a=([1]=README [0]=.e); cat ${a[0]}nv`, KindDeny},
		{`f=README.md; [ -f x ] && f=src/a.py; cat $f`, ""},
		{`cd src && f=a.py && cat $f`, ""},
		{`y=README.md; if [ -f x ]; then echo hi; fi; cat $y`, ""},
	})
}

// TestArgumentsThatDifferBetweenPaths: a command whose words take
// different values on different paths is walked once per path, its
// arguments exact on each (a script, printf's format, $1… bound right).
func TestArgumentsThatDifferBetweenPaths(t *testing.T) {
	runValues(t, []shellCase{
		{`if c; then y=.e; else y=X; fi; cat "$(printf %snv "$y")"`, KindDeny},
		{`if c; then y=true; else y='cat .e$1'; fi; sh -c "$y" _ nv`, KindDeny},
		{`if c; then y=a; else y=.e; fi; set -- "$y" nv; cat "$1$2"`, KindDeny},
		{`f=README.md; [ -f x ] && f=src/a.py; cat $f`, ""},
	})
}

// TestComputedValuesSplitWhereUsed: a variable holding a value the
// command computes ($(…), read) splits where it is used unquoted, as bash
// splits it: `${x}x` may be `.env` and `ax`.
func TestComputedValuesSplitWhereUsed(t *testing.T) {
	runValues(t, []shellCase{
		{`x=$(cat list); cat ${x}x`, KindUnverifiable},
		{`read -r x < list; cat ${x}x`, KindUnverifiable},
		{`x=$(cat list); cat "${x}x"`, ""},
		{`cat "$GOPATH/src/x.go"`, ""},
	})
}

// TestListingOrderUnknown: ls sorts names by the locale's collation, which
// the gate does not know: where locales could disagree (README.md before
// node_modules in C, after it in en_US), a filter that picks lines by their
// place gets every name, and where they cannot, the order is kept.
// (Xfile before secrets in C, after it in en_US.)
func TestListingOrderUnknown(t *testing.T) {
	rules := mustRules(t, `{"paths":[{"path":"secrets/","deny":["read","bash"]}]}`)
	files := map[string]string{tCwd + "/Xfile": "x", tCwd + "/secrets/key": "x"}
	m := rules.Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{"cat secrets/key", KindDeny},
		{"ls | head -1 | xargs -I{} cat {}/key", KindDeny},
		{"ls | tail -n 1 | xargs -I{} cat {}/key", KindDeny},
		{"ls | tac | head -1 | xargs -I{} cat {}/key", KindDeny},
	})
	files = map[string]string{tCwd + "/alpha.txt": "x", tCwd + "/beta.txt": "x", tCwd + "/zeta/key": "x"}
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{"ls | head -1 | xargs cat", ""}, // alpha.txt in every locale
		{"ls | xargs wc -l", ""},
	})
}
