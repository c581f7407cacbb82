package index

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// This file is chain compression at flush (pi-condense's compressEligible,
// step 6 of flushPending): every eligible chain gets a context-prune-chain
// entry — a fused range summary, the per-batch summaries, or a
// deterministic body over a backfilled index entry — and the stats count
// it.
//
// compressedAt — the inserted message's timestamp — is the chain's final
// reply time, not the clock (pi-condense: Date.now()): the same chain gets
// the same message on every run and from every later prefix of the
// session, with or without --write.

// ChainOptions configure chain compression (contextPrune.chainCompression).
type ChainOptions struct {
	// Enabled is chainCompression.enabled.
	Enabled bool
	// RollingWindow is how many of the newest closed chains stay as they
	// are (chainCompression.rollingWindow; 0 compresses every closed one,
	// as /pruner compact does).
	RollingWindow int
	// RecoveryGraceTurns defers a chain holding a context_tree_query result
	// still in its recovery grace (recoveryGraceTurns).
	RecoveryGraceTurns int
	// Fuse fuses the per-batch summaries of a chain two or more cover into
	// one range summary (fuseRangeSummary); nil: no fusion (the render
	// joins the per-batch summaries). It is called from several goroutines
	// at once, FuseConcurrency at most (≤0: 4). A result whose Source is
	// deterministic or fallback must be summarize.FuseDeterministic of the
	// summaries and refs (the chain writes it again from them).
	Fuse            func(cx context.Context, summaries, refs []string) summarize.FuseResult
	FuseConcurrency int
	// FuseDeterministic says every fusion Fuse makes is
	// summarize.FuseDeterministic's (no command): the flush does not call
	// it, and a chain's fusion — with the deterministic summary of its
	// backfilled calls, re-read from the input — is written when asked
	// (ChainData.RangeSummary), not held.
	FuseDeterministic bool

	// eager makes and holds every chain's text at flush (tests: the
	// reference for the texts written when asked)
	eager bool
}

// bodyCall is what the deterministic chain body reads of a call.
type bodyCall struct {
	toolCallID, toolName string
	args                 []byte // JSON.stringify(args): set for the first and last (chainEnds)
	at                   int64  // resultTimestamp ?? timestamp
	// where args come from: a record (rec), or the input (argsAt)
	rec    *Record
	argsAt textRef
}

// chainCall is one call of a chain's middle that no record covers: it is
// backfilled.
type chainCall struct {
	toolCallID, toolName string
	args                 []byte  // nil when argsAt locates them
	argsAt               textRef // (callArgsAt)
	isError              bool
	ts                   int64
	key                  string
	entry                *session.BranchEntry // the result's entry (raw: no context edit)
	chars                int                  // resultText's JavaScript length
	spill                *spill
	loc                  textLoc // where resultText is (one text block)
	branch               int32   // entry's index in the context's Branch
	facts                textFacts
}

// textFacts are summarize.TextFacts of a result whose call's summary is
// its header alone (summarize.HeaderOnly), packed without a pointer, as
// the flush found them in the text it decoded: the backfilled calls'
// summary is then written without reading the text again. The zero
// value: not known.
type textFacts struct {
	lines uint32 // the line count, and factAborted, factExit (0: not known)
	exit  int32  // the exit code (factExit)
}

const (
	factAborted = 1 << 31
	factExit    = 1 << 30
	factLines   = factExit - 1
)

// packFacts packs f (false when it does not fit: a line count of 2^30 or
// more, an exit code that is not an int32 written as strconv.Itoa writes
// it).
func packFacts(f summarize.TextFacts) (textFacts, bool) {
	if f.Lines <= 0 || f.Lines > factLines {
		return textFacts{}, false
	}
	p := textFacts{lines: uint32(f.Lines)}
	if f.Aborted {
		p.lines |= factAborted
	}
	if f.Exit != "" {
		n, err := strconv.ParseInt(f.Exit, 10, 32)
		if err != nil || strconv.FormatInt(n, 10) != f.Exit {
			return textFacts{}, false
		}
		p.lines |= factExit
		p.exit = int32(n)
	}
	return p, true
}

// unpack is the facts p holds, when known.
func (p textFacts) unpack() (summarize.TextFacts, bool) {
	if p.lines == 0 {
		return summarize.TextFacts{}, false
	}
	f := summarize.TextFacts{Lines: int(p.lines & factLines), Aborted: p.lines&factAborted != 0}
	if p.lines&factExit != 0 {
		f.Exit = strconv.Itoa(int(p.exit))
	}
	return f, true
}

// chainTexts are what a flush's chains need to write, when asked, the
// texts they do not hold (deterministic bodies; with FuseDeterministic,
// their backfilled calls' deterministic summaries): the context and the
// state, one line tape for them all (a chain's text is written while no
// other is), and where the first error re-reading the input goes
// (State.TextErr).
type chainTexts struct {
	ctx  *session.Context
	st   *State
	mu   sync.Mutex
	lt   lineTape
	errs *textErrs
}

// textErrs holds the first error writing a text a state's chains do not
// hold (shared by its clones).
type textErrs struct {
	mu  sync.Mutex
	err error
}

func newChainTexts(ctx *session.Context, s *State) *chainTexts {
	if s.textErrs == nil {
		s.textErrs = &textErrs{}
	}
	return &chainTexts{ctx: ctx, st: s, errs: s.textErrs}
}

// TextErr is the first error re-reading the input for a text a chain of
// the state writes when asked (ChainData.RangeSummary: "" instead), nil
// when there was none: what was written with such a text is not whole.
func (s *State) TextErr() error {
	e := s.textErrs
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// chainBackfill is a chain's backfilled calls, as backfillSummary reads
// them: their records (in a row from rec0 in the state's recs, as backfill
// indexes them) and refs (t<firstRef> on), and per call what the record
// does not keep: where its result is, and its length.
type chainBackfill struct {
	t        *chainTexts
	rec0     int32
	firstRef int
	calls    []backfillCall
}

// backfillCall is what chainBackfill keeps of a call (no pointer; chars
// in an int32, as in trivialCall: a result's line is shorter than 2^31
// bytes, entryPlace's).
type backfillCall struct {
	branch int32
	loc    textLoc
	chars  int32
	facts  textFacts
}

// backfilled is the chainBackfill of calls, which backfill just indexed
// (their records from rec0, their refs from firstRef).
func (t *chainTexts) backfilled(calls []*chainCall, rec0 int32, firstRef int) *chainBackfill {
	b := &chainBackfill{t: t, rec0: rec0, firstRef: firstRef, calls: make([]backfillCall, len(calls))}
	for i, c := range calls {
		b.calls[i] = backfillCall{branch: c.branch, loc: c.loc, chars: int32(c.chars), facts: c.facts}
	}
	return b
}

// summary is backfillSummary of the chain's backfilled calls, as the flush
// would have made it; an error (reading the input) is kept for TextErr.
func (b *chainBackfill) summary() (string, error) {
	t := b.t
	t.mu.Lock()
	defer t.mu.Unlock()
	calls := make([]*chainCall, len(b.calls))
	refs := make([]string, len(b.calls))
	for i := range b.calls {
		bc := &b.calls[i]
		r := t.st.unpack(&t.st.recs[b.rec0+int32(i)])
		calls[i] = &chainCall{toolCallID: r.ToolCallID, toolName: r.ToolName, args: r.Args, argsAt: r.argsAt, isError: r.IsError,
			entry: &t.ctx.Branch[bc.branch], branch: bc.branch, chars: int(bc.chars), loc: bc.loc, facts: bc.facts}
		refs[i] = "t" + strconv.Itoa(b.firstRef+i)
	}
	text, err := backfillSummary(t.ctx, &t.lt, calls, refs)
	return text, t.fail(err)
}

// fail keeps err (when not nil) as the first for TextErr, and returns it.
func (t *chainTexts) fail(err error) error {
	if err != nil {
		t.errs.mu.Lock()
		if t.errs.err == nil {
			t.errs.err = err
		}
		t.errs.mu.Unlock()
	}
	return err
}

// content finds the call's result content, read from its entry onto lt
// (valid until the next read).
func (c *chainCall) content(ctx *session.Context, lt *lineTape) (uint32, bool, error) {
	msg, ok, err := lt.entryMessage(ctx, c.entry)
	if err != nil {
		return 0, false, err
	}
	content, ok := lt.get(msg, ok, "content")
	return content, ok, nil
}

// text reads the call's resultText.
func (c *chainCall) text(ctx *session.Context, lt *lineTape) (string, error) {
	content, ok, err := c.content(ctx, lt)
	if err != nil {
		return "", err
	}
	return lt.resultString(content, ok), nil
}

// compressChains compresses the eligible chains of ctx into f (entries,
// state, counters). Called by Flush after the batches.
func (f *Flushed) compressChains(cx context.Context, ctx *session.Context, o FlushOptions) error {
	co := o.Chains
	if !co.Enabled || ctx.Kind != session.KindSession {
		return nil
	}
	s := f.State
	chains, err := detectChains(ctx, o.Capture.Protect, s)
	if err != nil {
		return err
	}
	eligible := SelectEligible(chains, co.RollingWindow, s, GraceKeys(ctx, co.RecoveryGraceTurns), o.Capture.RawFrom, o.Capture.Pairing)
	if eligible, err = Resolvable(ctx, eligible); err != nil || len(eligible) == 0 {
		return err
	}
	// room for what backfill may add: the chains' results no record or
	// alias covers yet (counting every middle call, most of which the
	// batches just indexed, reserved a third more records, keys and slots
	// than backfill added — 1 GB: ~12 MB, and trim then copied the records
	// and keys again to give it back)
	middles := 0
	for k := range eligible {
		for _, key := range eligible[k].MiddleOccurrenceKeys {
			if !s.IsSummarized(key) {
				middles++
			}
		}
	}
	s.reserve(middles)
	// entry id (as its integer key: no string per entry) → index in
	// ctx.Branch + 1
	entries := newEntryIndex(ctx)
	compressed := 0
	bodies := newSummaryIndex(s)
	var done []*ChainData // the chains compressed, registered once fused
	var fusions []fusion
	var later *chainTexts // what the chains write when asked (FuseDeterministic)
	for k := range eligible {
		c := &eligible[k]
		if at := entries.get(ctx.Messages[c.Start].EntryKey()); at > 0 {
			f.trivial.drop(at - 1) // (the chains are in context order)
		}
		keys := c.LookupKeys()
		// the summaries covering the chain (found once; their texts read
		// only when used here: a TextStore keeps them)
		sums, err := bodies.covering(keys)
		if err != nil {
			return err
		}
		covered := len(sums) > 0
		fresh, err := f.chainCalls(ctx, entries, c, s, o.parseEveryCall)
		if err != nil {
			return err
		}
		// the chain's calls a record covers (an alias: its original's), for
		// the deterministic body of a chain no summary covers (a covered
		// chain reads none of them)
		var known []bodyCall
		var knownKeys []int32 // their key ids (the body written when asked)
		if !covered {
			for _, key := range keys {
				if r, ok := s.occurrence(key); ok {
					known = append(known, bodyCall{toolCallID: r.ToolCallID, toolName: r.ToolName, rec: &r, at: sortTime(r)})
					kid, _ := s.keyID(key) // (an occurrence's key has an id)
					knownKeys = append(knownKeys, kid)
				}
			}
		}
		if lost := unrecoverable(c, s, fresh); lost != "" {
			// fail closed: a result the chain would drop that nothing could
			// index (its call is not in the range: a broken pair)
			f.Warnings = append(f.Warnings, fmt.Sprintf("chain at %d not compressed: result %s has no call in its range, so nothing could index it", c.StartUserTimestamp, lost))
			continue
		}
		if !covered && len(fresh) == 0 && len(known) == 0 {
			if !allProtected(c) {
				f.diagnostic("backfill-empty", fmt.Sprintf("startUserTimestamp=%d middles=%d", c.StartUserTimestamp, len(c.MiddleToolCallIDs)))
			}
			continue // all protected: nothing to compress
		}
		var backfilled []string // the refs of fresh, in order
		if len(fresh) > 0 {
			if backfilled, err = f.backfill(ctx, fresh, o); err != nil {
				return err
			}
			if f.keyCopied {
				// the chain keeps the state's strings of the keys backfill
				// indexed, not copies (chainCalls indexes the chain's own
				// strings where it finds them)
				s.internKeys(c.MiddleOccurrenceKeys)
				f.keyCopied = false
			}
		}
		cd := ChainData{
			BlockID: "b" + strconv.Itoa(s.NextBlock), StartUserTimestamp: c.StartUserTimestamp,
			DroppedToolCallIDs: c.MiddleToolCallIDs, FinalAssistantTimestamp: c.FinalAssistantTimestamp,
			CompressedAt: *c.FinalAssistantTimestamp, ProtectedToolCallIDs: c.ProtectedToolCallIDs,
			DroppedOccurrenceKeys: c.MiddleOccurrenceKeys,
		}
		// the refs as their numbers (Refs writes them), or as strings
		// when one is not a canonical `tN`
		if nums, ok := s.toolRefNums(keys); ok && nums != nil {
			cd.refNums = nums
		} else if !ok {
			cd.ToolRefs = s.ToolRefs(keys)
		}
		if cd.ToolRefs == nil && cd.refNums == nil {
			cd.ToolRefs = []string{}
		}
		s.NextBlock++
		if !covered && !co.eager {
			// written when asked, from the records (the known ones and
			// those backfill just indexed, in a row): not held
			if later == nil {
				later = newChainTexts(ctx, s)
			}
			cd.body = &chainBody{t: later, known: knownKeys, rec0: int32(len(s.recs) - len(fresh)), n: int32(len(fresh))}
			cd.BodySource = "deterministic"
		} else if !covered {
			calls := known
			for _, fc := range fresh {
				calls = append(calls, bodyCall{toolCallID: fc.toolCallID, toolName: fc.toolName, args: fc.args, argsAt: fc.argsAt, at: fc.ts})
			}
			body, err := s.deterministicBody(ctx, calls, cd.Refs())
			if err != nil {
				return err
			}
			cd.RangeSummaryText, cd.BodySource = &body, "deterministic"
		} else {
			// what no summary covers gets its deterministic bullets, so the
			// body says what each ref of the chain was
			var extra *chainBackfill
			lazy := co.Fuse != nil && co.FuseDeterministic && !co.eager
			n := len(sums) // the texts the body is made of
			var texts []string
			if !lazy || s.texts == nil {
				if texts, err = s.sumTexts(sums); err != nil {
					return err
				}
			}
			if len(fresh) > 0 {
				if lazy {
					// written with the fusion (RangeSummary), not held
					if later == nil {
						later = newChainTexts(ctx, s)
					}
					extra = later.backfilled(fresh, int32(len(s.recs)-len(fresh)), s.NextRef-len(fresh))
				} else {
					text, err := backfillSummary(ctx, &f.lt, fresh, backfilled)
					if err != nil {
						return err
					}
					texts = append(texts, text)
					n++
				}
			}
			switch {
			case extra != nil || lazy && n >= 2:
				// summarize.FuseDeterministic's fusion, made when written:
				// never blank (it ends with the refs' footer); its
				// summaries read back then when a TextStore keeps them
				if s.texts != nil {
					cd.sums = &chainSums{st: s, idx: sums}
				} else {
					cd.fused = texts
				}
				cd.backfill = extra
				f.Fused++
			case co.Fuse != nil && n >= 2:
				fusions = append(fusions, fusion{cd: &cd, texts: texts, sums: sums})
			case len(fresh) > 0:
				// no fusion: the per-batch summaries as the render joins
				// them, then the backfilled calls' bullets
				text := strings.Join(texts, "\n\n")
				cd.RangeSummaryText = &text
			}
		}
		done = append(done, &cd)
		cdp := &cd
		floor := cd.StartUserTimestamp
		f.addEntry(&NewEntry{Type: "custom", CustomType: TypeChain, floor: &floor,
			body: func(dst []byte, _ *session.Context) ([]byte, error) { return appendChainData(dst, cdp) }})
		f.Chains++
		f.ChainCalls += len(c.MiddleToolCallIDs)
		compressed++
	}
	f.fuse(cx, co, fusions)
	for _, cd := range done {
		s.registerChain(cd)
	}
	if compressed > 0 {
		stats := StatsData{}
		if s.Stats != nil {
			stats = *s.Stats
		}
		stats.ChainsCompressed += compressed
		stats.RangesSummarized += f.Fused
		stats.CallCount += f.chainCommandCalls()
		s.Stats = &stats
		f.addEntry(customEntry(TypeStats, statsData(stats)))
	}
	return nil
}

// fusion is one chain's range summary to make.
type fusion struct {
	cd    *ChainData
	texts []string
	sums  []int32              // the summaries of texts (the last text may be no summary's)
	res   summarize.FuseResult // its Text dropped when deterministic
	some  bool                 // the fusion's text is not all white space
}

// deterministicFusion reports whether a fusion from source is
// summarize.FuseDeterministic of the chain's summaries and refs (the
// contract of ChainOptions.Fuse), which the chain then writes again from
// them when asked instead of holding the text.
func deterministicFusion(source summarize.Source) bool {
	return source == summarize.SourceDeterministic || source == summarize.SourceFallback
}

// fuse makes the range summaries, FuseConcurrency at a time (a command
// runs per chain; the deterministic fusion is instant), and sets them on
// their chains, in chain order.
func (f *Flushed) fuse(cx context.Context, co ChainOptions, jobs []fusion) {
	n := co.FuseConcurrency
	if n <= 0 {
		n = 4
	}
	// n workers take the jobs in turn: a goroutine per job waiting for a
	// turn was a stack and a g per chain at once (1 GB: ~32,000 chains,
	// tens of MB of stacks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				j := &jobs[i]
				r := co.Fuse(cx, j.texts, j.cd.Refs())
				if j.some = strings.TrimFunc(r.Text, isJSWhitespace) != ""; deterministicFusion(r.Source) {
					r.Text = "" // written again from the summaries when asked (ChainData.RangeSummary)
				}
				j.res = r
			}
		}()
	}
	wg.Wait()
	for _, j := range jobs {
		r := j.res
		switch r.Source {
		case summarize.SourceCommand:
			f.CommandCalls++
		case summarize.SourceCache:
			f.CacheHits++
		default:
			f.DeterministicFusions++
		}
		if r.Warning != "" {
			f.FusionsFailed++
			f.failed(r.Warning, true, len(j.texts), fmt.Sprintf("chain %s (%d summaries): %s; used the deterministic fusion", j.cd.BlockID, len(j.texts), r.Warning))
		}
		if j.some {
			if deterministicFusion(r.Source) {
				if j.cd.fused = j.texts; f.State.texts != nil && len(j.sums) == len(j.texts) {
					// (a TextStore keeps the summaries: read back when written)
					j.cd.fused, j.cd.sums = nil, &chainSums{st: f.State, idx: j.sums}
				}
			} else {
				text := r.Text
				j.cd.RangeSummaryText = &text
			}
			f.Fused++
		}
	}
}

// chainCommandCalls is how many command runs the chains made (the stats
// entry written before them counted the batches').
func (f *Flushed) chainCommandCalls() int { return f.CommandCalls - f.batchCommandCalls }

// summaryIndex finds the summaries covering a chain's keys without a
// scan of every summary per chain (a first flush of a long session has
// thousands of each): the state's index by key.
type summaryIndex struct {
	s *State
}

func newSummaryIndex(s *State) *summaryIndex { return &summaryIndex{s: s} }

// covering is State.SummaryTexts (pi-condense's
// getPerBatchSummariesForToolCallIds; any text means the chain is covered,
// hasPerBatchSummaryCoveringAny) without the empty texts, as the indexes
// in the state of the summaries with the distinct texts covering any of
// keys, in branch order (their texts not read unless two have the same
// length: a TextStore may keep them).
func (x *summaryIndex) covering(keys []string) ([]int32, error) {
	return x.s.distinctSummaries(x.s.summariesCovering(keys))
}

// unrecoverable returns the first occurrence the chain would drop that is
// neither indexed, nor about to be backfilled, nor protected ("" when there
// is none).
func unrecoverable(c *ChainRange, s *State, fresh []*chainCall) string {
	prot := make(map[string]bool, len(c.ProtectedToolCallIDs))
	for _, id := range c.ProtectedToolCallIDs {
		prot[id] = true
	}
	back := make(map[string]bool, len(fresh))
	for _, fc := range fresh {
		back[fc.key] = true
	}
	for _, k := range c.MiddleOccurrenceKeys {
		if id, _ := ParseOccurrenceKey(k); !s.IsSummarized(k) && !back[k] && !prot[id] {
			return k
		}
	}
	return ""
}

// occurrence is the record of an occurrence key: its own, or for a dedup
// alias its original's with the alias's id and result time.
func (s *State) occurrence(key string) (Record, bool) {
	if r := s.record(key); r != nil {
		return *r, true
	}
	orig, ok := s.aliasOf(key)
	if !ok {
		return Record{}, false
	}
	r := s.record(orig)
	if r == nil {
		return Record{}, false
	}
	rc := *r
	rc.ToolCallID, rc.ResultTimestamp = ParseOccurrenceKey(key)
	return rc, true
}

// allProtected reports whether every middle call of c is protected.
func allProtected(c *ChainRange) bool {
	prot := make(map[string]bool, len(c.ProtectedToolCallIDs))
	for _, id := range c.ProtectedToolCallIDs {
		prot[id] = true
	}
	for _, id := range c.MiddleToolCallIDs {
		if !prot[id] {
			return false
		}
	}
	return len(c.MiddleToolCallIDs) > 0
}

// registerChain is pi-condense's registerChain; the state keeps c (the
// flush does not change a chain once it is registered).
func (s *State) registerChain(c *ChainData) {
	if _, seen := s.chains[c.StartUserTimestamp]; !seen {
		s.chainOrder = append(s.chainOrder, c.StartUserTimestamp)
	}
	s.chains[c.StartUserTimestamp] = c
}

// chainCalls are the calls of a chain's range that nothing covers
// (pi-condense's extractChainRecords): results of calls made in the range,
// not protected, with a numeric timestamp, neither indexed nor a dedup
// alias — in result order, each with the arguments of the last toolCall
// block with its id. Every chain pruner compresses backfills them, covered
// or not: a chain drops its results from the context, and a result no
// record holds could not be recovered (pi-condense backfills uncovered
// chains only, so a trivial batch inside a covered chain is lost to it).
func (f *Flushed) chainCalls(ctx *session.Context, entries *keyIndex, c *ChainRange, s *State, parseEvery bool) ([]*chainCall, error) {
	prot := make(map[string]bool, len(c.ProtectedToolCallIDs))
	for _, id := range c.ProtectedToolCallIDs {
		prot[id] = true
	}
	type call struct {
		name    string
		args    []byte
		argsAt  textRef
		trivial int // f.trivial index + 1 when captured there
	}
	// the ids of the results that need their call's arguments: canonical
	// arguments are made for those calls only (most of a chain's calls are
	// indexed by the batches flushed just before)
	need := map[string]bool{}
	var kb [64]byte
	// what this pass finds of each result, by index from c.Start, for the
	// next (the same key and entry, not looked up twice): 0 not looked
	// up, -1 summarized, else its entries value + 1
	looked := make([]int32, c.Final-c.Start)
	for i := c.Start + 1; i < c.Final; i++ {
		m := ctx.Messages[i]
		if m.Role() != session.RoleToolResult || prot[m.ToolCallID()] {
			continue
		}
		// (most are indexed: that is looked up first)
		ts, ok := wholeTimestamp(m.Timestamp())
		if !ok {
			continue
		}
		if s.isSummarizedBytes(appendOccurrenceKey(kb[:0], m.ToolCallID(), ts)) {
			looked[i-c.Start] = -1
			continue
		}
		at := entries.get(m.EntryKey())
		looked[i-c.Start] = at + 1
		if at != 0 {
			need[m.ToolCallID()] = true
		}
	}
	if len(need) == 0 {
		return nil, nil
	}
	open := map[string]call{}
	var out []*chainCall
	lt := &f.lt
	// the results' keys are the chain's own strings (chain detection's, in
	// result order, from kpos on), not a copy each: backfill indexes them
	keys, kpos := c.MiddleOccurrenceKeys, 0
	for i := c.Start + 1; i < c.Final; i++ {
		m := ctx.Messages[i]
		switch m.Role() {
		case session.RoleAssistant:
			if len(m.ToolCalls()) == 0 {
				continue
			}
			if !parseEvery && !anyNeeded(m.ToolCalls(), need) {
				// none of its calls' results needs them: its line is not
				// parsed (the calls' results are covered, never read)
				continue
			}
			at := entries.get(m.EntryKey())
			if at == 0 {
				continue
			}
			// (the branch entry's calls: capture's, from the line parsed below)
			if calls := ctx.EntryMessage(&ctx.Branch[at-1]).ToolCalls(); !parseEvery && f.trivial.open(calls, at-1, need, func(k, tr int) {
				open[calls[k].ID()] = call{name: calls[k].Name(), argsAt: f.trivial.at(tr).argsAt, trivial: tr + 1}
			}) {
				continue // its needed calls were captured: not parsed again
			}
			msg, ok, err := lt.entryMessage(ctx, &ctx.Branch[at-1])
			if err != nil {
				return nil, err
			}
			content, ok := lt.get(msg, ok, "content")
			lt.elems(content, ok, func(bl uint32) {
				if tv, has := lt.get(bl, true, "type"); !lt.strIs(tv, has, "toolCall") {
					return
				}
				iv, hasID := lt.get(bl, true, "id")
				id, _ := lt.strView(iv, hasID) // a view of the line: copied to be kept
				if !need[id] {
					// its results are covered: never read (a result whose
					// call is not open is skipped as a covered one is)
					return
				}
				id = strings.Clone(id)
				name, _ := lt.getStr(bl, true, "name")
				args, argsAt := lt.callArgsAt(bl, int(at-1))
				open[id] = call{name: name, args: args, argsAt: argsAt}
			})
		case session.RoleToolResult:
			cl, ok := open[m.ToolCallID()]
			if !ok || prot[m.ToolCallID()] {
				continue
			}
			ts, ok := wholeTimestamp(m.Timestamp())
			if !ok {
				continue
			}
			var at int32
			switch v := looked[i-c.Start]; {
			case v < 0:
				continue // summarized
			case v > 0:
				at = v - 1
			default:
				if s.isSummarizedBytes(appendOccurrenceKey(kb[:0], m.ToolCallID(), ts)) {
					continue
				}
				at = entries.get(m.EntryKey())
			}
			if at == 0 {
				continue
			}
			key := f.chainKey(keys, &kpos, appendOccurrenceKey(kb[:0], m.ToolCallID(), ts))
			be := &ctx.Branch[at-1]
			cc := &chainCall{toolCallID: m.ToolCallID(), toolName: cl.name, args: cl.args, argsAt: cl.argsAt, ts: ts, key: key, entry: be, branch: at - 1}
			if cl.trivial > 0 && f.trivial.at(cl.trivial-1).res == at-1 {
				// captured with this result: what the parse below reads of
				// the same line
				tc := f.trivial.at(cl.trivial - 1)
				cc.isError, cc.loc, cc.chars, cc.facts = tc.errorTrue, tc.text, int(tc.chars), tc.facts
				out = append(out, cc)
				continue
			}
			msg, ok, err := lt.entryMessage(ctx, be)
			if err != nil {
				return nil, err
			}
			if v, ok := lt.get(msg, ok, "isError"); ok {
				cc.isError = lt.tp.Nodes[v].Kind == jsonscan.True
			}
			rc, ok := lt.get(msg, ok, "content")
			cc.loc = lt.singleText(rc, ok, int(at-1))
			cc.chars = lt.resultChars(rc, ok)
			out = append(out, cc)
		}
	}
	return out, nil
}

// chainKey is key as a string: the one in keys from *at on when it is
// there (*at then moves past it), else a copy (f.keyCopied set, and the
// search ends: a chain's keys are looked at once, not once per result).
func (f *Flushed) chainKey(keys []string, at *int, key []byte) string {
	for i := *at; i < len(keys); i++ {
		if keys[i] == string(key) {
			*at = i + 1
			return keys[i]
		}
	}
	*at = len(keys)
	f.keyCopied = true
	return string(key)
}

// trivialCalls are what a chain's backfill reads of the calls of a
// flush's trivial batches (captured, never summarised) whose arguments are
// left in the input: no pointer (the collector does not scan them), in
// capture order (by assistant entry), in chunks of trivialChunk calls. The
// chains, compressed in context order, let go of the chunks before the
// one they are at (drop): 1 GB, ~200,000 calls, 12.5 MB no longer held
// to the last chain. A call let go of is not found (find), and its
// chain's line is parsed instead, which reads the same.
type trivialCalls struct {
	chunks [][]trivialCall
	n      int // calls added
	lo     int // the first call not let go of (a chunk's first)
}

// trivialChunk is how many calls a chunk of trivialCalls holds (a
// variable: tests let go of small ones).
var trivialChunk = 1024

// at is call i (of those not let go of).
func (t *trivialCalls) at(i int) *trivialCall { return &t.chunks[i/trivialChunk][i%trivialChunk] }

// trivialCall is one of them: the assistant entry and the result entry
// (indexes in the context's Branch), the call's index in the assistant's
// ToolCalls, and what chainCalls reads of the two lines.
type trivialCall struct {
	turn, call, res int32
	errorTrue       bool
	argsAt          textRef
	text            textLoc
	chars           int32
	facts           textFacts
}

// add keeps the calls whose arguments are located in the input (Args nil)
// and found on the assistant's line. texts holds their decoded result
// texts where their spans say (nil: not decoded): the facts of those
// whose summary is their header alone are kept.
func (t *trivialCalls) add(calls []*Call, texts []byte) {
	for _, c := range calls {
		if c.Args == nil && c.turn >= 0 {
			tc := trivialCall{turn: c.turn, call: c.call, res: c.res, errorTrue: c.errorTrue, argsAt: c.argsAt, text: c.text, chars: int32(c.Chars)}
			if texts != nil && summarize.HeaderOnly(c.Chars, c.errorTrue) {
				tc.facts, _ = packFacts(summarize.FactsOf(bufString(texts[c.span[0]:c.span[1]])))
			}
			if t.n%trivialChunk == 0 {
				t.chunks = append(t.chunks, make([]trivialCall, 0, trivialChunk))
			}
			last := &t.chunks[len(t.chunks)-1]
			*last = append(*last, tc)
			t.n++
		}
	}
}

// drop lets go of the chunks whose calls are all of assistant entries
// before turn (an index in the Branch): the chains still to compress
// start there or later.
func (t *trivialCalls) drop(turn int32) {
	for c := t.lo / trivialChunk; c < len(t.chunks)-1; c++ {
		if ch := t.chunks[c]; ch[len(ch)-1].turn >= turn {
			return
		}
		t.chunks[c] = nil
		t.lo = (c + 1) * trivialChunk
	}
}

// find is the index of the call captured as call k of assistant entry
// turn (-1: none, or let go of).
func (t *trivialCalls) find(turn int32, k int) int {
	i := t.lo + sort.Search(t.n-t.lo, func(i int) bool { return t.at(t.lo+i).turn >= turn })
	for ; i < t.n && t.at(i).turn == turn; i++ {
		if int(t.at(i).call) == k {
			return i
		}
	}
	return -1
}

// open calls fn for each call in calls (the ToolCalls of assistant entry
// turn of the Branch) whose id is needed, with the index in list of its
// captured call, and reports true, when that is what parsing the entry's
// line finds of them: every needed call captured, its id on no other
// block of the message, and every id and name of the message read alike
// by the session and the line's tape (valid UTF-8 without U+FFFD). Else
// it calls fn for none and reports false.
func (t *trivialCalls) open(calls []session.ToolCall, turn int32, need map[string]bool, fn func(k, at int)) bool {
	if t.n == t.lo {
		return false
	}
	for i := range calls {
		tc := &calls[i]
		if !plainText(tc.ID()) {
			return false
		}
		if !need[tc.ID()] {
			continue
		}
		if !plainText(tc.Name()) || t.find(turn, i) < 0 {
			return false
		}
		for j := range calls {
			if j != i && calls[j].ID() == tc.ID() {
				return false
			}
		}
	}
	for i := range calls {
		if need[calls[i].ID()] {
			fn(i, t.find(turn, i))
		}
	}
	return true
}

// plainText reports whether s is valid UTF-8 without U+FFFD: a string that
// every decoder of its JSON reads alike.
func plainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, utf8.RuneError)
}

// anyNeeded reports whether one of calls has its id in need.
func anyNeeded(calls []session.ToolCall, need map[string]bool) bool {
	for i := range calls {
		if need[calls[i].ID()] {
			return true
		}
	}
	return false
}

// backfill indexes a chain's uncovered calls as one backfilled index
// entry (turnIndex -1, the result time as the batch time, refs allocated
// next), spilling a result of spillThreshold chars or more as the flush
// does (a blob that cannot be written leaves the text in the record,
// warned).
func (f *Flushed) backfill(ctx *session.Context, calls []*chainCall, o FlushOptions) ([]string, error) {
	s := f.State
	refs := make([]ToolCallRef, len(calls))
	for i, c := range calls {
		if o.Spill != nil && o.SpillThreshold > 0 && c.chars >= o.SpillThreshold {
			text, err := c.text(ctx, &f.lt)
			if err != nil {
				return nil, err
			}
			if path, err := o.Spill(c.key, text); err != nil {
				f.Warnings = append(f.Warnings, fmt.Sprintf("spilling %s (%d chars): %v; kept inline", c.key, c.chars, err))
			} else {
				f.Blobs = append(f.Blobs, path)
				c.spill = &spill{path: path, bytes: len(text), preview: HeadPreview(text, o.SpillPreviewBytes), hash: ContentHash(c.toolName, text)}
			}
		}
		ts := c.ts
		refs[i] = ToolCallRef{ShortID: "t" + strconv.Itoa(s.NextRef), ToolCallID: c.toolCallID, ResultTimestamp: &ts}
		s.NextRef++
	}
	firstRef := s.NextRef - len(calls)
	recs := make([]entryCall, len(calls))
	for i, c := range calls {
		ts := c.ts
		r := Record{ToolCallID: c.toolCallID, ToolName: c.toolName, Args: c.args, argsAt: c.argsAt, argsCanonical: true, IsError: c.isError, TurnIndex: -1, Timestamp: ts, ResultTimestamp: &ts}
		if sp := c.spill; sp != nil {
			path, preview, hash := sp.path, sp.preview, sp.hash
			n := int64(sp.bytes)
			r.SpillPath, r.SpillBytes, r.ResultPreview, r.ContentHash = &path, &n, &preview, &hash
		}
		_, _, at := s.indexRecord(r, c.key, true)
		recs[i] = entryCall{rec: at, text: c.loc, entry: c.entry}
		s.registerRefKey(refs[i], c.key)
	}
	f.Backfilled += len(calls)
	floor := calls[0].ts
	for _, c := range calls {
		floor = min(floor, c.ts)
	}
	f.addEntry(&NewEntry{Type: "custom", CustomType: TypeIndex, floor: &floor, body: func(dst []byte, ctx *session.Context) ([]byte, error) {
		return appendBackfill(dst, ctx, s, recs, firstRef)
	}})
	short := make([]string, len(refs))
	for i, r := range refs {
		short[i] = r.ShortID
	}
	return short, nil
}

// backfillSummary is the deterministic summary of a chain's backfilled
// calls, labels turned into their refs, with pi-condense's footer.
func backfillSummary(ctx *session.Context, lt *lineTape, calls []*chainCall, refs []string) (string, error) {
	b := summarize.Batch{Cwd: ctx.Header.Cwd}
	names := make([]string, len(calls))
	// the texts are decoded into the tape's reused buffer: the summary
	// copies what it keeps (SubstituteLabels + Footer make a new string)
	lt.texts = slices.Grow(lt.texts[:0], backfillBytes(calls))
	facts := make([]summarize.TextFacts, len(calls)) // (one allocation)
	for i, c := range calls {
		n0 := len(lt.texts)
		var err error
		var known *summarize.TextFacts
		if f, ok := c.facts.unpack(); ok && summarize.HeaderOnly(c.chars, c.isError) {
			// all its summary reads of its text: the text is not read
			facts[i] = f
			known = &facts[i]
		} else if c.loc.at.entry != 0 {
			lt.texts, err = lt.appendTextAt(lt.texts, ctx, c.loc)
		} else {
			var content uint32
			var ok bool
			if content, ok, err = c.content(ctx, lt); err == nil {
				lt.texts = lt.appendResultText(lt.texts, content, ok)
			}
		}
		if err != nil {
			return "", err
		}
		text := bufString(lt.texts[n0:])
		n0 = len(lt.texts)
		if lt.texts, err = appendArgs(lt.texts, ctx, c.args, c.argsAt); err != nil {
			return "", err
		}
		b.Calls = append(b.Calls, summarize.Call{ToolName: c.toolName, Args: bufString(lt.texts[n0:]), Result: text, Chars: c.chars, IsError: c.isError, Facts: known})
		names[i] = c.toolName
	}
	return summarize.SubstituteLabelsFooter(summarize.Deterministic(b), refs, names), nil
}

// backfillBytes is about what backfillSummary decodes of calls into the
// tape's buffer, which is grown to it once (not by each append, each
// growth a copy into memory touched for the first time): their texts' raw
// bytes (the JSON strings; decoding never makes one longer), or their
// Chars when a text is parsed from its line, and their arguments twice
// (those read as JSON.stringify writes them are made canonical after
// their raw bytes).
func backfillBytes(calls []*chainCall) int {
	n := 0
	for _, c := range calls {
		if c.loc.at.entry != 0 {
			n += int(c.loc.at.n)
		} else {
			n += c.chars
		}
		n += 2 * (len(c.args) + int(c.argsAt.n))
	}
	return n
}

// diagnostic appends a context-prune-diagnostic entry, once per kind and
// detail on the branch (pi-condense dedups per process; the session
// remembers across runs).
func (f *Flushed) diagnostic(kind, detail string) {
	s := f.State
	key := kind + "\x00" + detail
	if s.diagnostics[key] {
		return
	}
	if s.diagnostics == nil {
		s.diagnostics = map[string]bool{}
	}
	s.diagnostics[key] = true
	f.Diagnostics = append(f.Diagnostics, Diagnostic{Kind: kind, Detail: detail})
	dst := []byte(`{"kind":`)
	dst = jsval.AppendString(dst, kind)
	dst = append(dst, `,"detail":`...)
	dst = jsval.AppendString(dst, detail)
	f.addEntry(customEntry(TypeDiagnostic, append(dst, '}')))
}

// DeterministicChainBody is pi-condense's deterministic chain body (the
// zero-LLM body of a chain no summary covers), line for line: the note,
// `Calls:`, `Tools:` (a count per tool, most used first), `Span:` (first
// and last result time, ISO, and the seconds between), `First:`/`Last:`
// (tool and arguments, 200 chars at most), `Refs:` (the call ids when the
// chain has no refs). Tool names that tie are ordered case-insensitively,
// lower case first (JavaScript's localeCompare; ICU orders punctuation
// differently).
func DeterministicChainBody(calls []bodyCall, refs []string) string {
	if len(calls) == 0 {
		return ""
	}
	counts := map[string]int{}
	var names []string
	for _, c := range calls {
		if counts[c.toolName] == 0 {
			names = append(names, c.toolName)
		}
		counts[c.toolName]++
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if counts[a] != counts[b] {
			return counts[a] > counts[b]
		}
		if la, lb := strings.ToLower(a), strings.ToLower(b); la != lb {
			return la < lb
		}
		return a > b // lower case first
	})
	hist := make([]string, len(names))
	for i, n := range names {
		hist[i] = n + " x" + strconv.Itoa(counts[n])
	}
	fi, li := chainEnds(calls)
	first, last := calls[fi], calls[li]
	seconds := int64(math.Floor(float64(last.at-first.at)/1000 + 0.5))
	refsLine := strings.Join(refs, ", ")
	if len(refs) == 0 {
		ids := make([]string, len(calls))
		for i, c := range calls {
			ids[i] = c.toolCallID
		}
		refsLine = strings.Join(ids, ", ")
	}
	return strings.Join([]string{
		"Deterministic chain compression (no per-batch summary existed for this span; raw outputs recoverable via context_tree_query).",
		"Calls: " + strconv.Itoa(len(calls)),
		"Tools: " + strings.Join(hist, ", "),
		"Span: " + isoTime(first.at) + " -> " + isoTime(last.at) + " (" + strconv.FormatInt(seconds, 10) + "s)",
		"First: " + first.toolName + " " + excerpt(first.args),
		"Last: " + last.toolName + " " + excerpt(last.args),
		"Refs: " + refsLine,
	}, "\n")
}

// chainEnds are the indexes of the first and the last of calls by time
// (the first and the last of a stable sort by at).
func chainEnds(calls []bodyCall) (first, last int) {
	for i, c := range calls {
		if c.at < calls[first].at {
			first = i
		}
		if c.at >= calls[last].at {
			last = i
		}
	}
	return first, last
}

// isoTime is JavaScript's new Date(ms).toISOString().
func isoTime(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		return sign + fmt.Sprintf("%06d", y) + t.Format("-01-02T15:04:05.000Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}

// excerpt is JSON.stringify(args), cut to 200 UTF-16 units plus "...".
func excerpt(args []byte) string {
	s := string(args)
	if s == "" {
		s = "{}"
	}
	if jsval.UTF16Len(s) <= 200 {
		return s
	}
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > 200 {
			return s[:i] + "..."
		}
		units += w
	}
	return s
}

// appendChainData appends a chain entry's data to dst, in pi-condense's
// key order; errors are I/O errors re-reading the input for a range
// summary written when asked.
func appendChainData(dst []byte, c *ChainData) ([]byte, error) {
	dst = append(dst, `{"blockId":`...)
	dst = jsval.AppendString(dst, c.BlockID)
	dst = append(dst, `,"startUserTimestamp":`...)
	dst = strconv.AppendInt(dst, c.StartUserTimestamp, 10)
	dst = append(dst, `,"droppedToolCallIds":`...)
	dst = appendStrings(dst, c.DroppedToolCallIDs)
	dst = append(dst, `,"finalAssistantTimestamp":`...)
	if c.FinalAssistantTimestamp == nil {
		dst = append(dst, "null"...)
	} else {
		dst = strconv.AppendInt(dst, *c.FinalAssistantTimestamp, 10)
	}
	dst = append(dst, `,"toolRefs":`...)
	dst = appendStrings(dst, c.Refs())
	dst = append(dst, `,"compressedAt":`...)
	dst = strconv.AppendInt(dst, c.CompressedAt, 10)
	if text, ok, err := c.rangeSummary(); err != nil {
		return dst, err
	} else if ok {
		dst = append(dst, `,"rangeSummaryText":`...)
		dst = jsval.AppendString(dst, text)
	}
	if c.BodySource != "" {
		dst = append(dst, `,"bodySource":`...)
		dst = jsval.AppendString(dst, c.BodySource)
	}
	if len(c.ProtectedToolCallIDs) > 0 {
		dst = append(dst, `,"protectedToolCallIds":`...)
		dst = appendStrings(dst, c.ProtectedToolCallIDs)
	}
	if len(c.DroppedOccurrenceKeys) > 0 {
		dst = append(dst, `,"droppedOccurrenceKeys":`...)
		dst = appendStrings(dst, c.DroppedOccurrenceKeys)
	}
	return append(dst, '}'), nil
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsval.AppendString(dst, s)
	}
	return append(dst, ']')
}

// appendBackfill appends a backfilled index entry's data: the records as
// pi-condense builds them (a spilled one with applySpill's keys after its
// own), `backfilled: true`, the refs (t<firstRef> on, one per record, in
// order). Result texts are read from the input.
func appendBackfill(dst []byte, ctx *session.Context, st *State, calls []entryCall, firstRef int) ([]byte, error) {
	dst = append(dst, `{"toolCalls":[`...)
	for i := range calls {
		c := &calls[i]
		rc := st.unpack(&st.recs[c.rec])
		r := &rc
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"toolCallId":`...)
		dst = jsval.AppendString(dst, r.ToolCallID)
		dst = append(dst, `,"toolName":`...)
		dst = jsval.AppendString(dst, r.ToolName)
		dst = append(dst, `,"args":`...)
		var err error
		if dst, err = appendArgs(dst, ctx, r.Args, r.argsAt); err != nil {
			return dst, err
		}
		dst = append(dst, `,"resultText":`...)
		if r.SpillPath != nil {
			dst = append(dst, `""`...)
		} else if dst, err = c.appendTextJSON(dst, ctx); err != nil {
			return dst, err
		}
		dst = append(dst, `,"isError":`...)
		dst = strconv.AppendBool(dst, r.IsError)
		dst = append(dst, `,"turnIndex":-1,"timestamp":`...)
		dst = strconv.AppendInt(dst, r.Timestamp, 10)
		dst = append(dst, `,"resultTimestamp":`...)
		dst = strconv.AppendInt(dst, *r.ResultTimestamp, 10)
		if r.SpillPath != nil {
			dst = append(dst, `,"spillBytes":`...)
			dst = strconv.AppendInt(dst, *r.SpillBytes, 10)
			dst = append(dst, `,"resultPreview":`...)
			dst = jsval.AppendString(dst, *r.ResultPreview)
			dst = append(dst, `,"spillPath":`...)
			dst = jsval.AppendString(dst, *r.SpillPath)
			dst = append(dst, `,"contentHash":`...)
			dst = jsval.AppendString(dst, *r.ContentHash)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `],"backfilled":true,"refs":[`...)
	for i := range calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &st.recs[calls[i].rec]
		dst = appendRef(dst, "t"+strconv.Itoa(firstRef+i), st.recID(r), r.resultTimestamp())
	}
	return append(dst, `]}`...), nil
}

// deterministicBody is DeterministicChainBody of calls with their first
// and last call's arguments (the ones it quotes) read.
func (s *State) deterministicBody(ctx *session.Context, calls []bodyCall, refs []string) (string, error) {
	first, last := chainEnds(calls)
	for _, i := range []int{first, last} {
		var err error
		if calls[i].args, err = s.bodyArgs(ctx, &calls[i]); err != nil {
			return "", err
		}
	}
	return DeterministicChainBody(calls, refs), nil
}

// chainBody is the deterministic body of a chain no summary covers, as
// the flush would have made it, written when asked: the calls a record
// covered (by key id, in the chain's key order) and then those backfill
// indexed for it (n records from rec0).
type chainBody struct {
	t       *chainTexts
	known   []int32
	rec0, n int32
}

// text is the body; an error (reading the input) is kept for TextErr.
func (b *chainBody) text(refs []string) (string, error) {
	t := b.t
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.st
	calls := make([]bodyCall, 0, len(b.known)+int(b.n))
	for _, kid := range b.known {
		r, ok := s.occurrence(s.keys[kid].key)
		if !ok {
			return "", t.fail(fmt.Errorf("chain body: %s is not indexed any more", s.keys[kid].key))
		}
		calls = append(calls, bodyCall{toolCallID: r.ToolCallID, toolName: r.ToolName, rec: &r, at: sortTime(r)})
	}
	for i := range b.n {
		r := s.unpack(&s.recs[b.rec0+i])
		calls = append(calls, bodyCall{toolCallID: r.ToolCallID, toolName: r.ToolName, args: r.Args, argsAt: r.argsAt, at: r.Timestamp})
	}
	body, err := s.deterministicBody(t.ctx, calls, refs)
	return body, t.fail(err)
}

// bodyArgs is a body call's arguments as JSON.stringify writes them: a
// record's (read from the input when it left them there), or the call's.
func (s *State) bodyArgs(ctx *session.Context, c *bodyCall) ([]byte, error) {
	if c.rec == nil {
		if c.argsAt.entry == 0 {
			return c.args, nil
		}
		return appendArgs(nil, ctx, nil, c.argsAt)
	}
	args, err := s.recordArgs(c.rec)
	if err != nil || c.rec.argsCanonical {
		return args, err
	}
	return jsval.Canonical(args), nil
}
