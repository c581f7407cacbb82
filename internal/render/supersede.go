package render

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// SupersededNotice is the text an older read of a file read again becomes.
func SupersededNotice(path string) string {
	return "[Superseded: " + path + " was read again later in this conversation - see the newer read. Re-read the file if this earlier content is needed.]"
}

// readTool is the tool whose results supersede each other.
const readTool = "read"

type readResult struct {
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

type openRead struct {
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
func (r *renderer) supersede() error {
	points := append(append([]index.RewritePoint(nil), r.st.RewritePoints...), r.o.RewritePoints...)
	if len(points) == 0 {
		return nil
	}
	groups := map[string][]readResult{}
	var order []string
	paths := map[string]string{}
	var open map[string]openRead
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) {
			continue
		}
		switch r.role(s) {
		case session.RoleAssistant:
			open = nil
			ids := r.readIDs[:0]
			for _, tc := range s.m.ToolCalls() {
				if tc.Name() == readTool && tc.HasPath() {
					ids = append(ids, tc.ID())
				}
			}
			r.readIDs = ids
			if len(ids) == 0 {
				continue
			}
			if err := r.viewOf(s, func(raw []byte) error {
				r.reads = readGroups(r.reads, raw, ids) // (strings of their own)
				return nil
			}); err != nil {
				return err
			}
			for k, rc := range r.reads {
				if !rc.ok {
					continue
				}
				if open == nil {
					open = map[string]openRead{}
				}
				open[ids[k]] = openRead{rc.path, rc.group}
			}
		case session.RoleToolResult:
			call, ok := open[s.m.ToolCallID()]
			if !ok {
				continue
			}
			delete(open, s.m.ToolCallID())
			// a result of a broken pair neither supersedes nor is superseded
			rr := readResult{slot: i, src: int(s.src), line: s.m.Line(), verbatim: s.kept() && !r.hazard(s)}
			rr.ok = rr.verbatim && !s.m.IsError() && (r.o.RawFrom <= 0 || int(s.src) < r.o.RawFrom)
			if f, ok := jsval.Number([]byte(s.m.Timestamp())); ok {
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

// activated reports whether a rewrite point recorded after line rewrote the
// prompt at or before ts.
func activated(points []index.RewritePoint, line int, ts float64) bool {
	for _, p := range points {
		if p.Line > line && float64(p.Floor) <= ts {
			return true
		}
	}
	return false
}

// readCall is readGroup's answer for one call.
type readCall struct {
	group, path string
	ok          bool
}

// readGroups returns the group key of each read call of ids in the
// assistant message raw — its normalised path (`\` read as `/`) and its
// other arguments, canonically (callGroup) — from the first toolCall
// block with the id, in one pass over the content (a message of many
// parallel reads is not scanned once per read).
func readGroups(out []readCall, raw []byte, ids []string) []readCall {
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
		var rc readCall
		rc.group, rc.path, rc.ok = callGroupArgs(f.v[2])
		for _, k := range ks {
			out[k] = rc
		}
	}
	return out
}

// callGroupArgs is the group key of a toolCall block whose arguments are
// args (nil: none).
func callGroupArgs(args []byte) (group, path string, ok bool) {
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

// stringView is jsval.String of the raw JSON value v ("" when it is no
// string), without a copy when v is a string of plain text: a view of v,
// valid while v is.
func stringView(v []byte) string {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		if body := v[1 : n-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
			return bufString(body)
		}
	}
	s, _ := jsval.String(v)
	return s
}
