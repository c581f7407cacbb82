// Package prune masks old, bulky tool results in a built context (rolling
// window masking): the results of the last N user turns stay raw; older
// results longer than a char limit are replaced by a short deterministic
// notice, error results keep a head+tail excerpt, and image blocks in old
// results become text notices. Protected calls are never touched, nor a
// result pi-ai would not pair (internal/pairing: fail closed), and
// assistant toolCall blocks are always kept, so every call keeps exactly one
// result.
//
// A replacement is a pure function of the original occurrence (tool, call
// id, entry id or timestamp, sizes, the call's path or command), never of
// time, run ids or counts elsewhere, so a result pruned once renders to the
// same bytes on every later run (prompt-cache stability), and pruning
// pruner's own output changes nothing (idempotence).
package prune

import (
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

// Options configure a Plan.
type Options struct {
	// RecentTurns is recentTurnsToKeep: the tool results of the last
	// RecentTurns user turns stay raw (internal/turns: a turn starts at a
	// user message a person typed; after a compaction, the messages before
	// the first kept user message belong to an older turn and are old as
	// soon as a turn starts in the context).
	RecentTurns int
	// MaxChars is maxRetainedChars: an older result whose text is longer than
	// this many chars (Unicode code points, not bytes) is replaced.
	MaxChars int
	// Protect decides which calls are never touched; nil protects nothing.
	Protect *protect.Predicate
	// Pairing is the context's pairing hazards (pairing.Find); nil: NewPlan
	// finds them. A result a hazard involves is never touched.
	Pairing *pairing.Report
}

// Kind is what happened to a tool result.
type Kind uint8

const (
	Keep         Kind = iota // untouched (byte-identical)
	Masked                   // content replaced by one notice
	Excerpt                  // error result: notice + head and tail excerpt
	ImagesMasked             // image blocks replaced by text notices, text kept
)

func (k Kind) String() string {
	return [...]string{"keep", "masked", "excerpt", "images"}[k]
}

// Decision says how one message is rendered (8 bytes, no pointer: a plan
// holds one per context message).
type Decision struct {
	Kind Kind
	// the toolCall a tool result answers: call posHi<<16|posLo of context
	// message msg-1 (msg 0: none, not a result; standIn: a result whose
	// call is not in the context)
	posHi uint8
	posLo uint16
	msg   uint32
}

const standIn = 1<<32 - 1

// Call is the toolCall the tool result at index i of ctx.Messages answers
// (nil for other messages; for a result whose call is not in the context,
// a stand-in with its id and toolName). ctx is the plan's context.
func (p *Plan) Call(ctx *session.Context, i int) *session.ToolCall {
	return p.Decisions[i].call(ctx, ctx.Messages[i])
}

// call is Plan.Call for decision d of message m of ctx.
func (d Decision) call(ctx *session.Context, m *session.Message) *session.ToolCall {
	switch d.msg {
	case 0:
		return nil
	case standIn:
		tc := m.ResultCall()
		return &tc
	}
	return &ctx.Messages[d.msg-1].ToolCalls()[int(d.posHi)<<16|int(d.posLo)]
}

// setCall records in d that its result answers call at of the context's
// messages (none found: a stand-in).
func (d *Decision) setCall(at callAt) {
	if at.msg < 0 {
		d.msg = standIn
		return
	}
	d.msg, d.posHi, d.posLo = uint32(at.msg)+1, uint8(at.pos>>16), uint16(at.pos)
}

// Plan holds one decision per context message plus the reasons counted.
type Plan struct {
	Decisions []Decision // parallel to Context.Messages
	Opts      Options
	// Counts
	ToolResults int // tool results in the context
	Recent      int // results inside the recent window
	Protected   int // old results kept because their call is protected
	Small       int // old results kept because they are within MaxChars
	Already     int // old results that already carry a pruner notice
	Hazards     int // old results kept because pi-ai would not pair them (pairing)
	Cutoff      int // index of the first message of the recent window (turns.Window)
	// Pairing is the hazard report the plan followed.
	Pairing *pairing.Report
}

// NewPlan decides, for every message of ctx, whether it is kept or pruned.
// It reads only routing fields (no I/O).
func NewPlan(ctx *session.Context, opts Options) *Plan {
	msgs := ctx.Messages
	p := &Plan{Decisions: make([]Decision, len(msgs)), Opts: opts}
	p.Cutoff = turns.Of(ctx).Window(opts.RecentTurns)
	p.Pairing = opts.Pairing
	if p.Pairing == nil {
		p.Pairing = pairing.Find(ctx)
	}
	var lc latestCalls
	var pm protectMemo
	for i, m := range msgs {
		switch m.Role() {
		case session.RoleAssistant:
			lc.assistant(msgs, i)
			continue
		case session.RoleToolResult:
		default:
			continue
		}
		p.ToolResults++
		at := lc.find(msgs, m.ToolCallID())
		var call *session.ToolCall
		if at.msg < 0 {
			tc := m.ResultCall()
			call = &tc
		} else {
			call = &msgs[at.msg].ToolCalls()[at.pos]
		}
		p.Decisions[i].setCall(at)
		switch {
		case i >= p.Cutoff:
			p.Recent++
		case p.Pairing.Involves(i):
			p.Hazards++ // fail closed: pi-ai would not pair it as this plan would
		case pm.protected(opts.Protect, call, m.ToolName()):
			p.Protected++
		case m.HasNotice():
			p.Already++
		case m.TextChars() > opts.MaxChars && m.IsError():
			p.Decisions[i].Kind = Excerpt
		case m.TextChars() > opts.MaxChars:
			p.Decisions[i].Kind = Masked
		case m.Images() > 0:
			p.Decisions[i].Kind = ImagesMasked
		default:
			p.Small++
		}
	}
	return p
}

// latestCalls finds the latest toolCall with a given id among the
// assistant messages seen so far, in context order (the last block when
// one message repeats an id). A result answers a call of the latest
// assistant message in all but broken pairings: that message's calls are
// looked at first, and an index of every call id is built only at the
// first result they do not answer (or a message with many calls), then
// kept up to date.
type latestCalls struct {
	last  int  // index of the latest assistant message (valid when seen)
	seen  bool // an assistant message was seen
	index map[string]callAt
}

// callAt is where a toolCall is: call pos of context message msg (msg -1:
// none).
type callAt struct{ msg, pos int32 }

// maxCalls is how many calls one message may hold for a Decision to
// refer to each (24 bits); a result of a call past them gets a stand-in.
const maxCalls = 1 << 24

// fewCalls is how many calls the latest assistant message may hold to be
// searched in place.
const fewCalls = 16

func (lc *latestCalls) assistant(msgs []*session.Message, i int) {
	lc.last, lc.seen = i, true
	if lc.index != nil {
		lc.add(i, msgs[i].ToolCalls())
	}
}

func (lc *latestCalls) add(i int, tcs []session.ToolCall) {
	for k := range tcs[:min(len(tcs), maxCalls)] {
		lc.index[tcs[k].ID()] = callAt{int32(i), int32(k)}
	}
}

// find returns where the latest call with id is (msg -1 when none was
// seen).
func (lc *latestCalls) find(msgs []*session.Message, id string) callAt {
	if lc.index == nil && lc.seen {
		if tcs := msgs[lc.last].ToolCalls(); len(tcs) <= fewCalls {
			for k := len(tcs) - 1; k >= 0; k-- {
				if tcs[k].ID() == id {
					return callAt{int32(lc.last), int32(k)}
				}
			}
		}
	}
	if lc.index == nil {
		// every assistant message so far: those up to the latest
		var seen []*session.Message
		if lc.seen {
			seen = msgs[:lc.last+1]
		}
		n := 0
		for _, m := range seen {
			if m.Role() == session.RoleAssistant {
				n += len(m.ToolCalls())
			}
		}
		lc.index = make(map[string]callAt, n)
		for i, m := range seen {
			if m.Role() == session.RoleAssistant {
				lc.add(i, m.ToolCalls())
			}
		}
	}
	if at, ok := lc.index[id]; ok {
		return at
	}
	return callAt{-1, 0}
}

// protectMemo remembers the protect rules' answer per call (tool, path,
// result's tool name): sessions read and edit the same files again and
// again, and each answer is a set of glob matches.
type protectMemo map[protectKey]bool

type protectKey struct {
	name, path, resultTool string
	hasPath                bool
}

// maxProtectMemo bounds the memo (calls past it are matched each time).
const maxProtectMemo = 1 << 14

// protected reports whether a result of call, whose own toolName is
// resultTool, is protected: its call's tool or path, or its own tool name
// when it differs from the call's.
func (pm *protectMemo) protected(p *protect.Predicate, call *session.ToolCall, resultTool string) bool {
	k := protectKey{call.Name(), call.Path(), resultTool, call.HasPath()}
	if v, ok := (*pm)[k]; ok {
		return v
	}
	v := p.Protected(call.Name(), call.Path(), call.HasPath()) || (call.Name() != resultTool && p.ToolProtected(resultTool))
	if *pm == nil {
		*pm = protectMemo{}
	}
	if len(*pm) < maxProtectMemo {
		(*pm)[k] = v
	}
	return v
}
