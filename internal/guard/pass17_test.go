package guard

import (
	"strings"
	"testing"
)

// gate17Matcher: a repository at the cwd (its .git a folder) holding .env,
// a sub folder with its own .env, and no .gitignore.
func gate17Matcher() *Matcher {
	files := map[string]string{
		tCwd + "/.git/HEAD": "ref: refs/heads/main", tCwd + "/.env": "SECRET=x", tCwd + "/a.txt": "a",
		tCwd + "/src/m.go": "package m",
	}
	return DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
}

// TestExcludesNameNoPath17: an argument that only excludes a name (git
// clean -e/--exclude, git add's exclude pathspecs :!x, :^x, :(exclude)x,
// git ls-files -x/--exclude) touches nothing, and the exclusion is
// honoured on the recursion when it surely covers the protected entry:
// the same case, file or folder as it is, not anchored otherwise than
// modelled. Anything less stays denied: another name, another case, a
// trailing `/` for a file, a `!` pattern that takes it back, -X (which
// removes what -e makes ignored), -x alone, a value computed when it
// runs, other pathspec magic; and -e's value is never read as flags
// (`-enothing` is no -n dry run).
func TestExcludesNameNoPath17(t *testing.T) {
	m := gate17Matcher()
	runShell(t, m, []shellCase{
		// benign: the exclusion leaves .env in place
		{`git clean -fd -e .env`, ""},
		{`git clean -fdx -e .env`, ""},
		{`git clean -fdxe.env`, ""},
		{`git clean -fdx --exclude=.env`, ""},
		{`git clean -fdx --exclude .env`, ""},
		{`git clean -fdx -e '.e*'`, ""},
		{`git clean -n -e .env`, ""},
		{`git add -A -- ':!.env'`, ""},
		{`git add ':!.env'`, ""},
		{`git add -- . ':(exclude).env'`, ""},
		{`git add -- . ':^.env'`, ""},
		{`git add . ':!:.env'`, ""},
		{`git ls-files -x .env`, ""},
		{`git ls-files -o --exclude=.env`, ""},
		// attacks: the exclusion misses, is taken back or is not modelled
		{`git clean -fd`, KindFolder},
		{`git clean -fdx`, KindFolder},
		{`git clean -fdx -e .ENV`, KindFolder},
		{`git clean -fdx -e .env/`, KindFolder},
		{`git clean -fdx -e .envrc`, KindFolder},
		{`git clean -fdx -e /.env`, KindFolder},
		{`git clean -fdx -e .env -e '!.env'`, KindFolder},
		{`git clean -fdx -e '!.env' -e .env`, KindFolder},
		{`git clean -fdX -e .env`, KindFolder},
		{`git clean -fdx -enothing`, KindFolder},
		{`git clean -fde foo`, KindFolder},
		{`git clean -fdx -e "$X"`, KindFolder},
		{`git clean -fdx -e .env $OPT`, KindFolder}, // $OPT may be -X
		{`git add -- . ':!.ENV'`, KindFolder},
		{`git add -- . ':!.env/'`, KindFolder},
		{`git add -- . ':!.envrc'`, KindFolder},
		{`git add -- . ':/!.env'`, KindFolder},
		{`git add -- . ':(exclude,icase).env'`, KindFolder},
		{`git add -A`, KindFolder},
		{`git add -f -- . ':!a.txt'`, KindFolder},
	})
}

// TestPathspecExcludeAnchored17: an exclude pathspec is relative to the
// current folder: `:!.env` leaves out the .env there, not src/.env; and
// it is honoured only where the current folder is the repository's top
// (git add with no positive pathspec covers the whole work tree).
func TestPathspecExcludeAnchored17(t *testing.T) {
	files := map[string]string{
		tCwd + "/.git/HEAD": "ref: refs/heads/main", tCwd + "/.env": "SECRET=x", tCwd + "/src/.env": "S=y",
		tCwd + "/src/m.go": "package m",
	}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{`git add -- . ':!.env'`, KindFolder},
		{`git add -- . ':!.env' ':!src/.env'`, ""},
		{`git clean -fdx -e .env`, ""}, // -e NAME: at any depth
		{`cd src && git add ':!.env'`, KindFolder},
	})
}

// TestWriteDenialsSayHowToGoOn17: a write or delete of a folder that
// holds a protected path (git clean, rm -r) says how to go on: another
// folder, and for git clean its own -e for every protected name found
// (re-checked: following it is allowed); not where -e would not help
// (-X, a `!` pattern).
func TestWriteDenialsSayHowToGoOn17(t *testing.T) {
	m := gate17Matcher()
	for cmd, want := range map[string]string{
		"git clean -fd":                     `(use a folder that does not hold it, or leave it out: git clean -e ".env")`,
		"git clean -fdx":                    `(use a folder that does not hold it, or leave it out: git clean -e ".env")`,
		"rm -r .":                           `(use a folder that does not hold it)`,
		"git clean -fdX -e .env":            `(use a folder that does not hold it)`,
		"git clean -fdx -e .env -e '!.env'": `(use a folder that does not hold it)`,
	} {
		_, why := kindOf(m, cmd)
		if !strings.Contains(why, want) {
			t.Errorf("%q: reason %q, want it to contain %q", cmd, why, want)
		}
		if !strings.Contains(want, "git clean -e") && strings.Contains(why, "git clean -e") {
			t.Errorf("%q: reason %q suggests an -e that does not help", cmd, why)
		}
	}
	if got, why := kindOf(m, `git clean -fdx -e .env`); got != "" {
		t.Errorf("the advice followed is denied: %s", why)
	}
	// two protected names: both named, and the advice followed passes
	files := map[string]string{
		tCwd + "/.git/HEAD": "x", tCwd + "/.env": "S=x", tCwd + "/.ssh/id_rsa": "k", tCwd + "/a.txt": "a",
	}
	m2 := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	_, why := kindOf(m2, "git clean -fdx")
	i := strings.Index(why, "git clean -e")
	if i < 0 {
		t.Fatalf("git clean -fdx: no -e advice: %s", why)
	}
	follow := strings.TrimSuffix(strings.ReplaceAll(why[i:], `"`, ""), ")")
	follow = strings.Replace(follow, "git clean", "git clean -fdx", 1)
	if got, why2 := kindOf(m2, follow); got != "" {
		t.Errorf("%q (from %q): %s", follow, why, why2)
	}
}
