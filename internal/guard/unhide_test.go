package guard

import (
	"fmt"
	"testing"
)

// TestHiddenWhitelist: searches that skip hidden names (rg without
// --hidden) reach them when an ignore file of the folder,
// a folder below it or a parent whitelists them, or when ripgrep reads a
// config file; a project's ignore files cannot hide a protected file that
// way.
func TestHiddenWhitelist(t *testing.T) {
	rg := Call{Tool: "bash", Args: map[string]any{"command": "rg KEY"}}
	cases := []struct {
		name   string
		files  map[string]string
		rgConf bool
		want   Kind
	}{
		{"no ignore file", map[string]string{tCwd + "/.env": "K=1"}, false, ""},
		{"gitignore without whitelist", map[string]string{tCwd + "/.env": "K=1", tCwd + "/.gitignore": "node_modules\n.env\n"}, false, ""},
		{"whitelist of another name", map[string]string{tCwd + "/.env": "K=1", tCwd + "/.gitignore": "!.env.example\n!.gitkeep\n"}, false, ""},
		{"whitelist in .ignore", map[string]string{tCwd + "/.env": "K=1", tCwd + "/.ignore": "!.env\n"}, false, KindFolder},
		{"glob whitelist in .rgignore", map[string]string{tCwd + "/.env": "K=1", tCwd + "/.rgignore": "!.e*\r\n"}, false, KindFolder},
		{"whitelist in a parent", map[string]string{tCwd + "/.env": "K=1", tHome + "/.gitignore": "!.env\n"}, false, KindFolder},
		{"whitelist below", map[string]string{tCwd + "/api/.env": "K=1", tCwd + "/api/.ignore": "!/.env\n"}, false, KindFolder},
		{"whitelisted folder", map[string]string{tCwd + "/api/.env": "K=1", tCwd + "/.ignore": "!api/.env\n"}, false, KindFolder},
		{"bad pattern counts as a whitelist", map[string]string{tCwd + "/.env": "K=1", tCwd + "/.ignore": "![\n"}, false, KindFolder},
		{"ripgrep config", map[string]string{tCwd + "/.env": "K=1"}, true, KindFolder},
	}
	for _, c := range cases {
		for _, call := range []Call{rg} { // Claude Code's Grep reads hidden names: TestVCSAwareRecursions
			m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(c.files, nil), RipgrepConfig: c.rgConf})
			var got Kind
			if vs := m.Check(call); len(vs) > 0 {
				got = vs[0].Kind
			}
			if got != c.want {
				t.Errorf("%s, %s: got %q, want %q", c.name, call.Tool, got, c.want)
			}
		}
	}
}

// TestHiddenWhitelistBigTree: past the walk's bound, a whitelist in the
// folder's own ignore file is still seen.
func TestHiddenWhitelistBigTree(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/.ignore": "!.env\n"}
	for i := 0; i < maxWalkEntries+10; i++ {
		files[fmt.Sprintf("%s/gen/f%05d.go", tCwd, i)] = ""
	}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	rg := Call{Tool: "bash", Args: map[string]any{"command": "rg KEY " + tCwd}}
	vs := m.Check(rg)
	if len(vs) == 0 || vs[0].Kind != KindFolder {
		t.Fatalf("got %v, want a folder deny", vs)
	}
	delete(files, tCwd+"/.ignore")
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	if vs := m.Check(rg); len(vs) != 0 {
		t.Fatalf("got %v, want allow (no whitelist)", vs[0].Reason())
	}
}

// TestNULInToolPath: a path with a NUL byte is checked as what a C
// program opens (up to the NUL) and with the NULs dropped.
func TestNULInToolPath(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for _, p := range []string{tCwd + "/.env\x00.txt", ".env\x00", ".e\x00nv", "README.md\x00/../.env"} {
		if vs := m.Check(Call{Tool: "read", Args: map[string]any{"path": p}}); len(vs) == 0 {
			t.Errorf("%q: allowed", p)
		}
	}
	if vs := m.Check(Call{Tool: "read", Args: map[string]any{"path": "README.md\x00"}}); len(vs) != 0 {
		t.Errorf("README.md\\x00: %s", vs[0].Reason())
	}
}

// TestGitGrep: outside a repository git grep may fall back to --no-index
// (grep.fallbackToNoIndex): a recursive read of its pathspecs, else of the
// cwd (in one, only the files git tracks: TestGitGrepTracked).
func TestGitGrep(t *testing.T) {
	fsys := linkFS(map[string]string{tCwd + "/.env": "K=1", tCwd + "/src/main.go": "package main"}, nil)
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: fsys})
	runShell(t, m, []shellCase{
		{"git grep KEY", KindFolder},
		{"git grep --untracked -n KEY", KindFolder},
		{"git grep KEY -- .", KindFolder},
		{"git grep -n KEY -- src", ""},
		{"git grep -e KEY -- src/main.go", ""},
		{"git grep KEY -- .env", KindDeny},
	})
}
