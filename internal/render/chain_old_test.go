package render

// The chain phase as it was before its per-message state was held in
// arrays indexed by slot (perf38): the oracle TestChainRangePruneAgreesWithOld
// compares the phase against.

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// chainRangePrune is phase 4: pi-condense's applyChainCompressions, with
// one repair pi-condense does not make: a call inside the range that is
// protected under the current config (protectedTools, protectedPaths) but
// was not when the chain was compressed gets its output back, verbatim, in
// a <protected-output> block, like the calls the entry's
// protectedToolCallIds name. Not repaired: the chain's body (its summary
// may still describe that output), and a call protected at compression and
// not any more keeps its block (content the chain chose to keep is never
// dropped).
func (r *renderer) chainRangePruneOld(chains []*index.ChainData) error {
	// 1. resolve each entry to a range: exactly one user message at its
	// start timestamp and one assistant at its final timestamp, in order
	// (the slots of each timestamp found once: a long session has
	// thousands of chains); each message's facts are read once, in the
	// same pass (none is held per message)
	existing := map[string]bool{}
	type found struct{ first, n int } // the first slot with a timestamp, and how many
	userAt, asstAt := map[float64]found{}, map[float64]found{}
	note := func(m map[float64]found, ts float64, i int) {
		f, ok := m[ts]
		if !ok {
			f.first = i
		}
		f.n++
		m[ts] = f
	}
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
				existing[f.chainID] = true
			}
			if !f.hasTS {
				continue
			}
			if role == session.RoleUser {
				note(userAt, f.ts, i)
			} else {
				note(asstAt, f.ts, i)
			}
		}
	}
	var resolved []chainRange
	for _, c := range chains {
		start, end, sn, en := -1, -1, 0, 0
		if c.FinalAssistantTimestamp != nil {
			if f, ok := userAt[float64(c.StartUserTimestamp)]; ok {
				start, sn = f.first, f.n
			}
			if f, ok := asstAt[float64(*c.FinalAssistantTimestamp)]; ok {
				end, en = f.first, f.n
			}
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
	// 2. drop ranges nested in another and duplicates of a claimed start.
	var accepted []chainRange
	claimed := map[int]bool{}
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
		if claimed[cand.start] {
			r.diag("unresolved-range", fmt.Sprintf("blockId=%s skipped: range duplicates startIndex=%d already claimed", cand.c.BlockID, cand.start))
			continue
		}
		claimed[cand.start] = true
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
		out, at, err := r.emitChainsOld(accepted, existing)
		if err != nil {
			return err
		}
		cross := pairing.CrossingAt(len(out), func(i int) pairing.Msg { return r.pairingMsg(&out[i]) }, func(i int) bool { _, ok := at[i]; return ok })
		if len(cross) == 0 {
			r.slots = out
			return nil
		}
		bad := map[string]bool{}
		for _, i := range cross {
			bad[at[i]] = true
			r.diag("pairing-hazard", fmt.Sprintf("blockId=%s skipped: its message would fall between a tool call and its result", at[i]))
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

// emitChains drops what the accepted ranges drop and inserts their
// messages; at maps an inserted message's output index to its block id.
func (r *renderer) emitChainsOld(accepted []chainRange, existing map[string]bool) (out []slot, at map[int]string, err error) {
	n := len(r.slots)
	// 3. what each range drops, its protected outputs and its message.
	drop := make([]bool, n)
	strip := map[int]bool{}
	insert := map[int]struct {
		msg *chainMsg
		id  string
	}{}
	// the dropped ids and occurrence keys grow as found (a hint of every
	// message inside the ranges would reserve for users and custom
	// messages too)
	droppedBare, droppedOcc := r.droppedSetsOld()
	// each range's sets, reused (a long session has thousands of ranges)
	prot, actual, now, recorded := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, a := range accepted {
		clear(prot)
		clear(actual)
		clear(now) // calls in range protected under the current config
		clear(recorded)
		for _, id := range a.c.ProtectedToolCallIDs {
			prot[id] = true
		}
		var outputs []protectedOutput
		for i := a.start + 1; i < a.end; i++ {
			s := &r.slots[i]
			drop[i] = true
			if !r.visible(s) {
				continue
			}
			switch r.role(s) {
			case session.RoleToolResult:
				id := r.msg(s).ToolCallID()
				actual[id] = true
				droppedBare.add(resultHandle(s.src))
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
				for k, tc := range r.msg(s).ToolCalls() {
					actual[tc.ID()] = true
					droppedBare.add(callHandle(s.src, k))
					if r.o.Protect != nil && r.memo().Protected(tc.Name(), tc.Path(), tc.HasPath()) {
						now[tc.ID()] = true
					}
				}
			}
		}
		for _, id := range a.c.DroppedToolCallIDs {
			bare, _ := index.ParseOccurrenceKey(id)
			recorded[bare] = true
		}
		mismatch := len(recorded) != len(actual)
		for id := range recorded {
			if !actual[id] {
				mismatch = true
			}
		}
		if mismatch {
			r.diag("range-id-mismatch", fmt.Sprintf("blockId=%s recorded=%d actual=%d", a.c.BlockID, len(recorded), len(actual)))
		}
		if r.o.StripFinalThinking {
			strip[a.end] = true
		}
		insert[a.start] = struct {
			msg *chainMsg
			id  string
		}{&chainMsg{st: r.st, c: a.c, outputs: outputs}, a.c.BlockID}
	}
	// 4. emit: inside a range only assistant, toolResult and summary
	// messages go (users, other customs and the synthetic message stay);
	// a summary covering a dropped occurrence goes wherever it is.
	out = make([]slot, 0, n)
	at = map[int]string{}
	for i := range r.slots {
		s := r.slots[i]
		role := r.role(&s)
		summary := false
		var details []byte
		if role == session.RoleCustom && r.visible(&s) {
			raw, err := r.customOf(&s)
			if err != nil {
				return nil, nil, err
			}
			f := getFields(raw, "customType", "details") // one pass over the message
			if isString(f.v[0], index.TypeSummary) {
				summary, details = true, f.v[1]
			}
		}
		droppable := r.visible(&s) && (role == session.RoleAssistant || role == session.RoleToolResult || summary)
		if drop[i] && droppable {
			r.rep.ChainDropped++
			continue
		}
		if summary && summaryOverlaps(details, droppedOcc, func() *keySet { return droppedBare }, &r.keyBuf) {
			if s.appended {
				r.rep.AppendedSuppressed++
			} else {
				r.rep.SummariesSuppressed++
			}
			continue
		}
		if role == session.RoleAssistant && strip[i] {
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
		out = append(out, s)
		if ins, ok := insert[i]; ok && !existing[ins.id] {
			at[len(out)] = ins.id
			out = append(out, slot{src: -1, body: &itemBody{chain: ins.msg}, change: ChainMessage})
			r.rep.Chains++
		}
	}
	return out, at, nil
}

// noteDropped records the source slots of before that the chain phase
// dropped.
func (r *renderer) noteDroppedOld(before []slot) {
	kept := make([]bool, len(r.ctx.Messages))
	n := 0
	for _, s := range r.slots {
		if s.src >= 0 {
			kept[s.src] = true
			n++
		}
	}
	for _, s := range before {
		if s.src >= 0 {
			n--
		}
	}
	r.dropped = slices.Grow(r.dropped, -n)
	for i := range before {
		if s := &before[i]; s.src >= 0 && !kept[s.src] {
			r.dropped = append(r.dropped, s.item())
		}
	}
}

// TestChainRangePruneAgreesWithOld: the chain phase with its per-slot
// state in arrays (ends found in timestamp-sorted lists, marks a byte a
// slot, the dropped sets reserved, the dropped noted as it emits) renders
// what the phase it replaced did — every slot's bytes, the dropped
// items, the report — on every test session as it is and flushed with
// chain compression (its summaries appended), stripping thinking or not,
// with and without protection.
func TestChainRangePruneAgreesWithOld(t *testing.T) {
	pred, err := protect.NewPredicate([]string{"bash"}, []string{"**/*.md"})
	if err != nil {
		t.Fatal(err)
	}
	chains, dropped, mismatched, claimed := 0, 0, 0, 0
	for _, ctx := range phaseSessions(t) {
		st, err := index.Rebuild(ctx)
		if err != nil {
			continue
		}
		states := []*index.State{st}
		var appended []func([]byte) ([]byte, error)
		if ctx.Kind == session.KindSession {
			fo := index.FlushOptions{Capture: index.CaptureOptions{RawFrom: -1}, Dedup: true, Chains: index.ChainOptions{Enabled: true}, Now: 1}
			if f, err := index.Flush(t.Context(), ctx, st, fo); err == nil {
				states = append(states, f.State)
				for _, sm := range f.Summaries {
					appended = append(appended, func(dst []byte) ([]byte, error) { return sm.AppendMessage(dst, 7) })
				}
			}
		}
		for k, st := range states {
			for _, o := range []Options{
				{Chains: true, Supersede: true},
				{Chains: true, StripFinalThinking: true, Protect: pred},
			} {
				if k == 1 {
					o.Appended = appended
				}
				cs := st.Chains()
				if len(cs) == 0 {
					continue
				}
				// and chains whose recorded ids are not what their ranges
				// hold (range-id-mismatch): one missing, one unknown, each
				// twice and as occurrence keys
				var mis []*index.ChainData
				for j, c := range cs {
					c2 := *c
					ids := c.DroppedToolCallIDs
					switch j % 4 {
					case 1:
						if len(ids) > 0 {
							ids = ids[:len(ids)-1]
						}
					case 2:
						ids = append(slices.Clip(ids), "zz-unknown")
					case 3:
						ids = append(slices.Clip(ids), ids...)
						for _, id := range c.DroppedToolCallIDs {
							ids = append(ids, id+"@1")
						}
					}
					c2.DroppedToolCallIDs = ids
					mis = append(mis, &c2)
				}
				// and every chain twice (a second entry for a claimed start)
				twice := append(slices.Clip(cs), cs...)
				for _, cs := range [][]*index.ChainData{cs, mis, twice} {
					a, b := newTestRenderer(ctx, st, o), newTestRenderer(ctx, st, o)
					for _, r := range []*renderer{a, b} {
						if err := r.stubReplace(); err != nil {
							t.Fatal(err)
						}
						if err := r.supersede(); err != nil {
							t.Fatal(err)
						}
					}
					if err := a.chainRangePrune(cs); err != nil {
						t.Fatal(err)
					}
					before := b.slots
					if err := b.chainRangePruneOld(cs); err != nil {
						t.Fatal(err)
					}
					b.noteDroppedOld(before)
					if d := renderedEqual(t, a, b); d != "" {
						t.Fatalf("%d messages, %d chains, state %d, strip %v: %s", len(ctx.Messages), len(cs), k, o.StripFinalThinking, d)
					}
					chains += a.rep.Chains
					dropped += len(a.dropped)
					for _, d := range a.rep.Diagnostics {
						if d.Kind == "range-id-mismatch" {
							mismatched++
						}
						if strings.Contains(d.Detail, "already claimed") {
							claimed++
						}
					}
				}
			}
		}
	}
	if chains < 20 || dropped < 200 || mismatched < 20 || claimed < 20 {
		t.Fatalf("%d chains rendered, %d messages dropped, %d mismatched, %d claimed twice: the sessions do not cover the phase", chains, dropped, mismatched, claimed)
	}
	t.Logf("%d chains, %d dropped, %d mismatched", chains, dropped, mismatched)
}

// renderedEqual reports where two renderers' slots (their bytes, source,
// change), dropped items and reports differ ("" for nowhere).
func renderedEqual(t *testing.T, r, o *renderer) string {
	t.Helper()
	if len(r.slots) != len(o.slots) {
		return fmt.Sprintf("%d slots, want %d", len(r.slots), len(o.slots))
	}
	for i := range r.slots {
		a, b := &r.slots[i], &o.slots[i]
		ab, err := r.bytesOf(a)
		if err != nil {
			t.Fatal(err)
		}
		ab = bytes.Clone(ab)
		bb, err := o.bytesOf(b)
		if err != nil {
			t.Fatal(err)
		}
		if a.src != b.src || a.change != b.change || a.appended != b.appended || !bytes.Equal(ab, bb) {
			return fmt.Sprintf("slot %d: %d %v %.200s, want %d %v %.200s", i, a.src, a.change, ab, b.src, b.change, bb)
		}
	}
	if len(r.dropped) != len(o.dropped) {
		return fmt.Sprintf("%d dropped, want %d", len(r.dropped), len(o.dropped))
	}
	for i := range r.dropped {
		a, b := r.dropped[i], o.dropped[i]
		ab, err := a.AppendJSON(nil, r.ctx)
		if err != nil {
			t.Fatal(err)
		}
		bb, err := b.AppendJSON(nil, o.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if a.Src != b.Src || a.Change != b.Change || (a.body == nil) != (b.body == nil) || !bytes.Equal(ab, bb) {
			return fmt.Sprintf("dropped %d: %d %v %.200s, want %d %v %.200s", i, a.Src, a.Change, ab, b.Src, b.Change, bb)
		}
	}
	if !reflect.DeepEqual(r.rep, o.rep) {
		return fmt.Sprintf("report %+v, want %+v", *r.rep, *o.rep)
	}
	return ""
}

// droppedSetsOld is the chain phase's sets of dropped ids as the phase
// made both, at once.
func (r *renderer) droppedSetsOld() (bare, occ *keySet) {
	msgs := r.ctx.Messages
	bare = newKeySet(func(dst []byte, h uint64) []byte {
		m := msgs[h>>32]
		if k := uint32(h); k != resultCall {
			return append(dst, m.ToolCalls()[k].ID()...)
		}
		return append(dst, m.ToolCallID()...)
	})
	occ = newKeySet(func(dst []byte, h uint64) []byte { return appendMessageKey(dst, msgs[h]) })
	return bare, occ
}
