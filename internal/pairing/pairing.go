// Package pairing finds the tool calls and results that pi-ai would not
// pair: the hazards a context holds before anything prunes it.
//
// pi-ai pairs a toolResult with the calls of the latest assistant message
// it sends (transformMessages): any other message it sends in between — a
// user message, and after pi's convertToLlm every custom message (another
// extension's), bashExecution, branch or compaction summary, which become
// user messages — closes those calls (pi-ai answers the unanswered ones
// with a synthetic "No result provided" error) and the real result, sent
// after it, answers no call: the provider rejects it or the model never
// sees it. A system message (pi 1.x) is held back by pi-ai until the
// results are in, a bashExecution excluded from the context (`!!`) and a
// message of an unknown role are not sent: neither separates a pair.
//
// Find reports, over a built context (session.Context, pi 1.6's
// buildSessionContext):
//
//   - Interrupted (error): a message pi-ai sends lies between a call and
//     its result (another assistant message included);
//   - NoCall (error): a result that answers no call anywhere before it;
//   - Duplicate (error): a second result for one call;
//   - Interrupted (warning): a pair that only some pi versions render
//     broken. pi 0.80.6 through 0.86.x project an older compaction that
//     lies in the kept range of the latest one as a compaction summary in
//     place (pi ≤ 0.80.3 and ≥ 0.87.0 leave it out, as the built context
//     does); between a call and its result it orphans the result.
//
// Consumers fail closed on every message a hazard involves (the call's
// assistant message and the results): masking and the index render leave
// them untouched, and `pruner check` reports errors and warnings.
// Crossing checks that a message a stage inserts does not fall inside a
// pair. Everything here is pure: it reads routing fields, and the bytes of
// bashExecution messages through the context.
package pairing

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// StaleCompactionVersions are the pi versions that render an older
// compaction kept in the latest one's range as a summary in place.
const StaleCompactionVersions = "pi 0.80.6–0.86.x"

// Severity says for which pi versions a hazard breaks the pair.
type Severity uint8

// Severities.
const (
	Error   Severity = iota // every pi version
	Warning                 // only the versions Hazard.Versions names
)

func (s Severity) String() string { return [...]string{"error", "warning"}[s] }

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Kind is what is wrong with a pair.
type Kind uint8

// Kinds.
const (
	Interrupted Kind = iota // a message pi-ai sends lies between the call and its result
	NoCall                  // the result answers no call before it
	Duplicate               // a second result for one call
)

func (k Kind) String() string { return [...]string{"interrupted", "no-call", "duplicate"}[k] }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Ref names a message of the context.
type Ref struct {
	Index int    `json:"index"` // in Context.Messages
	Role  string `json:"role"`
	Entry string `json:"entry,omitempty"` // session entry id ("" for context input)
	Line  int    `json:"line"`            // 1-based input line
}

// String is "ROLE entry ID" (or "ROLE at line N" without an entry id).
func (r Ref) String() string {
	if r.Entry != "" {
		return r.Role + " entry " + r.Entry
	}
	return fmt.Sprintf("%s at line %d", r.Role, r.Line)
}

// maxBetween is how many separating messages a hazard lists.
const maxBetween = 5

// Hazard is one pair pi-ai would not pair.
type Hazard struct {
	Kind     Kind     `json:"kind"`
	Severity Severity `json:"severity"`
	CallID   string   `json:"toolCallId"`
	// Call is the assistant message holding the call (nil for NoCall).
	Call *Ref `json:"call,omitempty"`
	// Result is the toolResult; for Duplicate, First is the result that
	// answered the call before it.
	Result Ref  `json:"result"`
	First  *Ref `json:"first,omitempty"`
	// Between are the first messages separating the call from its result
	// (Interrupted errors), MoreBetween how many more.
	Between     []Ref `json:"between,omitempty"`
	MoreBetween int   `json:"moreBetween,omitempty"`
	// Compaction is the older compaction entry that the Versions render in
	// place between the call and its result (warnings).
	Compaction string `json:"compaction,omitempty"`
	Versions   string `json:"versions,omitempty"`
}

// String describes the hazard in one line, naming the entries involved.
func (h Hazard) String() string {
	switch {
	case h.Kind == NoCall:
		return fmt.Sprintf("%s (call %s) answers no call before it: pi-ai sends it without its call", h.Result, h.CallID)
	case h.Kind == Duplicate:
		return fmt.Sprintf("%s is a second result for call %s of %s (first: %s): pi-ai sends both", h.Result, h.CallID, h.Call, h.First)
	case h.Severity == Warning:
		return fmt.Sprintf("%s renders compaction entry %s (kept in range) as a summary between %s (call %s) and its %s: the result is orphaned there",
			h.Versions, h.Compaction, h.Call, h.CallID, h.Result)
	}
	var b []string
	for _, r := range h.Between {
		b = append(b, r.String())
	}
	if h.MoreBetween > 0 {
		b = append(b, fmt.Sprintf("%d more", h.MoreBetween))
	}
	return fmt.Sprintf("%s (call %s) is cut off from its call in %s by %s: pi-ai closes the call before it and orphans the result",
		h.Result, h.CallID, h.Call, strings.Join(b, ", "))
}

// Report is the hazards of a context.
type Report struct {
	// Hazards in context order of their results (errors and warnings).
	Hazards  []Hazard
	involved map[int]bool
}

// Involves reports whether message i (of Context.Messages) takes part in
// a hazard: an assistant message holding a call of one, or a result. A
// nil report involves nothing.
func (r *Report) Involves(i int) bool { return r != nil && r.involved[i] }

// Errors and Warnings count the hazards by severity.
func (r *Report) Errors() int   { return r.count(Error) }
func (r *Report) Warnings() int { return r.count(Warning) }

func (r *Report) count(s Severity) int {
	if r == nil {
		return 0
	}
	n := 0
	for _, h := range r.Hazards {
		if h.Severity == s {
			n++
		}
	}
	return n
}

// Msg is what pairing reads of one message.
type Msg struct {
	Role       string
	Calls      []session.ToolCall // assistant: its toolCall blocks
	ToolCallID string             // toolResult
	// Transparent: pi-ai does not send the message where it is (a system
	// message, held back until the results are in) or at all (a
	// bashExecution excluded from the context, an unknown role, a message
	// a stage is about to insert).
	Transparent bool
}

// Pair is a call and the result pi-ai pairs with it (message indexes).
type Pair struct {
	Call, Result int
	ID           string
}

// sent reports whether pi-ai sends the message as one of its own (after
// convertToLlm): the roles that are not transparent.
func sent(m Msg) bool {
	if m.Transparent {
		return false
	}
	switch m.Role {
	case session.RoleUser, session.RoleAssistant, session.RoleToolResult, session.RoleCustom,
		session.RoleBashExecution, session.RoleBranchSummary, session.RoleCompactionSummary:
		return true
	}
	return false // system (held back), unknown roles (dropped)
}

// analyze pairs msgs as pi-ai does over n messages given one at a time by at (no slice
// of every message's view), with the number of calls and results to size
// its tables. The pairs are listed only when withPairs is set (nil
// otherwise: a million-message context's pairs are ~32 MB).
func analyze(n int, at func(i int) Msg, nCalls, nResults int, withPairs bool) ([]Pair, []Hazard) {
	var pairs []Pair
	var hz []Hazard
	last := -1                // latest assistant
	var calls callSet         // its call ids
	var answered answers      // its answered calls and their results
	var between []int32       // sent non-result messages since it
	var separators []int32    // every sent non-result message, in order
	var assistants []int32    // every sent assistant, in order
	var latest map[string]int // call id → latest assistant holding it (built at the first miss)
	if withPairs {
		pairs = make([]Pair, 0, nResults)
	}
	for i := 0; i < n; i++ {
		m := at(i)
		if !sent(m) {
			continue
		}
		switch m.Role {
		case session.RoleAssistant:
			separators = append(separators, int32(i))
			last, between = i, nil
			calls.reset(m.Calls)
			answered.reset()
			assistants = append(assistants, int32(i))
			for _, tc := range m.Calls {
				if latest != nil {
					latest[tc.ID()] = i
				}
			}
		case session.RoleToolResult:
			id := m.ToolCallID
			if last >= 0 && calls.has(id) {
				if first, dup := answered.get(id); dup {
					hz = append(hz, Hazard{Kind: Duplicate, CallID: id, Call: &Ref{Index: last}, Result: Ref{Index: i}, First: &Ref{Index: first}})
					continue
				}
				answered.add(id, i)
				if len(between) > 0 {
					hz = append(hz, interrupted(id, last, i, between))
					continue
				}
				if withPairs {
					pairs = append(pairs, Pair{last, i, id})
				}
				continue
			}
			if latest == nil {
				// the first result outside the latest assistant's calls:
				// index every call before it once, then keep the index up
				latest = make(map[string]int, nCalls)
				for _, a := range assistants {
					for _, tc := range at(int(a)).Calls {
						latest[tc.ID()] = int(a)
					}
				}
			}
			if a, ok := latest[id]; ok {
				// the call is in an earlier assistant: everything sent since
				// separates them
				k, _ := slices.BinarySearch(separators, int32(a+1))
				hz = append(hz, interrupted(id, a, i, separators[k:]))
				continue
			}
			hz = append(hz, Hazard{Kind: NoCall, CallID: id, Result: Ref{Index: i}})
		default:
			separators = append(separators, int32(i))
			between = append(between, int32(i))
		}
	}
	return pairs, hz
}

// callSet is the call ids of one assistant message: its calls looked up in
// place (most messages hold a few), a map once they are many.
type callSet struct {
	calls []session.ToolCall
	ids   map[string]bool
}

// manyCalls is where a callSet starts to use a map.
const manyCalls = 16

func (c *callSet) reset(calls []session.ToolCall) {
	c.calls, c.ids = calls, nil
	if len(calls) > manyCalls {
		c.ids = make(map[string]bool, len(calls))
		for _, tc := range calls {
			c.ids[tc.ID()] = true
		}
	}
}

func (c *callSet) has(id string) bool {
	if c.ids != nil {
		return c.ids[id]
	}
	for i := range c.calls {
		if c.calls[i].ID() == id {
			return true
		}
	}
	return false
}

// answers are the calls of the latest assistant message answered so far,
// with the result that answered each: a list while they are few, a map
// once they are many.
type answers struct {
	list []answer
	byID map[string]int
}

type answer struct {
	id     string
	result int
}

func (a *answers) reset() { a.list, a.byID = a.list[:0], nil }

func (a *answers) add(id string, result int) {
	if a.byID == nil && len(a.list) < manyCalls {
		a.list = append(a.list, answer{id, result})
		return
	}
	if a.byID == nil {
		a.byID = make(map[string]int, 2*manyCalls)
		for _, x := range a.list {
			a.byID[x.id] = x.result
		}
	}
	a.byID[id] = result
}

// get returns the result that answered call id (ok false: none yet).
func (a *answers) get(id string) (int, bool) {
	if a.byID != nil {
		r, ok := a.byID[id]
		return r, ok
	}
	for _, x := range a.list {
		if x.id == id {
			return x.result, true
		}
	}
	return 0, false
}

func interrupted(id string, call, result int, between []int32) Hazard {
	h := Hazard{Kind: Interrupted, CallID: id, Call: &Ref{Index: call}, Result: Ref{Index: result}}
	for k, b := range between {
		if k == maxBetween {
			h.MoreBetween = len(between) - k
			break
		}
		h.Between = append(h.Between, Ref{Index: int(b)})
	}
	return h
}

// CrossingAt returns the indexes of the inserted messages (inserted(i))
// that fall strictly inside a pair: between a call and the result pi-ai
// pairs with it once the inserted messages are left out. A stage that
// inserts a message (a compressed chain, a summary) must not put it there:
// it would orphan the result. The n messages are given one at a time by
// at (no slice of every message's view: a chain render of a million
// messages made two, 64 bytes a message each).
func CrossingAt(n int, at func(i int) Msg, inserted func(i int) bool) []int {
	var ins []int
	nCalls, nResults := 0, 0
	for i := 0; i < n; i++ {
		if inserted(i) {
			ins = append(ins, i)
		}
		m := at(i)
		nCalls += len(m.Calls)
		if m.Role == session.RoleToolResult {
			nResults++
		}
	}
	if len(ins) == 0 {
		return nil
	}
	probe := func(i int) Msg {
		m := at(i)
		if inserted(i) {
			m.Transparent = true
		}
		return m
	}
	pairs, hz := analyze(n, probe, nCalls, nResults, true)
	var spans [][2]int
	for _, p := range pairs {
		spans = append(spans, [2]int{p.Call, p.Result})
	}
	for _, h := range hz { // a broken pair is a pair all the same
		if h.Call != nil {
			spans = append(spans, [2]int{h.Call.Index, h.Result.Index})
		}
	}
	return inside(spans, ins)
}

// inside returns the points of ins (ascending) that some span holds
// strictly inside (start < p < end), in one sweep: spans by start, the
// furthest end of those that start before each point (a compressed
// session has thousands of inserted messages and pairs; comparing every
// point with every span grew with their product).
func inside(spans [][2]int, ins []int) []int {
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var out []int
	k, end := 0, math.MinInt
	for _, p := range ins {
		for ; k < len(spans) && spans[k][0] < p; k++ {
			end = max(end, spans[k][1])
		}
		if end > p {
			out = append(out, p)
		}
	}
	return out
}

// Messages returns the pairing view of a context's messages. A
// bashExecution's bytes are read for excludeFromContext; one that cannot
// be read counts as sent (more hazards, never fewer).
func Messages(ctx *session.Context) []Msg {
	out := make([]Msg, len(ctx.Messages))
	var v viewer
	for i := range ctx.Messages {
		out[i] = v.msg(ctx, i)
	}
	return out
}

// viewer makes the pairing view of one message at a time, reusing the
// buffer a bashExecution is read into.
type viewer struct{ buf []byte }

func (v *viewer) msg(ctx *session.Context, i int) Msg {
	m := ctx.Messages[i]
	out := Msg{Role: m.Role(), Calls: m.ToolCalls(), ToolCallID: m.ToolCallID()}
	if out.Role == session.RoleBashExecution {
		var err error
		if v.buf, err = ctx.AppendMessage(v.buf[:0], m); err == nil {
			x, _ := jsval.Get(v.buf, "excludeFromContext")
			out.Transparent = jsval.Truthy(x)
		}
	}
	return out
}

// Find returns the hazards of a built context. The warnings for older
// compactions need the branch (session.ReadOptions.Branch); without it
// only the errors are found.
func Find(ctx *session.Context) *Report {
	nCalls, nResults := 0, 0
	for _, m := range ctx.Messages {
		nCalls += len(m.ToolCalls())
		if m.Role() == session.RoleToolResult {
			nResults++
		}
	}
	var v viewer
	older := olderCompactionKept(ctx)
	pairs, hz := analyze(len(ctx.Messages), func(i int) Msg { return v.msg(ctx, i) }, nCalls, nResults, older)
	if older {
		hz = append(hz, staleCompactions(ctx, pairs)...)
	}
	sort.SliceStable(hz, func(a, b int) bool { return hz[a].Result.Index < hz[b].Result.Index })
	r := &Report{Hazards: hz, involved: map[int]bool{}}
	fill := func(ref *Ref) {
		if ref == nil {
			return
		}
		m := ctx.Messages[ref.Index]
		ref.Role, ref.Entry, ref.Line = m.Role(), m.EntryID(), m.Line()
	}
	for i := range r.Hazards {
		h := &r.Hazards[i]
		fill(h.Call)
		fill(&h.Result)
		fill(h.First)
		for k := range h.Between {
			fill(&h.Between[k])
		}
		if h.Call != nil {
			r.involved[h.Call.Index] = true
		}
		if h.First != nil {
			r.involved[h.First.Index] = true
		}
		r.involved[h.Result.Index] = true
	}
	return r
}

// lastCompaction is the index in ctx.Branch of the last compaction (-1:
// none).
func lastCompaction(ctx *session.Context) int {
	for i := len(ctx.Branch) - 1; i >= 0; i-- {
		if ctx.EntryType(&ctx.Branch[i]) == "compaction" {
			return i
		}
	}
	return -1
}

// olderCompactionKept reports whether ctx.Branch holds a compaction in the
// context before the last one (in its kept range): the pairs it breaks
// under StaleCompactionVersions are staleCompactions'.
func olderCompactionKept(ctx *session.Context) bool {
	latest := lastCompaction(ctx)
	for i := 0; i < latest; i++ {
		if ctx.EntryType(&ctx.Branch[i]) == "compaction" && ctx.Branch[i].InContext() {
			return true
		}
	}
	return false
}

// staleCompactions finds the pairs an older compaction kept in range
// breaks under StaleCompactionVersions: the compaction's summary lands
// right after the context messages of the entries before it on the branch.
// Only a branch with an older compaction kept in range has them
// (olderCompactionKept).
func staleCompactions(ctx *session.Context, pairs []Pair) []Hazard {
	latest := lastCompaction(ctx)
	lastOf := make(map[uint64]int, len(ctx.Messages)) // entry id → its last message index
	for i, m := range ctx.Messages {
		if k := m.EntryKey(); k != 0 {
			lastOf[k] = i
		}
	}
	var hz []Hazard
	pos := 0 // where the next entry's messages start
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		if !be.InContext() || i == latest {
			continue
		}
		if ctx.EntryType(be) == "compaction" {
			for _, p := range pairs {
				if p.Call < pos && pos <= p.Result {
					hz = append(hz, Hazard{Kind: Interrupted, Severity: Warning, CallID: p.ID, Call: &Ref{Index: p.Call},
						Result: Ref{Index: p.Result}, Compaction: ctx.EntryID(be), Versions: StaleCompactionVersions})
				}
			}
			continue
		}
		if k, ok := lastOf[ctx.EntryKey(be)]; ok && ctx.EntryKey(be) != 0 && k+1 > pos {
			pos = k + 1
		}
	}
	return hz
}
