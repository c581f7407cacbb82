package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The bitset of ids seen is sized from ReadOptions.SizeHint; a smaller one
// has more false positives, each of which only puts a unique id in the
// parent map. On every shipped session the context and the branch are the
// same with no hint (the largest set), the file's size, and a hint of one
// byte (the smallest set: 4,096 bits, so the ids of a session of thousands
// of entries collide).
func TestSizeHintDoesNotChangeTheContext(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, hint := range []int64{0, int64(len(data)), 1} {
			ctx, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{SizeHint: hint, Branch: true})
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, ctx)
			for _, e := range ctx.Branch {
				got = fmt.Appendf(got, "%s %s %s %s %d %v\n", e.Type, e.CustomType, e.ID, e.ParentID, e.Line, e.Message != nil)
			}
			if hint == 0 {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: SizeHint %d gives another context or branch than none", filepath.Base(p), hint)
			}
		}
	}
}
