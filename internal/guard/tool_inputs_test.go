package guard

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGrepTypeGlobs: Claude Code's Grep passes `type` to rg --type, which
// searches the names of the type's globs, not `*.TYPE` (yaml: *.yaml and
// *.yml; sh: .bashrc, .profile, …). A type the table does not know filters
// nothing. (attacker pass: input surfaces, Grep type yaml read hosts.yml)
func TestGrepTypeGlobs(t *testing.T) {
	m := mustRules(t, `{"paths":[
		{"path":"~/.config/gh/hosts.yml","deny":["read"]},
		{"path":"secrets.jsx","deny":["read"]},
		{"path":".profile","deny":["read"]}]}`).Matcher(Env{Cwd: "/proj", Home: "/home/u"})
	grep := func(path, typ string) map[string]any {
		a := map[string]any{"pattern": "token", "type": typ}
		if path != "" {
			a["path"] = path
		}
		return a
	}
	deny := []map[string]any{
		grep("/home/u/.config/gh", "yaml"),
		grep("~/.config/gh", "yaml"),
		grep("/home/u/.config", "yaml"),
		grep("/home/u/.config/gh", "yml"),     // not an rg type: filters nothing
		grep("/home/u/.config/gh", "all"),     // not in the table: filters nothing
		grep("/home/u/.config/gh", "no-such"), // ditto
		grep("", "js"),                        // *.jsx is js
		grep("/home/u", "sh"),                 // .profile is sh
	}
	for _, a := range deny {
		if rule, _ := verdict(m, "Grep", a); rule == "" {
			t.Errorf("Grep %v: allowed, want deny", a)
		}
	}
	allow := []map[string]any{
		grep("/home/u/.config/gh", "go"),
		grep("/home/u/.config", "md"),
		grep("", "go"),
		grep("", "py"),
		grep("/home/u", "toml"),
	}
	for _, a := range allow {
		if rule, _ := verdict(m, "Grep", a); rule != "" {
			t.Errorf("Grep %v: denied by %q, want allow", a, rule)
		}
	}
}

// TestInertRuleSyntax: a rule written in a form calls are never matched in
// (a bare entry with `..`, ~user, a variable other than HOME, a file: URL)
// would protect nothing without a word; it is an error naming the entry
// (check exits 2, the hook denies every call). The forms the matcher
// resolves stay valid.
func TestInertRuleSyntax(t *testing.T) {
	for _, p := range []string{"../p/secret.txt", "a/../secret.txt", `..\secret.txt`, "sub/..", "~root/.ssh", "~bob",
		"file:///etc/secret", "FILE:secret", "$PWD/secret.txt", "${XDG_CONFIG_HOME}/gh/hosts.yml", "$USERPROFILE/x"} {
		js := `{"paths":[{"path":` + jsonQuote(p) + `,"deny":["read"]}]}`
		if _, err := ParseRules([]byte(js), "r.json"); err == nil || !strings.Contains(err.Error(), "match nothing") {
			t.Errorf("rule %q: err %v, want a match-nothing error", p, err)
		}
		if _, _, err := ParseAddedRules([]byte(js), "p.json"); err == nil {
			t.Errorf("project rule %q: no error", p)
		}
	}
	for _, p := range []string{"~", "~/", "~/.ssh/", "$HOME/.aws", "${HOME}/.netrc", "/a/../secret.txt", "..env", "x..y/z",
		".env", "./secrets/", "**/*.pem", "%USERPROFILE%/x", `C:\Users\x\.env`, "$secret"} {
		js := `{"paths":[{"path":` + jsonQuote(p) + `,"deny":["read"]}]}`
		if _, err := ParseRules([]byte(js), "r.json"); err != nil {
			t.Errorf("rule %q: %v", p, err)
		}
	}
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestShellToolArgvJoined: a shell tool's command given as a list is read
// as argv and as the line a tool gets by joining it (a validator coercing
// ["cat .env"] to a string, a wrapper running command.join(" ") through
// sh); ["cat .env"] was allowed (argv: a program named "cat .env").
func TestShellToolArgvJoined(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: "/proj", Home: "/home/u"})
	argv := func(words ...string) map[string]any {
		l := make([]any, len(words))
		for i, w := range words {
			l[i] = w
		}
		return map[string]any{"command": l}
	}
	for _, tool := range []string{"bash", "Bash", "shell", "exec_command"} {
		for _, a := range []map[string]any{
			argv("cat .env"), argv("echo hi;", "cat .env"), argv("echo", "hi;", "cat", ".env"), argv("cat", ".env"),
			argv("bash", "-lc", "cat ~/.ssh/id_rsa"), argv("cat $HOME/.netrc"), argv("x=1", "&&", "cat", ".env"),
		} {
			if rule, _ := verdict(m, tool, a); rule == "" {
				t.Errorf("%s %v: allowed, want deny", tool, a)
			}
		}
		for _, a := range []map[string]any{
			argv("git status"), argv("grep", "it's", "a.txt"), argv("bash", "-lc", "ls -la"), argv("ls", "-la"), argv("echo", "hello world"),
		} {
			if rule, _ := verdict(m, tool, a); rule != "" {
				t.Errorf("%s %v: denied by %q, want allow", tool, a, rule)
			}
		}
	}
}

// TestSymlinkedCwd: a cwd reached through a symlink (macOS's /tmp, a linked
// checkout, `ln -s ~ /tmp/h && cd /tmp/h`) keeps the disk: the matcher
// took a cwd whose Lstat is not a folder for one not on this disk, and
// reasoned from the rules alone — ~/.ssh/id_rsa read as /tmp/h/.ssh/id_rsa
// was allowed.
func TestSymlinkedCwd(t *testing.T) {
	fsys := linkFS(map[string]string{
		"/home/u/.ssh/id_rsa":   "K",
		"/home/u/proj/a.go":     "package a",
		"/home/u/proj/v/k.pem":  "K",
		"/home/u/proj/notes.md": "x",
	}, map[string]string{
		"/tmp/h":        "/home/u",
		"/tmp/p":        "/home/u/proj",
		"/tmp/rel":      "../home/u/proj",
		"/tmp/chain":    "/tmp/p",
		"/tmp/dangling": "/nowhere",
	})
	r := mustRules(t, `{"paths":[{"path":"~/.ssh/","deny":["read","bash"]},{"path":"/home/u/proj/v/","deny":["read","bash"]}]}`)
	cases := []struct {
		cwd, tool, arg string
		deny           bool
	}{
		{"/tmp/h", "read", ".ssh/id_rsa", true},
		{"/tmp/h", "bash", "cat .ssh/id_rsa", true},
		{"/tmp/h", "grep", ".ssh", true},
		{"/tmp/p", "read", "v/k.pem", true},
		{"/tmp/rel", "read", "v/k.pem", true},
		{"/tmp/chain", "bash", "cat v/k.pem", true},
		{"/tmp/chain", "bash", "cat ../.ssh/id_rsa", true},
		{"/tmp/p", "read", "a.go", false},
		{"/tmp/p", "bash", "cat notes.md", false},
		{"/tmp/h", "read", "proj/a.go", false},
	}
	for _, c := range cases {
		m := r.Matcher(Env{Cwd: c.cwd, Home: "/home/u", FS: fsys})
		if m.Env().FS == nil {
			t.Errorf("cwd %s: the disk was dropped", c.cwd)
		}
		a := map[string]any{"path": c.arg}
		if c.tool == "bash" {
			a = map[string]any{"command": c.arg}
		}
		if rule, _ := verdict(m, c.tool, a); (rule != "") != c.deny {
			t.Errorf("cwd %s %s %q: rule %q, want deny %v", c.cwd, c.tool, c.arg, rule, c.deny)
		}
	}
	if m := r.Matcher(Env{Cwd: "/tmp/dangling", Home: "/home/u", FS: fsys}); m.Env().FS != nil {
		t.Error("a dangling cwd link kept the disk")
	}
}
