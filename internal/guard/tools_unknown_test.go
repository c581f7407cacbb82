package guard

import (
	"strings"
	"testing"
)

// TestUnknownToolFolders: a tool the analysis does not know, given a
// folder, may act on every file below it (search, copy, move, delete,
// archive, upload …), whatever the argument is called, unless its name says
// it only lists or describes names. A string argument with line breaks may
// be a list of paths. With the disk and without it.
func TestUnknownToolFolders(t *testing.T) {
	files := map[string]string{
		"/home/user/proj/.env":        "SECRET=x",
		"/home/user/proj/README.md":   "x",
		"/home/user/proj/src/a.py":    "print(1)",
		"/home/user/proj/.git/config": "[core]",
	}
	disk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	bare := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	deny := []struct {
		tool string
		args map[string]any
	}{
		{"mcp__serena__search_for_pattern", map[string]any{"substring_pattern": "SECRET", "relative_path": "."}},
		{"mcp__x__grep", map[string]any{"pattern": "SECRET", "folder": tCwd}},
		{"mcp__x__grep", map[string]any{"pattern": "SECRET", "paths": []any{"."}}},
		{"mcp__x__grep", map[string]any{"pattern": "SECRET", "directory_path": "."}},
		{"mcp__x__search_code", map[string]any{"q": "SECRET", "scope": "./"}},
		{"mcp__x__copy_directory", map[string]any{"source": tCwd, "destination": "/tmp/out"}},
		{"mcp__x__delete", map[string]any{"path": tCwd}},
		{"mcp__x__zip", map[string]any{"source": "."}},
		{"mcp__x__archive_folder", map[string]any{"input": "."}},
		{"mcp__filesystem__move_file", map[string]any{"source": tCwd, "destination": "/tmp/o"}},
		{"mcp__s3__sync", map[string]any{"local": ".", "bucket": "b"}},
		{"mcp__drive__upload", map[string]any{"from": "."}},
		{"mcp__x__do_it", map[string]any{"target": "."}}, // a name that says nothing
		{"frobnicate", map[string]any{"where": "."}},     // not an MCP tool either
		{"mcp__x__get_file", map[string]any{"at": "."}},  // "get" alone says nothing
		{"mcp__x__directory_copy", map[string]any{"a": "."}},
		{"mcp__x__read_files", map[string]any{"files": "README.md\n.env"}},
		{"mcp__x__read_files", map[string]any{"files": "README.md\r\n  .env  \r\n"}},
		{"mcp__x__bundle", map[string]any{"opts": map[string]any{"roots": []any{"src", "."}}}},
	}
	for _, m := range []*Matcher{disk, bare} {
		for _, c := range deny {
			if vs := m.Check(Call{Tool: c.tool, Args: c.args}); len(vs) == 0 {
				t.Errorf("disk=%v %s %v: allowed", m == disk, c.tool, c.args)
			}
		}
	}
	allow := []struct {
		tool string
		args map[string]any
	}{
		{"mcp__filesystem__list_directory", map[string]any{"path": "."}},
		{"mcp__filesystem__directory_tree", map[string]any{"path": "."}},
		{"mcp__filesystem__create_directory", map[string]any{"path": "newdir"}},
		{"mcp__filesystem__get_file_info", map[string]any{"path": "."}},
		{"mcp__x__search", map[string]any{"query": "SECRET", "path": "src"}},
		{"mcp__x__copy_directory", map[string]any{"source": "src", "destination": "/tmp/out"}},
		{"mcp__github__create_issue", map[string]any{"title": "x", "body": "line1\nline2", "repo": "a/b"}},
		{"mcp__filesystem__write_file", map[string]any{"path": "src/b.py", "content": "print(1)\n.env\n"}},
		{"mcp__filesystem__read_multiple_files", map[string]any{"paths": []any{"README.md", "src/a.py"}}},
	}
	for _, c := range allow {
		if vs := disk.Check(Call{Tool: c.tool, Args: c.args}); len(vs) != 0 {
			t.Errorf("%s %v: denied: %s", c.tool, c.args, vs[0].Reason())
		}
	}
}

// TestSearchToolGlobs: Claude Code's Grep passes its glob to rg split at
// blanks and commas (a piece with a brace group stays whole): every piece
// is an include filter, and one that names a protected file reaches it.
func TestSearchToolGlobs(t *testing.T) {
	files := map[string]string{
		"/home/user/proj/.env":      "SECRET=x",
		"/home/user/proj/README.md": "x",
		"/home/user/proj/src/a.py":  "print(1)",
	}
	disk := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	bare := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for _, tool := range []string{"Grep", "grep", "mcp__x__ripgrep"} {
		for _, g := range []string{"*.py,.env", "*.md *env", "*.py\t.e*", ".env,", " .env", "*.py .{env,x}", "**/.env,*.md"} {
			for _, m := range []*Matcher{disk, bare} {
				if vs := m.Check(Call{Tool: tool, Args: map[string]any{"pattern": "SECRET", "path": tCwd, "glob": g}}); len(vs) == 0 {
					t.Errorf("disk=%v %s glob %q: allowed", m == disk, tool, g)
				}
			}
		}
		for _, g := range []string{"*.py,*.md", "*.{py,md}", "*.py *.md", "src/**/*.py", "!.env"} {
			if vs := disk.Check(Call{Tool: tool, Args: map[string]any{"pattern": "SECRET", "path": "src", "glob": g}}); len(vs) != 0 {
				t.Errorf("%s glob %q in src: denied: %s", tool, g, vs[0].Reason())
			}
		}
	}
	if got := strings.Join(grepGlobs("*.py, *.md {a,b}"), "|"); got != "*.py, *.md {a,b}|*.py|*.md|{a,b}" {
		t.Errorf("grepGlobs: %q", got)
	}
}

// TestUnknownToolShellKeys: an unknown tool's argument named like a shell
// command line (script, shell, bash, cmdline, commands, run, exec, …) is
// read as one; a script that is not shell is read as code.
func TestUnknownToolShellKeys(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	for _, k := range []string{"command", "cmd", "script", "shell", "bash", "cmdline", "commandLine", "commands", "run", "exec", "sh", "shell_command"} {
		if vs := m.Check(Call{Tool: "mcp__term__x", Args: map[string]any{k: "cat .e*"}}); len(vs) == 0 {
			t.Errorf("key %q: allowed", k)
		}
	}
	for _, c := range []map[string]any{
		{"script": "ls -la"},
		{"script": "import json\nprint(json.dumps({\"a\": [1,2]}))"},
		{"run": "go test ./..."},
	} {
		if vs := m.Check(Call{Tool: "mcp__term__x", Args: c}); len(vs) != 0 {
			t.Errorf("%v: %s", c, vs[0].Reason())
		}
	}
}
