package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/hostfs"
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
	FailOpen      bool   // --fail-open: an event that cannot be analysed exits 1 instead of denying
	FailClosed    bool   // --fail-closed: the default; accepted so existing hook commands keep working
	CaseSensitive bool   // --case-sensitive
	NoResolve     bool   // --no-resolve: do not look at the file system

	cmd *cobra.Command
}

// NewCmdHook builds `pruner hook`.
func NewCmdHook(s *IOStreams) *cobra.Command {
	o := &HookOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Allow or deny one tool call (Claude Code PreToolUse or pi tool_call event on stdin)",
		Long: `Read one tool-call event as JSON on stdin and decide whether it may touch a
protected path with a denied op. A call is allowed only when the analysis
shows it touches no protected path; what cannot be analysed is denied, with
a reason that says so.

Accepted shapes:
  Claude Code PreToolUse   {"tool_name":"Read","tool_input":{"file_path":…},"cwd":…}
  pi tool_call             {"toolName":"read","input":{"path":…}}   (cwd: --cwd, else the process's)

Rules: --rules FILE, else contextPrune.protectedPathRules in the global
settings.json, else $PI_CODING_AGENT_DIR/configs/protected-paths.json
(~/.pi/agent/…), else the built-in defaults; a project's .pi/settings.json
rules are added to those (a project can protect more, never less). Paths are
normalised (@, ~, $HOME, .., //, file:// URLs, Windows forms) and matched on
their symlink-resolved form too; bash commands are parsed, interpreter code
is read for paths, and folders read recursively are searched for protected
paths (--no-resolve: reason from the rules alone, without the disk).

Output (--format text, Claude Code's exit-code protocol):
  allow  exit 0, nothing printed
  deny   exit 2, a one-line reason on stderr (naming the path and the rule)
With --format json a deny prints {"hookSpecificOutput":{"hookEventName":
"PreToolUse","permissionDecision":"deny","permissionDecisionReason":…}} and
an allow prints {} (no opinion: never "allow", which would skip Claude
Code's own permission prompts); both exit 0.

An event that cannot be analysed (not JSON, nested too deeply, no tool name
or input) is denied; --fail-open exits 1 instead (Claude Code then shows
the error and runs the tool). Claude Code events that carry no tool call
(UserPromptSubmit, SessionStart, Stop, …) get no opinion (exit 0). A bash
command that does not parse is always denied, and so is a call whose analysis
takes longer than 20 s (Claude Code runs the call when a hook outlives its
timeout: keep that above 20 s). The hook reads only what the
gate needs — the settings files and their protectedPathRules — so a bad
pruning setting (maxRetainedChars, PRUNER_FLUSH, …) does not matter here;
rules that do not load, a settings file that does not parse, or a key meant
for the gate that it would not read (a misspelt protectedPathRules, or one
outside contextPrune) deny every call, and the reason names the file and the
key. Usage errors (a mistyped flag in the
hook command) also exit 2, which Claude Code reads as a deny: a broken hook
blocks tool calls rather than letting them through. Test the command by
hand after editing it.`,
		Example: `  # Claude Code: .claude/settings.json
  #   "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "pruner hook"}]}]}

  echo '{"tool_name":"Bash","tool_input":{"command":"cat .env"},"cwd":"/repo"}' | pruner hook
  # stderr: pruner protected-paths: bash command touches protected path ".env" …; exit 2

  # pi (see extensions/protect.ts)
  echo '{"toolName":"read","input":{"path":"@.env"}}' | pruner hook --cwd /repo --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyJSONFlag(cmd, &o.Format); err != nil {
				return err
			}
			if err := checkEnums(cmd); err != nil {
				return err
			}
			if o.FailOpen && o.FailClosed {
				return UsageError("--fail-open and --fail-closed contradict each other (failing closed is the default)")
			}
			o.cmd = cmd
			return runHook(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Rules, "rules", "", "protected-path rules `FILE` ({\"paths\":[{\"path\":…,\"deny\":[…]}]})")
	f.StringVar(&o.Cwd, "cwd", "", "working `DIR` for pi events (default: the current directory)")
	enumFlag(cmd, &o.Format, "format", "text", "`FORMAT`: text (exit 2 + reason on stderr) or json (permissionDecision object)", []string{"text", "json"}, "claude")
	jsonFlag(cmd)
	f.BoolVar(&o.FailOpen, "fail-open", false, "exit 1 (Claude Code runs the tool) when the event cannot be analysed, instead of denying")
	f.BoolVar(&o.FailClosed, "fail-closed", false, "deny when the event cannot be analysed (the default)")
	f.BoolVar(&o.CaseSensitive, "case-sensitive", false, "match paths case-sensitively (default: ignore case, over-blocking)")
	f.BoolVar(&o.NoResolve, "no-resolve", false, "do not look at the file system (symlinks, globs, folder contents): reason from the rules")
	return cmd
}

func runHook(o *HookOptions) error {
	if o.IO.InIsTerminal {
		return &ExitErr{Code: ExitError, Err: errors.New("no event: pipe one tool-call event (JSON) on stdin"),
			Hint: `echo '{"tool_name":"Read","tool_input":{"file_path":".env"},"cwd":"/tmp"}' | pruner hook`}
	}
	data, err := io.ReadAll(io.LimitReader(o.IO.In, maxHookEvent+1))
	if err != nil {
		return o.bad(fmt.Errorf("reading the event: %w", err))
	}
	if len(data) > maxHookEvent {
		return o.bad(fmt.Errorf("the event is larger than %d MiB", maxHookEvent>>20))
	}
	events, err := guard.ParseEvent(data)
	var ee *guard.EventError
	if errors.As(err, &ee) && ee.NotACall {
		return o.noOpinion() // a UserPromptSubmit, Stop, … event: no tool call to judge
	}
	if err != nil {
		return o.bad(err)
	}
	home := homeDir(o.IO)
	// one view of the disk for the whole decision: the analysis asks for
	// the same folders again and again (every target resolves its parents)
	fsys := hostfs.NewCached()
	_, rs, err := loadGate(o.IO, o.cmd, o.Rules, true) // the warnings would not be shown
	if err != nil {
		// one line (stderr is the model's reason, or Claude Code's), with
		// the fix after it: the user reads it when every call is denied
		reason := "pruner protected-paths: rules do not load, denying every call: " + firstLine(err.Error())
		var ee *ExitErr
		if errors.As(err, &ee) && ee.Hint != "" {
			reason += "; hint: " + ee.Hint
		}
		return o.deny(reason)
	}
	// the decision runs against a deadline: Claude Code runs the call when a
	// hook outlives its timeout (60 s by default), so an analysis a crafted
	// call makes slow (a command naming a huge tree hundreds of times) is
	// denied before that
	reason, done := decideWithin(hookDeadline, func() string { return o.decide(events, rs, home, fsys) })
	switch {
	case !done:
		return o.deny(fmt.Sprintf("pruner protected-paths: the call cannot be analysed, so it is denied: the analysis did not finish in %s", hookDeadline))
	case reason != "":
		return o.deny(reason)
	}
	return o.noOpinion()
}

// hookDeadline bounds one hook decision.
const hookDeadline = 20 * time.Second

// decideWithin runs decide and returns its answer, or done false when it
// has not answered within d (it is left running: the process exits).
func decideWithin(d time.Duration, decide func() string) (reason string, done bool) {
	verdict := make(chan string, 1)
	go func() {
		growStack(0)
		verdict <- decide()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case reason = <-verdict:
		return reason, true
	case <-timer.C:
		return "", false
	}
}

// decideStack is the stack growStack gives the decision's goroutine: the
// analysis of a bash command recurses deep enough (the parser, the walk of
// its tree, each command's handlers) that a goroutine's stack, started at
// 2 KiB, doubles four times or more, each time copying itself and
// adjusting every frame on it — a fifth of an in-process decision
// (BenchmarkHookInProcess: 280 → 230 µs with 32 KiB at once).
const decideStack = 32 << 10

// growStack grows the calling goroutine's stack to hold decideStack bytes
// at once: its frame is that large, so the stack is copied once, while it
// is still nearly empty, instead of at each doubling deep in the analysis.
// (It reads the frame at i, which the compiler cannot know, so the frame
// is kept; the byte read is of no use.)
//
//go:noinline
func growStack(i uint) byte {
	var frame [decideStack]byte
	return frame[i%decideStack]
}

// decide returns the deny reason of the first event the rules deny ("" when
// every one is allowed).
func (o *HookOptions) decide(events []guard.Event, rs *config.RuleSet, home string, fsys guard.FS) string {
	for _, ev := range events {
		cwd := firstNonEmpty(ev.Cwd, o.Cwd)
		if ev.Shape == "pi" {
			cwd = firstNonEmpty(o.Cwd, ev.Cwd)
		}
		if wd, _ := os.Getwd(); cwd == "" {
			cwd = wd
		} else if !filepath.IsAbs(cwd) && !guard.IsWindowsPath(cwd) && wd != "" {
			// a relative cwd (`--cwd .`, an event's "cwd":"sub") is the
			// hook's own folder joined with it, as the tool resolves it;
			// the analysis would otherwise take it below /
			cwd = filepath.Join(wd, cwd)
		}
		env := guard.Env{Cwd: cwd, Home: home, CaseSensitive: o.CaseSensitive}
		// the tools run with the hook's environment: a ripgrep config may add --hidden
		env.RipgrepConfig = o.IO.Env("RIPGREP_CONFIG_PATH") != ""
		if !o.NoResolve {
			env.FS = fsys
		}
		if v := rs.Matcher(env).Decide(ev.Call); v != nil {
			return v.Reason()
		}
	}
	return ""
}

// noOpinion allows without a word: exit 0, and `{}` in JSON.
func (o *HookOptions) noOpinion() error {
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
		b, err := json.MarshalWithOption(out, json.DisableHTMLEscape())
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.IO.Out, "%s\n", b)
		return err
	}
	fmt.Fprintln(o.IO.ErrOut, reason)
	return &ExitErr{Code: ExitError}
}

// bad handles an event that cannot be analysed: denied, unless --fail-open
// (exit 1: Claude Code shows the error and runs the tool).
func (o *HookOptions) bad(err error) error {
	if o.FailOpen {
		return &ExitErr{Code: ExitFindings, Err: fmt.Errorf("hook: %w (failing open: --fail-open)", err)}
	}
	return o.deny("pruner protected-paths: the call cannot be analysed, so it is denied: " + err.Error())
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
