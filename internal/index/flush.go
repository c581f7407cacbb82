package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// FlushOptions configure Flush (pi-condense's contextPrune keys).
type FlushOptions struct {
	Capture CaptureOptions
	// AgentMessage is batchingMode "agent-message" (one batch per user turn).
	AgentMessage bool
	// MinBatchChars skips batches with fewer raw chars (0: off).
	MinBatchChars int
	// Dedup is dedupByContentHash.
	Dedup bool
	// SpillThreshold and SpillPreviewBytes: a result of SpillThreshold chars
	// or more is written to a blob by Spill (nil: no spilling) and indexed
	// with a SpillPreviewBytes preview, without a summary.
	SpillThreshold    int
	SpillPreviewBytes int
	Spill             func(key, text string) (path string, err error)
	// Texts keeps the summaries' texts out of memory until they are
	// written (nil: held). The state and the summary messages the flush
	// returns read them back from it, so it must stay readable while
	// they are used.
	Texts TextStore
	// Summarize summarises batches (summarize.Summarize with its options);
	// nil: deterministic summaries (each made as its batch is read). The
	// batches' texts are valid during the
	// call only (they share a buffer the next call reuses): what it keeps it
	// copies.
	Summarize func(ctx context.Context, batches []summarize.Batch) []summarize.Result
	// Clip is how the summariser request cuts long results.
	Clip summarize.Clip
	// Now is the flush time in ms (the flush-metrics entry's ts).
	Now int64
	// FirstLine is the line number the first appended entry will have (the
	// state's rewrite points name it, as Rebuild of the written file does);
	// 0: the line after the input's last.
	FirstLine int
	// Chains configures chain compression after the batches.
	Chains ChainOptions

	// parseEveryCall makes chain compression parse every assistant line of
	// a chain, as it did before it skipped those whose calls no backfill
	// needs (the differential test's old path).
	parseEveryCall bool
	// dedupFirst makes the flush hash and deduplicate every batch before
	// the first summary, as it did before it hashed each text as it read
	// it for the summariser (the differential test's old path).
	dedupFirst bool

	// NoEntries leaves Flushed.Entries empty: a run that renders the
	// context and writes no session needs the state and the summaries,
	// not the entries to append.
	NoEntries bool
	// DeferEntries leaves each summarised batch's summary and index
	// entries out of Flushed.Entries (nil there) until BuildEntries: a
	// run that renders the context before it writes them (--session,
	// --write) then does not hold them through the render (1 GB: ~69,000
	// batches, two entries and their closures each, ~17 MB).
	DeferEntries bool
}

// Flushed is what one flush adds to a session.
type Flushed struct {
	// State is the input state with the flush applied.
	State *State
	// Entries are the entries to append, in order.
	Entries []*NewEntry
	// Summaries are the summary messages among Entries, in order.
	Summaries []*SummaryMessage
	// Captured and Processed count batches; Outcome is the flush's
	// (summarized, skipped-oversized, skipped-deduped, skipped-trivial;
	// "empty" when nothing was captured).
	Captured, Processed int
	Outcome             string
	// Calls counts the calls the flush addressed; Summarized, Spilled,
	// Deduped, Trivial and Oversized how each ended.
	Calls, Summarized, Spilled, Deduped, Trivial, Oversized int
	// RawChars is the raw text of the calls summarised, spilled or deduped,
	// SummaryChars the summaries written (JavaScript lengths).
	RawChars, SummaryChars int
	// CommandCalls counts summaries and fusions a command made this run
	// (the stats entries' callCount grows by it).
	CommandCalls int
	// CacheHits counts the summaries and fusions the summariser's cache
	// gave (a command's summaries of an earlier run, reused);
	// DeterministicBatches and DeterministicFusions those made without a
	// command (none set, or it failed, or could not run and was not asked
	// again)
	CacheHits, DeterministicBatches, DeterministicFusions int
	// Chains counts the chains compressed, ChainCalls the calls they drop;
	// Fused the range summaries made for them, Backfilled the calls they
	// indexed (backfilled records).
	Chains, ChainCalls, Fused, Backfilled int
	// Diagnostics are the diagnostic entries the flush writes
	// (backfill-empty: a chain with nothing to compress).
	Diagnostics []Diagnostic
	// Blobs are the spill files written.
	Blobs []string
	// Warnings say what did not go as configured (a summariser that failed,
	// a blob that could not be written); nothing is lost for them.
	Warnings []string
	// SummarizerFailed counts the batches, FusionsFailed the chains, whose
	// summariser gave no summary (each got the deterministic one); their
	// warnings are collapsed, one per distinct failure.
	SummarizerFailed, FusionsFailed int

	failures          []failure
	batchCommandCalls int
	// trivial holds the calls of the trivial batches (captured, never
	// summarised), which a chain's backfill reads instead of parsing their
	// lines again; dropped once the chains are compressed
	trivial trivialCalls
	lt      lineTape // the flush's reads of the input
	// noEntries: the entries are marked (marks), not kept (FlushOptions.NoEntries)
	noEntries bool
	marks     entryMarks
	// deferred are the summarised batches whose entries BuildEntries
	// makes (FlushOptions.DeferEntries), in order: each is a nil pair in
	// Entries; their calls are in deferredCalls, one after the other
	deferred      []deferredBatch
	deferredCalls []entryCall
	deferEntries  bool
	// a summarised batch's refs, tool names and keys (summarized: reused)
	refs, names, keys []string
	// keyCopied: chainCalls made a key of its own for a chain's result
	// (chainKey), which the chain's keys then take from the state
	keyCopied bool
}

// deferredBatch is a summarised batch whose entries are not made yet: its
// summary (an index in Flushed.Summaries; its records are the summary's)
// and the index in Flushed.deferredCalls of its first call.
type deferredBatch struct {
	sum, calls0 int32
}

// BuildEntries makes the entries a flush with FlushOptions.DeferEntries
// left out of Entries (a no-op when there are none): then Entries are
// what the flush would have made without the option.
func (f *Flushed) BuildEntries() {
	if len(f.deferred) == 0 {
		return
	}
	j := 0
	for k := 0; k < len(f.Entries); k++ {
		if f.Entries[k] != nil {
			continue
		}
		d := f.deferred[j]
		j++
		sm := f.Summaries[d.sum]
		f.Entries[k], f.Entries[k+1] = summaryEntry(sm), indexEntry(f.State, f.deferredCalls[d.calls0:d.calls0+sm.n:d.calls0+sm.n])
		k++
	}
	f.deferred = nil
}

// Changes reports whether the flush changes what is rendered (a summary, a
// spill, a dedup alias or a compressed chain); a flush of trivial or
// oversized batches only moves the frontier.
func (f *Flushed) Changes() bool { return f.Summarized+f.Spilled+f.Deduped+f.Chains > 0 }

// chunk bounds how many batches are summarised at once (their texts are in
// memory together).
const chunk = 32

// slot is one batch on its way through the flush.
type slot struct {
	b                *Batch // a copy of the captured one when dedup took calls out of it
	dedup            []*Call
	dedupChars, raw  int
	trivial, deduped bool
}

// Flush captures, spills, dedups, summarises and indexes what ctx's branch
// holds beyond st — pi-condense's turn_end spill and its flushPending, run
// at once as `/pruner now` runs it — then compresses the chains that are
// eligible (o.Chains), and returns the entries to append. st is not
// modified. Errors are I/O errors re-reading the input.
//
// pi-condense compresses chains only after a flush that processed a batch;
// pruner also when nothing new was captured (a chain can become eligible
// without a new batch: a text-only turn, a setting changed), so `now`
// always leaves no eligible chain behind.
func Flush(cx context.Context, ctx *session.Context, st *State, o FlushOptions) (*Flushed, error) {
	f := &Flushed{State: st.Clone(), Outcome: "empty", noEntries: o.NoEntries, deferEntries: o.DeferEntries && !o.NoEntries}
	// the records the flush adds leave their arguments in ctx's lines
	// (argsAt), which the state then reads them from
	f.lt.copyArgs = !argsInContext(st, ctx)
	if f.State.src == nil {
		f.State.src = ctx
	}
	if o.Texts != nil {
		f.State.texts, f.State.textBuf = o.Texts, &textBuf{}
	}
	if err := f.flushBatches(cx, ctx, st, o); err != nil {
		return nil, err
	}
	f.batchCommandCalls = f.CommandCalls
	if c := f.deferredCalls; cap(c)-len(c) > len(c)/8 {
		// room made for the calls of batches not summarised (trivial,
		// deduped, oversized) given back
		f.deferredCalls = slices.Clone(c)
	}
	if err := f.compressChains(cx, ctx, o); err != nil {
		return nil, err
	}
	f.trivial = trivialCalls{}
	f.State.trim()
	if f.Captured > 0 || f.Chains > 0 {
		m := FlushMetrics{TS: o.Now, Trigger: "manual", CapturedBatches: f.Captured, ProcessedBatches: f.Processed, Outcome: f.Outcome}
		m.Metrics.OpenCycleThinkingTokens, m.Metrics.LargestChainSharePct, m.Metrics.FrontierGapTokens = metrics(ctx, st)
		f.addEntry(customEntry(TypeFlushMetrics, flushMetricsData(m)))
	}
	f.rewritePoints(ctx, o.FirstLine)
	f.Warnings = append(f.Warnings, f.failureWarnings()...)
	return f, nil
}

// failure is one distinct summariser failure (its message) and the batches
// or chains it struck.
type failure struct {
	msg    string
	chain  bool
	n      int    // batches (chains) struck
	parts  int    // their calls (summaries)
	detail string // the warning of the first one
}

// failed records a summariser failure: msg is the summariser's warning,
// detail the whole warning for this batch (chain), parts its calls
// (summaries).
func (f *Flushed) failed(msg string, chain bool, parts int, detail string) {
	for i := range f.failures {
		if fl := &f.failures[i]; fl.msg == msg && fl.chain == chain {
			fl.n++
			fl.parts += parts
			return
		}
	}
	f.failures = append(f.failures, failure{msg: msg, chain: chain, n: 1, parts: parts, detail: detail})
}

// failureWarnings are the summariser failures, one warning per distinct
// failure: the batch's (chain's) own when it struck one, else with a count
// (22 batches failing alike are one warning, not 22).
func (f *Flushed) failureWarnings() []string {
	var out []string
	for _, fl := range f.failures {
		switch {
		case fl.n == 1:
			out = append(out, fl.detail)
		case fl.chain:
			out = append(out, fmt.Sprintf("%s, for %d chains (%d summaries); used the deterministic fusions", fl.msg, fl.n, fl.parts))
		default:
			out = append(out, fmt.Sprintf("%s, for %d batches (%d calls); used the deterministic summaries", fl.msg, fl.n, fl.parts))
		}
	}
	return out
}

// flushBatches is the batch part of Flush: capture, spill, dedup,
// summaries, frontier and stats.
func (f *Flushed) flushBatches(cx context.Context, ctx *session.Context, st *State, o FlushOptions) error {
	s := f.State
	co := o.Capture
	co.noProse = o.Summarize == nil // (deterministic summaries read no prose)
	turns, err := Capture(ctx, s, co)
	if err != nil {
		return err
	}
	if o.Spill != nil && o.SpillThreshold > 0 {
		for _, b := range turns {
			if err := f.spill(ctx, b, o); err != nil {
				return err
			}
		}
	}
	var batches []*Batch
	for _, b := range turns {
		if len(b.Calls) > 0 {
			batches = append(batches, b)
		}
	}
	if o.AgentMessage {
		batches = Group(batches)
	}
	f.Captured = len(batches)
	if len(batches) == 0 {
		return nil
	}
	// the hashes left unhashed (Rebuild's, an earlier flush's), which dedup
	// may find now
	if err := s.seedUnhashed(); err != nil {
		return err
	}
	// room for the records the batches may add: the calls of the batches
	// not trivial by their raw chars (dedup only takes calls out of a
	// batch); the rest make none (their aliases' keys, if any, are
	// appended). Reserving for every call held room for the trivial
	// batches' calls through the batches, with every captured call still
	// live (1 GB: 166,564 of 238,750 calls trivial, ~22 MB of records,
	// keys, key-table slots and entry calls at the batches' peak); the
	// chains reserve the room their backfill needs
	calls := 0
	for _, b := range batches {
		if o.MinBatchChars <= 0 || rawChars(b) >= o.MinBatchChars {
			calls += len(b.Calls)
		}
	}
	s.reserve(calls)
	if f.deferEntries {
		f.deferredCalls = make([]entryCall, 0, calls)
	}
	// Each result's text is decoded once, for the summariser, and hashed
	// as it is (dedup), a chunk of batches at a time. Dedup looks only at
	// the hashes known before the batches (the state's, the spills'), as
	// when every batch was deduplicated before the first summary: not
	// those the summaries add (hashKeyBefore). With an occurrence key
	// captured twice (repeated call ids and times), the state's changes
	// could depend on that order: every batch is then deduplicated first.
	before := s.nrec        // dedup finds the hashes of these record keys only
	var aliases []*NewEntry // the dedup entries, before the summaries'
	first := o.Dedup && (o.dedupFirst || repeatedKeys(batches))
	// no hash before the batches: dedup finds none, so no call is hashed
	// (the records seed theirs when one is asked for: addRecord)
	unseeded := s.unseeded()
	if unseeded {
		// (the records' seats: as many as the calls they may come from)
		s.unhashed = slices.Grow(s.unhashed, calls)
	}
	// a chunk's result texts, reused for the next chunk: sized once for
	// the largest chunk (a buffer grown by append copies itself each time
	// it grows, and in a process that never collects, each copy is memory
	// touched for the first time)
	texts := make([]byte, 0, chunkTextBytes(batches, o.Summarize == nil))
	// the slots: every batch's when dedup goes first (it settles them all
	// before the first summary), else one chunk's at a time, reused (1 GB:
	// ~220,000 batches, 12 MB of slots held through the batches)
	var slots []slot
	if first {
		slots = make([]slot, len(batches))
		for i, b := range batches {
			slots[i].b = b
			batches[i] = nil // (the slot's alone now)
		}
		for i := range slots {
			for _, c := range slots[i].b.Calls {
				var err error
				if texts, err = f.hashText(ctx, c, texts[:0], !unseeded); err != nil {
					return err
				}
			}
			f.dedupSlot(&slots[i], o, before, &aliases)
		}
	}
	var lastCall *Call
	var lastBatch *Batch
	entries, marks := f.Entries, f.marks // the summaries' entries come after the aliases
	f.Entries, f.marks = nil, entryMarks{}
	var buf []slot // (not first) the chunk's slots
	for start := 0; start < len(batches); start += chunk {
		var part []slot
		if first {
			part = slots[start:min(start+chunk, len(slots))]
		} else {
			n := min(chunk, len(batches)-start)
			buf = slices.Grow(buf[:0], n)[:n]
			part = buf
			for i := range part {
				// (the batch is the slot's alone now: let go of with it)
				part[i] = slot{b: batches[start+i]}
				batches[start+i] = nil
			}
		}
		var inputs []summarize.Batch
		var results []summarize.Result
		texts = texts[:0]
		for i := range part {
			sl := &part[i]
			n0 := len(texts)
			var err error
			if !first {
				for _, c := range sl.b.Calls {
					if texts, err = f.hashText(ctx, c, texts, !unseeded); err != nil {
						return err
					}
				}
				f.dedupSlot(sl, o, before, &aliases)
			}
			if sl.trivial {
				// (kept now: its texts are in texts until the next slot's)
				var decoded []byte
				if !first {
					decoded = texts
				}
				f.trivial.add(sl.b.Calls, decoded)
			}
			if sl.trivial || sl.deduped {
				texts = texts[:n0]
				continue
			}
			in, err := summaryInput(ctx, &f.lt, sl.b, &texts, !first)
			if err != nil {
				return err
			}
			if o.Summarize == nil {
				// a deterministic summary is made as soon as its batch's
				// texts are read, and they are let go: the buffer holds one
				// batch's texts, not a chunk's (summarized never reads a
				// deterministic summary's input, so none is kept)
				results = append(results, summarize.Result{Text: summarize.Deterministic(in), Source: summarize.SourceDeterministic})
				inputs = append(inputs, summarize.Batch{})
				texts = texts[:n0]
				continue
			}
			inputs = append(inputs, in)
		}
		if len(inputs) > 0 && o.Summarize != nil {
			results = o.Summarize(cx, inputs)
		}
		k := 0
		for i := range part {
			sl := &part[i]
			f.Processed++
			f.Calls += len(sl.b.Calls) + len(sl.dedup)
			f.Deduped += len(sl.dedup)
			f.RawChars += sl.dedupChars
			lastBatch = sl.b
			if n := len(sl.b.Calls); n > 0 {
				lastCall = sl.b.Calls[n-1]
			} else {
				lastCall = sl.dedup[len(sl.dedup)-1]
			}
			switch {
			case sl.deduped:
				continue
			case sl.trivial:
				f.Trivial += len(sl.b.Calls)
				f.RawChars += sl.raw
				continue
			}
			if err := f.summarized(ctx, sl, inputs[k], results[k]); err != nil {
				return err
			}
			k++
		}
		// the chunk's batches and calls are done with: dropped, so the
		// capture's memory goes as its records come (lastCall, lastBatch
		// and the trivial calls keep what they need)
		clear(part)
	}
	if f.noEntries {
		for _, e := range aliases {
			marks.add(e)
		}
		marks.then(f.marks)
		f.marks = marks
	} else {
		f.Entries = append(append(entries, aliases...), f.Entries...)
	}
	switch {
	case f.Summarized > 0:
		f.Outcome = "summarized"
	case f.Oversized > 0:
		f.Outcome = "skipped-oversized"
	case f.Deduped > 0:
		f.Outcome = "skipped-deduped"
	default:
		f.Outcome = "skipped-trivial"
	}
	fr := FrontierData{
		LastAttemptedToolCallID: lastCall.ToolCallID, LastAttemptedToolName: lastCall.ToolName,
		LastAttemptedTurnIndex: lastBatch.TurnIndex, LastAttemptedTimestamp: lastBatch.Timestamp,
		AttemptedBatchCount: f.Processed, AttemptedToolCallCount: f.Calls,
		RawCharCount: f.RawChars, SummaryCharCount: f.SummaryChars, Outcome: f.Outcome,
	}
	s.Frontier = &fr
	stats := StatsData{}
	if s.Stats != nil {
		stats = *s.Stats
	}
	stats.CallCount += f.CommandCalls
	s.Stats = &stats
	f.addEntry(customEntry(TypeFrontier, frontierData(fr)), customEntry(TypeStats, statsData(stats)))
	return nil
}

// rawChars is the raw text of the batch's calls (settle's sum).
func rawChars(b *Batch) int {
	n := 0
	for _, c := range b.Calls {
		n += c.Chars
	}
	return n
}

// repeatedKeys reports whether an occurrence key is captured twice (or
// two keys' 64-bit hashes collide: eight bytes a call, sorted).
func repeatedKeys(batches []*Batch) bool {
	var sums []uint64
	seed := maphash.MakeSeed()
	for _, b := range batches {
		for _, c := range b.Calls {
			sums = append(sums, maphash.String(seed, c.Key))
		}
	}
	slices.Sort(sums)
	for i := 1; i < len(sums); i++ {
		if sums[i] == sums[i-1] {
			return true
		}
	}
	return false
}

// chunkTextBytes is about what the flush's texts buffer holds at most: the
// raw bytes of the largest chunk's result texts and arguments, or of the
// largest batch's when each batch's texts are let go once summarised
// (perBatch). Decoding a JSON string never makes it longer; a text parsed
// from its line (not located in it) counts its Chars, arguments held
// decoded their length.
func chunkTextBytes(batches []*Batch, perBatch bool) int {
	size := func(c *Call) int {
		n := c.Chars
		if c.text.at.entry != 0 {
			n = int(c.text.at.n)
		}
		return n + len(c.Args) + int(c.argsAt.n)
	}
	most := 0
	for start := 0; start < len(batches); start += chunk {
		sum := 0
		for _, b := range batches[start:min(start+chunk, len(batches))] {
			batch := 0
			for _, c := range b.Calls {
				batch += size(c)
			}
			sum += batch
			if perBatch {
				most = max(most, batch)
			}
		}
		if !perBatch {
			most = max(most, sum)
		}
	}
	return most
}

// hashText appends c's resultText to texts (c.span locates it there) and,
// when hash, sets c.Hash from it (when no spill set it; else hashCall
// does).
func (f *Flushed) hashText(ctx *session.Context, c *Call, texts []byte, hash bool) ([]byte, error) {
	n0 := len(texts)
	f.lt.textKnown = false
	texts, err := c.appendText(texts, ctx, &f.lt)
	if err != nil {
		return texts, err
	}
	c.span = [2]int{n0, len(texts)}
	c.textFlags, c.flagsKnown = f.lt.textFlags, f.lt.textKnown
	if hash {
		f.hashCall(c, texts)
	}
	return texts, nil
}

// hashCall sets c.Hash (when no spill set it) from its text where hashText
// put it in texts.
func (f *Flushed) hashCall(c *Call, texts []byte) {
	if c.Hash == "" {
		c.Hash = f.lt.contentHash(c.ToolName, texts[c.span[0]:c.span[1]], c.textFlags, c.flagsKnown)
	}
}

// dedupSlot takes the duplicates of indexed results out of the slot's
// batch (o.Dedup: aliased to the first with their hash among the first
// before record keys; their entries appended to *aliases), then settles it.
func (f *Flushed) dedupSlot(sl *slot, o FlushOptions, before int32, aliases *[]*NewEntry) {
	s := f.State
	b := sl.b
	if o.Dedup {
		// the batch less its duplicates (b itself when it has none)
		var kept []*Call
		for j, c := range b.Calls {
			if orig, ok := s.hashKeyBefore(c.Hash, before); ok && orig != c.Key {
				if sl.dedup == nil {
					kept = append([]*Call(nil), b.Calls[:j]...)
				}
				s.addAlias(c.Key, orig)
				*aliases = append(*aliases, aliasEntry(c, orig))
				sl.dedup = append(sl.dedup, c)
				sl.dedupChars += c.Chars
				continue
			}
			if sl.dedup != nil {
				kept = append(kept, c)
			}
		}
		if sl.dedup != nil {
			nb := *b
			nb.Calls = kept
			sl.b = &nb
		}
	}
	f.settle(sl, o)
}

// settle sizes the slot's batch: its raw chars, whether dedup took all of
// it, whether it is trivial.
func (f *Flushed) settle(sl *slot, o FlushOptions) {
	sl.raw = 0
	for _, c := range sl.b.Calls {
		sl.raw += c.Chars
	}
	sl.deduped = len(sl.dedup) > 0 && len(sl.b.Calls) == 0
	sl.trivial = !sl.deduped && o.MinBatchChars > 0 && sl.raw < o.MinBatchChars
}

// rewritePoints records where the appended entries rewrite the prompt, as
// Rebuild finds them once they are in the file (the superseded-reads pass
// activates at them).
func (f *Flushed) rewritePoints(ctx *session.Context, first int) {
	if first == 0 {
		first = ctx.Lines + 1
	}
	// (the list sized once: 1 GB, ~105,000 points, a quarter more held
	// through the render when grown by append)
	if f.noEntries {
		f.State.RewritePoints = slices.Grow(f.State.RewritePoints, len(f.marks.floors))
		for _, m := range f.marks.floors {
			f.State.RewritePoints = append(f.State.RewritePoints, RewritePoint{Line: first + m.at, Floor: m.floor, Kind: m.kind})
		}
		f.marks = entryMarks{}
		return
	}
	n := len(f.deferred)
	for _, e := range f.Entries {
		if e != nil && e.floor != nil {
			n++
		}
	}
	f.State.RewritePoints = slices.Grow(f.State.RewritePoints, n)
	j := 0
	for k := 0; k < len(f.Entries); k++ {
		if e := f.Entries[k]; e != nil {
			if e.floor != nil {
				f.State.RewritePoints = append(f.State.RewritePoints, RewritePoint{Line: first + k, Floor: *e.floor, Kind: e.CustomType})
			}
			continue
		}
		// a deferred batch: its summary has no floor, its index entry the
		// earliest result time of its records (indexEntry's)
		d := f.deferred[j]
		j++
		k++
		if floor, ok := callsFloor(f.State, f.deferredCalls[d.calls0:d.calls0+f.Summaries[d.sum].n]); ok {
			f.State.RewritePoints = append(f.State.RewritePoints, RewritePoint{Line: first + k, Floor: floor, Kind: TypeIndex})
		}
	}
}

// summarized finishes one summarised batch: refs allocated (monotonic,
// burned even when the summary is then skipped, as pi-condense burns them),
// labels substituted, the footer added, the oversize check (a command
// summary that is longer than the raw text falls back to the deterministic
// one; if that is too, the batch is skipped), and the summary and index
// entries.
func (f *Flushed) summarized(ctx *session.Context, sl *slot, in summarize.Batch, r summarize.Result) error {
	s := f.State
	b := sl.b
	// refs, names and keys are done with when the batch is (reused)
	f.refs = slices.Grow(f.refs[:0], len(b.Calls))[:len(b.Calls)]
	f.names = slices.Grow(f.names[:0], len(b.Calls))[:len(b.Calls)]
	f.keys = slices.Grow(f.keys[:0], len(b.Calls))[:len(b.Calls)]
	refs, names, keys := f.refs, f.names, f.keys
	for i, c := range b.Calls {
		refs[i] = "t" + strconv.Itoa(s.NextRef)
		s.NextRef++
		names[i] = c.ToolName
	}
	if r.Warning != "" {
		f.SummarizerFailed++
		f.failed(r.Warning, false, len(b.Calls), fmt.Sprintf("turn %d (%d calls): %s; used the deterministic summary", b.TurnIndex, len(b.Calls), r.Warning))
	}
	switch r.Source {
	case summarize.SourceCommand:
		f.CommandCalls++
	case summarize.SourceCache:
		f.CacheHits++
	default:
		f.DeterministicBatches++
	}
	text := summarize.SubstituteLabelsFooter(r.Text, refs, names)
	chars := jsval.UTF16Len(text)
	if chars > sl.raw && r.Source != summarize.SourceDeterministic && r.Source != summarize.SourceFallback {
		f.Warnings = append(f.Warnings, fmt.Sprintf("turn %d: the %s summary (%d chars) is longer than the %d chars it summarises; used the deterministic summary", b.TurnIndex, r.Source, chars, sl.raw))
		text = summarize.SubstituteLabelsFooter(summarize.Deterministic(in), refs, names)
		chars = jsval.UTF16Len(text)
	}
	f.RawChars += sl.raw
	f.SummaryChars += chars
	if chars > sl.raw {
		f.Oversized += len(b.Calls)
		return nil
	}
	f.Summarized += len(b.Calls)
	var calls []entryCall // the index entry's (deferred: in deferredCalls from calls0)
	if !f.deferEntries {
		calls = make([]entryCall, len(b.Calls))
	}
	calls0 := len(f.deferredCalls)
	for i, c := range b.Calls {
		s.registerRefKey(ToolCallRef{ShortID: refs[i], ToolCallID: c.ToolCallID, ResultTimestamp: c.ResultTimestamp}, c.Key)
		ec := c.entryCall(s.addRecord(recordOf(c, b.TurnIndex, b.Timestamp, nil), c, ctx))
		if f.deferEntries {
			f.deferredCalls = append(f.deferredCalls, ec)
		} else {
			calls[i] = ec
		}
		keys[i] = c.Key
	}
	// the details are written from the records when they are (refs are
	// t<firstRef> on, the records are the last len(b.Calls) in s.recs)
	n := len(b.Calls)
	// a TextStore keeps the text until it is written (the message and
	// the state read it back from there)
	at, err := s.store(text)
	if err != nil {
		return err
	}
	if at.n > 0 {
		text = ""
	}
	sm := &SummaryMessage{Content: text, at: at, st: s, rec0: int32(len(s.recs) - n), n: int32(n), firstRef: s.NextRef - n, turnIndex: b.TurnIndex, batchMilli: b.Timestamp}
	f.Summaries = append(f.Summaries, sm)
	if f.deferEntries {
		f.deferred = append(f.deferred, deferredBatch{sum: int32(len(f.Summaries) - 1), calls0: int32(calls0)})
		f.Entries = append(f.Entries, nil, nil)
	} else {
		f.addEntry(summaryEntry(sm), indexEntry(s, calls))
	}
	s.addStoredSummary(Summary{Keys: keys, Text: text}, at)
	return nil
}

// entryCall is what an index entry keeps of the call: its record (rec,
// in the state's recs) and where its result's text is.
func (c *Call) entryCall(rec int32) entryCall {
	return entryCall{rec: rec, text: c.text, result: c.Result}
}

// recordOf is the in-memory record of a call (its text is not kept: render
// and query read it from the entry or the input).
func recordOf(c *Call, turnIndex int, ts int64, sp *spill) Record {
	r := Record{ToolCallID: c.ToolCallID, ToolName: c.ToolName, Args: c.Args, argsAt: c.argsAt, argsCanonical: true, IsError: c.IsError,
		TurnIndex: turnIndex, Timestamp: ts, ResultTimestamp: c.ResultTimestamp}
	if sp != nil {
		path, preview, hash := sp.path, sp.preview, sp.hash
		n := int64(sp.bytes)
		r.SpillPath, r.SpillBytes, r.ResultPreview, r.ContentHash = &path, &n, &preview, &hash
	}
	return r
}

// spill writes the batch's results of SpillThreshold chars or more to blobs
// and indexes them at once (pi-condense's spillOversizedBatch): a duplicate
// of an indexed result becomes an alias instead; a blob that cannot be
// written leaves the result in the batch (warned).
func (f *Flushed) spill(ctx *session.Context, b *Batch, o FlushOptions) error {
	s := f.State
	var spilled []entryCall
	keep := b.Calls[:0:0]
	for _, c := range b.Calls {
		if c.Chars < o.SpillThreshold {
			keep = append(keep, c)
			continue
		}
		if err := s.seedUnhashed(); err != nil {
			return err // (the hashes dedup looks at first)
		}
		text, err := c.readText(ctx, &f.lt)
		if err != nil {
			return err
		}
		c.Hash = ContentHash(c.ToolName, text)
		if o.Dedup {
			if orig, ok := s.hashKey(c.Hash); ok && orig != c.Key {
				s.addAlias(c.Key, orig)
				f.addEntry(aliasEntry(c, orig))
				f.Deduped++
				continue
			}
		}
		path, err := o.Spill(c.Key, text)
		if err != nil {
			f.Warnings = append(f.Warnings, fmt.Sprintf("spilling %s (%d chars): %v; kept inline", c.Key, c.Chars, err))
			keep = append(keep, c)
			continue
		}
		f.Blobs = append(f.Blobs, path)
		sp := &spill{path: path, bytes: len(text), preview: HeadPreview(text, o.SpillPreviewBytes), hash: c.Hash}
		spilled = append(spilled, c.entryCall(s.addRecord(recordOf(c, b.TurnIndex, b.Timestamp, sp), c, ctx)))
		f.Spilled++
	}
	b.Calls = keep
	if len(spilled) > 0 {
		f.addEntry(indexEntry(s, spilled))
	}
	return nil
}

// summaryInput reads a batch's texts for the summariser, decoded into
// *texts (or, decoded, already there where hashText put them): the strings
// share its bytes, so they are valid until *texts is reused (flushBatches
// reuses it for the next chunk of batches, once their summaries, which
// copy what they keep, are made).
func summaryInput(ctx *session.Context, lt *lineTape, b *Batch, texts *[]byte, decoded bool) (summarize.Batch, error) {
	in := summarize.Batch{AssistantText: b.AssistantText, Cwd: ctx.Header.Cwd, Calls: make([]summarize.Call, 0, len(b.Calls))}
	for _, c := range b.Calls {
		var text string
		var err error
		if decoded {
			text = bufString((*texts)[c.span[0]:c.span[1]])
		} else {
			n0 := len(*texts)
			if *texts, err = c.appendText(*texts, ctx, lt); err != nil {
				return in, err
			}
			text = bufString((*texts)[n0:])
		}
		n0 := len(*texts)
		if *texts, err = c.AppendArgs(*texts, ctx); err != nil {
			return in, err
		}
		in.Calls = append(in.Calls, summarize.Call{
			ToolName: c.ToolName, Args: bufString((*texts)[n0:]), // ArgsPretty: made by the request, when there is one
			Result: text, Chars: c.Chars, IsError: c.IsError,
		})
	}
	return in, nil
}

// bufString is b as a string without a copy: b is in a buffer that is not
// written again while the string is used (a later append that grows the
// buffer moves to a new one).
func bufString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// HeadPreview is the head of text at most maxBytes bytes of UTF-8, never
// cutting a character, and cut back to the last line break when there is
// one after the first byte (pi-condense's headPreview).
func HeadPreview(text string, maxBytes int) string {
	if len(text) <= maxBytes {
		return text
	}
	end := maxBytes
	for end > 0 && text[end]&0xC0 == 0x80 {
		end--
	}
	slice := text[:end]
	for i := len(slice) - 1; i > 0; i-- {
		if slice[i] == '\n' {
			return slice[:i]
		}
	}
	return slice
}

// metrics is the flush-metrics snapshot at flush entry, from the routing
// sizes pruner has without re-reading every line: frontierGapTokens is the
// text of the results past st's frontier that are not indexed or protected
// (chars/4; pi-condense measures their whole JSON); the thinking and chain
// shares are not measured (0).
func metrics(ctx *session.Context, st *State) (thinking, chainShare, gap int) {
	turn := 0
	past := st.Frontier == nil
	var open map[string]bool // calls of the frontier turn up to the last attempted
	chars := 0
	var key []byte // a result's occurrence key (reused)
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		m := ctx.EntryMessage(be)
		if ctx.EntryType(be) != "message" || m == nil {
			continue
		}
		switch m.Role() {
		case session.RoleAssistant:
			if st.Frontier != nil && turn == st.Frontier.LastAttemptedTurnIndex {
				open = map[string]bool{}
				for _, tc := range m.ToolCalls() {
					open[tc.ID()] = true
					if tc.ID() == st.Frontier.LastAttemptedToolCallID {
						break
					}
				}
				past = true
			} else if open != nil {
				open = nil
			}
			turn++
		case session.RoleToolResult:
			if !past || open[m.ToolCallID()] {
				continue
			}
			if key = appendMessageKey(key[:0], m.ToolCallID(), m.Timestamp()); st.isSummarizedBytes(key) {
				continue
			}
			chars += m.TextChars()
		}
	}
	return 0, 0, (chars + 2) / 4
}

// maxBlobName caps a blob's file name (upstream #14: ENAMETOOLONG on long
// ids); most file systems allow 255 bytes.
const maxBlobName = 200

// BlobName is the file name of an occurrence's spill blob under
// <session dir>/<session id>-blobs/: the occurrence key with every byte
// outside [A-Za-z0-9_-] replaced by "_", then ".txt" (pi-condense's
// naming); a name over 200 bytes keeps its first 183 and a 16-hex hash of
// the whole key.
func BlobName(key string) string {
	var sb strings.Builder
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-':
			sb.WriteRune(r)
		case r > 0xFFFF:
			sb.WriteString("__") // two UTF-16 units, as the JavaScript regexp sees it
		default:
			sb.WriteByte('_')
		}
	}
	name := sb.String()
	if len(name)+4 > maxBlobName {
		sum := sha256.Sum256([]byte(key))
		name = name[:maxBlobName-4-17] + "-" + hex.EncodeToString(sum[:8])
	}
	return name + ".txt"
}

// aliasEntry is the dedup-alias entry making c share orig's record.
func aliasEntry(c *Call, orig string) *NewEntry {
	e := customEntry(TypeDedupAlias, aliasData(c.Key, orig))
	e.floor = c.ResultTimestamp
	return e
}
