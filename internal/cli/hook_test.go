package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// runCmd runs a command built by newCmd with stdin and an environment.
func runProtectCmd(t *testing.T, newCmd func(*IOStreams) interface {
	SetArgs([]string)
	Execute() error
}, env map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errb,
		Getenv: func(k string) string { return env[k] }}
	cmd := newCmd(s)
	cmd.SetArgs(args)
	err := cmd.Execute()
	if ee, ok := err.(*ExitErr); ok && ee.Err != nil {
		errb.WriteString("pruner: " + ee.Err.Error() + "\n")
	}
	return out.String(), errb.String(), ExitCode(err)
}

func hookCmd(s *IOStreams) interface {
	SetArgs([]string)
	Execute() error
} {
	c := NewCmdHook(s)
	c.SilenceErrors, c.SilenceUsage = true, true
	c.Flags().String("config", "", "")
	return c
}

// TestHookCases runs the protected-path cases 014, 016 and 021 through
// `pruner hook` in both payload shapes and both output modes.
func TestHookCases(t *testing.T) {
	dirs, _ := filepath.Glob("../../testdata/protect/cases/*")
	if len(dirs) < 3 {
		t.Fatal("cases missing")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var env struct{ Cwd, Home string }
			data, _ := os.ReadFile(filepath.Join(dir, "env.json"))
			if err := json.Unmarshal(data, &env); err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{"HOME": env.Home, "PI_CODING_AGENT_DIR": t.TempDir()}
			rules := filepath.Join(dir, "rules.json")
			calls := lines(t, filepath.Join(dir, "calls.jsonl"))
			exps := lines(t, filepath.Join(dir, "expected.jsonl"))
			for i, c := range calls {
				var exp struct {
					Decision, Rule string
				}
				if err := json.Unmarshal([]byte(exps[i]), &exp); err != nil {
					t.Fatal(err)
				}
				var pi struct {
					ToolName string         `json:"toolName"`
					Input    map[string]any `json:"input"`
				}
				if err := json.Unmarshal([]byte(c), &pi); err != nil {
					t.Fatal(err)
				}
				claude, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": pi.ToolName, "tool_input": pi.Input, "cwd": env.Cwd})
				// pi shape, exit-code protocol
				out, errs, code := runProtectCmd(t, hookCmd, vars, c, "--rules", rules, "--cwd", env.Cwd, "--no-resolve")
				checkVerdict(t, i+1, "pi/text", exp.Decision, exp.Rule, code, out, errs)
				// Claude shape, json protocol
				out, errs, code = runProtectCmd(t, hookCmd, vars, string(claude), "--rules", rules, "--format", "json", "--no-resolve")
				if code != 0 || errs != "" {
					t.Fatalf("n=%d json: exit %d stderr %q", i+1, code, errs)
				}
				if exp.Decision == "allow" {
					if strings.TrimSpace(out) != "{}" {
						t.Errorf("n=%d json: allow printed %q", i+1, out)
					}
					continue
				}
				var dec struct {
					HookSpecificOutput struct {
						HookEventName, PermissionDecision, PermissionDecisionReason string
					}
				}
				if err := json.Unmarshal([]byte(out), &dec); err != nil {
					t.Fatalf("n=%d: %v in %q", i+1, err, out)
				}
				h := dec.HookSpecificOutput
				if h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" || !strings.Contains(h.PermissionDecisionReason, `"`+exp.Rule+`"`) {
					t.Errorf("n=%d json: %+v, want deny naming %q", i+1, h, exp.Rule)
				}
			}
		})
	}
}

func checkVerdict(t *testing.T, n int, mode, decision, rule string, code int, out, errs string) {
	t.Helper()
	if out != "" {
		t.Errorf("n=%d %s: stdout %q", n, mode, out)
	}
	switch decision {
	case "allow":
		if code != 0 || errs != "" {
			t.Errorf("n=%d %s: want allow, got exit %d %q", n, mode, code, errs)
		}
	case "block":
		if code != 2 || !strings.Contains(errs, `"`+rule+`"`) || strings.Count(errs, "\n") != 1 {
			t.Errorf("n=%d %s: want exit 2 naming %q in one line, got exit %d %q", n, mode, rule, code, errs)
		}
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func TestHookEventShapes(t *testing.T) {
	vars := map[string]string{"HOME": "/home/u", "PI_CODING_AGENT_DIR": t.TempDir()}
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		stderr      string
	}{
		{"claude bash", `{"tool_name":"Bash","tool_input":{"command":"cat ~/.pi/agent/auth.json"},"cwd":"/r"}`, nil, 2, `rule "~/.pi/agent/auth.json" denies bash`},
		{"claude grep", `{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/r/.git"},"cwd":"/r"}`, nil, 2, `rule ".git/"`},
		{"claude windows cwd", `{"tool_name":"Read","tool_input":{"file_path":"C:\\r\\.ENV"},"cwd":"C:\\r"}`, nil, 2, `rule ".env"`},
		{"claude allow", `{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"cwd":"/r"}`, nil, 0, ""},
		{"pi unknown tool with path", `{"toolName":"mcp_read","input":{"file_path":".env"}}`, []string{"--cwd", "/r"}, 2, `rule ".env"`},
		{"pi event cwd fallback", `{"toolName":"read","input":{"path":"x"},"cwd":"/r/.git"}`, nil, 2, `rule ".git/"`},
		// what cannot be analysed is denied (issue 9), with a reason that says so
		{"no input", `{"toolName":"read"}`, nil, 2, `cannot be analysed, so it is denied: the event has no "input" for tool "read"`},
		{"not an object", `[1,2]`, nil, 2, "cannot be analysed, so it is denied: the event on stdin is JSON, but not an event object"},
		{"bad tool_input", `{"tool_name":"Read","tool_input":"x"}`, nil, 2, `the event's "tool_input" is not an object`},
		{"empty", ``, nil, 2, "the event on stdin is empty"},
		{"no tool name", `{"x":1}`, nil, 2, `neither "tool_name" (Claude Code) nor "toolName" (pi)`},
		{"no tool name, unknown event", `{"hook_event_name":"PreToolUse"}`, nil, 2, `neither "tool_name"`},
		{"an event with no tool call", `{"hook_event_name":"UserPromptSubmit","prompt":"cat .env"}`, nil, 0, ""},
		{"tool name not a string", `{"tool_name":1,"tool_input":{}}`, nil, 2, `"tool_name" is not a tool name`},
		{"not JSON", `garbage`, nil, 2, "not JSON"},
		{"deeper than the decoder", `{"tool_name":"Bash","tool_input":{"command":"true","x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`, nil, 2, "nests deeper than the 10000 levels"},
		{"both shapes: either denies", `{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"toolName":"bash","input":{"command":"cat .env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		{"both path keys are checked", `{"tool_name":"Read","tool_input":{"path":"/r/a.go","file_path":"/r/.env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		// a key given twice is read as JSON.parse reads it (Claude Code, pi): the last one
		{"duplicate command key: the last runs", `{"tool_name":"Bash","tool_input":{"command":"true","command":"cat .env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		{"duplicate tool_input: the last runs", `{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"tool_input":{"file_path":"/r/.env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		{"duplicate tool_name: the last runs", `{"tool_name":"TodoWrite","tool_name":"Read","tool_input":{"file_path":"/r/.env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		{"escaped key", `{"tool_name":"Read","tool_input":{"file_p\u0061th":"/r/.env"},"cwd":"/r"}`, nil, 2, `rule ".env"`},
		{"trailing garbage", `{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"cwd":"/r"} x`, nil, 2, "not valid JSON"},
		{"two events", `{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"cwd":"/r"}{"tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"cwd":"/r"}`, nil, 2, "not valid JSON"},
		{"tool_input as a JSON string", `{"tool_name":"Read","tool_input":"{\"file_path\":\"/r/.env\"}","cwd":"/r"}`, nil, 2, `"tool_input" is not an object`},
		// --fail-open keeps the old exit 1 for those who want it
		{"fail open", `garbage`, []string{"--fail-open"}, 1, "failing open: --fail-open"},
		{"fail open still denies what it analyses", `{"tool_name":"Read","tool_input":{"file_path":"/r/.env"},"cwd":"/r"}`, []string{"--fail-open"}, 2, `rule ".env"`},
		{"--fail-closed is accepted (the default)", `garbage`, []string{"--fail-closed"}, 2, "cannot be analysed"},
		{"contradicting flags", `{}`, []string{"--fail-open", "--fail-closed"}, 2, "contradict"},
		{"bad format", `{}`, []string{"--format", "xml"}, 2, "want text or json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runProtectCmd(t, hookCmd, vars, c.stdin, append([]string{"--no-resolve"}, c.args...)...)
			if code != c.code || !strings.Contains(errs, c.stderr) {
				t.Fatalf("exit %d stderr %q, want %d %q", code, errs, c.code, c.stderr)
			}
		})
	}
}

// TestHookRelativeCwd: a relative cwd (`--cwd .` in a hook command, an
// event's "cwd":".") is the hook's own folder joined with it, where the tool
// resolves its paths; it was taken below / (../.ssh/id_rsa from ~/w read as
// /.ssh/id_rsa and allowed).
func TestHookRelativeCwd(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "w", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(home, "w"))
	vars := map[string]string{"HOME": home, "PI_CODING_AGENT_DIR": t.TempDir()}
	cases := []struct {
		name, stdin string
		args        []string
		code        int
	}{
		{"claude cwd .", `{"tool_name":"Read","tool_input":{"file_path":"../.ssh/id_rsa"},"cwd":"."}`, nil, 2},
		{"claude cwd sub", `{"tool_name":"Read","tool_input":{"file_path":"../../.ssh/id_rsa"},"cwd":"sub"}`, nil, 2},
		{"claude cwd ./sub/..", `{"tool_name":"Bash","tool_input":{"command":"cat ../.ssh/id_rsa"},"cwd":"./sub/.."}`, nil, 2},
		{"pi --cwd .", `{"toolName":"read","input":{"path":"../.ssh/id_rsa"}}`, []string{"--cwd", "."}, 2},
		{"pi --cwd sub", `{"toolName":"bash","input":{"command":"cat ../../.ssh/config"}}`, []string{"--cwd", "sub"}, 2},
		{"benign: cwd .", `{"tool_name":"Read","tool_input":{"file_path":"../w/a.go"},"cwd":"."}`, nil, 0},
		{"benign: pi --cwd sub", `{"toolName":"read","input":{"path":"../a.go"}}`, []string{"--cwd", "sub"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runProtectCmd(t, hookCmd, vars, c.stdin, append([]string{"--no-resolve"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d stderr %q, want %d", code, errs, c.code)
			}
		})
	}
}

// TestHookDeadline: a decision that outlives the hook's deadline is denied
// (Claude Code runs the call when a hook outlives its own timeout; a
// command naming a huge tree hundreds of times took minutes to analyse).
func TestHookDeadline(t *testing.T) {
	if _, done := decideWithin(20*time.Millisecond, func() string { time.Sleep(2 * time.Second); return "" }); done {
		t.Fatal("a slow allow was taken")
	}
	if _, done := decideWithin(20*time.Millisecond, func() string { time.Sleep(2 * time.Second); return "deny" }); done {
		t.Fatal("a slow deny was waited for")
	}
	if r, done := decideWithin(time.Second, func() string { return "why" }); !done || r != "why" {
		t.Fatalf("fast decision: %q %v", r, done)
	}
	if r, done := decideWithin(time.Second, func() string { return "" }); !done || r != "" {
		t.Fatalf("fast allow: %q %v", r, done)
	}
	if hookDeadline >= 60*time.Second {
		t.Fatalf("deadline %s is not below Claude Code's default hook timeout (60 s)", hookDeadline)
	}
}

// BenchmarkHookInProcess measures one `pruner hook` decision inside the
// process as main runs it (command tree, flag parsing, settings and rules
// lookup, decision), without process start-up.
func BenchmarkHookInProcess(b *testing.B) {
	vars := map[string]string{"HOME": b.TempDir(), "PI_CODING_AGENT_DIR": b.TempDir()}
	ev := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm run build 2>&1 | tail -5 && cat .e''nv"},"cwd":"/tmp"}`
	for b.Loop() {
		var out, errb bytes.Buffer
		s := &IOStreams{In: strings.NewReader(ev), Out: &out, ErrOut: &errb, Getenv: func(k string) string { return vars[k] }}
		if code := Main([]string{"hook"}, s, BuildInfo{}); code != 2 {
			b.Fatal(code, errb.String())
		}
	}
}
