// Package render applies pi-condense's render phases to a built context:
// what its `context` handler does to the messages on every request, driven
// by the state its index entries hold (internal/index). It is the last stage
// of decode → protect → batch/index → render.
//
// A message of a tool call/result pair that pi-ai would not pair
// (internal/pairing) is left as it is by phases 1–4 (fail closed), and no
// inserted message may fall inside a pair.
//
// Phases, in pi-condense's order (2.9.1, plus the later upstream passes):
//
//  1. stub-replace: a toolResult whose occurrence is indexed becomes its stub
//     (normal, spilled, or a dedup alias sharing the original's ref), unless
//     its call is protected now (render-time repair) or it is a
//     context_tree_query result inside the recovery grace window;
//  2. superseded reads: an older read of a file read again later (same
//     arguments) becomes a superseded notice, at the cache-aware floor only;
//  3. error purge: long strings in the arguments of an old errored call are
//     replaced, every key, type and array length kept;
//  4. chain range prune: compressed chains (context-prune-chain entries)
//     collapse into one `<compressed-chain>` user message;
//  5. orphan sweep: a toolResult that answers no open call is dropped
//     (reported);
//  6. image cap: beyond maxImagesPerRequest, the oldest images become a text
//     notice, in steps of ⌈N/2⌉.
//
// Render is pure: it reads the context's bytes through session.Context and
// returns the rendered sequence; Write streams it. Untouched messages are
// copied from the input byte for byte; messages render builds are written as
// JSON.stringify writes them (jsval).
package render

import (
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// Options configure Render (pi-condense's contextPrune keys).
type Options struct {
	// Protect is the protection predicate (protectedTools, protectedPaths):
	// an indexed result whose call is protected now renders verbatim.
	Protect *protect.Predicate
	// RecoveryGraceTurns keeps context_tree_query results verbatim while
	// fewer than this many user messages follow them (0: off).
	RecoveryGraceTurns int
	// Chains enables the chain range prune (chainCompression.enabled).
	Chains bool
	// StripFinalThinking removes thinking blocks from a compressed chain's
	// final assistant message (chainCompression.stripFinalAssistantThinking).
	StripFinalThinking bool
	// PurgeErrors enables the error purge (purgeErrors.enabled), for calls
	// at least PurgeCooldownTurns assistant turns old whose arguments
	// serialise to at least PurgeMinArgChars chars.
	PurgeErrors        bool
	PurgeCooldownTurns int
	PurgeMinArgChars   int
	// Supersede enables the superseded-reads pass.
	Supersede bool
	// RewritePoints are rewrites of the prompt other stages know of (beyond
	// the index's own), where a superseded read may take effect.
	RewritePoints []index.RewritePoint
	// RawFrom is where the raw window starts (an index in
	// Context.Messages; 0 or less: no window): a read inside it supersedes
	// no older read yet. The pipeline's flush writes its entries at the end
	// of the session, after every read; without this, a read made in the
	// current turn would supersede an older one at once, on a request
	// where nothing else is rewritten (a fresh cache break), and the same
	// session would render differently request by request.
	RawFrom int
	// MaxImages is maxImagesPerRequest (0: no cap).
	MaxImages int
	// ImagesOnly applies only the image cap (pi-condense with enabled:
	// false: the cap guards request validity and runs anyway).
	ImagesOnly bool
	// WillMask, when set, reports the source messages that masking will
	// rewrite after render (they hold no image then; the cap skips them).
	WillMask func(src int) bool
	// Appended are custom messages the caller adds after the context —
	// the summaries a flush appends — so that every phase sees them where
	// the written session has them (a compressed chain drops the summaries
	// that cover it). Each appends its JSON to dst when the render reads
	// or writes it (none is held built: a first flush of a long session
	// appends thousands, most of which a chain drops). They come out as
	// Items with Src -1 and Change Summary, unless a chain dropped them.
	Appended []func(dst []byte) ([]byte, error)
	// NoDropped leaves Result.Dropped empty: the caller pins nothing of
	// what chains drop (a run that prints the context and writes no
	// session; 1 GB: ~400,000 items, 6.5 MB held through the write).
	NoDropped bool
	// Pairing is the context's pairing hazards (pairing.Find); nil: Render
	// finds them. A message a hazard involves is left as it is by every
	// phase but the orphan sweep and the image cap (fail closed).
	Pairing *pairing.Report
}

// Change says what render did to a message.
type Change uint8

// Changes.
const (
	Kept             Change = iota // source message, unchanged
	Stubbed                        // indexed result → summary stub
	SpillStubbed                   // indexed spilled result → spill stub
	Superseded                     // older read → superseded notice
	Purged                         // errored call's long argument strings replaced
	ChainMessage                   // the inserted <compressed-chain> message
	ThinkingStripped               // final assistant of a compressed chain, thinking removed
	ImagesCapped                   // image blocks replaced by the cap notice
	Summary                        // a context-prune-summary a flush added (pipeline)
)

func (c Change) String() string {
	return [...]string{"kept", "stubbed", "spill-stubbed", "superseded", "purged", "chain", "thinking-stripped", "images-capped", "summary"}[c]
}

// Item is one message of the rendered context. It says how to write
// itself (AppendJSON): a source message is read from the input when it is
// written, and so is a stub's source (its toolCallId, toolName and
// timestamp), so a stub a chain drops is never built and none is held
// until written.
type Item struct {
	// Src is the index of the source message in Context.Messages, -1 for a
	// message render inserted (a compressed chain, an appended summary).
	// (int32: an Item is 16 bytes, and a context of a million messages
	// holds them until they are written.)
	Src int32
	// Change is the last change applied: Kept is the source message
	// unchanged (write it with Context.AppendMessage, or let masking render
	// it), anything else a message render rewrote or inserted.
	Change Change
	body   *itemBody // nil: the source message as it is
}

// itemBody is how an Item that is not its source as it is gets written
// (out of line: most items are kept sources, and a context of a million
// messages holds its items until they are written).
type itemBody struct {
	json  []byte    // built bytes (nil: the source's stub, or chain)
	stub  *stubSpec // a stub, built from the source when written
	chain *chainMsg // a compressed chain's message, built when written
	// lazy appends a message built when written (an Options.Appended one)
	lazy func(dst []byte) ([]byte, error)
}

// AppendJSON appends the rendered message to dst (no newline): the source
// message as it is for a Kept item.
func (it *Item) AppendJSON(dst []byte, ctx *session.Context) ([]byte, error) {
	if it.body == nil {
		return appendSource(dst, ctx, ctx.Messages[it.Src], nil)
	}
	if it.body.json != nil {
		return append(dst, it.body.json...), nil
	}
	if it.body.chain != nil {
		return it.body.chain.append(dst), it.body.chain.st.TextErr() // a text re-read for it failed
	}
	if it.body.lazy != nil {
		return it.body.lazy(dst)
	}
	return appendSource(dst, ctx, ctx.Messages[it.Src], it.body.stub)
}

// appendSource appends the source message m, or its stub when stub is
// set: the source is read after dst, the stub built after it and moved
// down over it.
func appendSource(dst []byte, ctx *session.Context, m *session.Message, stub *stubSpec) ([]byte, error) {
	if stub == nil {
		return ctx.AppendMessage(dst, m)
	}
	// the stub is built from the source where it is (no copy of a result
	// the stub replaces)
	err := ctx.ViewMessage(m, func(b []byte) error {
		dst = stub.append(dst, b, m)
		return nil
	})
	return dst, err
}

// Report counts what render did and lists what it could not do.
type Report struct {
	Stubbed             int `json:"stubbed"`
	SpillStubbed        int `json:"spillStubbed"`
	Repaired            int `json:"repaired"` // indexed, but protected now: verbatim
	Graced              int `json:"graced"`   // context_tree_query results in recovery grace
	Superseded          int `json:"superseded"`
	Purged              int `json:"purged"` // errored calls whose arguments were shrunk
	ImagesOmitted       int `json:"imagesOmitted"`
	Hazards             int `json:"pairingHazards"` // messages left as they are: pi-ai would not pair them
	Chains              int `json:"chains"`         // compressed chains rendered
	ChainRepaired       int `json:"chainRepaired"`  // outputs of calls protected since their chain was compressed, put back
	ChainDropped        int `json:"chainDropped"`   // messages those chains replaced
	SummariesSuppressed int `json:"summariesSuppressed"`
	// AppendedSuppressed counts the Options.Appended summaries a chain
	// dropped (a flush's own, not messages of the context).
	AppendedSuppressed int `json:"appendedSuppressed,omitempty"`
	// Swept are the toolCallIds of orphan results dropped.
	Swept []string `json:"swept,omitempty"`
	// Diagnostics are pi-condense's diagnostics for this render
	// (unresolved-range, range-id-mismatch, orphan-sweep), one line each.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// Diagnostic is one problem render reports (it changed nothing for it).
type Diagnostic struct {
	Kind   string `json:"kind"` // pi-condense's kind: unresolved-range, range-id-mismatch, orphan-sweep
	Detail string `json:"detail"`
}

// Result is a rendered context.
type Result struct {
	Items  []Item
	Report Report
	// Dropped are the source messages compressed chains dropped, as the
	// phases before had left them (a stub, a superseded notice, or the
	// source: JSON nil), in context order: what pi alone, which does not
	// apply chains, would still send (the pipeline pins their stubs with
	// context edits).
	Dropped []Item
	// willMask is Options.WillMask: Write writes a kept source message
	// masking will not rewrite from the input, without WriteOptions.Mask.
	willMask func(src int) bool
}

// slot is one message while the phases run.
type slot struct {
	// body holds the slot's built bytes or its source's stub (nil: the
	// source as it is); a body is never changed once set (slots are
	// copied between phases), setJSON and setStub replace it
	body *itemBody
	// src is the index of the source message in Context.Messages (-1
	// for an inserted message: renderer.msg; int32, and no message
	// pointer: a slot is 16 bytes, and a context of a million messages
	// holds two arrays of them in the chain phase)
	src    int32
	change Change
	// appended marks a custom message of Options.Appended (m is nil).
	appended bool
}

// json returns the slot's built bytes (nil: the source, or its stub).
func (s *slot) json() []byte {
	if s.body == nil {
		return nil
	}
	return s.body.json
}

// stub returns the source's stub (built from it when read), or nil.
func (s *slot) stub() *stubSpec {
	if s.body == nil {
		return nil
	}
	return s.body.stub
}

func (s *slot) setJSON(b []byte) { s.body = &itemBody{json: b, stub: s.stub()} }

func (s *slot) setStub(st *stubSpec) {
	var chain *chainMsg
	var lazy func([]byte) ([]byte, error)
	if s.body != nil {
		chain, lazy = s.body.chain, s.body.lazy
	}
	s.body = &itemBody{json: s.json(), stub: st, chain: chain, lazy: lazy}
}

func (s *slot) item() Item { return Item{Src: s.src, Change: s.change, body: s.body} }

// kept reports whether the slot is its source message as it is.
func (s *slot) kept() bool { return s.change == Kept }

type renderer struct {
	ctx   *session.Context
	st    *index.State
	o     Options
	rep   *Report
	slots []slot
	pair  *pairing.Report
	// dropped are the source messages the chain phase dropped (as the
	// phases before left them), in context order.
	dropped []Item
	buf     []byte // bytesOf's
	scratch []byte // stripThinking's
	// stubs is the body every stub shares (stubBody)
	stubs *itemBody
	// args is recordProtected's buffer for a record's arguments
	args     []byte
	protect  *protectMemo // memo's
	reads    []readCall   // supersede's
	readIDs  []string
	groupBuf []byte // supersede's group keys
	keyBuf   []byte // summaryOverlaps' occurrence key
	stubKey  []byte // stubReplace's occurrence key
}

// msg returns the slot's source message (nil for an inserted one).
func (r *renderer) msg(s *slot) *session.Message {
	if s.src < 0 {
		return nil
	}
	return r.ctx.Messages[s.src]
}

// memo is the protection predicate's memo (Options.Protect non-nil).
func (r *renderer) memo() *protectMemo {
	if r.protect == nil {
		r.protect = newProtectMemo(r.o.Protect)
	}
	return r.protect
}

// role is the slot's message role.
func (r *renderer) role(s *slot) string {
	m := r.msg(s)
	if m == nil {
		if s.appended {
			return session.RoleCustom
		}
		return session.RoleUser
	}
	return m.Role()
}

// bytesOf returns the slot's current JSON, to read: a source message's
// bytes are in a buffer the next bytesOf reuses (every caller builds new
// bytes from them, never keeps them).
func (r *renderer) bytesOf(s *slot) ([]byte, error) {
	if j := s.json(); j != nil {
		return j, nil
	}
	var b []byte
	var err error
	switch {
	case s.body != nil && s.body.chain != nil:
		b = s.body.chain.append(r.buf[:0])
	case s.body != nil && s.body.lazy != nil:
		b, err = s.body.lazy(r.buf[:0])
	default:
		b, err = appendSource(r.buf[:0], r.ctx, r.msg(s), s.stub())
	}
	if cap(b) <= 1<<20 {
		r.buf = b // a rare huge message is not kept
	}
	return b, err
}

// viewOf calls fn with the slot's current JSON, as bytesOf reads it: a
// source message as it is, read from the input into a buffer
// (Context.ReadMessage: every caller scans the whole message, and reading
// it costs less than faulting its pages in again). fn must not keep raw
// nor read the input; what it builds from raw it copies.
func (r *renderer) viewOf(s *slot, fn func(raw []byte) error) error {
	if s.body == nil && r.msg(s) != nil {
		return r.ctx.ReadMessage(r.msg(s), fn)
	}
	raw, err := r.bytesOf(s)
	if err != nil {
		return err
	}
	return fn(raw)
}

// Render applies the phases to ctx with the state st (index.Rebuild of the
// same session; an empty state for a context input). Errors are I/O errors
// re-reading the input.
func Render(ctx *session.Context, st *index.State, o Options) (*Result, error) {
	r := &renderer{ctx: ctx, st: st, o: o, rep: &Report{}, pair: o.Pairing}
	if r.pair == nil && !o.ImagesOnly {
		r.pair = pairing.Find(ctx)
	}
	r.slots = make([]slot, len(ctx.Messages), len(ctx.Messages)+len(o.Appended))
	for i := range r.slots {
		r.slots[i] = slot{src: int32(i)}
	}
	for _, b := range o.Appended {
		r.slots = append(r.slots, slot{src: -1, body: &itemBody{lazy: b}, change: Summary, appended: true})
	}
	if !o.ImagesOnly {
		steps := []func() error{r.stubReplace}
		if o.Supersede {
			steps = append(steps, r.supersede)
		}
		if o.PurgeErrors {
			steps = append(steps, r.purgeErrors)
		}
		var chains []*index.ChainData
		if o.Chains {
			chains = st.Chains()
		}
		if len(chains) > 0 {
			steps = append(steps, func() error { return r.chainRangePrune(chains) })
		}
		steps = append(steps, r.orphanSweep)
		for _, step := range steps {
			if err := step(); err != nil {
				return nil, err
			}
		}
	}
	if o.MaxImages > 0 {
		if err := r.capImages(); err != nil {
			return nil, err
		}
	}
	// count the stubs and superseded reads that survive (a compressed chain
	// drops those inside it; a protected read's notice moves into the chain
	// message)
	r.rep.Stubbed, r.rep.SpillStubbed, r.rep.Superseded = 0, 0, 0
	res := &Result{Items: make([]Item, len(r.slots)), willMask: o.WillMask}
	for i, s := range r.slots {
		res.Items[i] = s.item()
		switch s.change {
		case Stubbed:
			r.rep.Stubbed++
		case SpillStubbed:
			r.rep.SpillStubbed++
		case Superseded:
			r.rep.Superseded++
		}
	}
	res.Report = *r.rep
	res.Dropped = r.dropped
	return res, nil
}

// hazard reports whether the slot is a source message a pairing hazard
// involves.
func (r *renderer) hazard(s *slot) bool { return s.src >= 0 && r.pair.Involves(int(s.src)) }

// hazardIn returns a slot in [from, to] that a pairing hazard involves.
func (r *renderer) hazardIn(from, to int) (int, bool) {
	for i := from; i <= to; i++ {
		if r.hazard(&r.slots[i]) {
			return i, true
		}
	}
	return 0, false
}

// pairingMsg is the pairing view of a slot (an inserted slot is a user
// message; system messages are held back by pi-ai), made when asked: no
// slice of every slot's view (64 bytes a slot) is held.
func (r *renderer) pairingMsg(s *slot) pairing.Msg {
	m := r.msg(s)
	if m == nil {
		return pairing.Msg{Role: session.RoleUser}
	}
	return pairing.Msg{Role: m.Role(), Calls: m.ToolCalls(), ToolCallID: m.ToolCallID()}
}

// visible reports whether a slot takes part in the phases: pi 1.x system
// messages are not part of pi's context event (pi-condense never sees them).
func (r *renderer) visible(s *slot) bool {
	m := r.msg(s)
	return m == nil || m.Role() != session.RoleSystem
}
