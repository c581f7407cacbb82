package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

// Strategy names what `pruner now` did with a message of the unpruned
// context, or why it kept it as it is. The names are stable (they are keys
// of `pruner stats --json`).
type Strategy string

// Strategies. Every message of the unpruned context and every message of
// the pruned one is accounted to exactly one of them.
const (
	// Stubbed: an indexed result replaced by pi-condense's summary stub.
	Stubbed Strategy = "stubbed"
	// Spilled: an indexed result spilled to a blob, replaced by its spill stub.
	Spilled Strategy = "spilled"
	// Deduped: a duplicate of an indexed result, stubbed with the
	// original's ref (a dedup alias).
	Deduped Strategy = "deduped"
	// Masked: a result replaced by a masking notice (an error excerpt, or
	// its images by text notices).
	Masked Strategy = "masked"
	// ChainCompressed: messages a compressed chain folds into one
	// `<compressed-chain>` message (dropped: after 0), the chain messages
	// themselves (before 0) and chain finals whose thinking was stripped.
	ChainCompressed Strategy = "chain-compressed"
	// Superseded: an older read of a file read again later.
	Superseded Strategy = "superseded"
	// ErrorPurged: an assistant message whose errored call's long argument
	// strings were replaced.
	ErrorPurged Strategy = "error-purged"
	// ImagesCapped: images over maxImagesPerRequest replaced by a notice.
	ImagesCapped Strategy = "images-capped"
	// OrphanSwept: a result answering no open call, dropped.
	OrphanSwept Strategy = "orphan-swept"
	// Summary: pi-condense summary messages — the ones a flush adds (before
	// 0) and the ones the session already holds.
	Summary Strategy = "summary"
	// KeptRecent: a result inside the raw window (recentTurnsToKeep).
	KeptRecent Strategy = "kept-recent"
	// KeptHazard: a result pi-ai would not pair with its call as the
	// context stands (internal/pairing): every stage leaves it (fail closed).
	KeptHazard Strategy = "kept-pairing-hazard"
	// KeptProtected: a result of a protected call (protectedTools,
	// protectedPaths).
	KeptProtected Strategy = "kept-protected"
	// KeptAlready: a result that already is a pruner notice or a
	// pi-condense stub.
	KeptAlready Strategy = "kept-already-pruned"
	// KeptSmall: an older result masking leaves (within maxRetainedChars,
	// or a notice would not be shorter) and no flush batch covers.
	KeptSmall Strategy = "kept-small"
	// KeptNoBatch: an older result no flush batch covers, with masking off
	// (--no-mask): under minBatchChars, before pi-condense's frontier, a
	// summary longer than its results, or no flush.
	KeptNoBatch Strategy = "kept-no-batch"
	// KeptOff: a result of a session read with pruning off (enabled: false).
	KeptOff Strategy = "kept-pruning-off"
	// Other: user, assistant and custom messages nothing changed.
	Other Strategy = "other"
)

// Strategies returns every strategy in report order: what changes the
// context, then what keeps results raw, then the other messages.
func Strategies() []Strategy {
	return []Strategy{Stubbed, Spilled, Deduped, Masked, ChainCompressed, Superseded, ErrorPurged, ImagesCapped,
		OrphanSwept, Summary, KeptRecent, KeptHazard, KeptProtected, KeptAlready, KeptSmall, KeptNoBatch, KeptOff, Other}
}

// Kept reports whether s is a reason a result stays raw.
func (s Strategy) Kept() bool {
	switch s {
	case KeptRecent, KeptHazard, KeptProtected, KeptAlready, KeptSmall, KeptNoBatch, KeptOff:
		return true
	}
	return false
}

// Tally counts messages and their size before (in the unpruned context)
// and after (in the pruned one). Chars are session.ModelChars (code points
// of what reaches the model: details left out, an image at pi's estimate);
// tokens are pi's estimate of those chars, ceil(chars/4), so the tokens of
// several tallies may add up to a little more than the tokens of their sum.
type Tally struct {
	Results        int   `json:"results"`        // tool results of the unpruned context
	MessagesBefore int   `json:"messagesBefore"` // messages of the unpruned context
	MessagesAfter  int   `json:"messagesAfter"`  // messages of the pruned context
	CharsBefore    int64 `json:"charsBefore"`
	CharsAfter     int64 `json:"charsAfter"`
	TokensBefore   int64 `json:"tokensBefore"`
	TokensAfter    int64 `json:"tokensAfter"`
}

// Add adds o's counts to t (tokens are recomputed from the chars).
func (t *Tally) Add(o Tally) {
	t.Results += o.Results
	t.MessagesBefore += o.MessagesBefore
	t.MessagesAfter += o.MessagesAfter
	t.CharsBefore += o.CharsBefore
	t.CharsAfter += o.CharsAfter
	t.tokens()
}

func (t *Tally) tokens() {
	t.TokensBefore, t.TokensAfter = tokens(t.CharsBefore), tokens(t.CharsAfter)
}

// SavedPercent is the share of chars removed, 0–100 (negative when the
// tally grew).
func (t Tally) SavedPercent() float64 {
	if t.CharsBefore == 0 {
		return 0
	}
	return 100 * float64(t.CharsBefore-t.CharsAfter) / float64(t.CharsBefore)
}

// Empty reports whether the tally counts nothing.
func (t Tally) Empty() bool { return t.MessagesBefore == 0 && t.MessagesAfter == 0 }

// ToolTally is a Tally of one tool's results, split by strategy.
type ToolTally struct {
	Tally
	// Changed counts the results the pruned context changes or drops.
	Changed int `json:"changed"`
	// Strategies splits the tally (strategies with no result are absent).
	Strategies map[Strategy]*Tally `json:"strategies"`
}

// Add adds o to t.
func (t *ToolTally) Add(o *ToolTally) {
	t.Tally.Add(o.Tally)
	t.Changed += o.Changed
	if t.Strategies == nil {
		t.Strategies = map[Strategy]*Tally{}
	}
	for s, v := range o.Strategies {
		if t.Strategies[s] == nil {
			t.Strategies[s] = &Tally{}
		}
		t.Strategies[s].Add(*v)
	}
}

// Site describes a message of the pruned context.
type Site struct {
	Role     string   `json:"role"`
	ToolName string   `json:"toolName,omitempty"`
	EntryID  string   `json:"entryId,omitempty"` // the session entry it comes from
	Line     int      `json:"line,omitempty"`    // its input line (0: a message pruner inserted)
	Strategy Strategy `json:"strategy"`
}

// CacheBreak is where a provider's prompt cache, holding a reference
// context (the unpruned context, or the previous turn's pruned context),
// first misses on the pruned context: the messages of both are compared
// line by line (as `pruner now` prints them).
type CacheBreak struct {
	// ReferenceMessages, ReferenceChars and ReferenceTokens are the size of
	// the reference.
	ReferenceMessages int   `json:"referenceMessages"`
	ReferenceChars    int64 `json:"referenceChars"`
	ReferenceTokens   int64 `json:"referenceTokens"`
	// FirstChanged is the index of the first message where the pruned
	// context and the reference differ (a message that differs, or one
	// only one of them has); -1 when they are the same. FirstChangedByte
	// is that message's offset in the pruned context's output (-1: none).
	FirstChanged     int   `json:"firstChangedMessage"`
	FirstChangedByte int64 `json:"firstChangedByte"`
	// Reused reports that the whole reference is a prefix of the pruned
	// context: a cache holding it loses nothing (FirstChanged is then the
	// first message the reference does not have, or -1).
	Reused bool `json:"reused"`
	// CachedMessages, CachedChars and CachedTokens are the pruned
	// context's messages before the break (the prefix the cache holds);
	// the rest is new input for the provider.
	CachedMessages int   `json:"cachedMessages"`
	CachedChars    int64 `json:"cachedChars"`
	CachedTokens   int64 `json:"cachedTokens"`
	// At is the pruned context's message at the break (nil when the break
	// is past its end: the reference is longer); Was is the reference's
	// message there (nil when the reference ends before it) — for the
	// unpruned context, with the strategy pruning applied to it.
	At  *Site `json:"at"`
	Was *Site `json:"was"`
	// TurnLine is, for the previous turn, the input line of the newest user
	// message: the session was read up to the line before it.
	TurnLine int `json:"turnLine,omitempty"`
}

// Report is what `pruner now` makes of a session's context, for `pruner
// stats`: per strategy and per tool, the messages and their size before and
// after, and where the prompt cache first breaks.
type Report struct {
	Kind    string `json:"kind"`    // session or context
	Pruning bool   `json:"pruning"` // false: enabled is off
	// Total sums every strategy: before is the unpruned context (`pruner
	// context`), after the pruned one (`pruner now`).
	Total        Tally   `json:"total"`
	SavedPercent float64 `json:"savedPercent"`
	// Strategies holds every strategy (zero tallies included).
	Strategies map[Strategy]*Tally `json:"strategies"`
	// Tools splits the tool results by tool name.
	Tools map[string]*ToolTally `json:"tools"`
	Cache struct {
		// Unpruned is the break against the unpruned context.
		Unpruned CacheBreak `json:"unpruned"`
		// PreviousTurn is the break against the same session's pruned
		// context as it was before its newest user turn (what a provider
		// holds from the previous request); nil when there is no earlier
		// turn.
		PreviousTurn *CacheBreak `json:"previousTurn"`
	} `json:"cache"`
}

// NewReport returns an empty report (every strategy at zero), to add
// session reports to.
func NewReport() *Report {
	r := &Report{Strategies: map[Strategy]*Tally{}, Tools: map[string]*ToolTally{}}
	for _, s := range Strategies() {
		r.Strategies[s] = &Tally{}
	}
	return r
}

// Add adds o's tallies to r (the cache breaks are per session and are not
// added; Pruning is set when any report had it).
func (r *Report) Add(o *Report) {
	r.Pruning = r.Pruning || o.Pruning
	r.Total.Add(o.Total)
	r.SavedPercent = round1(r.Total.SavedPercent())
	for s, t := range o.Strategies {
		if r.Strategies[s] == nil {
			r.Strategies[s] = &Tally{}
		}
		r.Strategies[s].Add(*t)
	}
	for name, t := range o.Tools {
		if r.Tools[name] == nil {
			r.Tools[name] = &ToolTally{Strategies: map[Strategy]*Tally{}}
		}
		r.Tools[name].Add(t)
	}
}

// ReportOptions are what Report needs beyond the result: the options the
// result was planned with, and whether pruning is on.
type ReportOptions struct {
	Options Options
	// Off is pruning turned off (enabled: false): the results are kept for
	// that reason.
	Off bool
	// Previous is the fingerprint of the previous turn's pruned context
	// (PreviousTurn); nil: no previous-turn break.
	Previous *Fingerprint
}

// Fingerprint identifies the messages of a pruned context (a hash, the
// size and the site of each), to compare a later context against without
// holding its bytes.
type Fingerprint struct {
	lines []lineSum
	// TurnLine is the input line the context was read up to (exclusive),
	// for PreviousTurn's.
	TurnLine int
}

type lineSum struct {
	sum   [sha256.Size]byte
	chars int64
	site  Site
}

// Messages is the number of messages fingerprinted.
func (f *Fingerprint) Messages() int { return len(f.lines) }

// Fingerprint returns the fingerprint of r's pruned context (o.Previous
// is not used).
func (r *Result) Fingerprint(o ReportOptions) (*Fingerprint, error) {
	f := &Fingerprint{}
	_, err := r.walk(o, func(w walked) error {
		f.lines = append(f.lines, lineSum{sha256.Sum256(w.line), w.chars, w.site()})
		return nil
	})
	return f, err
}

// walked is one message of the pruned context, as walk finds it.
type walked struct {
	k        int    // its position
	line     []byte // its bytes (valid during the call)
	chars    int64
	item     render.Item
	m        *session.Message // its source message (nil: inserted)
	same     bool             // byte for byte its source
	strategy Strategy
}

func (w *walked) site() Site {
	s := Site{Role: roleOf(w.m, w.line), Strategy: w.strategy}
	if w.m != nil {
		s.ToolName, s.EntryID, s.Line = w.m.ToolName(), w.m.EntryID(), w.m.Line()
	}
	return s
}

// source is what walk learns about one message of the unpruned context.
type source struct {
	strategy Strategy
	written  bool // it is in the pruned context (changed or not)
}

// walk writes r's pruned context as `pruner now` prints it and calls fn
// with each message and its strategy; it returns the strategy of every
// message of the unpruned context (the ones the pruned context dropped
// included).
func (r *Result) walk(o ReportOptions, fn func(walked) error) ([]source, error) {
	ctx := r.Ctx
	plan := r.Mask
	if plan == nil {
		po := o.Options.Prune
		po.Pairing = r.Pairing
		plan = prune.NewPlan(ctx, po)
	}
	var aliases map[string]string
	if r.State != nil {
		aliases = r.State.Aliases()
	}
	srcs := make([]source, len(ctx.Messages))
	var orig []byte
	err := r.eachLine(func(k int, line []byte) error {
		w := walked{k: k, line: line, chars: int64(chars(line)), item: r.item(k)}
		if w.item.Src >= 0 {
			w.m = ctx.Messages[w.item.Src]
			var err error
			if orig, err = ctx.AppendMessage(orig[:0], w.m); err != nil {
				return err
			}
			w.same = bytes.Equal(orig, line)
			w.strategy = r.strategyOf(w.item, w.m, orig, w.same, plan, aliases, o)
			srcs[w.item.Src] = source{strategy: w.strategy, written: true}
		} else {
			w.strategy = insertedStrategy(w.item.Change)
		}
		return fn(w)
	})
	if err != nil {
		return nil, err
	}
	swept := map[string]int{}
	if r.Rendered != nil {
		for _, id := range r.Rendered.Report.Swept {
			swept[id]++
		}
	}
	for i, m := range ctx.Messages {
		if srcs[i].written {
			continue
		}
		// only chains and the orphan sweep drop messages
		srcs[i].strategy = ChainCompressed
		if m.Role() == session.RoleToolResult && swept[m.ToolCallID()] > 0 {
			swept[m.ToolCallID()]--
			srcs[i].strategy = OrphanSwept
		}
	}
	return srcs, nil
}

// Report accounts r's pruned context, written exactly as `pruner now`
// prints it: every message of the unpruned context and of the pruned one
// is put under one strategy, with its chars, and the pruned context is
// compared with the unpruned one and with o.Previous. Errors are I/O
// errors re-reading the input.
func (r *Result) Report(o ReportOptions) (*Report, error) {
	ctx := r.Ctx
	rep := NewReport()
	rep.Kind, rep.Pruning = ctx.Kind.String(), !o.Off
	un := &rep.Cache.Unpruned
	un.FirstChanged, un.FirstChangedByte = -1, -1
	var prev *CacheBreak
	if o.Previous != nil {
		prev = &CacheBreak{FirstChanged: -1, FirstChangedByte: -1, TurnLine: o.Previous.TurnLine, ReferenceMessages: len(o.Previous.lines)}
		for _, l := range o.Previous.lines {
			prev.ReferenceChars += l.chars
		}
		prev.ReferenceTokens = tokens(prev.ReferenceChars)
		rep.Cache.PreviousTurn = prev
	}
	unBroken, prevBroken := false, false
	var offset int64
	n := 0
	var ref []byte
	srcs, err := r.walk(o, func(w walked) error {
		n++
		k := w.k
		t := rep.Strategies[w.strategy]
		t.MessagesAfter++
		t.CharsAfter += w.chars
		if w.m != nil && w.m.Role() == session.RoleToolResult {
			tt := rep.tool(w.m.ToolName())
			tt.MessagesAfter++
			tt.CharsAfter += w.chars
			ts := tt.strategy(w.strategy)
			ts.MessagesAfter++
			ts.CharsAfter += w.chars
		}
		// the unpruned break: message k against the context's message k
		if !unBroken {
			eq := false
			switch {
			case int(w.item.Src) == k:
				eq = w.same
			case k < len(ctx.Messages):
				var err error
				if ref, err = ctx.AppendMessage(ref[:0], ctx.Messages[k]); err != nil {
					return err
				}
				eq = bytes.Equal(ref, w.line)
			}
			if eq {
				un.CachedMessages++
				un.CachedChars += w.chars
			} else {
				unBroken = true
				s := w.site()
				un.FirstChanged, un.FirstChangedByte, un.At = k, offset, &s
			}
		}
		if prev != nil && !prevBroken {
			if k < len(o.Previous.lines) && o.Previous.lines[k].sum == sha256.Sum256(w.line) {
				prev.CachedMessages++
				prev.CachedChars += w.chars
			} else {
				prevBroken = true
				s := w.site()
				prev.FirstChanged, prev.FirstChangedByte, prev.At = k, offset, &s
			}
		}
		offset += int64(len(w.line)) + 1
		return nil
	})
	if err != nil {
		return nil, err
	}
	// the unpruned context: every source message's size
	var ctxChars int64
	for i, m := range ctx.Messages {
		if ref, err = ctx.AppendMessage(ref[:0], m); err != nil {
			return nil, err
		}
		c := int64(chars(ref))
		ctxChars += c
		st := srcs[i].strategy
		t := rep.Strategies[st]
		t.MessagesBefore++
		t.CharsBefore += c
		if m.Role() == session.RoleToolResult {
			t.Results++
			tt := rep.tool(m.ToolName())
			tt.Results++
			tt.MessagesBefore++
			tt.CharsBefore += c
			if !st.Kept() {
				tt.Changed++
			}
			ts := tt.strategy(st)
			ts.Results++
			ts.MessagesBefore++
			ts.CharsBefore += c
		}
	}
	// what each reference holds at the break
	if k := un.FirstChanged; unBroken && k < len(ctx.Messages) {
		m := ctx.Messages[k]
		un.Was = &Site{Role: m.Role(), ToolName: m.ToolName(), EntryID: m.EntryID(), Line: m.Line(), Strategy: srcs[k].strategy}
	}
	if prev != nil && prevBroken && prev.FirstChanged < len(o.Previous.lines) {
		s := o.Previous.lines[prev.FirstChanged].site
		prev.Was = &s
	}
	// a break inside the pruned context was found by the walk (a message
	// past the reference's end is one); a reference longer than the pruned
	// context breaks past its end
	finish := func(b *CacheBreak, broken bool, refLen int) {
		switch {
		case broken:
			b.Reused = b.CachedMessages == refLen
		case n < refLen:
			b.FirstChanged, b.FirstChangedByte = n, offset
		default:
			b.Reused = true
		}
		b.CachedTokens = tokens(b.CachedChars)
	}
	un.ReferenceMessages, un.ReferenceChars, un.ReferenceTokens = len(ctx.Messages), ctxChars, tokens(ctxChars)
	finish(un, unBroken, len(ctx.Messages))
	if prev != nil {
		finish(prev, prevBroken, len(o.Previous.lines))
	}
	for _, t := range rep.Strategies {
		t.tokens()
		rep.Total.Add(*t)
	}
	for _, tt := range rep.Tools {
		tt.tokens()
		for _, t := range tt.Strategies {
			t.tokens()
		}
	}
	rep.SavedPercent = round1(rep.Total.SavedPercent())
	return rep, nil
}

func (r *Report) tool(name string) *ToolTally {
	t := r.Tools[name]
	if t == nil {
		t = &ToolTally{Strategies: map[Strategy]*Tally{}}
		r.Tools[name] = t
	}
	return t
}

func (t *ToolTally) strategy(s Strategy) *Tally {
	v := t.Strategies[s]
	if v == nil {
		v = &Tally{}
		t.Strategies[s] = v
	}
	return v
}

// item is line k of the pruned context as a render item.
func (r *Result) item(k int) render.Item {
	if r.Rendered == nil {
		return render.Item{Src: int32(k)}
	}
	return r.Rendered.Items[k]
}

// strategyOf is the strategy of a source message written as line (same:
// byte for byte the source).
func (r *Result) strategyOf(it render.Item, m *session.Message, orig []byte, same bool, plan *prune.Plan, aliases map[string]string, o ReportOptions) Strategy {
	if !same {
		switch it.Change {
		case render.Stubbed, render.SpillStubbed:
			if _, ok := aliases[index.MessageKey(m.ToolCallID(), []byte(m.Timestamp()))]; ok {
				return Deduped
			}
			if it.Change == render.SpillStubbed {
				return Spilled
			}
			return Stubbed
		case render.Superseded:
			return Superseded
		case render.Purged:
			return ErrorPurged
		case render.ThinkingStripped:
			return ChainCompressed
		case render.ImagesCapped:
			return ImagesCapped
		case render.Kept:
			if m.Role() == session.RoleToolResult {
				return Masked
			}
		}
		return Other
	}
	if isSummary(m, orig) {
		return Summary
	}
	if m.Role() != session.RoleToolResult {
		return Other
	}
	return keptReason(r.Ctx, int(it.Src), m, plan, o)
}

// keptReason is why a tool result of the unpruned context stays as it is,
// in the order masking decides (internal/prune.NewPlan).
func keptReason(ctx *session.Context, i int, m *session.Message, plan *prune.Plan, o ReportOptions) Strategy {
	po := o.Options.Prune
	call := plan.Call(ctx, i)
	switch {
	case o.Off:
		return KeptOff
	case i >= plan.Cutoff:
		return KeptRecent
	case plan.Pairing.Involves(i):
		return KeptHazard
	case call != nil && (po.Protect.Protected(call.Name(), call.Path(), call.HasPath()) || (call.Name() != m.ToolName() && po.Protect.ToolProtected(m.ToolName()))):
		return KeptProtected
	case m.HasNotice():
		return KeptAlready
	case o.Options.Mask:
		return KeptSmall
	}
	return KeptNoBatch
}

// insertedStrategy is the strategy of a message render inserted.
func insertedStrategy(c render.Change) Strategy {
	switch c {
	case render.Summary:
		return Summary
	case render.ChainMessage:
		return ChainCompressed
	}
	return Other
}

// isSummary reports whether a source message is a pi-condense summary
// (a custom message of customType context-prune-summary).
func isSummary(m *session.Message, raw []byte) bool {
	if m.Role() != session.RoleCustom {
		return false
	}
	v, ok := jsval.Get(raw, "customType")
	if !ok {
		return false
	}
	s, _ := jsval.String(v)
	return s == index.TypeSummary
}

func roleOf(m *session.Message, line []byte) string {
	if m != nil {
		return m.Role()
	}
	if v, ok := jsval.Get(line, "role"); ok {
		if s, ok := jsval.String(v); ok {
			return s
		}
	}
	return ""
}

// chars is the size of a message as the model gets it.
func chars(b []byte) int { return session.ModelChars(b) }

// tokens is pi's estimate of chars.
func tokens(c int64) int64 { return estimate.Tokens64(c) }

func round1(f float64) float64 {
	if f < 0 {
		return -round1(-f)
	}
	return float64(int64(f*10+0.5)) / 10
}

// eachLine writes r's pruned context as `pruner now` prints it (masking
// alone, or the index render with masking composed) and calls fn with each
// line, without its newline, and its 0-based position.
func (r *Result) eachLine(fn func(k int, line []byte) error) error {
	lw := &lineWriter{fn: fn}
	var err error
	if r.Rendered == nil {
		_, err = prune.RenderWith(lw, r.Ctx, r.Mask, prune.RenderOptions{NoChars: true})
	} else {
		wo := render.WriteOptions{NoChars: true}
		if plan := r.Mask; plan != nil {
			ctx := r.Ctx
			wo.Mask = func(dst []byte, i int) ([]byte, bool, error) { return plan.AppendMessage(dst, ctx, i) }
		}
		_, err = render.Write(lw, r.Ctx, r.Rendered, wo)
	}
	if err != nil {
		return err
	}
	if len(lw.buf) > 0 {
		return errors.New("pipeline: the context's last line has no newline")
	}
	return nil
}

// lineWriter splits what is written into lines.
type lineWriter struct {
	fn  func(k int, line []byte) error
	buf []byte
	k   int
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			break
		}
		line := p[:i]
		if len(w.buf) > 0 {
			w.buf = append(w.buf, line...)
			line = w.buf
		}
		if err := w.fn(w.k, line); err != nil {
			return 0, err
		}
		w.k++
		w.buf = w.buf[:0]
		p = p[i+1:]
	}
	return n, nil
}

// PreviousTurn plans the session as it was before its newest user turn:
// the input up to (not including) the line of the last user message a
// person typed (the last turn start, internal/turns), read and run with o — the context of the previous request,
// whose prefix a provider's prompt cache holds. It returns nil (and no
// error) when there is no such earlier context: no user message, or
// nothing before the first.
func PreviousTurn(cx context.Context, ctx *session.Context, o Options) (*Result, int, error) {
	starts := turns.Of(ctx).Starts
	if len(starts) == 0 || ctx.Messages[starts[len(starts)-1]].Line() <= 1 {
		return nil, 0, nil
	}
	start := starts[len(starts)-1]
	line := ctx.Messages[start].Line()
	src := ctx.Source()
	off, err := lineOffset(src, ctx.Bytes, line)
	if err != nil {
		return nil, 0, err
	}
	sr := io.NewSectionReader(src, 0, off)
	pctx, err := session.Read(sr, io.NewSectionReader(src, 0, off), session.ReadOptions{Branch: true})
	if errors.Is(err, session.ErrEmpty) || errors.Is(err, session.ErrNotSession) {
		return nil, 0, nil // nothing before the turn to speak of
	}
	if err != nil {
		return nil, 0, err
	}
	if len(pctx.Messages) == 0 {
		return nil, 0, nil
	}
	res, err := Run(cx, pctx, o)
	if err != nil {
		return nil, 0, err
	}
	return res, line, nil
}

// lineOffset is the byte offset where 1-based line starts in src.
func lineOffset(src io.ReaderAt, size int64, line int) (int64, error) {
	lr := session.NewLineReaderSize(io.NewSectionReader(src, 0, size), 64<<10)
	for {
		_, num, off, err := lr.Next()
		if err == io.EOF {
			return size, nil
		}
		if err != nil {
			return 0, err
		}
		if num == line {
			return off, nil
		}
	}
}
