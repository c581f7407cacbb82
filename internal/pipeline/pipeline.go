// Package pipeline composes pruner's stages for `pruner now`: a decoded
// session (internal/session) → the pi-condense state its entries hold
// (internal/index.Rebuild) → a flush of what is new (internal/index.Flush,
// summaries by internal/summarize) → pi-condense's render of that state
// (internal/render) → rolling-window masking of what no index entry covers
// (internal/prune) → one output: the context, or the session with the
// entries appended (what `--write` writes).
//
// Masking and flushing share one config: the raw window (recentTurnsToKeep)
// is where both stop — a flush takes the completed calls older than it,
// masking then replaces what the flush did not take (old results of
// batches skipped as trivial or oversized, calls before pi-condense's
// frontier) when they are over maxRetainedChars.
package pipeline

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
	"github.com/pruner-dev/pruner/internal/turns"
)

// Options say which stages run and how.
type Options struct {
	// Mask runs rolling-window masking (Prune) over what the render leaves.
	Mask  bool
	Prune prune.Options
	// Index applies the session's pi-condense state (render) when it has
	// any (or the flush adds some, or ForceRender); false prints the masked
	// context alone, as before the batch/index stage.
	Index       bool
	ForceRender bool
	Render      render.Options
	// Flush adds a flush of what the state does not cover yet.
	Flush bool
	// AgentMessage, MinBatchChars, Dedup, SpillThreshold and
	// SpillPreviewBytes are pi-condense's batching keys.
	AgentMessage      bool
	MinBatchChars     int
	Dedup             bool
	SpillThreshold    int
	SpillPreviewBytes int
	// Spill writes a spill blob and returns its path; nil spills nothing
	// (without --write pruner never writes next to a session).
	Spill func(key, text string) (string, error)
	// Texts keeps the flush's summary texts out of memory until they are
	// written (index.FlushOptions.Texts; nil: held). It must stay
	// readable until the Result is written.
	Texts index.TextStore
	// Summarizer configures summaries (no Command: deterministic).
	Summarizer summarize.Options
	// Chains is chainCompression at flush: Enabled, RollingWindow,
	// RecoveryGraceTurns; FuseRangeSummary fuses the per-batch summaries
	// of a chain two or more cover (through Summarizer: its command, or
	// deterministically).
	Chains           index.ChainOptions
	FuseRangeSummary bool
	// NoEntries: the run renders the context and writes no session, so the
	// flush keeps no entries to append (Result.Append then appends none of
	// the flush's).
	NoEntries bool
	// Now is the flush time for the flush-metrics entry (nil: the time
	// pruner gives appended entries, AppendTime, so output is
	// deterministic).
	Now func() time.Time
}

// Result is a planned `now`: what each stage decided.
type Result struct {
	Ctx *session.Context
	// State is the pi-condense state after the flush.
	State *index.State
	// Flushed is the flush (nil when none ran); FlushSkipped says why a
	// flush that was asked for did not run ("" when it ran).
	Flushed      *index.Flushed
	FlushSkipped string
	// Mask is the masking plan (nil: no masking).
	Mask *prune.Plan
	// Rendered is the render (nil when the index stage did not run: the
	// masked context is all there is); its Items end with the summaries the
	// flush added.
	Rendered *render.Result
	// Summaries is how many of Rendered's items are the flush's summaries.
	Summaries int
	// Warnings are the state's and the flush's (each with a line when it
	// has one).
	Warnings []session.Warning
	// Pairing is the context's pairs pi-ai would not pair: every stage
	// leaves them as they are.
	Pairing *pairing.Report
}

// Run plans the context of ctx (read with session.ReadOptions.Branch).
// Errors are I/O errors re-reading the input.
func Run(cx context.Context, ctx *session.Context, o Options) (*Result, error) {
	r := &Result{Ctx: ctx, Pairing: pairing.Find(ctx)}
	o.Prune.Pairing, o.Render.Pairing = r.Pairing, r.Pairing
	if o.Mask {
		r.Mask = prune.NewPlan(ctx, o.Prune)
	}
	if !o.Index {
		return r, nil
	}
	window := rawWindow(ctx, o, r.Mask)
	st, err := index.Rebuild(ctx)
	if err != nil {
		return nil, err
	}
	r.Warnings = append(r.Warnings, st.Warnings...)
	if o.Flush {
		switch why := flushable(ctx); why {
		case "":
			if r.Flushed, err = r.flush(cx, st, o, window); err != nil {
				return nil, err
			}
			st = r.Flushed.State
			for _, w := range r.Flushed.Warnings {
				r.Warnings = append(r.Warnings, session.Warning{Msg: w})
			}
		default:
			r.FlushSkipped = why
		}
	}
	r.State = st
	added := r.Flushed != nil && r.Flushed.Changes()
	if !o.Index || (st.Entries == 0 && !added && !o.ForceRender && o.Render.MaxImages == 0) {
		return r, nil // nothing for the index stage: the masked context as before
	}
	ro := o.Render
	ro.RawFrom = window
	ro.NoDropped = o.NoEntries // (their stubs are pinned only in a written session)
	if r.Mask != nil {
		plan := r.Mask
		ro.WillMask = func(i int) bool { return plan.Decisions[i].Kind != prune.Keep }
	}
	if r.Flushed != nil {
		// the flush's summaries go where --write puts them, last: render
		// sees them there (a chain drops those covering it)
		// (sized once: 1 GB, ~72,000 summaries, a list grown by append
		// held a quarter more through the render)
		_, ms := AppendTime(ctx)
		ro.Appended = slices.Grow(ro.Appended, len(r.Flushed.Summaries))
		for _, s := range r.Flushed.Summaries {
			ro.Appended = append(ro.Appended, func(dst []byte) ([]byte, error) { return s.AppendMessage(dst, ms) })
		}
	}
	if r.Rendered, err = render.Render(ctx, st, ro); err != nil {
		return nil, err
	}
	for _, it := range r.Rendered.Items {
		if it.Src < 0 && it.Change == render.Summary {
			r.Summaries++
		}
	}
	return r, nil
}

// flushable says why a session cannot be flushed now ("" when it can): a
// context input has no entries to keep state in, and a session that ends
// in an assistant message whose tool calls have no result yet is mid-turn
// (pi is running the tools): a summary appended there would break the
// call/result pairing.
func flushable(ctx *session.Context) string {
	if ctx.Kind != session.KindSession {
		return "a context (not a session) holds no pi-condense state; only masking applies"
	}
	if n := len(ctx.Messages); n > 0 {
		m := ctx.Messages[n-1]
		if m.Role() == session.RoleAssistant && len(m.ToolCalls()) > 0 {
			return "the session ends inside a tool call (its results are not written yet); nothing summarised"
		}
	}
	return ""
}

func (r *Result) flush(cx context.Context, st *index.State, o Options, window int) (*index.Flushed, error) {
	ctx := r.Ctx
	_, nowMS := AppendTime(ctx)
	if o.Now != nil {
		nowMS = o.Now().UnixMilli()
	}
	so := o.Summarizer
	// no command (and no cache to answer): every summary is
	// summarize.Deterministic's, which the flush makes batch by batch
	deterministic := so.Command == nil && !(so.CacheOnly && so.Cache != nil)
	var summarizeBatches func(cx context.Context, bs []summarize.Batch) []summarize.Result
	if !deterministic {
		summarizeBatches = func(cx context.Context, bs []summarize.Batch) []summarize.Result {
			return summarize.Summarize(cx, bs, so)
		}
	}
	chains := o.Chains
	chains.Fuse, chains.FuseConcurrency = nil, so.Concurrency
	if o.FuseRangeSummary {
		chains.Fuse = func(cx context.Context, summaries, refs []string) summarize.FuseResult {
			return summarize.Fuse(cx, summaries, refs, so)
		}
		// and every fusion summarize.FuseDeterministic's, written when the
		// chain is
		chains.FuseDeterministic = deterministic
	}
	return index.Flush(cx, ctx, st, index.FlushOptions{
		Chains:       chains,
		Capture:      index.CaptureOptions{Protect: o.Prune.Protect, RawFrom: window, Pairing: r.Pairing},
		AgentMessage: o.AgentMessage, MinBatchChars: o.MinBatchChars, Dedup: o.Dedup,
		SpillThreshold: o.SpillThreshold, SpillPreviewBytes: o.SpillPreviewBytes, Spill: o.Spill,
		Texts:     o.Texts,
		Summarize: summarizeBatches,
		Clip:      so.Clip,
		Now:       nowMS,
		NoEntries: o.NoEntries,
		// the entries are made when appended (Result.Append), after the
		// render, not held through it
		DeferEntries: true,
	})
}

// rawWindow is where the raw window starts in ctx.Messages — where
// masking's recent turns start (-1: no window): the flush takes, chains
// compress and reads supersede only before it. It is the masking plan's
// Cutoff when there is one (mask, nil when masking is off): the turns are
// counted once.
func rawWindow(ctx *session.Context, o Options, mask *prune.Plan) int {
	if o.Prune.RecentTurns <= 0 {
		return -1
	}
	if mask != nil {
		return mask.Cutoff
	}
	return turns.Of(ctx).Window(o.Prune.RecentTurns)
}

// AppendTime is the time pruner gives the entries it appends (ISO, as pi
// writes entry timestamps, and in ms): the leaf entry's own time, so the
// same session always gets the same bytes (a flush run twice, or with and
// without --write, agrees); the epoch when the leaf has none.
func AppendTime(ctx *session.Context) (string, int64) {
	if n := len(ctx.Branch); n > 0 {
		if line, err := ctx.EntryLine(&ctx.Branch[n-1]); err == nil {
			if v, ok := jsval.Get(line, "timestamp"); ok {
				if s, ok := jsval.String(v); ok {
					if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
						t = t.UTC()
						return t.Format("2006-01-02T15:04:05.000Z"), t.UnixMilli()
					}
				}
			}
		}
	}
	return "1970-01-01T00:00:00.000Z", 0
}

// FromConfig returns the options of `pruner now` for a loaded config (the
// caller adds what flags change: Spill, a summariser command's timeout).
// runner makes the summariser of summarizerCmd (the CLI: a shell command,
// summarize/host.ExecRunner); nil leaves it unset, so summaries are
// deterministic.
func FromConfig(c *config.Config, runner func(command string) summarize.Runner) (Options, error) {
	var o Options
	ro, err := RenderOptions(c)
	if err != nil {
		return o, err
	}
	if !c.Enabled {
		// the image cap guards request validity even when pruning is off
		return Options{Index: ro.MaxImages > 0, Render: ro}, nil
	}
	po, err := PruneOptions(c)
	if err != nil {
		return o, err
	}
	k := c.Condense
	o = Options{
		Mask: true, Prune: po, Index: true, Render: ro, Flush: c.Flush,
		AgentMessage: k.BatchingMode == "agent-message", MinBatchChars: k.MinBatchChars, Dedup: k.DedupByContentHash,
		SpillThreshold: k.SpillThreshold, SpillPreviewBytes: k.SpillPreviewBytes,
		Chains: index.ChainOptions{
			Enabled: k.ChainCompression.Enabled, RollingWindow: k.ChainCompression.RollingWindow,
			RecoveryGraceTurns: k.RecoveryGraceTurns,
		},
		FuseRangeSummary: k.ChainCompression.FuseRangeSummary,
	}
	if cmd := strings.TrimSpace(c.SummarizerCmd); cmd != "" {
		o.Summarizer = summarize.Options{
			CommandID:   cmd,
			Timeout:     time.Duration(k.SummarizerMaxTimeoutMs) * time.Millisecond,
			Concurrency: c.SummarizerConcurrency,
		}
		if runner != nil {
			o.Summarizer.Command = runner(cmd)
		}
	}
	return o, nil
}
