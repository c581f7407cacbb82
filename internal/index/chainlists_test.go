package index

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// detectChainsRef is detectChains as it was before its lists were built in
// reused buffers and copied out at their size: each grown by append on
// the chain.
func detectChainsRef(ctx *session.Context, pred *protect.Predicate, st *State) ([]ChainRange, error) {
	var out []ChainRange
	var cur *ChainRange
	ids, keys, prot := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var kb []byte
	prot0 := protect.NewMemo(pred)
	open := func(i int, ts int64, ok bool) {
		cur = &ChainRange{Start: i, Final: -1, StartUserTimestamp: ts, Timed: ok}
		clear(ids)
		clear(keys)
		clear(prot)
	}
	addID := func(id string) {
		if !ids[id] {
			ids[id] = true
			cur.MiddleToolCallIDs = append(cur.MiddleToolCallIDs, id)
		}
	}
	addProt := func(id string) {
		if !prot[id] {
			prot[id] = true
			cur.ProtectedToolCallIDs = append(cur.ProtectedToolCallIDs, id)
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
				out = append(out, *cur)
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
			out = append(out, *cur)
			cur = nil
		case session.RoleToolResult:
			if m.ToolCallID() == "" {
				continue
			}
			addID(m.ToolCallID())
			if kb = appendMessageKey(kb[:0], m.ToolCallID(), m.Timestamp()); !keys[string(kb)] {
				k := st.knownKey(kb)
				keys[k] = true
				cur.MiddleOccurrenceKeys = append(cur.MiddleOccurrenceKeys, k)
			}
			if prot0.ToolProtected(m.ToolName()) {
				addProt(m.ToolCallID())
			}
		}
	}
	return out, nil
}

// toolRefsRef is ToolRefs as it was: ShortRef of each key, appended.
func toolRefsRef(s *State, keys []string) []string {
	var out []string
	for _, k := range keys {
		if r, ok := s.ShortRef(k); ok {
			out = append(out, r)
		}
	}
	return out
}

// FuzzChainLists: detectChains' lists copied out at their size are the
// lists grown on each chain (nil where those were nil), on the state a
// flush leaves too; ToolRefs, its refs in one buffer, is ShortRef of each
// key.
func FuzzChainLists(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 0, 4, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3}, uint8(1))
	f.Add([]byte{0, 1, 1, 2, 2, 3, 0, 5, 2, 1, 2, 3, 0, 1, 0, 1, 2, 3}, uint8(0))
	f.Add([]byte{0, 1, 6, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, uint8(2))
	f.Add([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 3}, uint8(0))
	f.Add([]byte{0, 5, 1, 2, 2, 0, 1, 5, 2, 2, 3, 0, 3, 0, 1, 6, 6, 3}, uint8(0))
	f.Fuzz(func(t *testing.T, script []byte, window uint8) {
		if len(script) > 200 {
			script = script[:200]
		}
		ctx := scriptSession(script).ctx(t)
		pred := mustPredicate(t, []string{"todo"}, nil)
		_, fl := flushWritten(t, ctx, int(window%4), true)
		for _, st := range []*State{nil, fl.State} {
			got, err := detectChains(ctx, pred, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := detectChainsRef(ctx, pred, st)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("chains %+v, want %+v", got, want)
			}
			if st == nil {
				continue
			}
			all := []string{"t1", "nope"}
			for _, c := range got {
				all = append(all, c.LookupKeys()...)
				if g, w := st.ToolRefs(c.LookupKeys()), toolRefsRef(st, c.LookupKeys()); !reflect.DeepEqual(g, w) {
					t.Fatalf("ToolRefs %q, want %q", g, w)
				}
			}
			for k := range st.Aliases() {
				all = append(all, k)
			}
			if g, w := st.ToolRefs(all), toolRefsRef(st, all); !reflect.DeepEqual(g, w) {
				t.Fatalf("ToolRefs %q, want %q", g, w)
			}
			// the refs as numbers are ToolRefs, or not canonical
			for _, keys := range [][]string{all, nil} {
				nums, ok := st.toolRefNums(keys)
				w := st.ToolRefs(keys)
				c := ChainData{refNums: nums}
				switch {
				case !ok && len(w) == 0:
					t.Fatalf("no refs, not as numbers")
				case ok && nums == nil && w != nil, ok && nums != nil && !reflect.DeepEqual(c.Refs(), w):
					t.Fatalf("refs %v as numbers, want %q", nums, w)
				}
			}
		}
		// a flushed chain's refs are its keys' (what ToolRefs made of
		// them when it was compressed)
		for _, c := range fl.State.Chains() {
			keys := c.DroppedOccurrenceKeys
			if keys == nil {
				keys = c.DroppedToolCallIDs
			}
			if g, w := c.Refs(), fl.State.ToolRefs(keys); len(g) > 0 || len(w) > 0 {
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("chain %s refs %q, want %q", c.BlockID, g, w)
				}
			}
		}
	})
}

// TestIDTableShrink: a table grown for ids that did not come, shrunk,
// still finds every id it holds, at the size grow gives those alone.
func TestIDTableShrink(t *testing.T) {
	keys := make([]string, 0, 3000)
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("toolu_%d@%d", i*7, i))
	}
	for _, n := range []int{0, 1, 31, 32, 33, 1000, 3000} {
		var tb, ref idTable
		hash := func(id int32) uint64 { return tb.hash(keys[id]) }
		tb.grow(n+50000, hash)
		for id := range int32(n) {
			tb.insert(hash(id), id, hash)
			ref.insert(hash(id), id, hash)
		}
		tb.shrink(hash)
		if len(tb.slots) != max(len(ref.slots), 64) || tb.n != n {
			t.Fatalf("n %d: %d slots (%d held), want %d", n, len(tb.slots), tb.n, len(ref.slots))
		}
		for id := range int32(n) {
			if got, ok := tb.find(hash(id), func(v int32) bool { return keys[v] == keys[id] }); !ok || got != id {
				t.Fatalf("n %d: id %d found as %d, %v", n, id, got, ok)
			}
		}
		if _, ok := tb.find(tb.hash("nope"), func(v int32) bool { return keys[v] == "nope" }); ok {
			t.Fatalf("n %d: found a key it does not hold", n)
		}
	}
}

// TestTrimKeepsKeys: after a flush (which trims its state) every key and
// bare id is found where it was.
func TestTrimKeepsKeys(t *testing.T) {
	ctx := scriptSession([]byte{0, 1, 37, 1, 2, 1, 9, 3, 0, 1, 1, 2, 30, 3, 0, 1, 2, 3, 0, 1, 254, 1, 2, 3, 0, 3}).ctx(t)
	_, fl := flushWritten(t, ctx, 0, true)
	s := fl.State
	if len(s.keys) == 0 {
		t.Fatal("no keys")
	}
	for id := range s.keys {
		if got, ok := s.keyID(s.keys[id].key); !ok || got != int32(id) {
			t.Fatalf("key %q: id %d, %v, want %d", s.keys[id].key, got, ok, id)
		}
	}
	for i := range s.bare.first {
		b := s.bareID(int32(i))
		if k := s.bareFirst(b); k != s.bare.first[i] {
			t.Fatalf("bare id %q: first %d, want %d", b, k, s.bare.first[i])
		}
	}
}
