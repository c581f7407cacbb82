package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestEditsAsEntries checks the context edits WriteSession writes from
// Appended's compact edits (a render item each) against the entries the
// old plan held (refEdits: an index.ContextEdit per edit, its target id
// and a closure over its item taken when planned), line for line after
// the flush's entries, for every session and variant.
func TestEditsAsEntries(t *testing.T) {
	edits := 0
	for _, path := range sessions(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for name, o := range variants(t) {
			ctx := read(t, data)
			if ctx.Kind != session.KindSession {
				continue
			}
			r, err := Run(context.Background(), ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := r.refEdits()
			if err != nil {
				t.Fatal(err)
			}
			a, err := r.Append(nil)
			if err != nil {
				t.Fatal(err)
			}
			if ctx.Header.Version < 2 {
				ref = nil
			}
			if a.Edits != len(ref) {
				t.Fatalf("%s %s: %d edits, the old plan %d", path, name, a.Edits, len(ref))
			}
			if a.Len() == 0 {
				continue
			}
			var out bytes.Buffer
			if _, err := r.WriteSession(&out, bytes.NewReader(data), ctx.Bytes, a); err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
			got := lines[len(lines)-len(ref):]
			ts, _ := AppendTime(ctx)
			parent := a.IDs[len(a.IDs)-len(ref)-1]
			for i, e := range ref {
				id := a.IDs[len(a.IDs)-len(ref)+i]
				want, err := e.AppendLine(nil, ctx, id, parent, ts)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got[i], want) {
					t.Fatalf("%s %s: edit %d:\n got %s\nwant %s", path, name, i, got[i], want)
				}
				parent = id
			}
			edits += len(ref)
		}
	}
	if edits == 0 {
		t.Fatal("no session has a context edit")
	}
}

// refEdits is the plan of context edits before they were held as render
// items (the old Result.edits).
func (r *Result) refEdits() ([]*index.NewEntry, error) {
	ctx := r.Ctx
	var out []*index.NewEntry
	var cur []byte         // the message's content as it is (reused)
	scratch := new([]byte) // the edits' render buffer when written (one at a time)
	add := func(m *session.Message, rendered []byte, it render.Item, masked bool) error {
		if m.EntryID() == "" || m.Role() != session.RoleToolResult {
			return nil
		}
		s, e, ok := session.ValueRange(rendered, "content")
		if !ok {
			return nil
		}
		var now []byte
		if _, _, ok := m.ContentRange(); ok {
			// the message as it was read (no patch): ContentOf's bytes,
			// in a buffer reused from one result to the next
			var err error
			if cur, err = ctx.AppendMessage(cur[:0], m); err != nil {
				return err
			}
			if cs, ce, ok := session.ValueRange(cur, "content"); ok {
				now = cur[cs:ce]
			}
		} else {
			var err error
			if now, err = ctx.ContentOf(m); err != nil {
				return err
			}
		}
		if bytes.Equal(bytes.TrimSpace(now), rendered[s:e]) {
			return nil
		}
		out = append(out, index.ContextEdit(m.EntryID(), refEditContent(r.Mask, it, masked, scratch)))
		return nil
	}
	var buf []byte
	var err error
	if r.Rendered == nil {
		if r.Mask == nil {
			return nil, nil
		}
		for i, m := range ctx.Messages {
			if r.Mask.Decisions[i].Kind == prune.Keep {
				continue
			}
			var changed bool
			if buf, changed, err = r.Mask.AppendMessage(buf[:0], ctx, i); err != nil {
				return nil, err
			}
			if changed {
				if err := add(m, buf, render.Item{Src: int32(i)}, true); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	// the results a compressed chain drops too: pi alone does not apply
	// chains, so their stubs (or masking notices) are pinned as well
	for _, items := range [][]render.Item{r.Rendered.Items, r.Rendered.Dropped} {
		for _, it := range items {
			if it.Src < 0 {
				continue
			}
			m := ctx.Messages[it.Src]
			switch {
			case it.Change == render.Stubbed || it.Change == render.SpillStubbed:
				if buf, err = it.AppendJSON(buf[:0], ctx); err != nil {
					return nil, err
				}
				if err := add(m, buf, it, false); err != nil {
					return nil, err
				}
			case it.Change == render.Kept && r.Mask != nil && r.Mask.Decisions[it.Src].Kind != prune.Keep:
				var changed bool
				if buf, changed, err = r.Mask.AppendMessage(buf[:0], ctx, int(it.Src)); err != nil {
					return nil, err
				}
				if changed {
					if err := add(m, buf, it, true); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

// refEditContent appends an edit's content: the "content" value of item it's
// message rendered again (by mask when masked, else as the item), built
// in scratch. It holds the mask and the item, not the result (whose
// render --write lets go once the entries are planned).
func refEditContent(mask *prune.Plan, it render.Item, masked bool, scratch *[]byte) func(dst []byte, ctx *session.Context) ([]byte, error) {
	return func(dst []byte, ctx *session.Context) ([]byte, error) {
		var b []byte
		var err error
		if masked {
			b, _, err = mask.AppendMessage((*scratch)[:0], ctx, int(it.Src))
		} else {
			b, err = it.AppendJSON((*scratch)[:0], ctx)
		}
		if err != nil {
			return dst, err
		}
		*scratch = b
		s, e, ok := session.ValueRange(b, "content")
		if !ok {
			return dst, fmt.Errorf("line %d: the rendered result has no content", ctx.Messages[it.Src].Line())
		}
		return append(dst, b[s:e]...), nil
	}
}
