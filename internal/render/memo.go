package render

import (
	"strings"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// messageKey is the occurrence key of a toolResult message
// (index.MessageKey): a timestamp JSON.stringify writes back as it is (an
// integer of up to 15 digits, pi's milliseconds) is used as written,
// without a round trip through float64.
func messageKey(m *session.Message) string {
	ts := m.Timestamp()
	if plainInteger(ts) {
		return m.ToolCallID() + "@" + ts
	}
	return index.MessageKey(m.ToolCallID(), []byte(ts))
}

// appendMessageKey appends messageKey(m) to dst.
func appendMessageKey(dst []byte, m *session.Message) []byte {
	ts := m.Timestamp()
	if plainInteger(ts) {
		return append(append(append(dst, m.ToolCallID()...), '@'), ts...)
	}
	return append(dst, index.MessageKey(m.ToolCallID(), []byte(ts))...)
}

// plainInteger reports whether s is "0" or an optional minus and 1 to 15
// digits without a leading zero: a number that Number.prototype.toString
// writes back byte for byte.
func plainInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || d[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// keyOf is messageKey of source message src, built when asked (the stub
// phase asks once per toolResult, the recovery grace and the chain phase
// for few): no string per message is held through the render.
func (r *renderer) keyOf(src int) string {
	return messageKey(r.ctx.Messages[src])
}

// protectMemo is the protection predicate's memo (protect.Memo) with one
// more table: answers by the raw JSON of a record's path argument, so a
// stub's re-check decodes each distinct argument once.
type protectMemo struct {
	*protect.Memo
	// rawPaths is PathProtected by the raw JSON of a record's path
	// argument (false for a value that is no string).
	rawPaths map[string]bool
}

func newProtectMemo(p *protect.Predicate) *protectMemo {
	return &protectMemo{Memo: protect.NewMemo(p), rawPaths: map[string]bool{}}
}

// protectedRaw is p.Protected(name, path, hasPath) for the raw JSON value
// of a path argument (rawPath nil: no path argument).
func (m *protectMemo) protectedRaw(name string, rawPath []byte) bool {
	if m.ToolProtected(name) {
		return true
	}
	if rawPath == nil {
		return false
	}
	v, ok := m.rawPaths[string(rawPath)]
	if !ok {
		path, isStr := jsval.String(rawPath)
		v = isStr && m.PathProtected(path)
		m.rawPaths[string(rawPath)] = v
	}
	return v
}

// decodedPath is the path argument of record rec's call as the session
// decoder read it (Path, HasPath), when that is what reading the record's
// arguments again would give (jsval.Get(args, "path"), then jsval.String):
// the call is on the branch, in a message read as it is in the input, the
// only call of that message with the record's id (the index takes its
// arguments from a block with that id), its block has no "input" or "args"
// key (the index reads `input ?? args ?? arguments`, the decoder
// "arguments"), and neither the id nor the path holds U+FFFD (a bad byte
// or a lone surrogate, which decoders may fold differently). Both read the
// last of duplicate keys, decode escaped keys and strings, and see no path
// in an arguments value that is no object or whose path is no string. ok
// false: read the arguments.
func decodedPath(st *index.State, rec *index.Record) (path string, has, ok bool) {
	m := st.ArgsMessage(rec)
	if m == nil {
		return "", false, false
	}
	if _, _, asRead := m.NumTimestamp(); !asRead {
		return "", false, false
	}
	if strings.ContainsRune(rec.ToolCallID, utf8.RuneError) {
		return "", false, false
	}
	var call session.ToolCall
	n := 0
	for _, tc := range m.ToolCalls() {
		if tc.ID() == rec.ToolCallID {
			call = tc
			n++
		}
	}
	if n != 1 || !call.ArgumentsOnly() {
		return "", false, false
	}
	if !call.HasPath() {
		return "", false, true
	}
	if p := call.Path(); !strings.ContainsRune(p, utf8.RuneError) {
		return p, true, true
	}
	return "", false, false
}

// openCalls are the toolCall ids of the latest assistant message that no
// result has answered yet (pi-ai's pairing): a set, kept as a slice for
// the few calls a message usually makes, as a map past smallOpen — no map
// made per assistant message.
type openCalls struct {
	ids []string
	m   map[string]bool
}

const smallOpen = 16

// open replaces the set with the ids of calls.
func (o *openCalls) open(calls []session.ToolCall) {
	o.close()
	if len(calls) > smallOpen {
		o.m = make(map[string]bool, len(calls))
		for _, tc := range calls {
			o.m[tc.ID()] = true
		}
		return
	}
next:
	for _, tc := range calls {
		for _, id := range o.ids {
			if id == tc.ID() {
				continue next
			}
		}
		o.ids = append(o.ids, tc.ID())
	}
}

// close empties the set.
func (o *openCalls) close() { o.ids, o.m = o.ids[:0], nil }

// answer removes id from the set, reporting whether it was there.
func (o *openCalls) answer(id string) bool {
	if o.m != nil {
		if !o.m[id] {
			return false
		}
		delete(o.m, id)
		return true
	}
	for i, x := range o.ids {
		if x == id {
			o.ids = append(o.ids[:i], o.ids[i+1:]...)
			return true
		}
	}
	return false
}
