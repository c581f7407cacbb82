package session

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The filter of ids seen is sized from the input: never more than the
// 8 Mi bits of an input of unknown size below 64 MiB, a bit per 8 bytes
// (at least 64 Ki bits) for a small one, more for a large one.
func TestSeenBits(t *testing.T) {
	for _, c := range []struct {
		size int64
		want int
	}{{0, 1 << 23}, {1, 1 << 16}, {200 << 10, 1 << 16}, {1 << 20, 1 << 17}, {20_000_000, 1 << 22}, {1<<26 - 1, 1 << 23}, {1 << 26, 1 << 23}, {1 << 30, 1 << 24}, {1 << 40, 1 << 30}} {
		if got := seenBits(c.size); got != c.want {
			t.Errorf("seenBits(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}

// The context does not depend on the filter's size (a false positive only
// sends an id to the parent map): every testdata session reads the same
// with the smallest filter, its own size's and the unknown size's.
func TestContextDoesNotDependOnTheSeenFilter(t *testing.T) {
	read := 0
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var views []string
		for _, hint := range []int64{1, int64(len(data)), 0} {
			ctx, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{SizeHint: hint, Branch: true})
			if err != nil {
				return nil // not a session: nothing to compare
			}
			var b strings.Builder
			b.WriteString(ctx.LeafID)
			for _, m := range ctx.Messages {
				b.WriteString(" " + m.Role() + ":" + m.EntryID() + ":" + m.ToolCallID())
			}
			for _, be := range ctx.Branch {
				b.WriteString(" " + be.ID)
			}
			for _, w := range ctx.Warnings {
				b.WriteString(" " + w.Msg)
			}
			views = append(views, b.String())
		}
		if !reflect.DeepEqual(views[0], views[1]) || !reflect.DeepEqual(views[1], views[2]) {
			t.Errorf("%s: the context depends on the filter's size", p)
		}
		read++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 20 {
		t.Fatalf("%d sessions read", read)
	}
}
