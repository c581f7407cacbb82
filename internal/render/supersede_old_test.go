package render

// The superseded-reads pass as it was before its groups were held as
// compact arrays (perf38): the oracle TestSupersedeAgreesWithOld compares
// the pass against.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/session"
)

type readResultOld struct {
	slot  int
	src   int
	line  int
	ts    float64
	hasTS bool
	// ok: a successful result still verbatim in the render (a newer read
	// only supersedes when it is there for the model to see).
	ok       bool
	verbatim bool
}

type openReadOld struct {
	path, group string
}

// supersede keeps only the newest read of each file verbatim: an older
// `read` result of the same path with the same other arguments
// (offset/limit: a different range is not the same read) becomes
// SupersededNotice, when a newer successful read is verbatim in the
// render. Protected reads (skills), which are never indexed, are the
// main case; a stubbed result already lost its content and is left alone.
//
// Cache-aware floor: the notice takes effect only where the prompt was
// being rewritten anyway. pruner runs offline and keeps no state between
// runs, so it derives pi-condense's floor from the session itself: each
// rewrite point (a flush's index entry, a dedup alias, a chain compression —
// index.State.RewritePoints, plus Options.RewritePoints from other stages)
// recorded after the newer read, whose floor (the earliest timestamp it
// rewrote) is at or before the older read, activates it; once activated it
// stays, since the session keeps the point. Without such a point the older
// read stays verbatim (no fresh cache break). A read inside the raw window
// (Options.RawFrom) supersedes nothing until it leaves the window.
// Deterministic: the same session renders the same bytes on every run.
func (r *renderer) supersedeOld() error {
	points := append(append([]index.RewritePoint(nil), r.st.RewritePoints...), r.o.RewritePoints...)
	if len(points) == 0 {
		return nil
	}
	var oldReads []readCallOld
	var oldIDs []string
	groups := map[string][]readResultOld{}
	var order []string
	paths := map[string]string{}
	var open map[string]openReadOld
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) {
			continue
		}
		switch r.role(s) {
		case session.RoleAssistant:
			open = nil
			ids := oldIDs[:0]
			for _, tc := range r.msg(s).ToolCalls() {
				if tc.Name() == readTool && tc.HasPath() {
					ids = append(ids, tc.ID())
				}
			}
			oldIDs = ids
			if len(ids) == 0 {
				continue
			}
			if err := r.viewOf(s, func(raw []byte) error {
				oldReads = readGroupsOld(oldReads, raw, ids) // (strings of their own)
				return nil
			}); err != nil {
				return err
			}
			for k, rc := range oldReads {
				if !rc.ok {
					continue
				}
				if open == nil {
					open = map[string]openReadOld{}
				}
				open[ids[k]] = openReadOld{rc.path, rc.group}
			}
		case session.RoleToolResult:
			call, ok := open[r.msg(s).ToolCallID()]
			if !ok {
				continue
			}
			delete(open, r.msg(s).ToolCallID())
			// a result of a broken pair neither supersedes nor is superseded
			rr := readResultOld{slot: i, src: int(s.src), line: r.msg(s).Line(), verbatim: s.kept() && !r.hazard(s)}
			rr.ok = rr.verbatim && !r.msg(s).IsError() && (r.o.RawFrom <= 0 || int(s.src) < r.o.RawFrom)
			if f, ok := jsval.Number([]byte(r.msg(s).Timestamp())); ok {
				rr.ts, rr.hasTS = f, true
			}
			if _, seen := groups[call.group]; !seen {
				order = append(order, call.group)
				paths[call.group] = call.path
			}
			groups[call.group] = append(groups[call.group], rr)
		default:
			open = nil
		}
	}
	for _, g := range order {
		reads := groups[g]
		for k, c := range reads {
			if !c.verbatim || !c.hasTS {
				continue
			}
			newer := -1
			for j := k + 1; j < len(reads); j++ {
				if reads[j].ok {
					newer = j
					break
				}
			}
			if newer < 0 || !activated(points, reads[newer].line, c.ts) {
				continue
			}
			s := &r.slots[c.slot]
			if err := r.viewOf(s, func(raw []byte) error {
				s.setJSON(spread(raw, kv{"content", textContent(SupersededNotice(paths[g]))}, kv{"isError", []byte("false")}))
				return nil
			}); err != nil {
				return err
			}
			s.change = Superseded
			r.rep.Superseded++
		}
	}
	return nil
}

// readCall is readGroup's answer for one call.
type readCallOld struct {
	group, path string
	ok          bool
}

// readGroups returns the group key of each read call of ids in the
// assistant message raw — its normalised path (`\` read as `/`) and its
// other arguments, canonically (callGroup) — from the first toolCall
// block with the id, in one pass over the content (a message of many
// parallel reads is not scanned once per read).
func readGroupsOld(out []readCallOld, raw []byte, ids []string) []readCallOld {
	out = slices.Grow(out[:0], len(ids))[:len(ids)]
	clear(out)
	// the ids still to answer: a few are compared, many go in a map
	var want map[string][]int
	var left [8]bool
	n := len(ids)
	if n > len(left) {
		want = make(map[string][]int, n)
		for k, id := range ids {
			want[id] = append(want[id], k)
		}
	} else {
		for k := range ids {
			left[k] = true
		}
	}
	content, _ := jsval.Get(raw, "content")
	els, _ := jsval.Elements(content)
	for _, el := range els {
		if n == 0 {
			break
		}
		f := getFields(el, "type", "id", "arguments") // one pass over the block
		if !isString(f.v[0], "toolCall") {
			continue
		}
		idv := f.v[1]
		bid := stringView(idv) // compared and looked up, never kept
		var kbuf [8]int
		ks := kbuf[:0]
		if want != nil {
			ks = want[bid]
			delete(want, bid) // the first block with the id answers
		} else {
			for k, id := range ids {
				if left[k] && id == bid {
					ks = append(ks, k)
					left[k] = false
				}
			}
		}
		if len(ks) == 0 {
			continue
		}
		n -= len(ks)
		var rc readCallOld
		rc.group, rc.path, rc.ok = callGroupArgsOld(f.v[2])
		for _, k := range ks {
			out[k] = rc
		}
	}
	return out
}

// callGroupArgs is the group key of a toolCall block whose arguments are
// args (nil: none).
func callGroupArgsOld(args []byte) (group, path string, ok bool) {
	ms, isObj := jsval.Members(args)
	if !isObj {
		return "", "", false
	}
	var rest []jsval.Member
	for _, m := range ms {
		if m.Key == "path" {
			if p, isStr := jsval.String(m.Value); isStr {
				path, ok = strings.ReplaceAll(p, `\`, "/"), true
			}
			continue
		}
		rest = append(rest, m)
	}
	if !ok {
		return "", "", false
	}
	return path + "\x00" + string(jsval.AppendObject(nil, rest)), path, true
}

// phaseSessions are the test sessions the phases' differential tests
// render (testdata: sessions, cases, the condense oracle's, render's).
func phaseSessions(t *testing.T) []*session.Context {
	t.Helper()
	var out []*session.Context
	for _, g := range []string{
		"../../testdata/sessions/*.jsonl",
		"../../testdata/cases/*/session.jsonl",
		"../../testdata/condense-oracle/*/requests/*.session.jsonl",
		"../../testdata/condense-oracle/*/final/*.jsonl",
		"../../testdata/render/*.jsonl",
	} {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if strings.HasSuffix(p, ".golden.jsonl") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := session.Read(bytes.NewReader(b), bytes.NewReader(b), session.ReadOptions{Branch: true})
			if err != nil {
				continue
			}
			out = append(out, ctx)
		}
	}
	if len(out) < 60 {
		t.Fatalf("only %d sessions", len(out))
	}
	return out
}

// newTestRenderer is Render's renderer before its phases run.
func newTestRenderer(ctx *session.Context, st *index.State, o Options) *renderer {
	r := &renderer{ctx: ctx, st: st, o: o, rep: &Report{}, pair: pairing.Find(ctx)}
	r.slots = make([]slot, len(ctx.Messages), len(ctx.Messages)+len(o.Appended))
	for i := range r.slots {
		r.slots[i] = slot{src: int32(i)}
	}
	for _, b := range o.Appended {
		r.slots = append(r.slots, slot{src: -1, body: &itemBody{lazy: b}, change: Summary, appended: true})
	}
	return r
}

// slotsEqual reports where two phases' slots differ ("" for nowhere).
func slotsEqual(r, o *renderer) string {
	if len(r.slots) != len(o.slots) {
		return fmt.Sprintf("%d slots, want %d", len(r.slots), len(o.slots))
	}
	for i := range r.slots {
		a, b := &r.slots[i], &o.slots[i]
		if a.src != b.src || a.change != b.change || !bytes.Equal(a.json(), b.json()) || (a.stub() == nil) != (b.stub() == nil) {
			return fmt.Sprintf("slot %d: %d %v %q, want %d %v %q", i, a.src, a.change, a.json(), b.src, b.change, b.json())
		}
	}
	if !reflect.DeepEqual(r.rep, o.rep) {
		return fmt.Sprintf("report %+v, want %+v", *r.rep, *o.rep)
	}
	return ""
}

// TestSupersedeAgreesWithOld: the pass with its groups numbered and its
// results in one list supersedes what the pass it replaced did, on every
// test session after the stub phase, with the session's rewrite points
// and with made-up ones (every line, floors before, at and after each
// message), raw windows and hazards as they come.
func TestSupersedeAgreesWithOld(t *testing.T) {
	superseded := 0
	for _, ctx := range phaseSessions(t) {
		st, err := index.Rebuild(ctx)
		if err != nil {
			continue
		}
		n := len(ctx.Messages)
		var every []index.RewritePoint
		for i, m := range ctx.Messages {
			ts, _, _ := m.NumTimestamp()
			every = append(every, index.RewritePoint{Line: m.Line() + 1 + i%3, Floor: int64(ts) + int64(i%3) - 1})
		}
		for _, o := range []Options{
			{Supersede: true},
			{Supersede: true, RewritePoints: every},
			{Supersede: true, RewritePoints: every, RawFrom: n / 2},
			{Supersede: true, RewritePoints: every[:n/2]},
			{Supersede: true, RewritePoints: []index.RewritePoint{{Line: 1 << 30, Floor: -1 << 50}}, RawFrom: n - 1},
		} {
			a, b := newTestRenderer(ctx, st, o), newTestRenderer(ctx, st, o)
			if err := a.stubReplace(); err != nil {
				t.Fatal(err)
			}
			if err := b.stubReplace(); err != nil {
				t.Fatal(err)
			}
			if err := a.supersede(); err != nil {
				t.Fatal(err)
			}
			if err := b.supersedeOld(); err != nil {
				t.Fatal(err)
			}
			if d := slotsEqual(a, b); d != "" {
				t.Fatalf("%d messages, %+v: %s", n, o, d)
			}
			superseded += a.rep.Superseded
		}
	}
	if superseded < 20 {
		t.Fatalf("%d reads superseded: the sessions do not cover the pass", superseded)
	}
}
