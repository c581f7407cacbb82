package index

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzChains builds a session from a script (each byte one message: a user
// message, a tool call, its result of some size, a protected call, a final
// reply, another extension's message) and flushes it with chain
// compression on a fuzzed window. Whatever the shape: every chain entry
// names a closed chain of the context, no two share a start, every
// occurrence a chain drops is indexed (a record or a dedup alias) or its
// call is protected, the entries rebuild to the same state, and a flush of
// the session with them appended compresses nothing more.
func FuzzChains(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 0, 4, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3}, uint8(1))
	f.Add([]byte{0, 1, 1, 2, 2, 3, 0, 5, 2, 1, 2, 3, 0, 1, 0, 1, 2, 3}, uint8(0))
	f.Add([]byte{0, 1, 6, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, uint8(2))
	f.Fuzz(func(t *testing.T, script []byte, window uint8) {
		if len(script) > 200 {
			script = script[:200]
		}
		b := newChainSession()
		var open []string
		calls := 0
		for i, op := range script {
			switch op % 7 {
			case 0:
				b.user(fmt.Sprintf("u%d", i))
			case 1, 5:
				calls++
				id, name := fmt.Sprintf("c%d", calls), "bash"
				if op%7 == 5 {
					name = "todo"
				}
				b.calls(tc(id, name, `{"command":"x"}`))
				open = append(open, id)
			case 2:
				if len(open) > 0 {
					id := open[0]
					open = open[1:]
					name := "bash"
					b.result(id, name, strings.Repeat("r", int(op)*40))
				}
			case 3:
				b.reply(fmt.Sprintf("done %d", i))
			case 4:
				b.n++
				b.lines = append(b.lines, fmt.Sprintf(`{"type":"custom_message","customType":"other","content":"note","display":true,"id":"e%03d","parentId":"e%03d","timestamp":"2026-12-01T00:00:00.000Z"}`, b.n, b.n-1))
			case 6:
				// a result for no call (orphan) or a repeated one
				b.result(fmt.Sprintf("c%d", calls), "bash", "again")
			}
		}
		pred := mustPredicate(t, []string{"todo"}, nil)
		ctx := b.ctx(t)
		st, err := Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o := FlushOptions{Capture: CaptureOptions{Protect: pred, RawFrom: -1}, MinBatchChars: 1000, Dedup: true,
			Chains: ChainOptions{Enabled: true, RollingWindow: int(window % 4)}, Now: 1}
		fl, err := Flush(t.Context(), ctx, st, o)
		if err != nil {
			t.Fatal(err)
		}
		chains, err := DetectChains(ctx, pred)
		if err != nil {
			t.Fatal(err)
		}
		closed := map[int64]ChainRange{}
		for _, c := range chains {
			if c.Closed() {
				closed[c.StartUserTimestamp] = c
			}
		}
		starts := map[int64]bool{}
		for _, c := range fl.State.Chains() {
			r, ok := closed[c.StartUserTimestamp]
			if !ok || c.FinalAssistantTimestamp == nil || *c.FinalAssistantTimestamp != *r.FinalAssistantTimestamp {
				t.Fatalf("chain %s names no closed chain of the context", c.BlockID)
			}
			if starts[c.StartUserTimestamp] {
				t.Fatalf("two chains start at %d", c.StartUserTimestamp)
			}
			starts[c.StartUserTimestamp] = true
			prot := map[string]bool{}
			for _, id := range c.ProtectedToolCallIDs {
				prot[id] = true
			}
			for _, k := range c.DroppedOccurrenceKeys {
				if id, _ := ParseOccurrenceKey(k); !fl.State.IsSummarized(k) && !prot[id] {
					t.Fatalf("chain %s drops %s, which no record covers", c.BlockID, k)
				}
			}
		}
		// the entries as written: the same state when rebuilt
		var lines []string
		var ents []Entry
		parent := fmt.Sprintf("e%03d", b.n)
		for i, e := range fl.Entries {
			id := fmt.Sprintf("f%03d", i)
			l, err := e.AppendLine(nil, ctx, id, parent, "2026-12-01T00:00:00.000Z")
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(l))
			ents = append(ents, Entry{Type: e.Type, CustomType: e.CustomType, ID: id, Line: len(b.lines) + 1 + i, Raw: l})
			parent = id
		}
		prior, err := BranchEntries(ctx)
		if err != nil {
			t.Fatal(err)
		}
		re := RebuildEntries(append(prior, ents...))
		if re.Len() != fl.State.Len() || len(re.Chains()) != len(fl.State.Chains()) || re.NextBlock != fl.State.NextBlock || len(re.Warnings) > 0 {
			t.Fatalf("rebuilt %d records, %d chains (b%d), %v; the flush holds %d, %d (b%d)", re.Len(), len(re.Chains()), re.NextBlock, re.Warnings, fl.State.Len(), len(fl.State.Chains()), fl.State.NextBlock)
		}
		// a second flush of the written session compresses nothing more
		written := readCtx(t, []byte(strings.Join(append(append([]string(nil), b.lines...), lines...), "\n")+"\n"))
		st2, err := Rebuild(written)
		if err != nil {
			t.Fatal(err)
		}
		f2, err := Flush(t.Context(), written, st2, o)
		if err != nil {
			t.Fatal(err)
		}
		if f2.Chains != 0 || f2.Backfilled != 0 {
			t.Fatalf("a second flush compressed %d more chains (%d calls backfilled)", f2.Chains, f2.Backfilled)
		}
	})
}
