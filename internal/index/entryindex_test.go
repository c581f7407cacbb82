package index

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// entryMapOld is the map chain compression built before entryIndex: entry
// key → index in the Branch plus one, the last entry with the key winning.
func entryMapOld(ctx *session.Context) map[uint64]int32 {
	entries := make(map[uint64]int32, len(ctx.Branch))
	for i := range ctx.Branch {
		if k := ctx.EntryKey(&ctx.Branch[i]); k != 0 {
			entries[k] = int32(i + 1)
		}
	}
	return entries
}

// messageMapOld is the map Capture built before newMessageIndex: entry key
// → index in the context's Messages (present: the key is in the map), the
// last message with the key winning.
func messageMapOld(ctx *session.Context) map[uint64]int {
	inCtx := make(map[uint64]int, len(ctx.Messages))
	for i, m := range ctx.Messages {
		if k := m.EntryKey(); k != 0 {
			inCtx[k] = i
		}
	}
	return inCtx
}

// checkEntryIndex: newEntryIndex answers as entryMapOld, newMessageIndex
// as messageMapOld, for every key of the Branch and of the context's
// messages, and for keys no entry has.
func checkEntryIndex(t *testing.T, ctx *session.Context) {
	t.Helper()
	x, want := newEntryIndex(ctx), entryMapOld(ctx)
	mx, mwant := newMessageIndex(ctx), messageMapOld(ctx)
	keys := []uint64{0, 1, 1 << 32, ^uint64(0)}
	for i := range ctx.Branch {
		keys = append(keys, ctx.EntryKey(&ctx.Branch[i]))
	}
	for _, m := range ctx.Messages {
		keys = append(keys, m.EntryKey(), m.EntryKey()+1, m.EntryKey()^1<<33)
	}
	for _, k := range keys {
		if got := x.get(k); got != want[k] {
			t.Fatalf("key %#x: %d, the map %d", k, got, want[k])
		}
		i, in := mwant[k]
		if got := mx.get(k); got != int32(i+1) && in || got != 0 && !in {
			t.Fatalf("message key %#x: %d, the map %d (%v)", k, got, i, in)
		}
	}
}

func readBranch(t *testing.T, data []byte) *session.Context {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestEntryIndexSessions: the tables are the old maps on every session
// under testdata.
func TestEntryIndexSessions(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 100 {
		t.Fatalf("only %d sessions (%v)", len(files), err)
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
		if err != nil || len(ctx.Branch) == 0 {
			continue // (not a session: some files are other inputs)
		}
		checked++
		t.Run(f, func(t *testing.T) { checkEntryIndex(t, ctx) })
	}
	if checked < 50 {
		t.Fatalf("only %d sessions with a branch", checked)
	}
}

// TestEntryIndexRepeatedIDs: on branches of sessions whose ids repeat,
// and with more entries than the smallest table holds (probes that wrap),
// the tables are the maps; where keys repeat the last entry (message)
// with a key wins, as in the maps.
func TestEntryIndexRepeatedIDs(t *testing.T) {
	for _, n := range []int{1, 3, 40, 200, 1500} {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}` + "\n")
		parent := "null"
		for i := range n {
			id := fmt.Sprintf("e%d", i%7) // repeated every 7 entries
			if i%3 == 0 {
				id = fmt.Sprintf("%08x", i) // hex ids too
			}
			fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"m%d","timestamp":%d}}`+"\n", id, parent, i, 1000+i)
			parent = fmt.Sprintf("%q", id)
		}
		ctx := readBranch(t, []byte(b.String()))
		if len(ctx.Branch) == 0 {
			t.Fatalf("%d entries: empty branch", n)
		}
		checkEntryIndex(t, ctx)
		// a branch that holds its entries twice over (the session builder
		// cuts a path where an id comes back): the later ones win
		ctx.Branch = append(slices.Clone(ctx.Branch), ctx.Branch...)
		ctx.Messages = append(slices.Clone(ctx.Messages), ctx.Messages...)
		if len(entryMapOld(ctx)) == len(ctx.Branch) || len(messageMapOld(ctx)) == len(ctx.Messages) {
			t.Fatalf("%d entries: no key repeats", n)
		}
		checkEntryIndex(t, ctx)
	}
}

// TestKeyIndexKeys: the table answers as a map where the last item with a
// key wins, for keys that repeat, keys of 0, keys at the packed word's
// limit and keys past it (the map fallback), lists of every size up to
// a few tables.
func TestKeyIndexKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		gen  func() uint64
	}{
		{"small, repeated", func() uint64 { return rng.Uint64N(50) }},
		{"session-like", func() uint64 { return rng.Uint64N(4)<<32 | rng.Uint64N(1<<32) }},
		{"at the limit", func() uint64 { return 1<<keyBits - 1 - rng.Uint64N(3) }},
		{"past the limit", func() uint64 {
			if rng.IntN(10) == 0 {
				return 1<<keyBits + rng.Uint64N(1<<20)
			}
			return rng.Uint64N(1000)
		}},
		{"any", rng.Uint64},
	} {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 100, 5000} {
			keys := make([]uint64, n)
			want := map[uint64]int32{}
			for i := range keys {
				keys[i] = tc.gen()
				if keys[i] != 0 {
					want[keys[i]] = int32(i + 1)
				}
			}
			x := newKeyIndex(n, func(i int) uint64 { return keys[i] })
			probe := append(slices.Clone(keys), 0, 1, 1<<keyBits-1, 1<<keyBits, ^uint64(0))
			for range 200 {
				probe = append(probe, tc.gen())
			}
			for _, k := range probe {
				if got := x.get(k); got != want[k] {
					t.Fatalf("%s, %d keys: key %#x: %d, the map %d", tc.name, n, k, got, want[k])
				}
			}
		}
	}
}

// TestTrivialCallsDrop: calls added in chunks are found by turn and index
// until drop lets go of a chunk all of whose calls are before the turn
// given; the chunk holding that turn, and every later one, stay.
func TestTrivialCallsDrop(t *testing.T) {
	old := trivialChunk
	defer func() { trivialChunk = old }()
	for _, size := range []int{1, 2, 3, 1024} {
		trivialChunk = size
		var tc trivialCalls
		var calls []*Call
		for turn := range int32(40) {
			for k := range turn % 3 { // 0, 1 or 2 calls a turn
				calls = append(calls, &Call{turn: turn * 2, call: k, res: turn*2 + 1})
			}
		}
		tc.add(calls[:10], nil)
		tc.add(calls[10:], nil)
		if tc.n != len(calls) {
			t.Fatalf("chunk %d: %d calls kept, want %d", size, tc.n, len(calls))
		}
		for _, cut := range []int32{0, 7, 8, 30, 31, 79, 200} {
			tc.drop(cut)
			for i, c := range calls {
				got := tc.find(c.turn, int(c.call))
				switch {
				case c.turn >= cut && got != i:
					t.Fatalf("chunk %d, dropped before %d: call %d (turn %d) found at %d", size, cut, i, c.turn, got)
				case got >= 0 && (got != i || tc.at(got).res != c.res):
					t.Fatalf("chunk %d: call %d found at %d", size, i, got)
				}
			}
			if tc.find(3, 0) != -1 || tc.find(200, 0) != -1 {
				t.Fatalf("chunk %d: a call of no captured turn found", size)
			}
		}
		if size < len(calls) && tc.chunks[0] != nil {
			t.Fatalf("chunk %d: nothing let go of", size)
		}
		if last := tc.chunks[len(tc.chunks)-1]; last == nil {
			t.Fatalf("chunk %d: the last chunk let go of", size)
		}
	}
}
