package cli

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/spf13/cobra"
)

// maxHookEvent caps the event read from stdin (a write call carries the
// whole file content).
const maxHookEvent = 256 << 20

// HookOptions are the inputs of `pruner hook`.
type HookOptions struct {
	IO *IOStreams

	Rules         string // --rules FILE
	Cwd           string // --cwd: cwd for pi events (default: the process's)
	Format        string // --format: text (Claude exit-code protocol) | json
	FailClosed    bool   // --fail-closed: an unparseable event is denied
	CaseSensitive bool   // --case-sensitive
	NoResolve     bool   // --no-resolve: do not match symlink-resolved paths

	cmd *cobra.Command
}

// NewCmdHook builds `pruner hook`.
func NewCmdHook(s *IOStreams) *cobra.Command {
	o := &HookOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Allow or deny one tool call (Claude Code PreToolUse or pi tool_call event on stdin)",
		Long: `Read one tool-call event as JSON on stdin and decide whether it touches a
protected path with a denied op.

Accepted shapes:
  Claude Code PreToolUse   {"tool_name":"Read","tool_input":{"file_path":…},"cwd":…}
  pi tool_call             {"toolName":"read","input":{"path":…}}   (cwd: --cwd, else the process's)

Rules: --rules FILE, else contextPrune.protectedPathRules in settings.json,
else $PI_CODING_AGENT_DIR/configs/protected-paths.json (~/.pi/agent/…), else
the built-in defaults. Paths are normalised (@, ~, $HOME, .., Windows forms)
and matched on their symlink-resolved form too; bash commands are parsed.

Output (--format text, Claude Code's exit-code protocol):
  allow  exit 0, nothing printed
  deny   exit 2, a one-line reason on stderr (naming the path and the rule)
With --format json a deny prints {"hookSpecificOutput":{"hookEventName":
"PreToolUse","permissionDecision":"deny","permissionDecisionReason":…}} and
an allow prints {} (no opinion: never "allow", which would skip Claude
Code's own permission prompts); both exit 0.

An event that is not JSON or has neither shape exits 1 (fail open: Claude
Code shows the error and runs the tool) unless --fail-closed, which denies.
A bash command that does not parse, or rules that do not load, are denied.
Usage errors (a mistyped flag in the hook command) also exit 2, which Claude
Code reads as a deny: a broken hook blocks tool calls rather than letting
them through. Test the command by hand after editing it.`,
		Example: `  # Claude Code: .claude/settings.json
  #   "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "pruner hook"}]}]}

  echo '{"tool_name":"Bash","tool_input":{"command":"cat .env"},"cwd":"/repo"}' | pruner hook
  # stderr: pruner protected-paths: bash command touches protected path ".env" …; exit 2

  # pi (see extensions/protect.ts)
  echo '{"toolName":"read","input":{"path":"@.env"}}' | pruner hook --cwd /repo --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch o.Format {
			case "text", "claude", "json":
			default:
				return UsageError("--format: want text or json, got %q", o.Format)
			}
			o.cmd = cmd
			return runHook(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Rules, "rules", "", "protected-path rules `FILE` ({\"paths\":[{\"path\":…,\"deny\":[…]}]})")
	f.StringVar(&o.Cwd, "cwd", "", "working `DIR` for pi events (default: the current directory)")
	f.StringVar(&o.Format, "format", "text", "`FORMAT`: text (exit 2 + reason on stderr) or json (permissionDecision object)")
	f.BoolVar(&o.FailClosed, "fail-closed", false, "deny when the event cannot be parsed (default: exit 1, fail open)")
	f.BoolVar(&o.CaseSensitive, "case-sensitive", false, "match paths case-sensitively (default: ignore case, over-blocking)")
	f.BoolVar(&o.NoResolve, "no-resolve", false, "do not also match symlink-resolved paths")
	return cmd
}

// hookEvent is the union of the accepted event shapes.
type hookEvent struct {
	// Claude Code PreToolUse
	ToolName      string         `json:"tool_name"`
	ToolInput     map[string]any `json:"tool_input"`
	Cwd           string         `json:"cwd"`
	HookEventName string         `json:"hook_event_name"`
	// pi tool_call
	PiToolName string         `json:"toolName"`
	PiInput    map[string]any `json:"input"`
}

func runHook(o *HookOptions) error {
	if o.IO.InIsTerminal {
		return &ExitErr{Code: ExitError, Err: errors.New("no event: pipe one tool-call event (JSON) on stdin"),
			Hint: `echo '{"tool_name":"Read","tool_input":{"file_path":".env"},"cwd":"/tmp"}' | pruner hook`}
	}
	data, err := io.ReadAll(io.LimitReader(o.IO.In, maxHookEvent))
	if err != nil {
		return o.bad(fmt.Errorf("reading the event: %w", err))
	}
	var ev hookEvent
	if err := json.Unmarshal(bytes.TrimSpace(data), &ev); err != nil {
		what := "not valid JSON"
		if len(bytes.TrimSpace(data)) == 0 {
			what = "empty"
		} else if stdjson.Valid(bytes.TrimSpace(data)) {
			what = "JSON, but not an event object"
		}
		return o.bad(fmt.Errorf("the event on stdin is %s (want Claude Code's PreToolUse payload or pi's tool_call event)", what))
	}
	var call protect.Call
	cwd := ""
	switch {
	case ev.ToolName != "":
		call = protect.Call{Tool: ev.ToolName, Args: ev.ToolInput}
		cwd = firstNonEmpty(ev.Cwd, o.Cwd)
	case ev.PiToolName != "":
		call = protect.Call{Tool: ev.PiToolName, Args: ev.PiInput}
		cwd = firstNonEmpty(o.Cwd, ev.Cwd)
	default:
		return o.bad(errors.New(`event has neither "tool_name" (Claude Code) nor "toolName" (pi)`))
	}
	if call.Args == nil {
		call.Args = map[string]any{}
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	home := homeDir(o.IO)
	rules, err := loadProtectRules(o.IO, o.cmd, nil, o.Rules, home)
	if err != nil {
		return o.deny("pruner protected-paths: rules do not load, denying every call: " + firstLine(err.Error()))
	}
	env := protect.Env{Cwd: cwd, Home: home, CaseSensitive: o.CaseSensitive}
	if !o.NoResolve {
		env.Resolver = protect.OSResolver{}
	}
	if v := rules.Matcher(env).Decide(call); v != nil {
		return o.deny(v.Reason())
	}
	if o.Format == "json" {
		_, err := fmt.Fprintln(o.IO.Out, "{}")
		return err
	}
	return nil
}

// deny reports a deny decision in the selected protocol.
func (o *HookOptions) deny(reason string) error {
	reason = strings.ReplaceAll(reason, "\n", " ")
	if o.Format == "json" {
		out := map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       "deny",
			"permissionDecisionReason": reason,
		}}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.IO.Out, "%s\n", b)
		return err
	}
	fmt.Fprintln(o.IO.ErrOut, reason)
	return &ExitErr{Code: ExitError}
}

// bad handles an event that cannot be judged: exit 1 (fail open) unless
// --fail-closed.
func (o *HookOptions) bad(err error) error {
	if o.FailClosed {
		return o.deny("pruner: hook: " + err.Error() + " (--fail-closed)")
	}
	return &ExitErr{Code: ExitFindings, Err: fmt.Errorf("hook: %w (failing open; --fail-closed denies instead)", err)}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
