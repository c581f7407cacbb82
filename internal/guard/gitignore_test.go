package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVCSAwareRecursions: Claude Code's Grep (rg --hidden without version
// control folders), git add and git stash -u read every file below a
// folder, hidden ones included, except what .gitignore surely ignores in a
// repository; a project's ignore files can make the gate deny more, never
// let a file git reads through.
func TestVCSAwareRecursions(t *testing.T) {
	env := tCwd + "/.env"
	repo := map[string]string{tCwd + "/.git/HEAD": "ref: x\n", tCwd + "/src/a.go": "package a\n"}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{env: "K=1"}
		for k, v := range repo {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	grep := Call{Tool: "Grep", Args: map[string]any{"pattern": "KEY"}}
	bash := func(c string) Call { return Call{Tool: "bash", Args: map[string]any{"command": c}} }
	calls := []Call{grep, bash("git add -A"), bash("git add ."), bash("git add . && git diff --cached"),
		// git expands a pathspec's glob itself (`*` matches .env, crosses /);
		// `:/` is the repository's root
		bash("git add '*'"), bash("git add -- '*env'"), bash("git add :/"), bash("git add ':(glob)**'")}
	cases := []struct {
		name  string
		files map[string]string
		deny  bool
	}{
		{"ignored by name", with(map[string]string{tCwd + "/.gitignore": "node_modules/\n.env\n"}), false},
		{"ignored by a glob", with(map[string]string{tCwd + "/.gitignore": ".env*\n"}), false},
		{"ignored by *.env", with(map[string]string{tCwd + "/.gitignore": "# secrets\n*.env\n"}), false},
		{"ignored by **/.env", with(map[string]string{tCwd + "/.gitignore": "**/.env\n"}), false},
		{"ignored in the repository's root above", func() map[string]string {
			return map[string]string{env: "K=1", tHome + "/.git/HEAD": "x", tHome + "/.gitignore": ".env\n"}
		}(), false},
		{"a folder ignored", with(map[string]string{tCwd + "/api/.env": "K=1", tCwd + "/.gitignore": ".env\napi/\n"}), false},
		{"no .gitignore", with(nil), true},
		{"not a repository", map[string]string{env: "K=1", tCwd + "/.gitignore": ".env\n"}, true},
		{"anchored: a .env below is not ignored", with(map[string]string{tCwd + "/api/.env": "K=1", tCwd + "/.gitignore": "/.env\n"}), true},
		{"a negation takes it back", with(map[string]string{tCwd + "/.gitignore": ".env\n!.env\n"}), true},
		{"a negation elsewhere: unsure", with(map[string]string{tCwd + "/.gitignore": ".env\n!keep.txt\n"}), true},
		{"a negation in .ignore", with(map[string]string{tCwd + "/.gitignore": ".env\n", tCwd + "/.ignore": "!.env\n"}), true},
		{"an escape", with(map[string]string{tCwd + "/.gitignore": ".env\n\\#x\n"}), true},
		{"a trailing tab (git keeps it: not ignored)", with(map[string]string{tCwd + "/.gitignore": ".env\t\n"}), true},
		{"trailing spaces (git trims them)", with(map[string]string{tCwd + "/.gitignore": ".env  \n"}), false},
		{"folders only", with(map[string]string{tCwd + "/.gitignore": ".env/\n"}), true},
		{"another name", with(map[string]string{tCwd + "/.gitignore": ".envrc\nenv\n"}), true},
		{"ignored below, not here", with(map[string]string{tCwd + "/src/.gitignore": ".env\n"}), true},
	}
	for _, c := range cases {
		for _, call := range calls {
			m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(c.files, nil)})
			vs := m.Check(call)
			if (len(vs) > 0) != c.deny {
				why := ""
				if len(vs) > 0 {
					why = vs[0].Reason()
				}
				t.Errorf("%s, %v: denied %v, want %v %s", c.name, call.Args, len(vs) > 0, c.deny, why)
			}
		}
	}
	// what git and the Grep tool skip or cannot ignore
	files := with(map[string]string{tCwd + "/.gitignore": ".env\n"})
	runShell(t, DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)}), []shellCase{
		{"git add -f .", KindFolder},                 // -f adds ignored files
		{"git add --force -A", KindFolder},           // likewise
		{"git stash --all", KindFolder},              // ignored files too
		{"git add .env", KindDeny},                   // named
		{"git add src", ""},                          // nothing protected below
		{"git add -u", ""},                           // tracked files only
		{"git add -n .", ""},                         // prints names
		{"git stash", KindUnverifiable},              // HEAD's files back (pass 33)
		{"git stash show -p", ""},                    // history: not covered (docs)
		{"git commit -am 'x'", ""},                   // tracked files only
		{"cd src && git add .", ""},                  // the folder holds nothing protected
		{"git -C src add -A", ""},                    // likewise
		{"git add -A && git diff --cached", ""},      // .env ignored: never staged
		{"git diff --no-index /tmp/e .", KindFolder}, // not gitignore-aware
	})
	// without the disk: taken to skip hidden names (the hook has the disk),
	// not node_modules (stash -u removes what it stores, as git clean)
	runShell(t, DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome}), []shellCase{
		{"git add -A", ""}, {"git stash -u", KindFolder}, {"git add -f .", KindFolder},
	})
	// the Grep tool skips version-control folders, not other hidden ones
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{
		tCwd + "/.git/config": "[core]\n", tCwd + "/.gitignore": ".env\n", tHome + "/.pi/agent/auth.json": "{}",
	}, nil)})
	if vs := m.Check(grep); len(vs) != 0 {
		t.Errorf("Grep in a repository whose .env is ignored: %s", vs[0].Reason())
	}
	if vs := m.Check(Call{Tool: "Grep", Args: map[string]any{"pattern": "token", "path": tHome}}); len(vs) == 0 {
		t.Errorf("Grep of the home folder (holds ~/.pi/agent/auth.json): allowed")
	}
	// rg's --glob overrides the ignore files: a Grep glob that matches the
	// ignored .env reads it (rg --hidden -g '*env' prints a gitignored .env)
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(map[string]string{
		tCwd + "/.git/config": "[core]\n", tCwd + "/.gitignore": ".env\n", tCwd + "/.env": "K=1", tCwd + "/a.md": "x",
	}, nil)})
	if vs := m.Check(grep); len(vs) != 0 {
		t.Errorf("Grep in a repository whose .env is ignored: %s", vs[0].Reason())
	}
	for _, g := range []string{"*env", "*", ".env", "*.md,*env", "**/.e*"} {
		if vs := m.Check(Call{Tool: "Grep", Args: map[string]any{"pattern": "KEY", "glob": g}}); len(vs) == 0 {
			t.Errorf("Grep glob %q reaches the ignored .env: allowed", g)
		}
	}
	if vs := m.Check(Call{Tool: "Grep", Args: map[string]any{"pattern": "KEY", "glob": "*.md"}}); len(vs) != 0 {
		t.Errorf("Grep glob *.md: %s", vs[0].Reason())
	}
}

// TestGitIgnoresChanged: a command that changes what git ignores before git
// reads the work tree (an ignore file written, moved, removed; a checkout;
// another work tree) gets no exemption from the disk's .gitignore; git
// clean removes untracked hidden files, -x/-X ignored ones too.
func TestGitIgnoresChanged(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/.git/HEAD": "x", tCwd + "/.gitignore": ".env\n",
		"/w2/.env": "K=2", "/w2/.git/HEAD": "x"}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{"mv .gitignore g; git add -A; git diff --cached", KindFolder},
		{"rm .gitignore && git add -A && git diff --cached", KindFolder},
		{"echo > .gitignore; git stash -u", KindFolder},
		{"echo '!.env' >> .gitignore && git add -A", KindFolder},
		{"find . -name .gitignore -delete; git add -A", KindFolder},
		{"git checkout other -- .gitignore && git add -A", KindFolder},
		{"git --work-tree=/w2 add -A && git diff --cached", KindFolder},
		{"GIT_WORK_TREE=/w2 git add -A", KindFolder},
		{"git -c core.worktree=/w2 add -A", KindFolder},
		{"git clean -fdX", KindFolder},
		{"git clean -fx", KindFolder},
		{"git clean -Xdf", KindFolder},
		{"git add -A && git commit -m x", ""},
		{"git stash -u", KindUnverifiable}, // HEAD's files back (pass 33)
		{"git clean -fd", ""},
		{"git clean -nfdx", ""},
		{"git clean -fd -e '!.env'", KindFolder},        // -e takes ignores back
		{"git clean -fd --exclude='!.env'", KindFolder}, // likewise
		{"rm -rf build && git add -A", ""},
		{"find . -name '*.log' -delete; git add -A", ""},
	})
	// without the .gitignore, git clean removes the untracked .env itself
	delete(files, tCwd+"/.gitignore")
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{{"git clean -fd", KindFolder}, {"git clean -f -d", KindFolder}})
}

// TestParseGitIndex: the index git writes (versions 2, 3 with an
// extended entry, 4 with compressed paths) reads as the paths `git
// ls-files` prints; a cut or corrupt one does not read.
func TestParseGitIndex(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	for _, p := range []string{".env", "a.txt", "src/main.go", "src/deep/er/x.go", "src/deep/y.go", "z z.txt", "é.txt"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("add", "-A")
	for _, ver := range []string{"2", "3", "4"} {
		run("update-index", "--index-version", ver)
		if ver == "3" {
			run("update-index", "--skip-worktree", "a.txt") // an extended flag
		}
		b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseGitIndex(b)
		want := strings.Split(strings.TrimSpace(run("-c", "core.quotePath=false", "ls-files")), "\n")
		if !ok || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("version %s: got %q %v, want %q", ver, got, ok, want)
		}
		for _, cut := range []int{3, 11, 20, 70, len(b) / 2} {
			if cut < len(b) {
				if paths, ok := parseGitIndex(b[:cut]); ok && len(paths) == len(want) {
					t.Errorf("version %s cut at %d: read %d paths", ver, cut, len(paths))
				}
			}
		}
	}
	x := &gitIndex{paths: []string{"a.txt", "src/deep/y.go", "src/main.go"}, ok: true}
	for _, c := range []struct {
		p       string
		dir     bool
		tracked bool
	}{{"a.txt", false, true}, {"src", true, true}, {"src/deep", true, true}, {"sr", true, false}, {"src/dee", true, false}, {".env", false, false}} {
		if got := x.has(c.p, c.dir); got != c.tracked {
			t.Errorf("has(%q, %v) = %v", c.p, c.dir, got)
		}
	}
}

// FuzzParseGitIndex: any bytes read without a panic, and what reads is a
// list of non-empty paths.
func FuzzParseGitIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		paths, ok := parseGitIndex(b)
		for _, p := range paths {
			if ok && p == "" {
				t.Fatal("empty path")
			}
		}
	})
}

// TestGitPrintsTracked: git diff, show and log -p print what git tracks: a
// protected file in the repository's index may be printed, whatever
// .gitignore says; output without content (--stat, --name-only, log
// without -p) and pathspecs that leave it out pass.
func TestGitPrintsTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	index := func(tracked ...string) string {
		dir := t.TempDir()
		for _, p := range tracked {
			if err := os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, args := range [][]string{{"init", "-q"}, append([]string{"add", "-f", "--"}, tracked...)} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/a.txt": "a", tCwd + "/.gitignore": ".env\n",
		tCwd + "/.git/HEAD": "x", tCwd + "/.git/index": index(".env", "a.txt", ".gitignore")}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{"git diff", KindFolder}, {"git diff HEAD", KindFolder}, {"git diff --cached", KindFolder},
		{"git show", KindFolder}, {"git log -p", KindFolder}, {"git log -p -3", KindFolder},
		{"git add -A && git diff --cached", KindFolder}, // tracked: staged whatever .gitignore says
		{"git diff --stat", ""}, {"git diff --name-only", ""}, {"git show --stat", ""}, {"git log --oneline", ""},
		{"git diff -- a.txt", ""}, {"git log -p -- src", ""}, {"git status", ""}, {"git blame a.txt", ""},
	})
	// git ls-files prints what the index holds: each name is checked
	runShell(t, m, []shellCase{{"git ls-files | xargs cat", KindDeny}, {"git ls-files -z | xargs -0 wc -l", KindDeny},
		{"wc -l $(git ls-files)", KindDeny}})
	files[tCwd+"/.git/index"] = index("a.txt", ".gitignore")
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{{"git diff", ""}, {"git show", ""}, {"git log -p", ""}, {"git add -A && git diff --cached", ""},
		{"git ls-files | xargs wc -l", ""}, {"git ls-files -z | xargs -0 grep -n TODO", ""},
		{"wc -l $(git ls-files)", ""}, {"cat $(git ls-files -z)", KindUnverifiable}, // NULs dropped: names run together
		// the index may change first, or other names are listed: unknown
		{"git checkout evil && git ls-files | xargs cat", KindUnverifiable},
		{"git read-tree evil && git ls-files | xargs cat", KindUnverifiable},
		{"GIT_INDEX_FILE=/tmp/i git ls-files | xargs cat", KindUnverifiable},
		{"git ls-files -o | xargs cat", KindUnverifiable},
		{"git ls-files --others --exclude-standard | xargs cat", KindUnverifiable},
	})
	files[tCwd+"/.git/index"] = "DIRC\x00\x00\x00\x02\x00\x00\x00\x09cut"
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{{"git diff", KindUnverifiable}, {"git add -A", KindFolder}})
}
