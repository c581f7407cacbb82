package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/atomicfile"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/spf13/cobra"
)

// NowOptions are the options of `pruner now` and `pruner context`.
type NowOptions struct {
	IO        *IOStreams
	Input     string
	NoPrune   bool
	StatsJSON bool
	Quiet     bool
	Config    string
	Session   bool // write the whole session file, not the context
	Write     bool // replace the input file atomically (keeps a backup)
	NoFlush   bool // render what the session's pi-condense index says; summarise nothing new
	NoMask    bool // no rolling-window masking
	cmd       *cobra.Command
}

// pruneFlagKeys maps `now` flags to config keys (flags override settings).
var pruneFlagKeys = map[string]string{
	"recent-turns": "recentTurnsToKeep",
	"max-chars":    "maxRetainedChars",
	"protect-tool": "protectedTools",
	"protect-path": "protectedPaths",
}

// NewCmdNow builds `pruner now`.
func NewCmdNow(s *IOStreams) *cobra.Command {
	o := &NowOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "now [FILE|-]",
		Short: "Print the pruned context of a session (JSONL, one message per line)",
		Long: `Print the messages pi would send for the session's leaf, with old, bulky tool
results replaced by short deterministic notices.

The tool results of the last --recent-turns user turns stay raw. Older results
longer than --max-chars chars (Unicode code points) become a notice naming the
tool, the call, the size and how to recover the original; error results keep a
head and tail excerpt; images in old results become text notices. Protected
calls (protectedTools names, protectedPaths globs on args.path) are never
touched, and every toolCall keeps its result.

A session pi-condense pruned (context-prune-* entries) renders as pi-condense
renders it: indexed results become its stubs, summaries stay where pi puts
them, compressed chains collapse; masking then applies to what no entry
covers. --no-flush summarises nothing new; --no-mask masks nothing.

Input is a pi session file or a context (one message per line, e.g. pruner's
own output); - or no argument reads stdin. A one-line summary goes to stderr.

Exit status: 0 ok (bad lines are skipped with a warning), 2 usage, config or
input error (missing file, directory, empty or non-JSONL input).`,
		Example: `  # prune a session and count the messages
  pruner now ~/.pi/agent/sessions/--home-me-proj--/2026-11-30T10-00-00-000Z_0196.jsonl | wc -l

  # keep 4 turns raw, mask anything older above 2000 chars
  pruner now --recent-turns 4 --max-chars 2000 session.jsonl > context.jsonl

  # from a pipe, stats as JSON for a script
  cat session.jsonl | pruner now --stats-json - 2>stats.json >/dev/null

  # shrink a saved session on disk (atomic; original kept beside it)
  pruner now --write old-session.jsonl

  # write the pruned context to a file (atomic, only on success; - is stdout)
  pruner now -o context.jsonl session.jsonl

  # exactly what pi-condense's index says, nothing added, nothing masked
  pruner now --no-flush --no-mask condensed.jsonl > context.jsonl

  # pruning is idempotent
  pruner now session.jsonl | pruner now -q - | cmp - <(pruner now -q session.jsonl)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.NoPrune, "no-prune", false, "print the context unpruned (same as 'pruner context')")
	f.BoolVar(&o.StatsJSON, "stats-json", false, "write the summary as one JSON object on stderr")
	f.BoolVar(&o.Session, "session", false, "print the whole session file (every line byte-identical except pruned tool results) instead of the context")
	f.BoolVar(&o.Write, "write", false, "rewrite FILE in place with the pruned session (atomic; the original is kept as FILE.orig-<hash>)")
	f.BoolVar(&o.NoFlush, "no-flush", false, "apply what the session's pi-condense index says (stubs, summaries, chains); summarise nothing new")
	f.BoolVar(&o.NoMask, "no-mask", false, "no rolling-window masking: only what the index says is applied")
	f.Int("recent-turns", prune.DefaultRecentTurns, "keep tool results of the last `N` user turns raw (recentTurnsToKeep)")
	f.Int("max-chars", prune.DefaultMaxChars, "prune older results longer than `N` chars (maxRetainedChars)")
	f.StringSlice("protect-tool", nil, "never prune results of these tool name globs (replaces protectedTools)")
	f.StringSlice("protect-path", nil, "never prune calls whose args.path matches these globs (replaces protectedPaths)")
	return cmd
}

// NewCmdContext builds `pruner context`: the unpruned context.
func NewCmdContext(s *IOStreams) *cobra.Command {
	o := &NowOptions{IO: s, NoPrune: true}
	return &cobra.Command{
		Use:   "context [FILE|-]",
		Short: "Print the context pi builds for a session, unpruned (JSONL)",
		Long: `Print the messages pi would hold for the session's leaf, one JSON object per
line, byte for byte as pi's buildSessionContext (1.6) produces them: the leaf is
the last entry, the path runs to the root, the last compaction on the path
counts, custom_message and branch_summary become messages. v1 and v2 files are
migrated in memory (never rewritten).

Exit status: 0 ok, 2 usage or input error.`,
		Example: `  pruner context session.jsonl | jq -r .role | sort | uniq -c
  pruner context -q -o context.jsonl session.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
}

// loadConfig loads the effective config for a command and prints its
// warnings (misspelt keys) on stderr.
func loadConfig(s *IOStreams, cmd *cobra.Command, keys map[string]string) (*config.Config, error) {
	c, err := loadConfigQuiet(s, cmd, keys)
	if err != nil {
		return nil, err
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s\n", w)
	}
	return c, nil
}

// loadConfigQuiet is loadConfig without printing warnings (for `hook`, whose
// stderr is the reason shown to the model). Errors are *ExitErr (exit 2)
// with a hint.
func loadConfigQuiet(s *IOStreams, cmd *cobra.Command, keys map[string]string) (*config.Config, error) {
	path, _ := cmd.Flags().GetString("config")
	wd, _ := os.Getwd()
	c, err := config.Load(config.Options{ConfigFile: path, ProjectDir: wd, Getenv: s.Env, Flags: cmd.Flags(), FlagKeys: keys})
	if err != nil {
		var fe *config.FileError
		if errors.As(err, &fe) {
			hint := "fix the JSON, or point --config at another file"
			switch {
			case fe.Line == 0 && path != "":
				hint = `--config reads a settings file shaped like pi's settings.json: {"contextPrune": {…}}`
			case fe.Line == 0:
				hint = "pruner reads $PI_CODING_AGENT_DIR/settings.json (default ~/.pi/agent) and .pi/settings.json"
			}
			return nil, &ExitErr{Code: ExitError, Err: err, Hint: hint}
		}
		return nil, &ExitErr{Code: ExitError, Err: err}
	}
	return c, nil
}

// openSession opens the input for random access (openSeekable: a regular
// file directly, anything else spooled to a temporary file).
func openSession(s *IOStreams, arg string) (io.Reader, io.ReaderAt, string, func(), func() error, error) {
	in, err := openSeekable(s, arg)
	if err != nil {
		return nil, nil, "", nil, nil, err
	}
	return in.Reader, in.ReaderAt, in.Name, in.Close, in.Flush, nil
}

// maxWarnings is how many line warnings are printed; the rest are counted.
const maxWarnings = 20

// memoryLimit is the Go heap's soft limit for now/context (GOMEMLIMIT wins):
// the index of a 200 MB session lives in ~40 MB, and without a limit the
// collector lets the heap grow to twice the live size.
const memoryLimit = 90 << 20

// run fills o from the command line and runs it.
func (o *NowOptions) run(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		o.Input = args[0]
	}
	o.cmd = cmd
	o.Quiet, _ = cmd.Flags().GetBool("quiet")     // absent on context: false
	o.Config, _ = cmd.Flags().GetString("config") // absent on context: ""
	if o.Write && (o.Input == "" || o.Input == "-") {
		return &ExitErr{Code: ExitError, Err: errors.New("--write needs a FILE argument: it rewrites that session file in place"),
			Hint: "pruner now --write SESSION.jsonl (to prune stdin, drop --write: pruner now - > pruned.jsonl)"}
	}
	if st, err := os.Stat(o.Input); o.Write && err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: --write needs a regular file, not a pipe or device", o.Input),
			Hint: "pruner now --session FILE > pruned.jsonl writes the pruned session elsewhere"}
	}
	return runNow(o)
}

func runNow(o *NowOptions) error {
	s := o.IO
	if s.Env("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(memoryLimit)
		defer debug.SetMemoryLimit(old)
	}
	var opts prune.Options
	var ropts render.Options
	enabled := !o.NoPrune
	if enabled {
		c, err := loadConfig(s, o.cmd, pruneFlagKeys)
		if err != nil {
			return err
		}
		enabled = c.Enabled
		if opts, err = c.PruneOptions(); err != nil {
			return &ExitErr{Code: ExitError, Err: err}
		}
		if ropts, err = c.RenderOptions(); err != nil {
			return &ExitErr{Code: ExitError, Err: err}
		}
	}
	if (o.NoFlush || o.NoMask) && (o.Session || o.Write) {
		return UsageError("--no-flush and --no-mask shape the printed context; they do not go with --session or --write")
	}
	r, ra, name, cleanup, flush, err := openSession(s, o.Input)
	if err != nil {
		return err
	}
	defer cleanup()
	size := sizeOf(ra)
	prog, progress := newProgress(s, size, o.Quiet)
	warned := 0
	defer func() {
		if warned > maxWarnings {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %d more warnings not shown\n", name, warned-maxWarnings)
		}
	}()
	ctx, err := session.Read(r, ra, session.ReadOptions{
		OnWarning: func(w session.Warning) {
			warned++
			if warned > maxWarnings {
				return
			}
			prog.clear()
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s:%d: %s\n", name, w.Line, w.Msg)
		},
		OnProgress: progress,
		SizeHint:   size,
		Branch:     !o.NoPrune && !o.Session && !o.Write,
	})
	prog.clear()
	if err != nil {
		switch {
		case errors.Is(err, session.ErrEmpty):
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: empty input: no JSON line found", name),
				Hint: "give a pi session file (~/.pi/agent/sessions/…/*.jsonl) or a context (one message per line)"}
		case errors.Is(err, session.ErrNotSession):
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err),
				Hint: "pruner reads pi session files (first line {\"type\":\"session\",…}) or contexts (one {\"role\":…} per line)"}
		}
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if err := flush(); err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	var plan *prune.Plan
	if enabled && !o.NoMask {
		plan = prune.NewPlan(ctx, opts)
	}
	if o.Session || o.Write {
		if ctx.Kind != session.KindSession {
			return UsageError("%s: --session and --write need a session file, not a context", name)
		}
		if plan == nil {
			plan = prune.NewPlan(ctx, prune.Options{RecentTurns: len(ctx.Messages) + 1})
		}
		if o.Write {
			return writeSession(o, ctx, plan, name)
		}
	}
	if !o.NoPrune && !o.Session {
		if done, err := renderIndex(o, ctx, ropts, plan, name, &warned); done || err != nil {
			return err
		}
	}
	out := bufio.NewWriterSize(s.Out, 1<<20)
	var st prune.Stats
	if o.Session {
		st, err = prune.RenderSession(out, ctx, plan, ctx.Bytes)
	} else {
		st, err = prune.RenderWith(out, ctx, plan, prune.RenderOptions{NoChars: o.Quiet && !o.StatsJSON})
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	switch {
	case o.StatsJSON:
		b, _ := json.Marshal(struct {
			Input   string `json:"input"`
			Kind    string `json:"kind"`
			Pruning bool   `json:"pruning"`
			prune.Stats
			SavedPercent float64 `json:"savedPercent"`
			Warnings     int     `json:"warnings"`
		}{name, ctx.Kind.String(), enabled, st, round1(st.SavedPercent()), len(ctx.Warnings)})
		fmt.Fprintf(s.ErrOut, "%s\n", b)
	case o.Quiet:
	case !enabled && !o.NoPrune:
		fmt.Fprintf(s.ErrOut, "pruner: %d messages; pruning is off (enabled: false or PRUNER_PRUNING=off)\n", st.Messages)
	case enabled:
		fmt.Fprintln(s.ErrOut, prune.FormatSummary(st))
	}
	return nil
}

// writeSession rewrites the input file with the pruned session: the new
// bytes go to a temporary file in the same directory that is renamed over the
// original (internal/atomicfile: google/renameio on Unix), after the original is copied to
// FILE.orig-<sha256 prefix>. Nothing is written when nothing is pruned.
func writeSession(o *NowOptions, ctx *session.Context, plan *prune.Plan, name string) error {
	s := o.IO
	if o.Input == "" || o.Input == "-" {
		return UsageError("--write needs a FILE argument, not stdin")
	}
	var buf bytes.Buffer
	st, err := prune.RenderSession(&buf, ctx, plan, ctx.Bytes)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if st.Pruned == 0 {
		if !o.Quiet {
			fmt.Fprintf(s.ErrOut, "pruner: %s: nothing to prune; file unchanged\n", name)
		}
		return nil
	}
	orig, err := os.ReadFile(o.Input)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	if int64(len(orig)) != ctx.Bytes {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: file changed while pruning (is pi writing to it?); nothing written", name)}
	}
	sum := sha256.Sum256(orig)
	backup := fmt.Sprintf("%s.orig-%x", o.Input, sum[:4])
	info, err := os.Stat(o.Input)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	if info.Mode().Perm()&0o200 == 0 {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is read-only; not rewriting it", name),
			Hint: "pruner now --session FILE > pruned.jsonl writes the pruned session elsewhere"}
	}
	if err := atomicfile.WriteFile(backup, orig, info.Mode().Perm()); err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("writing backup: %w", err)}
	}
	if err := atomicfile.WriteFile(o.Input, buf.Bytes(), info.Mode().Perm()); err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if !o.Quiet {
		fmt.Fprintf(s.ErrOut, "pruner: %s: %d tool results pruned, %d → %d bytes; original kept as %s\n", name, st.Pruned, st.BytesBefore, st.BytesAfter, backup)
	}
	return nil
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

// newProgress shows "reading N/M MB" on stderr while a large input (64 MiB
// or more, or stdin of unknown size) is read, only when stderr is a terminal.
func newProgress(s *IOStreams, size int64, quiet bool) (*statusLine, func(int64)) {
	p := newStatusLine(s.ErrOut, !quiet && s.ErrIsTerminal && (size == 0 || size >= 64<<20))
	return p, func(n int64) {
		if size > 0 {
			p.show(false, "pruner: reading %d/%d MB", n>>20, size>>20)
		} else {
			p.show(false, "pruner: reading %d MB", n>>20)
		}
	}
}

// sizeOf returns the size of a file input, 0 when unknown (stdin).
func sizeOf(ra io.ReaderAt) int64 {
	if f, ok := ra.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return 0
}

// renderIndex applies pi-condense's render phases (what the session's
// context-prune-* entries say) when the session has such entries, a flag
// asks for them, or the image cap is set; masking (plan, nil for none)
// then rewrites only what the render leaves untouched. done is false when
// there is nothing to render (the masking path runs alone, unchanged).
func renderIndex(o *NowOptions, ctx *session.Context, ro render.Options, plan *prune.Plan, name string, warned *int) (bool, error) {
	s := o.IO
	st, err := index.Rebuild(ctx)
	if err != nil {
		return true, &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	for _, w := range st.Warnings {
		if *warned++; *warned <= maxWarnings {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s:%d: %s\n", name, w.Line, w.Msg)
		}
	}
	if st.Entries == 0 && !o.NoFlush && !o.NoMask && ro.MaxImages == 0 {
		return false, nil
	}
	if plan != nil {
		ro.WillMask = func(i int) bool { return plan.Decisions[i].Kind != prune.Keep }
	}
	res, err := render.Render(ctx, st, ro)
	if err != nil {
		return true, &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	for _, d := range res.Report.Diagnostics {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s: %s\n", name, d.Kind, d.Detail)
	}
	wo := render.WriteOptions{NoChars: o.Quiet && !o.StatsJSON}
	if plan != nil {
		wo.Mask = func(dst []byte, i int) ([]byte, bool, error) { return plan.AppendMessage(dst, ctx, i) }
	}
	out := bufio.NewWriterSize(s.Out, 1<<20)
	rs, err := render.Write(out, ctx, res, wo)
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return true, &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	switch {
	case o.StatsJSON:
		b, _ := json.Marshal(struct {
			Input   string `json:"input"`
			Kind    string `json:"kind"`
			Pruning bool   `json:"pruning"`
			render.Stats
			Index        render.Report `json:"index"`
			SavedPercent float64       `json:"savedPercent"`
			Warnings     int           `json:"warnings"`
		}{name, ctx.Kind.String(), plan != nil, rs, res.Report, round1(rs.SavedPercent()), len(ctx.Warnings) + len(st.Warnings)})
		fmt.Fprintf(s.ErrOut, "%s\n", b)
	case o.Quiet:
	default:
		fmt.Fprintln(s.ErrOut, render.FormatSummary(rs, res.Report))
	}
	return true, nil
}
