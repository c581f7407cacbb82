package render

// The stub phase as it was before a stub's ref and record were looked up
// when it is written (perf38), its stubs' bytes made at once: the oracle
// TestStubsAgreeWithOld compares the phase against.

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// stubReplace is phase 1.
func (r *renderer) stubReplaceOld() (map[int][]byte, error) {
	want := map[int][]byte{}
	if r.st.Len() == 0 && len(r.st.Aliases()) == 0 {
		return want, nil
	}
	grace := r.graceKeys()
	for i := range r.slots {
		s := &r.slots[i]
		if r.msg(s) == nil || r.msg(s).Role() != session.RoleToolResult {
			continue
		}
		// the key built in a reused buffer: looked up, never kept
		r.stubKey = appendMessageKey(r.stubKey[:0], r.msg(s))
		key := bufString(r.stubKey)
		lookup := ""
		switch {
		case r.st.IsSummarized(key):
			lookup = key
		case r.st.HasLegacyBareRecord(r.msg(s).ToolCallID()):
			lookup = r.msg(s).ToolCallID()
		default:
			continue // not indexed: untouched (fail closed)
		}
		if r.hazard(s) {
			r.rep.Hazards++
			continue
		}
		rc, found := r.st.RecordOf(lookup)
		var rec *index.Record
		if found {
			rec = &rc
		}
		if r.recordProtected(rec) {
			r.rep.Repaired++
			continue
		}
		if grace[key] {
			r.rep.Graced++
			continue
		}
		ref, ok := r.st.ShortRef(lookup)
		if !ok {
			ref = r.msg(s).ToolCallID()
		}
		var spilled *index.Record // a plain stub is its ref alone: no record held per stub
		if found && rc.SpillPath != nil {
			c := rc
			spilled = &c
		}
		var err error
		var b []byte
		var change Change
		err = r.ctx.ViewMessage(r.msg(s), func(orig []byte) error {
			cs, ce, ok := r.msg(s).ContentRange()
			if !ok {
				cs, ce = -1, -1
			}
			b, change = stubMessage(nil, orig, cs, ce, spilled, ref)
			return nil
		})
		if err != nil {
			return nil, err
		}
		want[i] = b
		if change == SpillStubbed {
			r.rep.SpillStubbed++
		} else {
			r.rep.Stubbed++
		}
	}
	return want, nil
}

// TestStubsAgreeWithOld: with every stub sharing one body and its ref and
// record looked up when written, every result is stubbed (or not) as the
// phase it replaced stubbed it, to the same bytes and counts, on every
// test session as it is and flushed (spilled records included when the
// sessions have them), with and without protection and recovery grace.
func TestStubsAgreeWithOld(t *testing.T) {
	pred, err := protect.NewPredicate([]string{"bash"}, []string{"**/*.md"})
	if err != nil {
		t.Fatal(err)
	}
	stubs, spilled := 0, 0
	for _, ctx := range phaseSessions(t) {
		st, err := index.Rebuild(ctx)
		if err != nil {
			continue
		}
		states := []*index.State{st}
		if ctx.Kind == session.KindSession {
			fo := index.FlushOptions{Capture: index.CaptureOptions{RawFrom: -1}, Dedup: true, Chains: index.ChainOptions{Enabled: true}, Now: 1}
			if f, err := index.Flush(t.Context(), ctx, st, fo); err == nil {
				states = append(states, f.State)
			}
		}
		for _, st := range states {
			for _, o := range []Options{{}, {Protect: pred, RecoveryGraceTurns: 2}} {
				a, b := newTestRenderer(ctx, st, o), newTestRenderer(ctx, st, o)
				if err := a.stubReplace(); err != nil {
					t.Fatal(err)
				}
				want, err := b.stubReplaceOld()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a.rep, b.rep) {
					t.Fatalf("report %+v, want %+v", *a.rep, *b.rep)
				}
				for i := range a.slots {
					s := &a.slots[i]
					w, stubbed := want[i]
					if (s.stub() != nil) != stubbed || stubbed != (s.change == Stubbed || s.change == SpillStubbed) {
						t.Fatalf("slot %d: stub %v (%v), want %v", i, s.stub() != nil, s.change, stubbed)
					}
					if !stubbed {
						continue
					}
					got, err := a.bytesOf(s)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, w) {
						t.Fatalf("slot %d: %s\nwant %s", i, got, w)
					}
					if it := s.item(); true {
						gotItem, err := it.AppendJSON(nil, ctx)
						if err != nil || !bytes.Equal(gotItem, w) {
							t.Fatalf("slot %d written: %s (%v)\nwant %s", i, gotItem, err, w)
						}
					}
					stubs++
					if s.change == SpillStubbed {
						spilled++
					}
				}
			}
		}
	}
	if stubs < 200 || spilled < 2 {
		t.Fatalf("%d stubs, %d spilled: the sessions do not cover the phase", stubs, spilled)
	}
	t.Logf("%d stubs, %d spilled", stubs, spilled)
}
