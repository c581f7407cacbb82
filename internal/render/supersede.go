package render

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// SupersededNotice is the text an older read of a file read again becomes.
func SupersededNotice(path string) string {
	return "[Superseded: " + path + " was read again later in this conversation - see the newer read. Re-read the file if this earlier content is needed.]"
}

// readTool is the tool whose results supersede each other.
const readTool = "read"

// readResult is a read's result, in its group's list (groupedRead).
type readResult struct {
	slot  int32
	line  int32 // the result's input line
	ts    float64
	hasTS bool
	// ok: a successful result still verbatim in the render (a newer read
	// only supersedes when it is there for the model to see).
	ok       bool
	verbatim bool
}

// groupedRead is a read result with its group's index.
type groupedRead struct {
	readResult
	group int32
}

// openRead is a read call of the latest assistant message not answered
// yet: its id, its group's index and the length of its path in the
// group's key.
type openRead struct {
	id      string
	group   int32
	pathLen int32
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
//
// The groups are numbered as first seen (a group key is made once per
// group, not per call: a long session reads the same files thousands of
// times), and the results are held in one list with their group's number.
func (r *renderer) supersede() error {
	// the state's points as they are (only read): a copy was a slice the
	// size of every flushed batch's index entry (1 GB: ~4 MB) at the
	// render's peak
	points := r.st.RewritePoints
	if len(r.o.RewritePoints) > 0 {
		points = append(append([]index.RewritePoint(nil), points...), r.o.RewritePoints...)
	}
	if len(points) == 0 {
		return nil
	}
	groupOf := map[string]int32{}
	var keys []string  // each group's key
	var paths []string // each group's path (a view of its key), from its first result's call
	var reads []groupedRead
	var open []openRead
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) {
			continue
		}
		switch r.role(s) {
		case session.RoleAssistant:
			open = open[:0]
			ids := r.readIDs[:0]
			for _, tc := range r.msg(s).ToolCalls() {
				if tc.Name() == readTool && tc.HasPath() {
					ids = append(ids, tc.ID())
				}
			}
			r.readIDs = ids
			if len(ids) == 0 {
				continue
			}
			if err := r.viewOf(s, func(raw []byte) error {
				r.reads, r.groupBuf = readGroups(r.reads, r.groupBuf[:0], raw, ids)
				return nil
			}); err != nil {
				return err
			}
			for k, rc := range r.reads {
				if !rc.ok {
					continue
				}
				key := r.groupBuf[rc.start:rc.end]
				g, seen := groupOf[string(key)]
				if !seen {
					g = int32(len(keys))
					keys = append(keys, string(key))
					groupOf[keys[g]] = g
					paths = append(paths, "")
				}
				open = setOpen(open, openRead{ids[k], g, rc.pathLen})
			}
		case session.RoleToolResult:
			k := findOpen(open, r.msg(s).ToolCallID())
			if k < 0 {
				continue
			}
			call := open[k]
			g := call.group
			open = closeOpen(open, k)
			// a result of a broken pair neither supersedes nor is superseded
			rr := readResult{slot: int32(i), line: int32(r.msg(s).Line()), verbatim: s.kept() && !r.hazard(s)}
			rr.ok = rr.verbatim && !r.msg(s).IsError() && (r.o.RawFrom <= 0 || int(s.src) < r.o.RawFrom)
			if f, ok := jsval.Number([]byte(r.msg(s).Timestamp())); ok {
				rr.ts, rr.hasTS = f, true
			}
			if paths[g] == "" {
				paths[g] = keys[g][:call.pathLen] // (a read of an empty path has none to show either way)
			}
			reads = append(reads, groupedRead{rr, g})
		default:
			open = open[:0]
		}
	}
	groupOf, keys = nil, nil
	// each group's reads in order (a stable sort by group: a read's newer
	// ones in its group follow it)
	slices.SortStableFunc(reads, func(a, b groupedRead) int { return int(a.group) - int(b.group) })
	for lo := 0; lo < len(reads); {
		hi := lo + 1
		for hi < len(reads) && reads[hi].group == reads[lo].group {
			hi++
		}
		group := reads[lo:hi]
		lo = hi
		for k, c := range group {
			if !c.verbatim || !c.hasTS {
				continue
			}
			newer := -1
			for j := k + 1; j < len(group); j++ {
				if group[j].ok {
					newer = j
					break
				}
			}
			if newer < 0 || !activated(points, int(group[newer].line), c.ts) {
				continue
			}
			s := &r.slots[c.slot]
			path := paths[c.group]
			if err := r.viewOf(s, func(raw []byte) error {
				s.setJSON(spread(raw, kv{"content", textContent(SupersededNotice(path))}, kv{"isError", []byte("false")}))
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

// setOpen opens the call c: a call of an id already open replaces it (the
// calls of one message answer for their id alike).
func setOpen(open []openRead, c openRead) []openRead {
	if k := findOpen(open, c.id); k >= 0 {
		open[k] = c
		return open
	}
	return append(open, c)
}

// findOpen returns the index of the open call id, or -1.
func findOpen(open []openRead, id string) int {
	for k := range open {
		if open[k].id == id {
			return k
		}
	}
	return -1
}

// closeOpen removes open call k (its order does not matter).
func closeOpen(open []openRead, k int) []openRead {
	last := len(open) - 1
	open[k] = open[last]
	return open[:last]
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

// readCall is readGroup's answer for one call: its group key is
// buf[start:end] of the buffer readGroups appended it to, its first
// pathLen bytes the path.
type readCall struct {
	start, end, pathLen int32
	ok                  bool
}

// readGroups returns the group key of each read call of ids in the
// assistant message raw — its normalised path (`\` read as `/`) and its
// other arguments, canonically (appendCallGroup) — from the first
// toolCall block with the id, in one pass over the content (a message of
// many parallel reads is not scanned once per read, and each block is
// scanned once); the keys are appended to buf.
func readGroups(out []readCall, buf, raw []byte, ids []string) ([]readCall, []byte) {
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
	var members []jsval.Member
	eachElementFields(content, func(f *fieldVals) bool {
		if n == 0 {
			return false
		}
		if !isString(f.v[0], "toolCall") {
			return true
		}
		bid := stringView(f.v[1]) // compared and looked up, never kept
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
			return true
		}
		n -= len(ks)
		rc := readCall{start: int32(len(buf))}
		var pathLen int
		buf, members, pathLen, rc.ok = appendCallGroup(buf, members[:0], f.v[2])
		if !rc.ok {
			buf = buf[:rc.start]
			rc = readCall{}
		} else {
			rc.end, rc.pathLen = int32(len(buf)), int32(pathLen)
		}
		for _, k := range ks {
			out[k] = rc
		}
		return true
	}, "type", "id", "arguments")
	return out, buf
}

// appendCallGroup appends the group key of a toolCall block whose
// arguments are args (nil: none) to dst: the path, NUL, the other
// members canonically; pathLen is the path's length, ok false when args
// is no object or holds no string path (dst as it was). ms is a buffer
// for the members.
func appendCallGroup(dst []byte, ms []jsval.Member, args []byte) (out []byte, msOut []jsval.Member, pathLen int, ok bool) {
	start := len(dst)
	var path []byte
	isObj := jsval.EachMember(args, func(key string, v []byte) bool {
		if key == "path" {
			if p, isStr := jsval.AppendStringValue(path[:0], v); isStr {
				path, ok = p, true
			}
			return true
		}
		ms = append(ms, jsval.Member{Key: key, Value: v})
		return true
	})
	if !isObj || !ok {
		return dst[:start], ms, 0, false
	}
	dst = append(dst, path...)
	for i := start; i < len(dst); i++ {
		if dst[i] == '\\' {
			dst[i] = '/'
		}
	}
	pathLen = len(dst) - start
	dst = append(dst, 0)
	return jsval.AppendObject(dst, ms), ms, pathLen, true
}

// eachElementFields calls fn with getFields(el, keys...) of each element
// el of the array arr, in order, until fn returns false (fn must not keep
// the fields it is passed: they are reused): each element is
// scanned once (jsval.Elements, then getFields, scanned it twice). As
// with Elements, the elements before a malformed one are passed.
func eachElementFields(arr []byte, fn func(f *fieldVals) bool, keys ...string) {
	keys = keys[:min(len(keys), maxFields)]
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i++
	var f fieldVals // (one for every element: fn may not keep it)
	for {
		i = skipSpace(arr, i)
		if i >= len(arr) {
			return
		}
		switch arr[i] {
		case ']':
			return
		case ',':
			i++
			continue
		}
		s := i
		f = fieldVals{}
		if i = fieldsOf(arr, i, keys, &f); i == s {
			return
		}
		if !fn(&f) {
			return
		}
	}
}

// fieldsOf reads the fields keys of the value at b[i:] (getFields: none
// when it is no object) and returns the index after the value (i when
// there is none), as jsonscan.SkipValue does.
func fieldsOf(b []byte, i int, keys []string, f *fieldVals) int {
	if b[i] != '{' {
		return jsonscan.SkipValue(b, i)
	}
	s := i
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			break
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i++
			continue
		case '"':
		default:
			return jsonscan.SkipValue(b, s) // malformed: as getFields and Elements read it
		}
		ks := i
		i = jsonscan.SkipString(b, i)
		rawKey := b[ks:i]
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			break
		}
		vs := skipSpace(b, i+1)
		i = jsonscan.SkipValue(b, vs)
		for k, key := range keys {
			if keyIs(rawKey, key) {
				f.v[k], f.has[k] = b[vs:i], true
			}
		}
	}
	return jsonscan.SkipValue(b, s)
}

// skipSpace returns the index of the first byte at or after i that is no
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
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
