package guard

import (
	"strings"
	"testing"
)

// TestGateRules: a tool call may read the gate's own configuration but
// never change it — pi's settings.json, configs/protected-paths.json and
// extensions under the agent dir, Claude Code's settings (the user's and
// the project's) and the pruner binary — by a write or edit tool or by a
// bash command (redirection, rm, mv, cp, sed -i, tee); one call that
// rewrote the rules would let the next read .env (newcomer pass 13).
func TestGateRules(t *testing.T) {
	const agent, exe = tHome + "/.pi/agent", "/usr/local/bin/pruner"
	rules := &Rules{Source: "user", Entries: []Entry{{Path: "secrets/", Deny: SetRead, Source: "user"}}}
	m := rules.Union(GateRules(agent, exe)).Matcher(Env{Cwd: tCwd, Home: tHome})
	deny := []string{
		`echo '{"contextPrune":{"protectedPathRules":[{"path":"/x","deny":["read"]}]}}' > ~/.pi/agent/settings.json`,
		`cat new.json > ~/.pi/agent/configs/protected-paths.json`,
		`rm ~/.pi/agent/extensions/pruner-protect.ts`,
		`mv /tmp/x.ts ~/.pi/agent/extensions/pruner-protect.ts`,
		`rm -rf ~/.pi/agent/extensions`,
		`sed -i 's/pruner hook/true/' .claude/settings.json`,
		`tee ~/.claude/settings.json < /tmp/s`,
		`printf '{}' > .claude/settings.local.json`,
		`cp /bin/true /usr/local/bin/pruner`,
		`ln -sf /bin/true /usr/local/bin/pruner`,
	}
	for _, c := range deny {
		if k, why := kindOf(m, c); k == "" {
			t.Errorf("%q: allowed, want denied", c)
		} else if !strings.Contains(why, "the gate's own configuration") {
			t.Errorf("%q: reason %q does not say it is the gate's own configuration", c, why)
		}
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"write", map[string]any{"path": "~/.pi/agent/settings.json", "content": "{}"}},
		{"Write", map[string]any{"file_path": tHome + "/.pi/agent/configs/protected-paths.json", "content": "{}"}},
		{"Edit", map[string]any{"file_path": tCwd + "/.claude/settings.json", "old_string": "pruner hook", "new_string": "true"}},
		{"edit", map[string]any{"path": "~/.claude/settings.local.json", "edits": []any{}}},
		{"write", map[string]any{"path": "~/.pi/agent/extensions/off.ts", "content": "x"}},
	} {
		if rule, _ := verdict(m, tc.tool, tc.args); rule == "" {
			t.Errorf("%s %v: allowed, want denied", tc.tool, tc.args)
		}
	}
	allow := []string{
		`cat ~/.pi/agent/settings.json`,
		`ls ~/.pi/agent/extensions`,
		`jq . .claude/settings.json`,
		`pruner config`,
		`/usr/local/bin/pruner now session.jsonl`,
		`echo x > notes/settings.json`,
	}
	for _, c := range allow {
		if k, why := kindOf(m, c); k != "" {
			t.Errorf("%q: denied (%s), want allowed", c, why)
		}
	}
	if rule, _ := verdict(m, "read", map[string]any{"path": "~/.pi/agent/settings.json"}); rule != "" {
		t.Errorf("reading pi's settings: denied by %q", rule)
	}
	// no agent dir, no binary: Claude Code's settings and MCP servers and
	// the project's pi code (.pi/settings.json, .pi/extensions/) are still
	// protected
	// (pass 34 adds .pi/git/, .pi/npm/, Claude Code's two managed settings and ~/.claude/plugins/)
	if g := GateRules("", ""); len(g.Entries) != 13 {
		t.Errorf("GateRules without agent dir or binary: %d entries, want 13", len(g.Entries))
	}
}
