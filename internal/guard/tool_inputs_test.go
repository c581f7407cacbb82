package guard

import "testing"

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
