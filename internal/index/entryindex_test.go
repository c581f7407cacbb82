package index

import (
	"bytes"
	"fmt"
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

// TestEntryIndexSessions: the tables are the old maps on every session of
// testdata/sessions and testdata/condense-oracle.
func TestEntryIndexSessions(t *testing.T) {
	var files []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/condense-oracle/*/*.jsonl", "../../testdata/condense-oracle/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d sessions", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ctx := readBranch(t, data)
		if len(ctx.Branch) == 0 {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkEntryIndex(t, ctx) })
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
