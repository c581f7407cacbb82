package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// newIDsAsBefore is newIDs as it was: every id of the file in a map.
func newIDsAsBefore(ctx *session.Context, n int) []string {
	taken := map[string]bool{}
	for i := range ctx.Entries {
		taken[ctx.EntryID(&ctx.Entries[i])] = true
	}
	for i := range ctx.Branch {
		taken[ctx.EntryID(&ctx.Branch[i])] = true
	}
	seed := ctx.Header.ID + "\x00" + strconv.FormatInt(ctx.Bytes, 10)
	var out []string
	for k := 0; len(out) < n; k++ {
		sum := sha256.Sum256([]byte(seed + "\x00" + strconv.Itoa(k)))
		id := hex.EncodeToString(sum[:4])
		if taken[id] {
			continue
		}
		taken[id] = true
		out = append(out, id)
	}
	return out
}

// TestNewIDsSkipsTheFiles: the ids are the old ones (candidates the file
// has skipped), also when the file has many of the first candidates.
func TestNewIDsSkipsTheFiles(t *testing.T) {
	const entries = 40
	build := func(ids []string) []byte {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}` + "\n")
		parent := "null"
		for i, id := range ids {
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"m%02d"}}`+"\n", id, parent, i)
			parent = `"` + id + `"`
		}
		return []byte(b.String())
	}
	ids := make([]string, entries)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x", 0xa0000000+i)
	}
	size := int64(len(build(ids)))
	// the file's ids are the first candidates (every other one), so that
	// newIDs must look past them
	seed := "s1\x00" + strconv.FormatInt(size, 10)
	for i := 0; i < entries; i++ {
		sum := sha256.Sum256([]byte(seed + "\x00" + strconv.Itoa(2*i)))
		ids[i] = hex.EncodeToString(sum[:4])
	}
	ctx := read(t, build(ids))
	if ctx.Bytes != size {
		t.Fatalf("size %d, want %d", ctx.Bytes, size)
	}
	for _, n := range []int{1, 2, 7, 30, 100} {
		got, want := newIDs(ctx, n), newIDsAsBefore(ctx, n)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: %v, want %v", n, got, want)
		}
		for _, id := range got {
			if slices.Contains(ids, id) {
				t.Fatalf("n=%d: %s is the file's", n, id)
			}
		}
	}
}
