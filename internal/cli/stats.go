package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/pienv"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize/host"
	"github.com/spf13/cobra"
)

// StatsOptions are the options of `pruner stats`.
type StatsOptions struct {
	IO *IOStreams

	Paths    []string // files, directories (walked for *.jsonl) or "-"
	JSON     bool     // --json: one JSON document on stdout
	Each     bool     // --each: the full report of every session, not only its row
	NoFlush  bool     // --no-flush, as `now`
	NoMask   bool     // --no-mask, as `now`
	Jobs     int      // --jobs: sessions at once (0: all CPUs, at most 4)
	Progress string   // --progress auto|always|never
	Quiet    bool     // root --quiet

	pruneFlags pruneFlags // the pruning flags (config keys)
	cmd        *cobra.Command
}

// NewCmdStats builds `pruner stats`.
func NewCmdStats(s *IOStreams) *cobra.Command {
	o := &StatsOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "stats [PATH...|-]",
		Short: "Show what pruning saves, per strategy and per tool, and where the prompt cache breaks",
		Long: `Show, for each session and in total, what 'pruner now' makes of the context:
per strategy and per tool, the number of tool results, and their chars and
estimated tokens before (the unpruned context, 'pruner context') and after
(the pruned one, 'pruner now'). Chars count what reaches the model (pi's
display-only details left out, an image as pi's 4800-char estimate); tokens
are pi's estimate, ceil(chars/4).

Strategies: stubbed (indexed: pi-condense's summary stub), spilled, deduped,
masked (a notice or an error excerpt), chain-compressed, superseded,
error-purged, images-capped, orphan-swept, summary (the summaries a flush
adds, and the session's own); results kept raw: kept-recent (inside
recentTurnsToKeep), kept-pairing-hazard (pi-ai would not pair it),
kept-protected, kept-already-pruned, kept-small (masking leaves it),
kept-no-batch (--no-mask: no flush batch took it), kept-pruning-off; other
(user, assistant and custom messages nothing changed).

Prompt cache: where a provider's cache first misses on the pruned context,
(a) against the unpruned context and (b) against the same session pruned as it
was before its newest user turn (what the provider holds from the previous
request): the first message that differs, its byte offset in 'pruner now's
output, and the tokens before it, which the cache still holds.

PATH is a session file, a context (one message per line), a directory (walked
for *.jsonl) or - for stdin (the default when stdin is not a terminal).
Settings and flags are those of 'pruner now'. Flush summaries are
deterministic; with summarizerCmd set, the summaries it already wrote are read
from pruner's summary cache and the others estimated deterministically (stats
runs no command). Nothing is written.

Output: tables and a chart (colour only on a terminal, never with NO_COLOR);
--json prints one JSON document (schemaVersion 1, documented in
docs/stats.md). A file that cannot be read is reported on stderr and skipped.

Exit status: 0 ok (an empty file is skipped with a warning), 2 usage or
config error, no session file found, or a file could not be read (the others
are still reported).`,
		Example: `  # one session: strategies, tools, chart, prompt cache
  pruner stats ~/.pi/agent/sessions/--home-me-proj--/2026-11-30T10-00-00-000Z_0196.jsonl

  # every session on this machine, one row each, then the total (a single
  # session gets its tables, as above)
  pruner stats ~/.pi/agent/sessions

  # tokens the pruned context saves, for a script
  pruner stats --json session.jsonl | jq '.total.tokensBefore - .total.tokensAfter'

  # where the prompt cache breaks against the previous turn
  pruner stats --json session.jsonl | jq .sessions[0].cache.previousTurn.firstChangedMessage

  # what masking alone would do, with a tighter window
  pruner stats --no-flush --recent-turns 1 --max-chars 1000 session.jsonl

  # from a pipe
  cat session.jsonl | pruner stats -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			o.cmd = cmd
			if err := checkEnums(cmd); err != nil {
				return err
			}
			if o.Jobs < 0 {
				return UsageError("--jobs: want a whole number ≥ 0, got %d", o.Jobs)
			}
			o.Quiet, _ = cmd.Flags().GetBool("quiet")
			return runStats(o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.JSON, "json", false, "print one JSON document (schemaVersion 1; see docs/stats.md)")
	f.BoolVar(&o.Each, "each", false, "with several sessions: the full report of each, not only its row")
	f.BoolVar(&o.NoFlush, "no-flush", false, "as 'pruner now --no-flush': summarise nothing new")
	f.BoolVar(&o.NoMask, "no-mask", false, "as 'pruner now --no-mask': no rolling-window masking")
	// the pruning flags of now; stats runs no summariser command, so
	// --summarizer-cmd is not one
	o.pruneFlags = addPruneFlags(f, prunes, "recent-turns", "max-chars", "protect-tool", "protect-path")
	f.IntVarP(&o.Jobs, "jobs", "j", 0, "read `N` sessions at once (default: the CPUs, at most 4)")
	enumFlag(cmd, &o.Progress, "progress", "auto", "progress on stderr: auto (a terminal and 10 sessions or more), always or never", progressModes())
	return cmd
}

// statsInput is one session to report on.
type statsInput struct {
	Path string // as given, or found in a directory; "-" is stdin
	Err  error  // the path could not be listed
}

// statsResult is one session's report, or why there is none.
type statsResult struct {
	Input    string
	Report   *pipeline.Report
	Warnings []string // printed on stderr, each a whole line
	// NWarnings counts the warnings (Warnings shows at most maxWarnings).
	NWarnings int
	// Estimated counts the flush summaries that are deterministic stand-ins
	// for summarizerCmd's (not in the summary cache).
	Estimated    int
	FlushSkipped string
	Skipped      string // why the input holds nothing to report ("" when it does)
	Err          error
}

func runStats(o *StatsOptions) error {
	s := o.IO
	paths := o.Paths
	if len(paths) == 0 {
		if s.InIsTerminal {
			return &ExitErr{Code: ExitError, Err: errors.New("no input: give session files or directories, or - for stdin"),
				Hint: "pi keeps sessions in ~/.pi/agent/sessions"}
		}
		paths = []string{"-"}
	}
	stdin := 0
	for _, p := range paths {
		if p == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return UsageError("- (stdin) given %d times; it can be read once", stdin)
	}
	c, err := loadConfig(s, o.cmd, o.pruneFlags)
	if err != nil {
		return err
	}
	if (o.NoFlush || o.NoMask) && !c.Enabled {
		fmt.Fprintf(s.ErrOut, "pruner: warning: pruning is off (enabled: false or PRUNER_PRUNING=off); --no-flush and --no-mask change nothing\n")
	}
	base, err := pipeline.FromConfig(c, shellRunner)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	sessionsHint := sessionsDirHint(s)
	inputs := expandStatsPaths(paths, sessionsHint)
	if len(inputs) == 0 {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("no session files (*.jsonl) found in %s", strings.Join(paths, ", ")),
			Hint: "a directory is walked for *.jsonl files; " + sessionsHint}
	}
	cx := notifyInterrupts()
	defer cx.Stop()

	jobs := o.Jobs
	if jobs == 0 {
		jobs = min(runtime.NumCPU(), 4)
	}
	jobs = max(1, min(jobs, len(inputs)))
	status := newStatusLine(s.ErrOut, !o.Quiet && (o.Progress == "always" || o.Progress == "auto" && s.ErrIsTerminal && len(inputs) >= 10))
	results := make([]statsResult, len(inputs))
	var done atomic.Int64
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = o.statsOne(cx, c, base, inputs[i], len(inputs) == 1)
				d := int(done.Add(1))
				status.show(d == len(inputs), "pruner: stats [%s] %d/%d sessions", bar(d, len(inputs)), d, len(inputs))
			}
		}()
	}
	for i := range inputs {
		if cx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	status.clear()
	if cx.Err() != nil || slices.ContainsFunc(results, func(r statsResult) bool { return errors.Is(r.Err, errInterrupted) }) {
		// a stream that ended with the signal counts as the signal (see
		// interrupts.Received), even before the context is cancelled
		return Interrupted("interrupted")
	}

	failed := 0
	for _, r := range results {
		for _, w := range r.Warnings {
			fmt.Fprintln(s.ErrOut, w)
		}
		switch {
		case r.Err != nil:
			failed++
			fmt.Fprintf(s.ErrOut, "pruner: %s\n", r.Err)
			var he *hintedErr
			if errors.As(r.Err, &he) {
				fmt.Fprintf(s.ErrOut, "hint: %s\n", he.hint)
			}
		case r.Skipped != "":
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s; skipped\n", r.Input, r.Skipped)
		case r.FlushSkipped != "" && !o.Quiet:
			fmt.Fprintf(s.ErrOut, "pruner: note: %s: no flush: %s\n", r.Input, r.FlushSkipped)
		}
	}
	if o.JSON {
		err = writeStatsJSON(s.Out, results)
	} else {
		err = writeStatsText(s.Out, results, textOptions{Each: o.Each, Color: colorOn(s)})
	}
	if err != nil {
		return &ExitErr{Code: ExitError, Err: err}
	}
	if failed > 0 {
		msg := fmt.Sprintf("%d of %d inputs could not be read (reported above)", failed, len(results))
		if failed < len(results) {
			msg += "; the others are reported"
		}
		return &ExitErr{Code: ExitError, Err: errors.New(msg)}
	}
	return nil
}

// expandStatsPaths lists the sessions to report on: files as given, "-",
// and every *.jsonl under a directory (sorted). A path that cannot be read
// becomes an input with its error, so the others are still reported.
func expandStatsPaths(paths []string, sessionsHint string) []statsInput {
	var out []statsInput
	for _, p := range paths {
		if p == "-" {
			out = append(out, statsInput{Path: p})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = hostfs.NoSuchFile(p)
				if !strings.HasSuffix(p, ".jsonl") {
					// a session directory, most likely
					err = &hintedErr{err: hostfs.NoSuchFile(p), hint: sessionsHint}
				}
			}
			out = append(out, statsInput{Path: p, Err: err})
			continue
		}
		if !st.IsDir() {
			out = append(out, statsInput{Path: p})
			continue
		}
		found, err := hostfs.SessionFiles(p)
		for _, q := range found {
			out = append(out, statsInput{Path: q})
		}
		if err != nil {
			out = append(out, statsInput{Path: p, Err: fmt.Errorf("%s: %w", p, hostfs.Cause(err))})
		}
	}
	return out
}

// statsOne reports on one session: `now`'s pipeline, the same for the
// session before its newest user turn, and the report comparing them.
func (o *StatsOptions) statsOne(cx context.Context, c *config.Config, base pipeline.Options, in statsInput, single bool) statsResult {
	r := statsResult{Input: in.Path}
	if in.Err != nil {
		r.Err = in.Err
		return r
	}
	src, err := openSeekable(cx, o.IO, in.Path)
	if err != nil {
		var ee *ExitErr
		if errors.As(err, &ee) && ee.Err != nil {
			err = ee.Err
		}
		r.Err = err
		return r
	}
	defer src.Close()
	r.Input = src.Name
	size := sizeOf(src.ReaderAt)
	ro := session.ReadOptions{Branch: true, SizeHint: size}
	if single {
		// one large input: "reading N/M MB" on a terminal, as for now
		prog, progress := newProgress(o.IO, size, o.Quiet || o.Progress == "never")
		defer prog.clear()
		ro.OnProgress = progress
	}
	ctx, err := session.Read(src.Reader, src.ReaderAt, ro)
	if err == nil {
		err = src.Flush()
	}
	if err == nil && ctx.Kind == session.KindContext && len(ctx.Messages) == 0 && in.Path != "-" {
		// an empty file reads as an empty context; in a list of sessions it is
		// skipped and named, not reported as a session of nothing
		r.Skipped = "empty file (no JSON line; pi treats it as no session)"
		return r
	}
	switch {
	case errors.Is(err, session.ErrEmpty) && in.Path != "-":
		r.Skipped = "empty file (no JSON line; pi treats it as no session)"
		return r
	case errors.Is(err, session.ErrEmpty):
		r.Err = fmt.Errorf("%s: empty input: no JSON line found", r.Input)
		return r
	case err != nil:
		r.Err = fmt.Errorf("%s: %w", r.Input, err)
		return r
	}
	warn := func(line int, msg string) {
		if len(r.Warnings) == maxWarnings {
			r.Warnings = append(r.Warnings, "") // placeholder for the "more" line
		}
		if len(r.Warnings) > maxWarnings {
			return
		}
		if line > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("pruner: warning: %s:%d: %s", r.Input, line, msg))
		} else {
			r.Warnings = append(r.Warnings, fmt.Sprintf("pruner: warning: %s: %s", r.Input, msg))
		}
	}
	po, cache := o.pipelineOptions(c, base, in.Path, ctx)
	ppo, _ := o.pipelineOptions(c, base, in.Path, ctx)
	run, err := pipeline.Stats(cx, ctx, pipeline.StatsOptions{Now: po, Previous: ppo, Off: !c.Enabled})
	bomHinted := false
	for _, w := range run.Warnings {
		warn(w.Line, w.Msg)
		if w.Code == session.WarnBOM && !bomHinted && len(r.Warnings) < maxWarnings {
			bomHinted = true
			r.Warnings = append(r.Warnings, "hint: "+bomHint(r.Input))
		}
	}
	nwarn := len(run.Warnings)
	r.NWarnings = nwarn
	if nwarn > maxWarnings {
		r.Warnings[maxWarnings] = fmt.Sprintf("pruner: warning: %s: %d more warnings not shown", r.Input, nwarn-maxWarnings)
	}
	r.FlushSkipped = run.FlushSkipped
	if cache != nil {
		r.Estimated = int(cache.misses.Load())
	}
	r.Report = run.Report
	if err != nil {
		r.Err = fmt.Errorf("%s: %w", r.Input, err)
	}
	return r
}

// pipelineOptions are `now`'s pipeline options for ctx, but with summaries
// from the summary cache or deterministic (stats runs no command): the
// returned cache counts the batches it did not hold (nil without a
// summariser command). Results of spillThreshold chars or more spill as in
// `now input` (withSpill; stats writes no blob either).
func (o *StatsOptions) pipelineOptions(c *config.Config, po pipeline.Options, input string, ctx *session.Context) (pipeline.Options, *statsCache) {
	if !c.Enabled {
		return po, nil
	}
	po = shapeStages(po, o.NoFlush, o.NoMask, ctx.Kind)
	po, _ = withSpill(po, input, nil, ctx)
	var cache *statsCache
	if po.Summarizer.Command != nil {
		cache = &statsCache{}
		if dir := summaryCacheDir(o.IO); dir != "" {
			cache.dir = host.DirCache{Dir: dir}
		}
		po.Summarizer.Command, po.Summarizer.CacheOnly, po.Summarizer.Cache = nil, true, cache
	}
	return po, cache
}

// statsCache reads pruner's summary cache and writes nothing; it counts the
// batches it has no summary for.
type statsCache struct {
	dir    host.DirCache
	misses atomic.Int64
}

// Get returns the cached summary of key.
func (c *statsCache) Get(key string) (string, bool) {
	if c.dir.Dir != "" {
		if s, ok := c.dir.Get(key); ok {
			return s, true
		}
	}
	c.misses.Add(1)
	return "", false
}

// Put writes nothing: stats never writes.
func (c *statsCache) Put(string, string) error { return nil }

// colorOn reports whether stdout gets colour: a terminal, and NO_COLOR
// (no-color.org) unset or empty, and TERM not dumb.
func colorOn(s *IOStreams) bool {
	return s.OutIsTerminal && s.Env("NO_COLOR") == "" && s.Env("TERM") != "dumb"
}

// hintedErr is an input's error with the hint printed below it.
type hintedErr struct {
	err  error
	hint string
}

func (e *hintedErr) Error() string { return e.err.Error() }
func (e *hintedErr) Unwrap() error { return e.err }

// sessionsDirHint says where pi keeps sessions on this machine.
func sessionsDirHint(s *IOStreams) string {
	dir := filepath.Join(pienv.AgentDir(s.Env, homeDir(s)), "sessions")
	return fmt.Sprintf("pi keeps sessions in $%s/sessions (here %s)", pienv.AgentDirVar, dir)
}
