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
