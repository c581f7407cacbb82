package index

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/session"
)

// chainCallsRef is chainCalls as it was before its second pass reused
// what the first found of each result (the key summarized or not, the
// entry): the reference.
func (f *Flushed) chainCallsRef(ctx *session.Context, entries map[uint64]int32, c *ChainRange, s *State, parseEvery bool) ([]*chainCall, error) {
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
	for i := c.Start + 1; i < c.Final; i++ {
		m := ctx.Messages[i]
		if m.Role() != session.RoleToolResult || prot[m.ToolCallID()] {
			continue
		}
		// (most are indexed: that is looked up first)
		if ts, ok := wholeTimestamp(m.Timestamp()); ok && !s.isSummarizedBytes(appendOccurrenceKey(kb[:0], m.ToolCallID(), ts)) && entries[m.EntryKey()] != 0 {
			need[m.ToolCallID()] = true
		}
	}
	if len(need) == 0 {
		return nil, nil
	}
	open := map[string]call{}
	var out []*chainCall
	lt := &f.lt
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
			at := entries[m.EntryKey()]
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
			if s.isSummarizedBytes(appendOccurrenceKey(kb[:0], m.ToolCallID(), ts)) {
				continue
			}
			key := OccurrenceKey(m.ToolCallID(), &ts)
			at := entries[m.EntryKey()]
			if at == 0 {
				continue
			}
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

// FuzzChainCalls: chainCalls finds the calls chainCallsRef finds, for
// every closed chain of FuzzLazyChainTexts' sessions, on the state and
// trivial calls a flush's batches leave (arguments parsed or not).
func FuzzChainCalls(f *testing.F) {
	f.Add([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3})
	f.Add([]byte{0, 1, 1, 1, 44, 2, 2, 3, 0, 1, 254, 3, 0, 1, 2, 1, 254, 1, 2, 3, 0, 1, 254, 3, 0, 3})
	f.Add([]byte{0, 1, 6, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})
	f.Add([]byte{0, 5, 1, 2, 2, 0, 1, 5, 2, 2, 3, 0, 3, 0, 1, 6, 6, 3})
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) > 200 {
			script = script[:200]
		}
		ctx := scriptSession(script).ctx(t)
		st, err := Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pred := mustPredicate(t, []string{"todo"}, nil)
		o := FlushOptions{Capture: CaptureOptions{Protect: pred, RawFrom: -1}, MinBatchChars: 1000, Dedup: true, Now: 1}
		fl, err := Flush(t.Context(), ctx, st, o)
		if err != nil {
			t.Fatal(err)
		}
		chains, err := detectChains(ctx, pred, fl.State)
		if err != nil {
			t.Fatal(err)
		}
		entries := make(map[uint64]int32, len(ctx.Branch))
		for i := range ctx.Branch {
			if k := ctx.EntryKey(&ctx.Branch[i]); k != 0 {
				entries[k] = int32(i + 1)
			}
		}
		for k := range chains {
			c := &chains[k]
			if !c.Closed() {
				continue
			}
			for _, every := range []bool{false, true} {
				got, err := fl.chainCalls(ctx, newEntryIndex(ctx), c, fl.State, every)
				if err != nil {
					t.Fatal(err)
				}
				want, err := fl.chainCallsRef(ctx, entries, c, fl.State, every)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("chain at %d (parse every %v): %d calls, the reference %d", c.StartUserTimestamp, every, len(got), len(want))
				}
			}
		}
	})
}

// TestChainCallsSeeds: FuzzChainCalls' first seed has chains with calls
// to backfill (else it would compare empty lists).
func TestChainCallsSeeds(t *testing.T) {
	ctx := scriptSession([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}).ctx(t)
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pred := mustPredicate(t, []string{"todo"}, nil)
	fl, err := Flush(t.Context(), ctx, st, FlushOptions{Capture: CaptureOptions{Protect: pred, RawFrom: -1}, MinBatchChars: 1000, Dedup: true, Now: 1})
	if err != nil {
		t.Fatal(err)
	}
	chains, err := detectChains(ctx, pred, fl.State)
	if err != nil {
		t.Fatal(err)
	}
	entries := newEntryIndex(ctx)
	n := 0
	for k := range chains {
		if chains[k].Closed() {
			calls, err := fl.chainCalls(ctx, entries, &chains[k], fl.State, false)
			if err != nil {
				t.Fatal(err)
			}
			n += len(calls)
		}
	}
	if n == 0 {
		t.Fatal("no chain call to backfill")
	}
}
