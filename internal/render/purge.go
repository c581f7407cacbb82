package render

import (
	"strconv"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// purgeMinStringChars: only strings longer than this (UTF-16 units, as
// JavaScript counts) are replaced, so short paths and commands stay
// readable (pi-condense gh-19).
const purgeMinStringChars = 200

// shrinkStrings replaces every string longer than purgeMinStringChars in a
// raw JSON value with `<purged-errored-args size="N"/>`, keeping every key,
// type and array length (grammar-constrained tools validate them when pi-ai
// replays the call). It returns the canonical result and whether anything
// changed.
func shrinkStrings(v []byte) ([]byte, bool) {
	switch jsval.TypeOf(v) {
	case jsval.Str:
		s, _ := jsval.String(v)
		if n := jsval.UTF16Len(s); n > purgeMinStringChars {
			return jsval.AppendString(nil, `<purged-errored-args size="`+strconv.Itoa(n)+`"/>`), true
		}
	case jsval.Arr:
		els, _ := jsval.Elements(v)
		out := []byte{'['}
		changed := false
		for i, el := range els {
			if i > 0 {
				out = append(out, ',')
			}
			nv, c := shrinkStrings(el)
			changed = changed || c
			out = append(out, nv...)
		}
		if changed {
			return append(out, ']'), true
		}
	case jsval.Obj:
		ms, _ := jsval.Members(v)
		changed := false
		for i := range ms {
			if nv, c := shrinkStrings(ms[i].Value); c {
				ms[i].Value, changed = nv, true
			}
		}
		if changed {
			return jsval.AppendObject(nil, ms), true
		}
	}
	return jsval.Canonical(v), false
}

// errored is a toolCall whose result is an error: the assistant slot, the
// call id and the assistant turn (1-based count) it belongs to.
type errored struct {
	slot int
	id   string
	turn int
}

// purgeErrors is the error purge: the arguments of an errored call at
// least PurgeCooldownTurns assistant turns old that serialise to at least
// PurgeMinArgChars chars keep their shape with long strings replaced. The
// error result itself stays. Calls are paired with results as pi-ai pairs
// them (the latest assistant's open calls), so a reused provider id never
// purges another occurrence's arguments. A summarized errored call is
// purged too: its arguments stay in the index record (query returns them).
func (r *renderer) purgeErrors() error {
	var errs []errored
	var open openCalls
	ai := -1 // the slot of the assistant message open's calls are in
	turn := 0
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) {
			continue
		}
		switch r.role(s) {
		case session.RoleAssistant:
			turn++
			open.open(r.msg(s).ToolCalls())
			ai = i
		case session.RoleToolResult:
			if !open.answer(r.msg(s).ToolCallID()) {
				continue
			}
			if r.msg(s).IsError() && (r.hazard(s) || r.hazard(&r.slots[ai])) {
				r.rep.Hazards++ // a broken pair keeps its arguments
				continue
			}
			if r.msg(s).IsError() {
				errs = append(errs, errored{ai, r.msg(s).ToolCallID(), turn})
			}
		default:
			open.close()
		}
	}
	bySlot := map[int]map[string]bool{}
	for _, e := range errs {
		if turn-e.turn < r.o.PurgeCooldownTurns {
			continue
		}
		if bySlot[e.slot] == nil {
			bySlot[e.slot] = map[string]bool{}
		}
		bySlot[e.slot][e.id] = true
	}
	for si, ids := range bySlot {
		s := &r.slots[si]
		if err := r.viewOf(s, func(raw []byte) error {
			r.purgeCalls(s, raw, ids)
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// purgeCalls shrinks the arguments of the calls ids of the assistant slot
// s (its JSON raw, not kept: what changes is copied).
func (r *renderer) purgeCalls(s *slot, raw []byte, ids map[string]bool) {
	content, _ := jsval.Get(raw, "content")
	els, ok := jsval.Elements(content)
	if !ok {
		return
	}
	// which calls shrink, then (only if one does) the new content
	shrunk := make([][]byte, len(els))
	changed := false
	for i, el := range els {
		f := getFields(el, "type", "id", "arguments") // one pass over the block
		t, _ := f.str(0)
		id, _ := f.str(1)
		args, hasArgs := f.v[2], f.has[2]
		if t != "toolCall" || !ids[id] || !hasArgs || jsval.RawUTF16Len(jsval.Canonical(args)) < r.o.PurgeMinArgChars {
			continue
		}
		if v, c := shrinkStrings(args); c {
			shrunk[i], changed = v, true
			r.rep.Purged++
		}
	}
	if !changed {
		return
	}
	nc := []byte{'['}
	for i, el := range els {
		if i > 0 {
			nc = append(nc, ',')
		}
		if shrunk[i] == nil {
			nc = jsval.AppendCanonical(nc, el)
			continue
		}
		nc = append(nc, spread(el, kv{"arguments", shrunk[i]})...)
	}
	s.setJSON(spread(raw, kv{"content", append(nc, ']')}))
	s.change = Purged
}
