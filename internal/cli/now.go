package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pienv"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/sessionfile"
	"github.com/pruner-dev/pruner/internal/spool"
	"github.com/pruner-dev/pruner/internal/summarize"
	"github.com/pruner-dev/pruner/internal/summarize/host"
	"github.com/pruner-dev/pruner/internal/writeback"
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
	Session   bool // write the whole session file (with pruner's entries appended), not the context
	Write     bool // append pruner's entries to the input file (atomic, restorable)
	Force     bool // --write even a file that looks live
	NoFlush   bool // summarise nothing new: render what the session's index says
	NoMask    bool // no rolling-window masking
	// SummarizerTimeout bounds one summariser command (0: the config's).
	SummarizerTimeout time.Duration
	pruneFlags        pruneFlags // the pruning flags (now; none on context)
	cmd               *cobra.Command

	// summarizer is what the configured summarizerCmd did this run: "none"
	// (no command), "ran", "failed" (it ran, no summary came of it) or
	// "not-run" (summarizerNote says why)
	summarizer, summarizerNote string
	// stats is --stats-json's object, once the context is written
	stats *nowStats
}

// NewCmdNow builds `pruner now`.
func NewCmdNow(s *IOStreams) *cobra.Command {
	o := &NowOptions{IO: s}
	cmd := &cobra.Command{
		Use:        "now [FILE|-]",
		SuggestFor: []string{"prune", "condense", "mask"},
		Short:      "Print the pruned context of a session (JSONL, one message per line)",
		Long: `Print the messages pi would send for the session's leaf, with old, bulky tool
results summarised or replaced by short deterministic notices.

The tool results of the last --recent-turns user turns stay raw. Older,
completed calls are flushed as pi-condense (pi-context-prune) flushes them:
grouped into batches (batchingMode), each batch summarised — deterministically
by default, or by --summarizer-cmd — with tN refs, its results replaced by
pi-condense's stubs and the summary added at the end of the context. What the
flush leaves (batches under minBatchChars, summaries longer than their
results) is masked: results longer than --max-chars chars (Unicode code
points) become a notice naming the tool, the call, the size and how to get the
original back. Chains — a user message, its tool turns and the text-only
reply that ends them — older than the last chainCompression.rollingWindow (3)
closed ones collapse into one <compressed-chain id="bN" tools="t…"> message
after their user message (the fused summary of their batches, or
pi-condense's deterministic body when no summary covers them; protected
outputs kept verbatim inside); interrupted, open and raw-window chains stay.
Every tN and bN printed resolves with 'pruner query REF SESSION', with or
without --write. A session's own context-prune-* entries (written by
pi-condense or by --write) are applied as pi-condense applies them. Protected calls
(protectedTools names, protectedPaths globs on args.path) are never touched,
and every toolCall keeps its result.

Input is a pi session file or a context (one message per line, e.g. pruner's
own output; a context is masked only); - or no argument reads stdin. Empty
input is an empty context: nothing is printed, exit 0. A summary goes to
stderr (the flush, then the messages and chars saved; -q silences it),
and a line when a configured --summarizer-cmd did not run, saying why.

--summarizer-cmd runs a shell command per batch with pi-condense's summariser
request on stdin and reads the summary from stdout (and once per chain two or
more summaries cover, with pi-condense's range-fusion request); a command that fails,
times out, prints nothing or no [[N:tool]] label falls back to the
deterministic summary with a warning; one that cannot run (not found or not
executable: exit status 127 or 126) is reported once and not run again. Its summaries are kept in
<user cache dir>/pruner/summaries (keyed by request and command line), so a
later run of the same command reuses them byte for byte; a fallback is never
kept. A project's .pi/settings.json cannot set summarizerCmd (ignored, with a
warning): only your global settings, PRUNER_SUMMARIZER_CMD or this flag.

--write appends pruner's entries to FILE (summaries, pi-condense's index
entries, context edits pi ≥ 1.0 applies by itself, and a marker for 'pruner
restore'); every existing line stays byte-identical. It shrinks the context pi
sends next time, not the file: the file grows by the appended entries.
Context edits (one per tool result the pruned context stubs or masks) are
written only for a v2 or later session: pi gives every entry of a v1 file a
new id when it migrates it, so an edit's target would point nowhere (a
warning says so; pi-condense's entries are still written and apply with
pi-condense). A session with nothing old or large enough to prune gets none
(0 context edits), and one whose last entry has no id gets nothing at all. It refuses a file
modified in the last 10 s or that grows while pruner runs (pi is writing to
it) unless --force, and spills results of spillThreshold chars or more to
<session dir>/<session id>-blobs/. Without --write nothing is written next to
the session.

Exit status: 0 ok (bad lines are skipped with a warning; empty input too),
2 usage, config or input error (missing file, directory, input that is not
JSONL, a live session for --write).`,
		Example: `  # prune a session and count the messages
  pruner now ~/.pi/agent/sessions/--home-me-proj--/2026-11-30T10-00-00-000Z_0196.jsonl | wc -l

  # keep 4 turns raw, mask anything older above 2000 chars
  pruner now --recent-turns 4 --max-chars 2000 session.jsonl > context.jsonl

  # from a pipe, stats as JSON for a script (stderr holds the object alone: warnings go in its "log")
  cat session.jsonl | pruner now --stats-json - 2>stats.json >/dev/null && jq .savedPercent stats.json

  # summarise with an LLM CLI instead of deterministically
  pruner now --summarizer-cmd 'llm -m gpt-4o-mini' session.jsonl > context.jsonl

  # shrink the context pi sends next time (appends entries: the file grows; undo with pruner restore)
  pruner now --write old-session.jsonl

  # write the pruned context to a file (atomic, only on success; - is stdout)
  pruner now -o context.jsonl session.jsonl

  # exactly what pi-condense's index says, nothing added, nothing masked
  pruner now --no-flush --no-mask condensed.jsonl > context.jsonl

  # pruning is idempotent
  pruner now session.jsonl | pruner now -q - | cmp - <(pruner now -q session.jsonl)`,
		Args: oneInput("session"),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.NoPrune, "no-prune", false, "print the context unpruned (same as 'pruner context')")
	f.BoolVar(&o.StatsJSON, "stats-json", false, "write the summary as one JSON object on stderr, alone: warnings, notes and hints go in its \"log\"")
	f.BoolVar(&o.Session, "session", false, "print the whole session file with pruner's entries appended (what --write writes) instead of the context")
	f.BoolVar(&o.Write, "write", false, "append pruner's entries to FILE (atomic; every existing line kept; undo with 'pruner restore')")
	f.BoolVar(&o.Force, "force", false, "with --write: write even a file that looks live (modified moments ago, and not as pruner's last write left it)")
	f.BoolVar(&o.NoFlush, "no-flush", false, "summarise nothing new: apply only what the session's pi-condense index says (flush: false)")
	f.BoolVar(&o.NoMask, "no-mask", false, "no rolling-window masking: only what the index says is applied")
	f.DurationVar(&o.SummarizerTimeout, "summarizer-timeout", 0, "give up on one summariser run after `D` (default: summarizerMaxTimeoutMs, 3m)")
	o.pruneFlags = addPruneFlags(f, prunes, "summarizer-cmd", "recent-turns", "max-chars", "protect-tool", "protect-path")
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

Exit status: 0 ok (empty input is an empty context: nothing printed), 2 usage
or input error.`,
		Example: `  pruner context session.jsonl | jq -r .role | sort | uniq -c
  pruner context -q -o context.jsonl session.jsonl`,
		Args: oneInput("session or context"),
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
	c, err := config.Load(config.Options{ConfigFile: path, ProjectDir: wd, Getenv: s.Env, Environ: s.Environment(), Executable: s.exePath(), Home: homeDir(s), Flags: cmd.Flags(), FlagKeys: keys})
	if err != nil {
		return nil, configErr(err, path)
	}
	return c, nil
}

// configErr is a config.Load error as an exit-2 error, with a hint for a
// settings file that cannot be read (configFile: --config's value).
func configErr(err error, configFile string) error {
	var fe *config.FileError
	if errors.As(err, &fe) {
		hint := "fix the JSON, or point --config at another file"
		switch {
		case fe.Hint != "":
			hint = fe.Hint
		case errors.Is(fe.Err, config.ErrIsDir) && configFile != "":
			hint = `--config takes a settings FILE shaped like pi's settings.json ({"contextPrune": {…}}), e.g. --config ` + shellQuote(filepath.Join(configFile, "settings.json"))
		case errors.Is(fe.Err, config.ErrIsDir):
			hint = "a settings file pruner reads ($PI_CODING_AGENT_DIR/settings.json, default ~/.pi/agent, or .pi/settings.json) is a directory: remove it or make it a file shaped {\"contextPrune\": {…}}"
		case fe.Line == 0 && configFile != "":
			hint = `--config reads a settings file shaped like pi's settings.json: {"contextPrune": {…}}`
		case fe.Line == 0:
			hint = "pruner reads $PI_CODING_AGENT_DIR/settings.json (default ~/.pi/agent) and .pi/settings.json"
		}
		return &ExitErr{Code: ExitError, Err: err, Hint: hint}
	}
	if hints := valueHints(err); hints != "" {
		return &ExitErr{Code: ExitError, Err: err, Hint: hints}
	}
	var re *config.RulesError
	if errors.As(err, &re) {
		return &ExitErr{Code: ExitError, Err: err, Hint: rulesHint}
	}
	return &ExitErr{Code: ExitError, Err: err}
}

// valueHints is the hint under one or more bad settings values (a
// *config.ValueError, or several joined): each key's hint once, a line each.
func valueHints(err error) string {
	var ves []*config.ValueError
	if multi, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range multi.Unwrap() {
			var ve *config.ValueError
			if errors.As(e, &ve) {
				ves = append(ves, ve)
			}
		}
	} else if ve := (*config.ValueError)(nil); errors.As(err, &ve) {
		ves = append(ves, ve)
	}
	var hints []string
	for _, ve := range ves {
		if ve.Hint != "" && !slices.Contains(hints, ve.Hint) {
			hints = append(hints, ve.Hint)
		}
	}
	return strings.Join(hints, "\nhint: ")
}

// rulesHint is the hint under an invalid protected-path rules list: its
// two shapes, and where the format is described.
const rulesHint = `protectedPathRules is a list of entries: [{"path": ".env", "deny": ["read", "write", "edit", "bash"]}, …] (a rules file may also be {"paths": [ … ]}); ops: read, write, edit, bash; see pruner check --help`

// maxWarnings is how many line warnings are printed; the rest are counted.
const maxWarnings = 20

// memoryLimit is the Go heap's soft limit for now/context (GOMEMLIMIT wins)
// until the input's size is known (then branchLimit, or indexLimit).
const memoryLimit = 90 << 20

// readLimit is the floor of a flush's heap limit (flushLimit): the limit a
// read with its branch had when a context, its branch and its plan lived
// in about 0.17 bytes per input byte (the branch and the plan were 88 and
// 16 bytes an entry; branchLimit is the read's limit now).
func readLimit(size int64) int64 { return max(memoryLimit, 64<<20+size/5) }

// smallSession is the largest session run without collections paced by
// GOGC: its whole run allocates about ten bytes per input byte (1 MB: 9 MB),
// which stays under the heap limit (memoryLimit at least), so the collector
// need not run at all — from a 4 MB heap it ran 2–3 times on a 1 MB session,
// 12% of the run's instructions, most of them assists.
const smallSession = 4 << 20

// run fills o from the command line and runs it.
func (o *NowOptions) run(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		o.Input = args[0]
	}
	o.cmd = cmd
	o.Quiet, _ = cmd.Flags().GetBool("quiet")     // absent on context: false
	o.Config, _ = cmd.Flags().GetString("config") // absent on context: ""
	if o.Write && (o.Input == "" || o.Input == "-") {
		return &ExitErr{Code: ExitError, Err: errors.New("--write needs a FILE argument: it appends pruner's entries to that session file"),
			Hint: "pruner now --write SESSION.jsonl (to prune stdin, drop --write: pruner now - > pruned.jsonl)"}
	}
	if st, err := os.Stat(o.Input); o.Write && err == nil && st.IsDir() {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is a directory: --write appends to one session file", o.Input),
			Hint: fmt.Sprintf("pick the session in it (ls %s), then: pruner now --write FILE.jsonl", shellQuote(o.Input)+"/*.jsonl")}
	}
	if st, err := os.Stat(o.Input); o.Write && err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: --write needs a regular file, not a pipe or device", o.Input),
			Hint: "pruner now --session FILE > pruned.jsonl writes the pruned session elsewhere"}
	}
	if a := streamAlias(o.Write, o.Input); a != "" {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: --write needs the session file's own path: %s names whatever the shell opened there", o.Input, a),
			Hint: "pruner now --write SESSION.jsonl (with the file's path; pruner restore SESSION.jsonl undoes it)"}
	}
	if o.StatsJSON {
		return runNowStatsJSON(o)
	}
	return runNow(o)
}

// runNowStatsJSON is runNow for --stats-json, whose object is machine
// output: on success stderr holds that one JSON object and nothing else —
// the warnings, notes and hints a run prints on stderr are its "log"
// (`2>stats.json` is valid JSON whatever the session holds). A run that
// fails, or prints no object (--session, --write), prints them as
// usual, then its error.
func runNowStatsJSON(o *NowOptions) error {
	real := o.IO
	var log bytes.Buffer
	captured := *real
	captured.ErrOut, captured.ErrIsTerminal = &log, false
	o.IO = &captured
	err := runNow(o)
	o.IO = real
	if err != nil || o.stats == nil {
		real.ErrOut.Write(log.Bytes())
		return err
	}
	o.stats.Log = logLines(log.String())
	return writeNowStats(real.ErrOut, o.stats)
}

// logLines splits stderr text into its lines, without their newlines.
func logLines(text string) []string {
	lines := []string{}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// streamAlias is hostfs.StreamAlias of input when the run rewrites it
// (--write), "" otherwise.
func streamAlias(write bool, input string) string {
	if !write {
		return ""
	}
	return hostfs.StreamAlias(input)
}

func runNow(o *NowOptions) error {
	s := o.IO
	defer s.limitMemory(memoryLimit)()
	if o.Write && o.Session {
		return UsageError("--session prints what --write would write; give one of them")
	}
	if o.Force && !o.Write {
		return UsageError("--force goes with --write")
	}
	if o.NoPrune && o.Write {
		return UsageError("--no-prune turns pruning off, so --write would have nothing to write; drop one of them")
	}
	var c *config.Config
	enabled := !o.NoPrune
	if enabled {
		var err error
		if c, err = loadConfig(s, o.cmd, o.pruneFlags); err != nil {
			return err
		}
		enabled = c.Enabled
	}
	cx := notifyInterrupts()
	defer cx.Stop()

	// input: the file pruner may replace is opened once, with the live checks
	var r io.Reader
	var ra io.ReaderAt
	var name string
	var target *sessionfile.File
	spooled := func() error { return nil }
	if o.Write {
		fl, err := sessionfile.Open(o.Input, sessionfile.Options{Force: o.Force, LaterQuietCheck: true})
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return &ExitErr{Code: ExitError, Err: hostfs.NoSuchFile(o.Input)}
			}
			return writeErr(o.Input, err)
		}
		defer fl.Close()
		// recent because pruner's last write left it so, or because pi is writing it
		if err := writeback.CheckQuiet(fl); err != nil {
			return writeErr(o.Input, err)
		}
		target, r, ra, name = fl, io.NewSectionReader(fl.Reader(), 0, fl.Size()), fl.Reader(), o.Input
		// the file itself when it is still the size it was opened with:
		// session.Read maps it (no read call per line, nor per message the
		// render views: 200 MB --write ~10% less CPU); it must not grow
		// until mapped (checked below), else its first Size bytes are read
		if st, err := fl.Reader().Stat(); err == nil && st.Size() == fl.Size() {
			if _, err := fl.Reader().Seek(0, io.SeekStart); err == nil {
				r = fl.Reader()
			}
		}
	} else {
		in, err := openSeekable(cx, s, o.Input)
		if err != nil {
			return err
		}
		defer in.Close()
		r, ra, name, spooled = in.Reader, in.ReaderAt, in.Name, in.Flush
	}
	ctx, warned, err := readSession(o, r, ra, name, spooled)
	if err != nil {
		return err
	}
	if target != nil && ctx.Bytes != target.Size() {
		// pi appended between the size check and the mapping
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: the file grew while pruner read it (pi is writing it?); nothing written", name)}
	}
	defer func() {
		if *warned > maxWarnings {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %d more warnings not shown\n", name, *warned-maxWarnings)
		}
	}()
	if (o.Session || o.Write) && ctx.Kind != session.KindSession {
		return UsageError("%s: --session and --write need a session file, not a context", name)
	}
	if (o.NoFlush || o.NoMask) && o.NoPrune {
		return UsageError("--no-flush and --no-mask shape the pruned context; they do not go with --no-prune")
	}
	po, plan, err := o.pipelineOptions(c, enabled, ctx, target)
	if err != nil {
		return err
	}
	if ctx.Bytes <= smallSession {
		defer s.collectAtLimit()()
	}
	if po.Flush && ctx.Bytes > smallSession {
		// the flush's summaries wait for the render in a temporary file,
		// not in the heap (none when it cannot be made: held then)
		if texts, err := spool.NewTexts("pruner-summaries-*"); err == nil {
			defer texts.Close()
			po.Texts = texts
		}
	}
	if po.Flush || po.Index && index.HasEntries(ctx) {
		// a flush holds its batches' records, refs and summaries on top of
		// the index, and a render of a session flushed before holds its
		// rebuilt state (--no-flush too): room in proportion to the
		// session, or the collector runs back to back against the limit
		// (runNow restores the old one)
		s.limitMemory(flushLimit(ctx.Bytes, o.Write || o.Session, index.HasEntries(ctx)))
	}
	res, err := pipeline.Run(cx, ctx, po)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if cx.Err() != nil {
		return Interrupted("%s: interrupted; nothing written", name)
	}
	for _, w := range res.Warnings {
		if *warned++; *warned <= maxWarnings {
			if w.Line > 0 {
				fmt.Fprintf(s.ErrOut, "pruner: warning: %s:%d: %s\n", name, w.Line, w.Msg)
			} else {
				fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s\n", name, w.Msg)
			}
		}
	}
	if enabled && !o.NoPrune && res.Pairing != nil {
		// pairs pi-ai would not pair: told, and left as they are
		for _, h := range res.Pairing.Hazards {
			if *warned++; *warned <= maxWarnings {
				fmt.Fprintf(s.ErrOut, "pruner: warning: %s: pairing: %s; not masked, stubbed or summarised\n", name, h)
			}
		}
	}
	if res.Rendered != nil {
		for _, d := range res.Rendered.Report.Diagnostics {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s: %s\n", name, d.Kind, d.Detail)
		}
	}
	if res.FlushSkipped != "" && po.Flush && ctx.Kind == session.KindSession && !o.Quiet {
		fmt.Fprintf(s.ErrOut, "pruner: note: %s: no flush: %s\n", name, res.FlushSkipped)
	}
	o.summarizer, o.summarizerNote = "none", ""
	if c != nil && c.SummarizerCmd != "" && enabled {
		o.summarizer, o.summarizerNote = summarizerOutcome(o, ctx, res)
	}
	switch {
	case o.Write:
		return writeSession(o, cx, target, res, plan, name)
	case o.Session:
		return printSession(o, res, ra, name, writeback.PendingBlobs(plan))
	}
	return printContext(o, res, enabled, name)
}

// readSession decodes the input, streaming warnings to stderr (the first
// maxWarnings of them); spooled completes a stdin spool once it is read.
func readSession(o *NowOptions, r io.Reader, ra io.ReaderAt, name string, spooled func() error) (*session.Context, *int, error) {
	s := o.IO
	size := sizeOf(ra)
	if o.NoPrune {
		s.limitMemory(indexLimit(size)) // no branch, no plan: the index only (runNow restores the old limit)
	} else {
		s.limitMemory(branchLimit(size)) // runNow restores the old limit
	}
	prog, progress := newProgress(s, size, o.Quiet)
	warned := new(int)
	wp := newWarningPrinter(s, name)
	ctx, err := session.Read(r, ra, session.ReadOptions{
		OnWarning: func(w session.Warning) {
			*warned++
			if *warned > maxWarnings {
				return
			}
			prog.clear()
			wp.print(w)
		},
		OnProgress: progress,
		SizeHint:   size,
		Branch:     !o.NoPrune,
		AllEntries: o.Session || o.Write,
	})
	prog.clear()
	if errors.Is(err, errInterrupted) {
		return nil, warned, Interrupted("%s: interrupted; nothing written", name)
	}
	if err != nil {
		return nil, warned, readError(name, err, "give a pi session file (~/.pi/agent/sessions/…/*.jsonl) or a context (one message per line)")
	}
	if err := spooled(); err != nil {
		return nil, warned, &ExitErr{Code: ExitError, Err: err}
	}
	return ctx, warned, nil
}

// pipelineOptions turns the config and flags into the pipeline's options.
//
// Results of spillThreshold chars or more are spilled whenever the input is
// a session file with an id (the blobs' place is beside it): the context,
// --session and --write name the same blobs, and only --write writes them
// (writeSession, once everything else succeeded). Input that is no file
// (stdin, a pipe) has no place for blobs and spills nothing.
func (o *NowOptions) pipelineOptions(c *config.Config, enabled bool, ctx *session.Context, target *sessionfile.File) (pipeline.Options, *blobs.Plan, error) {
	if o.NoPrune {
		return pipeline.Options{}, nil, nil
	}
	po, err := pipeline.FromConfig(c, shellRunner)
	if err != nil {
		return po, nil, &ExitErr{Code: ExitError, Err: err}
	}
	if !enabled {
		return po, nil, nil
	}
	po = shapeStages(po, o.NoFlush, o.NoMask, ctx.Kind)
	// only --write and --session append the flush's entries: a run that
	// prints the context has the flush keep none
	po.NoEntries = !o.Write && !o.Session
	po, plan := withSpill(po, o.Input, target, ctx)
	if po.Summarizer.Command != nil {
		if o.SummarizerTimeout > 0 {
			po.Summarizer.Timeout = o.SummarizerTimeout
		}
		if dir := summaryCacheDir(o.IO); dir != "" {
			po.Summarizer.Cache = host.DirCache{Dir: dir}
		}
	}
	return po, plan, nil
}

// shellRunner runs summarizerCmd as a shell command line (sh -c).
// A command that cannot run (not found) is run once, not once per batch.
func shellRunner(command string) summarize.Runner {
	return summarize.StopWhenCannotRun(host.ExecRunner{Command: command})
}

// summaryCacheDir is where command summaries are kept: <user cache
// dir>/pruner/summaries, the cache dir found through the injected
// environment ("" when there is none).
func summaryCacheDir(s *IOStreams) string {
	dir := pienv.CacheDir(s.Env)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "pruner", "summaries")
}

// spillPlan is the spill of a run over the session file input (target when
// --write opened it): nil when the input is no regular file or the session
// has no id.
// withSpill is po with the spill of input's large results (spillPlan) when
// it flushes: now and stats (which must report what now prints) shape
// their pipelines with it.
func withSpill(po pipeline.Options, input string, target *sessionfile.File, ctx *session.Context) (pipeline.Options, *blobs.Plan) {
	if !po.Flush {
		return po, nil
	}
	plan := spillPlan(input, target, ctx)
	if plan != nil {
		po.Spill = plan.Spill
	}
	return po, plan
}

func spillPlan(input string, target *sessionfile.File, ctx *session.Context) *blobs.Plan {
	if ctx.Kind != session.KindSession || ctx.Header.ID == "" || input == "" || input == "-" {
		return nil
	}
	path := input
	if target != nil {
		path = target.Target
	}
	return blobs.ForSession(path, ctx.Header.ID)
}

// printContext writes the pruned context and the summary line.
func printContext(o *NowOptions, res *pipeline.Result, enabled bool, name string) error {
	s := o.IO
	ctx := res.Ctx
	out := bufio.NewWriterSize(s.Out, outBufSize(ctx.Bytes))
	noChars := o.Quiet && !o.StatsJSON
	if res.Rendered == nil {
		st, err := prune.RenderWith(out, ctx, res.Mask, prune.RenderOptions{NoChars: noChars})
		if err == nil {
			err = out.Flush()
		}
		if err != nil {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
		}
		switch {
		case o.StatsJSON:
			ns := newNowStats(name, ctx, enabled, len(ctx.Warnings)+len(res.Warnings))
			ns.fromMasking(st)
			ns.fromFlush(res.Flushed)
			if o.summarizer != "" {
				ns.Flush.Summarizer = o.summarizer
			}
			o.stats = ns // written by runNowStatsJSON, with the run's log
		case o.Quiet:
		case !enabled && !o.NoPrune:
			fmt.Fprintf(s.ErrOut, "pruner: %d messages; pruning is off (enabled: false or PRUNER_PRUNING=off)\n", st.Messages)
		case enabled:
			for _, line := range o.flushLines(res.Flushed) {
				fmt.Fprintln(s.ErrOut, line)
			}
			fmt.Fprintln(s.ErrOut, prune.FormatSummary(st))
		}
		return nil
	}
	wo := render.WriteOptions{NoChars: noChars}
	var masking maskingStats
	if plan := res.Mask; plan != nil {
		wo.Mask = func(dst []byte, i int) ([]byte, bool, error) {
			b, changed, err := plan.AppendMessage(dst, ctx, i)
			if changed {
				masking.count(plan.Decisions[i].Kind)
			}
			return b, changed, err
		}
	}
	rs, err := render.Write(out, ctx, res.Rendered, wo)
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	switch {
	case o.StatsJSON:
		ns := newNowStats(name, ctx, enabled, len(ctx.Warnings)+len(res.Warnings))
		ns.fromIndex(rs, res.Rendered.Report, res.Mask, masking)
		ns.fromFlush(res.Flushed)
		if o.summarizer != "" {
			ns.Flush.Summarizer = o.summarizer
		}
		o.stats = ns // written by runNowStatsJSON, with the run's log
	case o.Quiet:
	default:
		for _, line := range o.flushLines(res.Flushed) {
			fmt.Fprintln(s.ErrOut, line)
		}
		fmt.Fprintln(s.ErrOut, render.FormatSummary(rs, res.Rendered.Report))
	}
	return nil
}

// nowStatsVersion is the version of `now --stats-json`'s shape
// (docs/now-stats.schema.json).
const nowStatsVersion = 1

// nowStats is `now --stats-json`: one shape whatever ran
// (docs/now-stats.schema.json) — masking alone, the index render, a flush
// — with zeros where a stage did nothing or did not run.
type nowStats struct {
	SchemaVersion int    `json:"schemaVersion"`
	Input         string `json:"input"`
	Kind          string `json:"kind"`
	Pruning       bool   `json:"pruning"`
	// messages written, in the unpruned context, written that differ from
	// it (inserted included), of the context not written (chains, sweep)
	Messages      int   `json:"messages"`
	InputMessages int   `json:"inputMessages"`
	Changed       int   `json:"changed"`
	Dropped       int   `json:"dropped"`
	CharsBefore   int64 `json:"charsBefore"`
	CharsAfter    int64 `json:"charsAfter"`
	TokensBefore  int64 `json:"tokensBefore"`
	TokensAfter   int64 `json:"tokensAfter"`
	BytesBefore   int64 `json:"bytesBefore"`
	BytesAfter    int64 `json:"bytesAfter"`
	// where the provider's prompt cache first misses (-1: nothing changed)
	FirstChangedMessage int     `json:"firstChangedMessage"`
	FirstChangedByte    int64   `json:"firstChangedByte"`
	SavedPercent        float64 `json:"savedPercent"`
	Warnings            int     `json:"warnings"`
	// Log is what the run would have printed on stderr besides the
	// summary: warnings, notes, hints, one line each
	Log     []string     `json:"log"`
	Masking maskingStats `json:"masking"`
	Index   indexStats   `json:"index"`
	Flush   flushStats   `json:"flush"`
}

// maskingStats is what rolling-window masking saw and did.
type maskingStats struct {
	ToolResults int `json:"toolResults"`
	Recent      int `json:"recent"`         // inside the recent window
	Protected   int `json:"protected"`      // old, kept: protected call
	Hazards     int `json:"pairingHazards"` // old, kept: pi-ai would not pair them
	Masked      int `json:"masked"`         // replaced by one notice
	Excerpts    int `json:"excerpts"`       // error results: notice + head and tail
	Images      int `json:"imagesMasked"`   // image blocks replaced, text kept
}

func (m *maskingStats) count(k prune.Kind) {
	switch k {
	case prune.Masked:
		m.Masked++
	case prune.Excerpt:
		m.Excerpts++
	case prune.ImagesMasked:
		m.Images++
	}
}

// indexStats is what pi-condense's render of the index did.
type indexStats struct {
	Stubbed             int      `json:"stubbed"`
	SpillStubbed        int      `json:"spillStubbed"`
	Repaired            int      `json:"repaired"`
	Graced              int      `json:"graced"`
	Superseded          int      `json:"superseded"`
	Purged              int      `json:"purged"`
	ImagesOmitted       int      `json:"imagesOmitted"`
	Hazards             int      `json:"pairingHazards"`
	Chains              int      `json:"chains"`
	ChainRepaired       int      `json:"chainRepaired"`
	ChainDropped        int      `json:"chainDropped"`
	SummariesSuppressed int      `json:"summariesSuppressed"`
	AppendedSuppressed  int      `json:"appendedSuppressed"`
	Swept               []string `json:"swept"`
	Diagnostics         int      `json:"diagnostics"`
}

// flushStats is what the flush did (outcome "none" when no flush ran).
type flushStats struct {
	Outcome      string `json:"outcome"`
	Batches      int    `json:"batches"`
	Processed    int    `json:"processed"`
	Calls        int    `json:"calls"`
	Summarized   int    `json:"summarized"`
	Spilled      int    `json:"spilled"`
	Deduped      int    `json:"deduped"`
	Trivial      int    `json:"trivial"`
	Oversized    int    `json:"oversized"`
	RawChars     int    `json:"rawChars"`
	SummaryChars int    `json:"summaryChars"`
	CommandCalls int    `json:"commandCalls"`
	// Summarizer is what summarizerCmd did: none (not set), ran, not-run
	Summarizer string `json:"summarizer"`
	// SummarizerFailed counts the batches, FusionsFailed the chains, whose
	// summariser gave no summary (the deterministic one was used)
	SummarizerFailed int `json:"summarizerFailed"`
	FusionsFailed    int `json:"fusionsFailed"`
	// chain compression: chains compressed, the calls they drop, range
	// summaries fused, calls backfilled (indexed for the chain)
	Chains     int `json:"chains"`
	ChainCalls int `json:"chainCalls"`
	Fused      int `json:"fused"`
	Backfilled int `json:"backfilled"`
}

func newNowStats(name string, ctx *session.Context, enabled bool, warnings int) *nowStats {
	return &nowStats{SchemaVersion: nowStatsVersion, Input: name, Kind: ctx.Kind.String(), Pruning: enabled, Warnings: warnings,
		FirstChangedMessage: -1, FirstChangedByte: -1,
		Log: []string{}, Index: indexStats{Swept: []string{}}, Flush: flushStats{Outcome: "none", Summarizer: "none"}}
}

// fromMasking fills ns from masking's render (no index stage ran).
func (ns *nowStats) fromMasking(st prune.Stats) {
	ns.Messages, ns.InputMessages, ns.Changed = st.Messages, st.Messages, st.Pruned
	ns.CharsBefore, ns.CharsAfter, ns.TokensBefore, ns.TokensAfter = st.CharsBefore, st.CharsAfter, st.TokensBefore, st.TokensAfter
	ns.BytesBefore, ns.BytesAfter = st.BytesBefore, st.BytesAfter
	ns.FirstChangedMessage, ns.FirstChangedByte = st.FirstChanged, st.FirstChangedByte
	ns.SavedPercent = round1(st.SavedPercent())
	ns.Masking = maskingStats{ToolResults: st.ToolResults, Recent: st.Recent, Protected: st.Protected, Hazards: st.Hazards,
		Masked: st.Masked, Excerpts: st.Excerpts, Images: st.Images}
}

// fromIndex fills ns from the index render and the masking that composed
// over it (plan nil: none; m its counts).
func (ns *nowStats) fromIndex(rs render.Stats, rep render.Report, plan *prune.Plan, m maskingStats) {
	ns.Messages, ns.InputMessages, ns.Changed, ns.Dropped = rs.Messages, rs.Input, rs.Changed, rs.Dropped
	ns.CharsBefore, ns.CharsAfter, ns.TokensBefore, ns.TokensAfter = rs.CharsBefore, rs.CharsAfter, rs.TokensBefore, rs.TokensAfter
	ns.BytesBefore, ns.BytesAfter = rs.BytesBefore, rs.BytesAfter
	ns.FirstChangedMessage, ns.FirstChangedByte = rs.FirstChanged, rs.FirstChangedByte
	ns.SavedPercent = round1(rs.SavedPercent())
	if plan != nil {
		m.ToolResults, m.Recent, m.Protected, m.Hazards = plan.ToolResults, plan.Recent, plan.Protected, plan.Hazards
	}
	ns.Masking = m
	ns.Index = indexStats{Stubbed: rep.Stubbed, SpillStubbed: rep.SpillStubbed, Repaired: rep.Repaired, Graced: rep.Graced,
		Superseded: rep.Superseded, Purged: rep.Purged, ImagesOmitted: rep.ImagesOmitted, Hazards: rep.Hazards,
		Chains: rep.Chains, ChainRepaired: rep.ChainRepaired, ChainDropped: rep.ChainDropped,
		SummariesSuppressed: rep.SummariesSuppressed, AppendedSuppressed: rep.AppendedSuppressed,
		Swept: append([]string{}, rep.Swept...), Diagnostics: len(rep.Diagnostics)}
}

// fromFlush fills ns's flush part (f nil: no flush ran).
func (ns *nowStats) fromFlush(f *index.Flushed) {
	if f != nil {
		ns.Flush = flushStats{Summarizer: ns.Flush.Summarizer,
			Outcome: f.Outcome, Batches: f.Captured, Processed: f.Processed, Calls: f.Calls,
			Summarized: f.Summarized, Spilled: f.Spilled, Deduped: f.Deduped, Trivial: f.Trivial, Oversized: f.Oversized,
			RawChars: f.RawChars, SummaryChars: f.SummaryChars, CommandCalls: f.CommandCalls,
			Chains: f.Chains, ChainCalls: f.ChainCalls, Fused: f.Fused, Backfilled: f.Backfilled,
			SummarizerFailed: f.SummarizerFailed, FusionsFailed: f.FusionsFailed,
		}
	}
}

// writeNowStats writes ns as one line on w.
func writeNowStats(w io.Writer, ns *nowStats) error {
	b, err := json.MarshalWithOption(ns, json.DisableHTMLEscape()) // "<stdin>", not "\u003cstdin\u003e" (as stats --json and check)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// summarizerOutcome says whether the configured summarizerCmd ran, and
// when it did not, why (a user who set one expects it to run).
func summarizerOutcome(o *NowOptions, ctx *session.Context, res *pipeline.Result) (string, string) {
	f := res.Flushed
	if f != nil && f.CommandCalls > 0 {
		return "ran", ""
	}
	if f != nil && f.SummarizerFailed+f.FusionsFailed > 0 {
		return "failed", summarizerFailedLine(f)
	}
	why := ""
	switch {
	case o.NoFlush:
		why = "--no-flush: nothing is summarised"
	case ctx.Kind != session.KindSession:
		why = "the input is a context: only a session is flushed"
	case f == nil && res.FlushSkipped != "":
		why = "no flush ran (" + res.FlushSkipped + ")"
	case f == nil:
		why = "no flush ran"
	case f.Captured == 0:
		why = "no batch to summarise (no completed call older than the recent turns)"
	default:
		why = fmt.Sprintf("no batch needed a new summary (%d batch(es): cached from an earlier run, under minBatchChars, or deduplicated)", f.Captured)
	}
	return "not-run", "pruner: summarizerCmd was not run: " + why
}

// summarizerFailedLine says which summaries are deterministic because
// summarizerCmd failed (or could not run and was not asked again) and,
// when its cache gave the others, that those are the command's, from an
// earlier run.
func summarizerFailedLine(f *index.Flushed) string {
	var what []string
	if n := f.DeterministicBatches; n > 0 {
		what = append(what, counted(n, "batch", "batches"))
	}
	if n := f.DeterministicFusions; n > 0 {
		what = append(what, counted(n, "chain fusion", "chain fusions"))
	}
	line := "pruner: summarizerCmd gave no summary (the warning above says why): " + strings.Join(what, " and ") + " got the deterministic summary"
	if f.CacheHits > 0 {
		line += fmt.Sprintf("; %s came from its cache (the command's, from an earlier run)", counted(f.CacheHits, "summary", "summaries"))
	}
	return line
}

// counted is "1 batch", "2 batches".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// flushLines are the summary lines of the flush and of the summariser.
func (o *NowOptions) flushLines(f *index.Flushed) []string {
	var out []string
	if line := flushLine(f); line != "" {
		out = append(out, line)
	}
	if o.summarizerNote != "" {
		out = append(out, o.summarizerNote)
	}
	return out
}

// flushLine is the one-line summary of a flush ("" when nothing was captured).
func flushLine(f *index.Flushed) string {
	if f == nil || f.Captured == 0 && f.Spilled == 0 && f.Chains == 0 {
		return ""
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(f.Summarized, "summarised")
	add(f.Spilled, "spilled")
	add(f.Deduped, "deduplicated")
	add(f.Trivial, "in batches under minBatchChars (kept)")
	add(f.Oversized, "with summaries longer than their results (kept)")
	ratio := ""
	if f.RawChars > 0 && f.SummaryChars > 0 {
		ratio = fmt.Sprintf("; summaries %d chars for %d raw (%.1f%%)", f.SummaryChars, f.RawChars, 100*float64(f.SummaryChars)/float64(f.RawChars))
	}
	chains := ""
	if f.Chains > 0 {
		chains = fmt.Sprintf("; %d chains compressed (%d calls; %d range summaries fused, %d calls backfilled)", f.Chains, f.ChainCalls, f.Fused, f.Backfilled)
	}
	if f.Captured == 0 && f.Spilled == 0 {
		return "pruner: flush: no new calls" + chains
	}
	return fmt.Sprintf("pruner: flush: %d calls in %d batches: %s%s%s", f.Calls+f.Spilled, f.Captured, strings.Join(parts, ", "), ratio, chains)
}

// printSession writes the session with pruner's entries appended.
// blobs are those --write would create (its marker lists them).
func printSession(o *NowOptions, res *pipeline.Result, ra io.ReaderAt, name string, blobs []string) error {
	a, err := res.Append(blobs)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if a.Refused != "" {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %s; the session is printed as it is\n", name, a.Refused)
	}
	if a.EditsSkipped != "" {
		fmt.Fprintf(o.IO.ErrOut, "pruner: warning: %s: %s\n", name, a.EditsSkipped)
	}
	out := bufio.NewWriterSize(o.IO.Out, outBufSize(res.Ctx.Bytes))
	info, err := res.WriteSession(out, ra, res.Ctx.Bytes, a)
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if !o.Quiet {
		for _, line := range o.flushLines(res.Flushed) {
			fmt.Fprintln(o.IO.ErrOut, line)
		}
		fmt.Fprintf(o.IO.ErrOut, "pruner: %s: %d entries appended (%d context edits), %d → %d bytes\n", name, a.Len()+min(1, a.Len()), a.Edits, info.BaseBytes, info.Bytes)
	}
	return nil
}

// writeSession appends pruner's entries to the input file
// (writeback.Write) and says what it did.
func writeSession(o *NowOptions, cx context.Context, fl *sessionfile.File, res *pipeline.Result, plan *blobs.Plan, name string) error {
	s := o.IO
	flushed := o.flushLines(res.Flushed) // res is not needed after the write: its memory is the check's
	// the written file is re-read with its keys rebuilt, the result let
	// go (writeCheckLimit; runNow restores the old limit)
	size := res.Ctx.Bytes
	checking := func() { s.limitMemory(writeCheckLimit(size)) }
	rep, err := writeback.Write(cx, writeback.Options{File: fl, Result: res, Plan: plan, Checking: checking})
	if a := rep.Appended; a != nil && a.EditsSkipped != "" {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s\n", name, a.EditsSkipped)
	}
	if err != nil {
		var re *writeback.ReplaceError
		if errors.As(err, &re) {
			return writeErr(name, re.Err)
		}
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if rep.Unchanged {
		if !o.Quiet {
			fmt.Fprintf(s.ErrOut, "pruner: %s: nothing to prune; file unchanged\n", name)
		}
		return nil
	}
	if rep.Moved > 0 {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s: pi appended %d bytes while pruner replaced the file; they are kept at its end (a branch beside pruner's entries)\n", name, rep.Moved)
	}
	if !o.Quiet {
		for _, line := range flushed {
			fmt.Fprintln(s.ErrOut, line)
		}
		fmt.Fprintf(s.ErrOut, "pruner: %s: %d entries appended (%d context edits, %d blobs), %d → %d bytes; undo with: pruner restore %s\n",
			name, rep.Appended.Len()+1, rep.Appended.Edits, len(rep.Blobs), rep.Info.BaseBytes, rep.Info.Bytes, name)
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

// outBufSize is the stdout buffer for an output about as large as an input
// of n bytes: an eighth of it, 64 KiB to 1 MiB. Every page of the buffer is
// a page fault the first time it fills (~2 µs each on this VM: 1 MiB is 256
// of them, 0.5 ms), and every time it fills is a write: a small output
// needs few pages, a large one few writes.
func outBufSize(n int64) int {
	return int(min(max(n/8, 64<<10), 1<<20))
}
