package render

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/session"
)

// msgFacts are the fields the chain phase reads from a message (the bytes
// are not kept: a long session's messages would all be in memory).
type msgFacts struct {
	ts      float64
	hasTS   bool
	chainID string // a synthetic chain message's block id
}

func (r *renderer) facts(s *slot) (msgFacts, error) {
	if m := r.msg(s); s.kept() && m != nil {
		// a source message as read: its timestamp is in the index, and
		// only a chain candidate's bytes are read for its block id
		if ts, ok, known := m.NumTimestamp(); known && (m.Role() != session.RoleUser || !m.ChainCandidate()) {
			return msgFacts{ts: ts, hasTS: ok}, nil
		}
	}
	var f msgFacts
	err := r.viewOf(s, func(raw []byte) error {
		if v, ok := jsval.Get(raw, "timestamp"); ok {
			f.ts, f.hasTS = jsval.Number(v)
		}
		if r.role(s) == session.RoleUser {
			f.chainID, _ = chainBlockID(raw) // (a string of its own)
		}
		return nil
	})
	return f, err
}

// chainBlockID returns the id of a synthetic chain message
// (`<compressed-chain id="bN"` at the start of its first block's text).
func chainBlockID(raw []byte) (string, bool) {
	content, _ := jsval.Get(raw, "content")
	els, ok := jsval.Elements(content)
	if !ok || len(els) == 0 {
		return "", false
	}
	text, _ := jsval.GetString(els[0], "text")
	rest, ok := strings.CutPrefix(text, session.ChainMessagePrefix+` id="`)
	if !ok {
		return "", false
	}
	end := strings.IndexByte(rest, '"')
	if end <= 0 {
		return "", false
	}
	return rest[:end], true
}

// toolResultText is pi-condense's extractToolResultText: the text blocks
// of the content array joined with "\n".
func toolResultText(raw []byte) string {
	content, _ := jsval.Get(raw, "content")
	els, _ := jsval.Elements(content)
	var parts []string
	for _, el := range els {
		f := getFields(el, "type", "text")
		if t, _ := f.str(0); t != "text" {
			continue
		}
		s, _ := f.str(1)
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n")
}

// chainBody is the body pi-condense renders for a chain: its fused or
// deterministic range summary, else the per-batch summaries that cover its
// dropped occurrences, joined by a blank line.
func chainBody(st *index.State, c *index.ChainData) string {
	if text, ok := c.RangeSummary(); ok {
		return text
	}
	keys := c.DroppedOccurrenceKeys
	if keys == nil {
		keys = c.DroppedToolCallIDs
	}
	return strings.Join(st.SummaryTexts(keys), "\n\n")
}

// substituteBlockRefs replaces `{bN}` placeholders with the body of chain
// bN, one level deep (the substituted text is not scanned again); a
// chain's own id and unknown or empty blocks stay as written.
func substituteBlockRefs(st *index.State, text, self string) string {
	if !strings.Contains(text, "{b") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "{b")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := i + 2
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j == i+2 || j >= len(text) || text[j] != '}' {
			b.WriteString(text[:i+2])
			text = text[i+2:]
			continue
		}
		id := "b" + text[i+2:j]
		b.WriteString(text[:i])
		if c, ok := st.ChainByBlock(id); ok && id != self {
			if body := chainBody(st, c); body != "" {
				b.WriteString(body)
				text = text[j+1:]
				continue
			}
		}
		b.WriteString(text[i : j+1])
		text = text[j+1:]
	}
}

type protectedOutput struct{ tool, text string }

// chainMsg is a synthetic `<compressed-chain>` user message not built
// yet: it is built when read or written (appendChainMessage), from the
// state the render ran with (which is not changed after), so a render of
// thousands of chains holds no copy of their bodies.
type chainMsg struct {
	st      *index.State
	c       *index.ChainData
	outputs []protectedOutput
}

// append appends the message's JSON to dst.
func (m *chainMsg) append(dst []byte) []byte {
	return appendChainMessage(dst, m.st, m.c, m.outputs)
}

// chainMessage builds the synthetic `<compressed-chain>` user message
// (appendChainMessage).
func (r *renderer) chainMessage(c *index.ChainData, outputs []protectedOutput) []byte {
	return appendChainMessage(nil, r.st, c, outputs)
}

// appendChainMessage appends the synthetic `<compressed-chain>` user
// message of chain c to dst, its text escaped straight into the message
// (appendStringBody; every piece of it that comes from the state sits
// between fixed ASCII pieces, so escaping piece by piece is escaping the
// whole).
func appendChainMessage(b []byte, st *index.State, c *index.ChainData, outputs []protectedOutput) []byte {
	body := substituteBlockRefs(st, chainBody(st, c), c.BlockID)
	size := len(body) + len(c.BlockID) + 128
	refs := c.Refs()
	for _, ref := range refs {
		size += len(ref) + 1
	}
	for _, p := range outputs {
		size += len(p.tool) + len(p.text) + 48
	}
	b = slices.Grow(b, size+size/16)
	b = append(b, `{"role":"user","content":[{"type":"text","text":"`...)
	b = appendStringBody(b, `<compressed-chain id="`)
	b = appendStringBody(b, c.BlockID)
	b = appendStringBody(b, `" tools="`)
	for i, ref := range refs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringBody(b, ref)
	}
	b = appendStringBody(b, "\">\n")
	b = appendStringBody(b, body)
	for _, p := range outputs {
		b = appendStringBody(b, "\n\n<protected-output tool=\"")
		b = appendStringBody(b, p.tool)
		b = appendStringBody(b, "\">\n")
		b = appendStringBody(b, p.text)
		b = appendStringBody(b, "\n</protected-output>")
	}
	b = appendStringBody(b, "\n</compressed-chain>")
	b = append(b, `"}],"timestamp":`...)
	b = appendInt(b, c.CompressedAt)
	return append(b, '}')
}

// appendStringBody appends s as jsval.AppendString writes it, without the
// quotes. JSON.stringify escapes each code point on its own, so the
// bodies of strings joined at an ASCII character are the body of the
// joined string.
func appendStringBody(dst []byte, s string) []byte {
	if n := len(dst); n > 0 {
		// the string's opening quote written over dst's last byte, which
		// is put back: no move of the body
		last := dst[n-1]
		dst = jsval.AppendString(dst[:n-1], s)
		dst[n-1] = last
		return dst[:len(dst)-1]
	}
	dst = jsval.AppendString(dst, s)
	copy(dst, dst[1:len(dst)-1])
	return dst[:len(dst)-2]
}

// appendInt is jsval.AppendNumber of an integer: digits as they are up to
// 2^53, where every integer is exact in a float64 (beyond, the float's
// spelling).
func appendInt(b []byte, v int64) []byte {
	if -1<<53 <= v && v <= 1<<53 {
		return strconv.AppendInt(b, v, 10)
	}
	return jsval.AppendNumber(b, float64(v))
}

type chainRange struct {
	c          *index.ChainData
	start, end int // slot indexes of the chain's user message and final assistant
}

// chainRangePrune is phase 4: pi-condense's applyChainCompressions, with
// one repair pi-condense does not make: a call inside the range that is
// protected under the current config (protectedTools, protectedPaths) but
// was not when the chain was compressed gets its output back, verbatim, in
// a <protected-output> block, like the calls the entry's
// protectedToolCallIds name. Not repaired: the chain's body (its summary
// may still describe that output), and a call protected at compression and
// not any more keeps its block (content the chain chose to keep is never
// dropped).
func (r *renderer) chainRangePrune(chains []*index.ChainData) error {
	// 1. resolve each entry to a range: exactly one user message at its
	// start timestamp and one assistant at its final timestamp, in order
	// (the slots of each timestamp found once: a long session has
	// thousands of chains); each message's facts are read once, in the
	// same pass (none is held per message). The timestamps are noted in
	// slot order, which is their order in a session that runs forward in
	// time (sorted only when it does not).
	var existing map[string]bool
	// sized once, for every visible user and assistant slot: grown by
	// append, they allocated ~25 MB for a 1 GB session's 558,161
	// messages (about five times what they end at), in the render, where
	// a first flush's heap peaks
	nu, na := 0, 0
	for i := range r.slots {
		if s := &r.slots[i]; r.visible(s) {
			switch r.role(s) {
			case session.RoleUser:
				nu++
			case session.RoleAssistant:
				na++
			}
		}
	}
	users, assts := make([]slotTS, 0, nu), make([]slotTS, 0, na)
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) {
			continue
		}
		switch role := r.role(s); role {
		case session.RoleUser, session.RoleAssistant:
			f, err := r.facts(s)
			if err != nil {
				return err
			}
			if f.chainID != "" {
				if existing == nil {
					existing = map[string]bool{}
				}
				existing[f.chainID] = true
			}
			if !f.hasTS {
				continue
			}
			if role == session.RoleUser {
				users = append(users, slotTS{f.ts, int32(i)})
			} else {
				assts = append(assts, slotTS{f.ts, int32(i)})
			}
		}
	}
	sortByTS(users)
	sortByTS(assts)
	resolved := make([]chainRange, 0, len(chains))
	for _, c := range chains {
		start, end, sn, en := -1, -1, 0, 0
		if c.FinalAssistantTimestamp != nil {
			start, sn = slotsAt(users, float64(c.StartUserTimestamp))
			end, en = slotsAt(assts, float64(*c.FinalAssistantTimestamp))
		}
		if sn != 1 || en != 1 || start >= end {
			final := "null"
			if c.FinalAssistantTimestamp != nil {
				final = fmt.Sprint(*c.FinalAssistantTimestamp)
			}
			r.diag("unresolved-range", fmt.Sprintf("blockId=%s start=%d final=%s", c.BlockID, c.StartUserTimestamp, final))
			continue
		}
		resolved = append(resolved, chainRange{c, start, end})
	}
	users, assts = nil, nil
	// 2. drop ranges nested in another and duplicates of a claimed start.
	accepted := make([]chainRange, 0, len(resolved))
	// the claimed starts, a bit a slot (a map of them was ~2.4 MB at the
	// render's peak for a 1 GB session's ~32,000 chains)
	claimed := make([]uint64, len(r.slots)/64+1)
	var covering []int32 // a range never holds its own start: one needs no marks
	if len(resolved) > 1 {
		covering = firstCovering(len(r.slots), resolved)
	}
	for _, cand := range resolved {
		if covering != nil && covering[cand.start] > 0 {
			loser := covering[cand.start] - 1
			r.diag("unresolved-range", fmt.Sprintf("blockId=%s skipped: range nests inside blockId=%s", cand.c.BlockID, resolved[loser].c.BlockID))
			continue
		}
		if claimed[cand.start/64]&(1<<(cand.start%64)) != 0 {
			r.diag("unresolved-range", fmt.Sprintf("blockId=%s skipped: range duplicates startIndex=%d already claimed", cand.c.BlockID, cand.start))
			continue
		}
		claimed[cand.start/64] |= 1 << (cand.start % 64)
		accepted = append(accepted, cand)
	}
	if len(accepted) == 0 {
		return nil
	}
	// a range that holds a message of a broken pair changes nothing
	// (fail closed: dropping the call or the result would decide how pi-ai
	// pairs them)
	kept := accepted[:0]
	for _, a := range accepted {
		if i, ok := r.hazardIn(a.start, a.end); ok {
			r.diag("pairing-hazard", fmt.Sprintf("blockId=%s skipped: message %d in its range is part of a broken tool call/result pair", a.c.BlockID, i))
			continue
		}
		kept = append(kept, a)
	}
	accepted = kept
	// the chain message must not land inside a pair (it would orphan the
	// result): asserted on the output, and a chain that would is skipped
	saved := *r.rep
	for len(accepted) > 0 {
		dropped, cross, err := r.emitChains(accepted, existing)
		if err != nil {
			return err
		}
		if len(cross) == 0 {
			r.dropped = dropped
			return nil
		}
		bad := map[string]bool{}
		for _, id := range cross {
			bad[id] = true
			r.diag("pairing-hazard", fmt.Sprintf("blockId=%s skipped: its message would fall between a tool call and its result", id))
		}
		kept := accepted[:0]
		for _, a := range accepted {
			if !bad[a.c.BlockID] {
				kept = append(kept, a)
			}
		}
		accepted = kept
		diags := r.rep.Diagnostics
		*r.rep = saved
		r.rep.Diagnostics = diags
	}
	return nil
}

// slotTS is a slot's timestamp (the chain phase's lookup of a range's
// ends).
type slotTS struct {
	ts   float64
	slot int32
}

// sortByTS sorts a by timestamp, slots of one timestamp in slot order
// (noted in slot order: a stable sort), unless it is sorted already.
func sortByTS(a []slotTS) {
	if !slices.IsSortedFunc(a, cmpTS) {
		slices.SortStableFunc(a, cmpTS)
	}
}

func cmpTS(x, y slotTS) int {
	switch {
	case x.ts < y.ts:
		return -1
	case x.ts > y.ts:
		return 1
	}
	return 0
}

// slotsAt returns the first slot with timestamp ts in a (sortByTS) and
// how many have it (first -1: none).
func slotsAt(a []slotTS, ts float64) (first, n int) {
	k, found := slices.BinarySearchFunc(a, ts, func(x slotTS, t float64) int { return cmpTS(x, slotTS{ts: t}) })
	if !found {
		return -1, 0
	}
	for j := k; j < len(a) && a[j].ts == ts; j++ {
		n++
	}
	return int(a[k].slot), n
}

// firstCovering returns, for each of n slots, 1 + the index of the first
// range (in order) that holds it strictly inside (start < slot < end), 0
// for none: a range whose start another holds nests in it. One pass over
// the slots: each range marks the slots inside it that no earlier range
// marked, and next skips the marked ones (path halving), so a slot is
// marked once however many ranges hold it.
func firstCovering(n int, ranges []chainRange) []int32 {
	first := make([]int32, n)
	next := make([]int32, n+1) // next[i]: the first unmarked slot ≥ i (after find)
	for i := range next {
		next[i] = int32(i)
	}
	find := func(i int32) int32 {
		for next[i] != i {
			next[i] = next[next[i]]
			i = next[i]
		}
		return i
	}
	for k, rg := range ranges {
		for i := find(int32(rg.start + 1)); int(i) < rg.end; i = find(i) {
			first[i] = int32(k + 1)
			next[i] = i + 1
		}
	}
	return first
}

// Marks of a slot in the chain phase (emitChains).
const (
	markDrop   = 1 << iota // inside an accepted range
	markStrip              // a range's final assistant, its thinking stripped
	markStart              // a range's user message: its chain message follows
	markInsert             // markStart, and its chain message is inserted
	markGone               // dropped, or a summary suppressed (alone)
)

// emitChains drops what the accepted ranges drop and inserts their
// messages, in r.slots; dropped are the source slots it dropped, as they
// were. When the messages of some ranges would fall between a tool call
// and its result it changes nothing and returns their block ids
// (crossing, in output order). What it notes per slot is a byte of
// marks, its ranges in start order.
func (r *renderer) emitChains(accepted []chainRange, existing map[string]bool) (dropped []Item, crossing []string, err error) {
	n := len(r.slots)
	// 3. what each range drops, its protected outputs and its message.
	marks := make([]uint8, n)
	// the dropped ids and occurrence keys, sized for what the ranges drop
	// (the calls and results in them: counted first, no slot's bytes read)
	nBare, nOcc, nDrop := 0, 0, 0
	for _, a := range accepted {
		for i := a.start + 1; i < a.end; i++ {
			if marks[i]&markDrop != 0 {
				continue
			}
			marks[i] |= markDrop
			s := &r.slots[i]
			if !r.visible(s) {
				continue
			}
			switch r.role(s) {
			case session.RoleToolResult:
				nBare++
				nOcc++
				nDrop++
			case session.RoleAssistant:
				nBare += len(r.msg(s).ToolCalls())
				nDrop++
			}
		}
	}
	droppedOcc := r.droppedOccSet()
	droppedOcc.reserve(nOcc)
	// the bare ids only when a legacy ref asks (summaries a flush writes
	// ref their results by occurrence key)
	var bareSet *keySet
	droppedBare := func() *keySet {
		if bareSet == nil {
			bareSet = r.droppedBareSet(accepted, nBare)
		}
		return bareSet
	}
	// each range's sets, reused (a long session has thousands of ranges):
	// the protected ids in maps, cleared only when something was put in
	// them (clearing a map costs its capacity: one long range made every
	// later clear cost it); the call ids it holds and the ones its entry
	// records in lists compared as sets
	prot, now := map[string]bool{}, map[string]bool{} // now: calls in range protected under the current config
	var actual, recorded []string
	msgs := make([]*chainMsg, len(accepted)) // each range's message
	for k, a := range accepted {
		if len(prot) > 0 {
			clear(prot)
		}
		if len(now) > 0 {
			clear(now)
		}
		actual, recorded = actual[:0], recorded[:0]
		for _, id := range a.c.ProtectedToolCallIDs {
			prot[id] = true
		}
		var outputs []protectedOutput
		for i := a.start + 1; i < a.end; i++ {
			s := &r.slots[i]
			if !r.visible(s) {
				continue
			}
			switch r.role(s) {
			case session.RoleToolResult:
				id := r.msg(s).ToolCallID()
				actual = append(actual, id)
				droppedOcc.add(uint64(s.src))
				repair := !prot[id] && r.o.Protect != nil && (now[id] || r.memo().ToolProtected(r.msg(s).ToolName()))
				if repair {
					r.rep.ChainRepaired++
				}
				if prot[id] || repair {
					if err := r.viewOf(s, func(raw []byte) error {
						tool := "undefined"
						if v, ok := jsval.Get(raw, "toolName"); ok {
							tool = jsText(v) // (strings of their own)
						}
						outputs = append(outputs, protectedOutput{tool, toolResultText(raw)})
						return nil
					}); err != nil {
						return nil, nil, err
					}
				}
			case session.RoleAssistant:
				for _, tc := range r.msg(s).ToolCalls() {
					actual = append(actual, tc.ID())
					if r.o.Protect != nil && r.memo().Protected(tc.Name(), tc.Path(), tc.HasPath()) {
						now[tc.ID()] = true
					}
				}
			}
		}
		for _, id := range a.c.DroppedToolCallIDs {
			bare, _ := index.ParseOccurrenceKey(id)
			recorded = append(recorded, bare)
		}
		actual, recorded = distinct(actual), distinct(recorded)
		if !slices.Equal(recorded, actual) {
			r.diag("range-id-mismatch", fmt.Sprintf("blockId=%s recorded=%d actual=%d", a.c.BlockID, len(recorded), len(actual)))
		}
		if r.o.StripFinalThinking {
			marks[a.end] |= markStrip
		}
		marks[a.start] |= markStart
		msgs[k] = &chainMsg{st: r.st, c: a.c, outputs: outputs}
	}
	// the ranges in start order (their starts are distinct: claimed), to
	// find each start's message as the slots go by
	order := make([]int32, len(accepted))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(x, y int32) int { return accepted[x].start - accepted[y].start })
	// 4. what goes: inside a range only assistant, toolResult and summary
	// messages go (users, other customs and the synthetic message stay);
	// a summary covering a dropped occurrence goes wherever it is. Noted
	// in the marks, the slots not moved yet: a 1 GB session's slots are
	// ~9.6 MB, and a second array of them, on top of the dropped sets,
	// was the first flush's live peak (the render's chain phase)
	if !r.o.NoDropped {
		dropped = make([]Item, 0, nDrop)
	}
	next, nOut := 0, 0 // the next range in start order; the slots out
	for i := range r.slots {
		s := &r.slots[i]
		role := r.role(s)
		summary := false
		var details []byte
		if role == session.RoleCustom && r.visible(s) {
			raw, err := r.customOf(s)
			if err != nil {
				return nil, nil, err
			}
			f := getFields(raw, "customType", "details") // one pass over the message
			if isString(f.v[0], index.TypeSummary) {
				summary, details = true, f.v[1]
			}
		}
		droppable := r.visible(s) && (role == session.RoleAssistant || role == session.RoleToolResult || summary)
		if marks[i]&markDrop != 0 && droppable {
			r.rep.ChainDropped++
			if s.src >= 0 && !r.o.NoDropped {
				dropped = append(dropped, s.item())
			}
			marks[i] = markGone
			continue
		}
		if summary && summaryOverlaps(details, droppedOcc, droppedBare, &r.keyBuf) {
			if s.appended {
				r.rep.AppendedSuppressed++
			} else {
				r.rep.SummariesSuppressed++
			}
			if s.src >= 0 && !r.o.NoDropped {
				dropped = append(dropped, s.item())
			}
			marks[i] = markGone
			continue
		}
		if role != session.RoleAssistant {
			marks[i] &^= markStrip
		}
		nOut++
		if marks[i]&markStart != 0 {
			k := order[next]
			next++
			if !existing[accepted[k].c.BlockID] {
				marks[i] |= markInsert
				r.rep.Chains++
				nOut++
			}
		}
	}
	// 5. the chain messages must not land inside a pair: checked on the
	// output as a list of its slots (4 bytes each, -1-k for range k's
	// message) before any slot moves, so a retry starts from them
	at := make([]int32, 0, nOut)
	next = 0
	for i := range r.slots {
		if marks[i]&markGone != 0 {
			continue
		}
		at = append(at, int32(i))
		if marks[i]&markStart != 0 {
			k := order[next]
			next++
			if marks[i]&markInsert != 0 {
				at = append(at, -1-k)
			}
		}
	}
	chainMsgAt := slot{src: -1}
	cross := pairing.CrossingAt(len(at), func(i int) pairing.Msg {
		if at[i] < 0 {
			return r.pairingMsg(&chainMsgAt)
		}
		return r.pairingMsg(&r.slots[at[i]])
	}, func(i int) bool { return at[i] < 0 })
	for _, i := range cross {
		crossing = append(crossing, accepted[-1-at[i]].c.BlockID)
	}
	if len(crossing) > 0 {
		return nil, crossing, nil
	}
	at = nil
	// 6. the slots moved in place, the final assistants' thinking stripped
	// on the way; a chain message inserted before its range dropped
	// anything waits (ahead) for a slot read to free its place
	var ahead []slot
	w, read := 0, 0
	put := func(s slot) {
		if len(ahead) == 0 && w < read {
			r.slots[w] = s
			w++
			return
		}
		ahead = append(ahead, s)
	}
	next = 0
	for i := range r.slots {
		s := r.slots[i]
		read = i + 1
		if marks[i]&markGone == 0 {
			if marks[i]&markStrip != 0 {
				if err := r.viewOf(&s, func(raw []byte) error {
					if nb, changed := r.stripThinking(raw, s.kept()); changed {
						s.setJSON(nb) // (a copy)
						s.change = ThinkingStripped
					}
					return nil
				}); err != nil {
					return nil, nil, err
				}
			}
			put(s)
			if marks[i]&markStart != 0 {
				k := order[next]
				next++
				if marks[i]&markInsert != 0 {
					put(slot{src: -1, body: &itemBody{chain: msgs[k]}, change: ChainMessage})
				}
			}
		}
		for len(ahead) > 0 && w < read {
			r.slots[w] = ahead[0]
			ahead = ahead[1:]
			w++
		}
	}
	n0 := len(r.slots)
	r.slots = append(r.slots[:w], ahead...)
	if len(r.slots) < n0 {
		clear(r.slots[len(r.slots):n0]) // (the moved slots' bodies let go)
	}
	return dropped, nil, nil
}

// distinct sorts ids and drops repeats.
func distinct(ids []string) []string {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// droppedOccSet and droppedBareSet are the chain phase's sets of what
// its ranges drop: the occurrence keys of their results (a handle is the
// source message's index) and the bare call ids of their results and
// calls (handles: resultHandle, callHandle); their keys are read from the
// context when compared, none is built per dropped message.
func (r *renderer) droppedOccSet() *keySet {
	msgs := r.ctx.Messages
	return newKeySet(func(dst []byte, h uint64) []byte { return appendMessageKey(dst, msgs[h]) })
}

// droppedBareSet is the set of the bare ids of the results and calls in
// the ranges (n of them: what it reserves).
func (r *renderer) droppedBareSet(ranges []chainRange, n int) *keySet {
	msgs := r.ctx.Messages
	bare := newKeySet(func(dst []byte, h uint64) []byte {
		m := msgs[h>>32]
		if k := uint32(h); k != resultCall {
			return append(dst, m.ToolCalls()[k].ID()...)
		}
		return append(dst, m.ToolCallID()...)
	})
	bare.reserve(n)
	for _, a := range ranges {
		for i := a.start + 1; i < a.end; i++ {
			s := &r.slots[i]
			if !r.visible(s) {
				continue
			}
			switch r.role(s) {
			case session.RoleToolResult:
				bare.add(resultHandle(s.src))
			case session.RoleAssistant:
				for k := range r.msg(s).ToolCalls() {
					bare.add(callHandle(s.src, k))
				}
			}
		}
	}
	return bare
}

// resultCall marks a result's own id in a bare-id handle.
const resultCall = ^uint32(0)

// resultHandle is the bare-id handle of the toolCallId of result src.
func resultHandle(src int32) uint64 { return uint64(src)<<32 | uint64(resultCall) }

// callHandle is the bare-id handle of call k of assistant message src.
func callHandle(src int32, k int) uint64 { return uint64(src)<<32 | uint64(uint32(k)) }

// customOf returns bytes that hold a custom message's customType and
// details as its JSON does: for a source message pi builds from a
// custom_message entry, the entry's line (the message copies those values
// from it, the last of a repeated key as JSON.parse takes it), which is
// not built; else the message (bytesOf). Valid until the next read.
func (r *renderer) customOf(s *slot) ([]byte, error) {
	if m := r.msg(s); m != nil && s.kept() {
		line, err := r.ctx.Raw(m)
		if err != nil {
			return nil, err
		}
		if t, _ := jsval.GetString(line, "type"); t == "custom_message" {
			return line, nil
		}
	}
	return r.bytesOf(s)
}

// jsText is `${v}` for a raw JSON value in a template string: strings as
// they are, numbers in JavaScript spelling, other values as JSON.
func jsText(v []byte) string {
	switch jsval.TypeOf(v) {
	case jsval.Str:
		s, _ := jsval.String(v)
		return s
	case jsval.Num:
		f, _ := jsval.Number(v)
		return jsval.FormatNumber(f)
	case jsval.Null:
		return "null"
	case jsval.Bool:
		b, _ := jsval.Boolean(v)
		return fmt.Sprint(b)
	case jsval.Arr, jsval.Obj:
		return "[object Object]"
	}
	return "undefined"
}

// summaryOverlaps is pi-condense's perBatchSummaryOverlapsDropped: a ref
// with a resultTimestamp matches by occurrence key, a legacy ref by bare id.
// details is the summary's details value (nil: none). An occurrence key
// is looked up as it is built in *buf (reused).
func summaryOverlaps(details []byte, occ *keySet, bare func() *keySet, buf *[]byte) bool {
	refs, _ := jsval.Get(details, "toolCallRefs")
	els, _ := jsval.Elements(refs)
	for _, el := range els {
		f := getFields(el, "toolCallId", "resultTimestamp")
		idv := f.v[0]
		if tv, ok := f.v[1], f.has[1]; ok {
			k := appendJSText((*buf)[:0], idv)
			k = appendJSText(append(k, '@'), tv)
			*buf = k
			if occ.has(k) {
				return true
			}
			continue
		}
		if b, _ := index.ParseOccurrenceKey(jsText(idv)); bare().hasString(b) {
			return true
		}
	}
	return false
}

// appendJSText appends jsText(v) to dst: a string of plain text or an
// integer JSON.stringify writes back as it is, as written; any other value
// through jsText.
func appendJSText(dst, v []byte) []byte {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		if body := v[1 : n-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
			return append(dst, body...)
		}
	} else if plainInteger(bufString(v)) {
		return append(dst, v...)
	}
	return append(dst, jsText(v)...)
}

// isString reports whether the raw JSON value v is a string whose value is
// s (jsval.String(v) == s), without decoding it when it has no escape.
func isString(v []byte, s string) bool {
	if bytes.IndexByte(v, '\\') < 0 {
		return len(v) == len(s)+2 && v[0] == '"' && v[len(v)-1] == '"' && string(v[1:len(v)-1]) == s && utf8.ValidString(s)
	}
	t, ok := jsval.String(v)
	return ok && t == s
}

// bufString is b as a string, without a copy (read only while b is).
func bufString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// stripThinking is withoutThinking of the final assistant message raw
// (kept: raw is the source as it is): changed is false when the message
// stays as it is — content is no array, or the source is already what
// withoutThinking writes. A message without thinking blocks (almost every
// one) is withoutThinking's canonical copy of itself: it is written into
// a reused buffer and compared, and copied only when it differs.
func (r *renderer) stripThinking(raw []byte, kept bool) (nb []byte, changed bool) {
	content, _ := jsval.Get(raw, "content")
	if jsval.TypeOf(content) != jsval.Arr {
		return nil, false
	}
	if bytes.Contains(content, []byte("thinking")) || bytes.Contains(content, []byte(`\u`)) {
		// a thinking block, or a type spelt with escapes: filter
		nb, ok := withoutThinking(raw)
		if !ok || kept && bytes.Equal(nb, raw) {
			return nil, false
		}
		return nb, true
	}
	// no element's type can be "thinking": spreading the filtered content
	// is the canonical form of the message
	c := jsval.AppendCanonical(r.scratch[:0], raw)
	if cap(c) <= 1<<20 {
		r.scratch = c // a rare huge message is not kept
	}
	if kept && bytes.Equal(c, raw) {
		return nil, false
	}
	return bytes.Clone(c), true
}

// withoutThinking is `{...msg, content: msg.content.filter(c => c.type !==
// "thinking")}`; ok is false when content is not an array.
func withoutThinking(raw []byte) ([]byte, bool) {
	content, _ := jsval.Get(raw, "content")
	els, ok := jsval.Elements(content)
	if !ok {
		return nil, false
	}
	nc := append(make([]byte, 0, len(content)), '[') // about its size: grown once
	first := true
	for _, el := range els {
		if t, _ := jsval.GetString(el, "type"); t == "thinking" {
			continue
		}
		if !first {
			nc = append(nc, ',')
		}
		first = false
		nc = jsval.AppendCanonical(nc, el)
	}
	nc = append(nc, ']')
	return spread(raw, kv{"content", nc}), true
}

func (r *renderer) diag(kind, detail string) {
	r.rep.Diagnostics = append(r.rep.Diagnostics, Diagnostic{Kind: kind, Detail: detail})
}
