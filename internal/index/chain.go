package index

import (
	"strings"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// This file is the chain side's detection and eligibility (pi-condense's
// chain-detector and selectEligible): which closed chains of a context a
// flush compresses.

// ChainRange is one chain of a context: a user message, the tool turns
// after it, and (when closed) the text-only assistant reply that ends it.
type ChainRange struct {
	// Start and Final are the indexes of the user message and the final
	// assistant message in Context.Messages (Final -1: interrupted by a new
	// user message).
	Start, Final int
	// StartUserTimestamp and FinalAssistantTimestamp are those messages'
	// timestamps (the entry's keys: render resolves the range by them).
	StartUserTimestamp      int64
	FinalAssistantTimestamp *int64
	// MiddleToolCallIDs are the call ids of the middle (toolCall blocks and
	// toolResults, first seen first, each once); MiddleOccurrenceKeys the
	// results' occurrence keys; ProtectedToolCallIDs the middle calls that
	// are protected (by name and path on the call, by name on the result).
	MiddleToolCallIDs    []string
	MiddleOccurrenceKeys []string
	ProtectedToolCallIDs []string
	// Timed is false when the user or final message has no whole-number
	// timestamp: no entry could name the range, so it is never compressed
	// (nor when another user or assistant message shares the timestamp:
	// Resolvable).
	Timed bool
}

// Closed reports whether the chain ended with a text-only assistant reply.
func (c *ChainRange) Closed() bool { return c.Final >= 0 }

// LookupKeys are the keys summaries, records and refs are looked up by:
// the occurrence keys, or the bare ids when no result had one.
func (c *ChainRange) LookupKeys() []string {
	if len(c.MiddleOccurrenceKeys) > 0 {
		return c.MiddleOccurrenceKeys
	}
	return c.MiddleToolCallIDs
}

// DetectChains walks the context's messages as pi-condense's detectChains
// walks the branch: a user message opens a chain (a `<compressed-chain`
// message does not: it passes through), assistant messages with toolCall
// blocks and toolResults are its middle, and the first assistant message
// without a toolCall closes it. A user message before the close interrupts
// it (Final -1); a chain still open at the end is left out (in flight).
// Messages of other roles (custom, bashExecution, summaries) pass through.
//
// The context, not the branch: a chain a compaction cut is no longer sent,
// so compressing it would save nothing and its entry would be an
// unresolved range on every render (pi-condense detects on the branch).
// User and final messages are re-read (a synthetic chain message, the
// timestamps); errors are I/O errors re-reading the input.
func DetectChains(ctx *session.Context, pred *protect.Predicate) ([]ChainRange, error) {
	return detectChains(ctx, pred, nil)
}

// detectChains is DetectChains; an occurrence key st knows is its string
// in st (not a copy per chain; st nil: none).
func detectChains(ctx *session.Context, pred *protect.Predicate, st *State) ([]ChainRange, error) {
	var out []ChainRange
	var cur *ChainRange
	// the open chain's ids, keys and protected ids (reused: a long session
	// has thousands of chains), and its lists of them, built in reused
	// buffers and copied out at their size when it ends (done): a chain
	// keeps them as long as it is kept (grown by append, a third of them
	// was spare room)
	ids, keys, prot := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var idList, keyList, protList []string
	var kb []byte // a result's occurrence key
	prot0 := protect.NewMemo(pred)

	open := func(i int, ts int64, ok bool) {
		cur = &ChainRange{Start: i, Final: -1, StartUserTimestamp: ts, Timed: ok}
		clear(ids)
		clear(keys)
		clear(prot)
		idList, keyList, protList = idList[:0], keyList[:0], protList[:0]
	}
	done := func() ChainRange {
		c := *cur
		c.MiddleToolCallIDs, c.MiddleOccurrenceKeys, c.ProtectedToolCallIDs = exactList(idList), exactList(keyList), exactList(protList)
		return c
	}
	addID := func(id string) {
		if !ids[id] {
			ids[id] = true
			idList = append(idList, id)
		}
	}
	addProt := func(id string) {
		if !prot[id] {
			prot[id] = true
			protList = append(protList, id)
		}
	}
	for i, m := range ctx.Messages {
		switch m.Role() {
		case session.RoleUser:
			chain, ts, ok, err := userFacts(ctx, m)
			if err != nil {
				return nil, err
			}
			if chain {
				continue
			}
			if cur != nil {
				out = append(out, done())
			}
			open(i, ts, ok)
			continue
		}
		if cur == nil {
			continue
		}
		switch m.Role() {
		case session.RoleAssistant:
			if len(m.ToolCalls()) > 0 {
				for _, tc := range m.ToolCalls() {
					if tc.ID() == "" || tc.Name() == "" {
						continue
					}
					addID(tc.ID())
					if prot0.Protected(tc.Name(), tc.Path(), tc.HasPath()) {
						addProt(tc.ID())
					}
				}
				continue
			}
			ts, ok, err := messageTimestamp(ctx, m)
			if err != nil {
				return nil, err
			}
			cur.Final = i
			cur.FinalAssistantTimestamp = &ts
			cur.Timed = cur.Timed && ok
			out = append(out, done())
			cur = nil
		case session.RoleToolResult:
			if m.ToolCallID() == "" {
				continue
			}
			addID(m.ToolCallID())
			if kb = appendMessageKey(kb[:0], m.ToolCallID(), m.Timestamp()); !keys[string(kb)] {
				k := st.knownKey(kb)
				keys[k] = true
				keyList = append(keyList, k)
			}
			if prot0.ToolProtected(m.ToolName()) {
				addProt(m.ToolCallID())
			}
		}
	}
	return out, nil
}

// exactList is a copy of list at its length (nil when it is empty).
func exactList(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	return append(make([]string, 0, len(list)), list...)
}

// userFacts says whether a user message is a synthetic chain message, and
// its whole-number timestamp: from the context's index when the message is
// as read, else from its bytes.
func userFacts(ctx *session.Context, m *session.Message) (chain bool, ts int64, ok bool, err error) {
	if !m.ChainCandidate() {
		ts, ok, err = messageTimestamp(ctx, m)
		return false, ts, ok, err
	}
	raw, err := ctx.AppendMessage(nil, m)
	if err != nil {
		return false, 0, false, err
	}
	if isChainMessage(raw) {
		return true, 0, false, nil
	}
	ts, ok = rawTimestamp(raw)
	return false, ts, ok, nil
}

// messageTimestamp is a message's timestamp when it is a whole number.
func messageTimestamp(ctx *session.Context, m *session.Message) (int64, bool, error) {
	if f, ok, known := m.NumTimestamp(); known {
		if !ok || f != float64(int64(f)) {
			return 0, false, nil
		}
		return int64(f), true, nil
	}
	raw, err := ctx.AppendMessage(nil, m)
	if err != nil {
		return 0, false, err
	}
	ts, ok := rawTimestamp(raw)
	return ts, ok, nil
}

// wholeTimestamp reads a raw JSON timestamp that is a whole number (pi's
// milliseconds, 1 to 15 digits, read without a float parse).
func wholeTimestamp(raw string) (int64, bool) {
	if d := strings.TrimPrefix(raw, "-"); len(d) > 0 && len(d) <= 15 && (d[0] != '0' || len(d) == 1) {
		n := int64(0)
		for i := 0; i < len(d); i++ {
			if d[i] < '0' || d[i] > '9' {
				n = -1
				break
			}
			n = n*10 + int64(d[i]-'0')
		}
		if n >= 0 {
			if len(d) < len(raw) {
				n = -n
			}
			return n, true
		}
	}
	f, ok := jsval.Number([]byte(raw))
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// rawTimestamp reads a message's timestamp when it is a whole number.
func rawTimestamp(msg []byte) (int64, bool) {
	v, ok := jsval.Get(msg, "timestamp")
	if !ok {
		return 0, false
	}
	return wholeTimestamp(string(v))
}

// isChainMessage reports whether a user message is pi-condense's synthetic
// chain message: its string content, or its first block's text, starts
// with `<compressed-chain` after leading white space.
func isChainMessage(msg []byte) bool {
	content, _ := jsval.Get(msg, "content")
	text, ok := jsval.String(content)
	if !ok {
		els, isArr := jsval.Elements(content)
		if !isArr || len(els) == 0 {
			return false
		}
		if t, _ := jsval.GetString(els[0], "type"); t != "text" {
			return false
		}
		if text, ok = jsval.GetString(els[0], "text"); !ok {
			return false
		}
	}
	return strings.HasPrefix(strings.TrimLeftFunc(text, isJSWhitespace), "<compressed-chain")
}

// SelectEligible returns the chains a flush compresses (pi-condense's
// selectEligible): closed, not compressed yet (no chain entry at its start
// timestamp in st), with a middle — and of those, all but the newest
// window. Then, without moving that window, a chain holding a
// context_tree_query result still in its recovery grace (grace, by
// occurrence key; a bare key matches any occurrence of its id) is
// deferred, and so is a chain that ends inside the raw window (rawFrom, an
// index in Context.Messages; negative: none), has no whole-number
// timestamps, or holds a message of a pair pi-ai would not pair (hazards:
// the render leaves such a range as it is, so would an entry for it).
func SelectEligible(chains []ChainRange, window int, st *State, grace map[string]bool, rawFrom int, hazards *pairing.Report) []ChainRange {
	var candidates []ChainRange
	for _, c := range chains {
		if !c.Closed() || len(c.MiddleToolCallIDs) == 0 {
			continue
		}
		if _, done := st.chains[c.StartUserTimestamp]; done && c.Timed {
			continue
		}
		candidates = append(candidates, c)
	}
	n := max(0, len(candidates)-max(0, window))
	var out []ChainRange
	for _, c := range candidates[:n] {
		if !c.Timed || (rawFrom >= 0 && c.Final >= rawFrom) || inGrace(&c, grace) || hazardIn(hazards, c.Start, c.Final) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// hazardIn reports whether a message from..to (inclusive) is part of a
// pairing hazard.
func hazardIn(h *pairing.Report, from, to int) bool {
	for i := from; i <= to; i++ {
		if h.Involves(i) {
			return true
		}
	}
	return false
}

// Resolvable keeps the chains an entry can name: pi-condense's render
// resolves a chain entry to exactly one user message at its start
// timestamp and exactly one assistant message at its final one, so a chain
// whose timestamps another message of the context shares (a copied or
// replayed session, a clock that did not move) would be an unresolved
// range on every render; it is left as it is. It reads the timestamp of
// every user and assistant message once (only when there is a chain to
// check); errors are I/O errors re-reading the input.
func Resolvable(ctx *session.Context, chains []ChainRange) ([]ChainRange, error) {
	if len(chains) == 0 {
		return nil, nil
	}
	// the messages at the chains' timestamps, counted (the maps are the
	// chains' size, not the context's: a message at another timestamp is
	// looked up, not added)
	users, assistants := make(map[int64]int, len(chains)), make(map[int64]int, len(chains))
	for _, c := range chains {
		users[c.StartUserTimestamp] = 0
		if c.FinalAssistantTimestamp != nil {
			assistants[*c.FinalAssistantTimestamp] = 0
		}
	}
	for _, m := range ctx.Messages {
		role := m.Role()
		if role != session.RoleUser && role != session.RoleAssistant {
			continue
		}
		ts, ok, err := messageTimestamp(ctx, m)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		count := assistants
		if role == session.RoleUser {
			count = users
		}
		if n, named := count[ts]; named {
			count[ts] = n + 1
		}
	}
	out := chains[:0:0]
	for _, c := range chains {
		if users[c.StartUserTimestamp] == 1 && c.FinalAssistantTimestamp != nil && assistants[*c.FinalAssistantTimestamp] == 1 {
			out = append(out, c)
		}
	}
	return out, nil
}

// inGrace is pi-condense's chainMatchesGrace.
func inGrace(c *ChainRange, grace map[string]bool) bool {
	if len(grace) == 0 {
		return false
	}
	keys := c.LookupKeys()
	for _, k := range keys {
		if grace[k] {
			return true
		}
	}
	for g := range grace {
		if _, ts := ParseOccurrenceKey(g); ts != nil {
			continue
		}
		for _, k := range keys {
			if id, _ := ParseOccurrenceKey(k); id == g {
				return true
			}
		}
	}
	return false
}

// GraceKeys is pi-condense's inGraceRecoveryToolCallIds over a context:
// the occurrence keys (bare ids without a numeric timestamp) of
// context_tree_query results followed by at most turns user messages (0:
// none).
func GraceKeys(ctx *session.Context, turns int) map[string]bool {
	if turns <= 0 {
		return nil
	}
	users := 0
	for _, m := range ctx.Messages {
		if m.Role() == session.RoleUser {
			users++
		}
	}
	out := map[string]bool{}
	seen := 0
	for _, m := range ctx.Messages {
		switch m.Role() {
		case session.RoleUser:
			seen++
		case session.RoleToolResult:
			if m.ToolName() == "context_tree_query" && m.ToolCallID() != "" && users-seen <= turns {
				out[MessageKey(m.ToolCallID(), []byte(m.Timestamp()))] = true
			}
		}
	}
	return out
}
