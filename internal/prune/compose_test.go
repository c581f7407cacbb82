package prune

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// appendAround (the bytes around a recorded content range, read in place)
// renders every tool result as appendCopy (a copy of the whole original)
// does, for every decision kind, on every shipped session read from its
// mapped file and streamed, and reports the same change.
func TestAppendAroundIsAppendCopy(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/cases/*/session.jsonl", "../../testdata/condense-oracle/*/final/*.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	around := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		mapped, err := session.Read(f, f, session.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		streamed, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ctx := range []*session.Context{mapped, streamed} {
			for _, maxChars := range []int{0, 40, 1 << 30} {
				plan := NewPlan(ctx, Options{MaxChars: maxChars})
				for i, m := range ctx.Messages {
					if m.Role() != session.RoleToolResult {
						continue
					}
					for _, k := range []Kind{Masked, Excerpt, ImagesMasked} {
						d := plan.Decisions[i]
						d.Kind = k
						before, ok1 := ctx.ModelChars(m)
						cs, ce, ok2 := m.ContentRange()
						cc, ok3 := m.ContentChars()
						if !ok1 || !ok2 || !ok3 {
							continue
						}
						got, gc, done, err := plan.appendAround([]byte("x"), ctx, m, d, before, cc, cs, ce)
						if err != nil || !done {
							t.Fatalf("%s message %d %v: done %v, %v", p, i, k, done, err)
						}
						want, wc, err := plan.appendCopy([]byte("x"), ctx, m, d)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got, want) || gc != wc {
							t.Fatalf("%s message %d %v: appendAround %q (%v), appendCopy %q (%v)", p, i, k, got, gc, want, wc)
						}
						around++
					}
				}
			}
		}
		f.Close()
	}
	if around == 0 {
		t.Fatal("no message rendered around its content: the test proves nothing")
	}
}
