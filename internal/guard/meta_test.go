package guard

import (
	"strings"
	"testing"
)

// TestMetadataOnly: test's and [['s file operators (-e, -f, -d, -s, -nt,
// …), stat and ls -d look at a path's metadata (type, size, times), never
// its content: the path is touched — the bash op — but not read. A rule
// that denies bash (.env, ~/.ssh/, auth.json: every default that protects
// content) still denies them, with a reason that says so; a rule that
// denies read only (.git/) lets them pass. A glob operand is a read (its
// expansion lists the folder), and so is ls without -d (a folder's names),
// anything that reads the file, and an operand of any other operator.
func TestMetadataOnly(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/.git/HEAD": "ref: x", tCwd + "/.git/index": "x", tCwd + "/secret.txt": "s"}
	disk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, map[string]string{tCwd + "/notes.txt": ".env"})})
	noDisk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for _, m := range []*Matcher{disk, noDisk} {
		runShell(t, m, []shellCase{
			{"test -d .git", ""},
			{"[ -d .git ] && echo repo", ""},
			{"[[ -d .git && -f .git/HEAD ]]", ""},
			{"[[ ! -e .git/index ]] || echo staged", ""},
			{"if [ -s .git/index ]; then git status; fi", ""},
			{"test .git/index -nt .git/HEAD", ""},
			{"[[ .git/index -ot src ]]", ""},
			{"stat .git/HEAD", ""},
			{"stat -c %s .git/index", ""},
			{"stat --printf='%s %y\\n' .git/HEAD", ""},
			{"ls -ld .git", ""},
			{"ls -d .git .", ""},
			// a rule that denies bash denies any touch
			{"test -f .env", KindDeny},
			{"[ -e .env ]", KindDeny},
			{"[[ -s .env ]]", KindDeny},
			{"stat .env", KindDeny},
			{"stat -c %s .env", KindDeny},
			{"ls -l .env", KindDeny},
			{"ls -ld .env", KindDeny},
			{"test -d ~/.ssh", KindDeny},
			{"stat ~/.pi/agent/auth.json", KindDeny},
			// reads stay reads
			{"ls .git", KindDeny},
			{"ls -l .git", KindDeny},
			{"ls -d .git/*", KindDeny},
			{"stat .git/*", KindDeny},
			{"[ -f .git/* ]", KindDeny},
			{"[[ -f .git/h* ]]", KindDeny},
			{"test -f .git/HEAD && cat .git/HEAD", KindDeny},
			{"[ \"$(cat .git/HEAD)\" = x ]", KindDeny},
			{"[[ $(< .git/HEAD) == x ]]", KindDeny},
			{"test -z .git/HEAD", KindDeny},
			{"[ .git/HEAD = x ]", KindDeny},
			{"ls -ldR .git", KindDeny},
			{"test -f \"$X\"", KindUnverifiable},
			{"test() { cat \"$2\"; }; test -f .git/HEAD", KindDeny},
		})
	}
	runShell(t, disk, []shellCase{
		{"stat notes.txt", KindDeny}, // a link to .env
		{"test -f notes.txt", KindDeny},
	})
	// the reason says the access was metadata only, and names a read first
	for c, want := range map[string]string{
		"test -f .env":             "metadata only",
		"stat -c %s .env":          "metadata only",
		"test -f .env && cat .env": "touches protected path \".env\" (/home/user/proj/.env); rule",
	} {
		if _, why := kindOf(disk, c); !strings.Contains(why, want) {
			t.Errorf("%q: reason %q, want %q in it", c, why, want)
		}
	}
	// a rule of the user's that denies read only: metadata passes
	m := mustRules(t, `{"paths":[{"path":"secret.txt","deny":["read"]}]}`).Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{"test -f secret.txt && echo yes", ""},
		{"stat -c %s secret.txt", ""},
		{"cat secret.txt", KindDeny},
		{"wc -c secret.txt", KindDeny},
		{"ls -l secret.txt", KindDeny}, // without -d: the gate does not look whether it is a folder
	})
}

// TestDeniedEverydayReasons: the everyday calls that stay denied say why:
// a recursive listing with hidden names lists (it does not read) the names
// below the folder; a program the gate does not model counts as reading a
// folder in full; a file server serves everything below its folder.
func TestDeniedEverydayReasons(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/src/a.go": "package a"}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	for c, want := range map[string]string{
		"tree -a":               "tree lists the names below",
		"ls -aR":                "ls lists the names below",
		"ls -laR .":             "ls -R lists the names below",
		"semgrep .":             "a program pruner does not model, so a folder given to it counts as read in full",
		"python -m http.server": "a file server: anything below the folder it serves can be fetched",
		"grep -r TODO .":        "grep -r reads every file below",
	} {
		k, why := kindOf(m, c)
		if k != KindFolder || !strings.Contains(why, want) {
			t.Errorf("%q: %q %q, want folder with %q", c, k, why, want)
		}
	}
	runShell(t, m, []shellCase{
		{"tree", ""}, {"tree -a src", ""}, {"ls -aR src", ""}, {"semgrep src", ""}, {"python3 -m http.server -d src 8000", ""},
		{"rg TODO", ""}, {"grep -rn TODO --include='*.go' .", ""}, {"fd", ""}, {"wc -l $(git ls-files)", KindUnverifiable},
	})
}
