package session

import (
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// oneLine collapses whitespace runs to one space and cuts s to at most max
// code points, on a code-point boundary, adding "…" when cut.
func oneLine(s string, max int) string {
	var b []byte
	space := false
	n := 0
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' || r == ' ' {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
			n++
		}
		space = false
		if n >= max {
			return string(b) + "…"
		}
		b = utf8.AppendRune(b, r)
		n++
	}
	return string(b)
}

// hintOf is a short, single-line description of a call for notices: the
// path, else file_path, else the bash command (each when a string), cut to
// 120 chars on a code-point boundary. args is the tape index of the
// arguments value.
func hintOf(tp *jsonscan.Tape, args uint32) string {
	if tp.Nodes[args].Kind != jsonscan.Object {
		return ""
	}
	for _, k := range []string{"path", "file_path", "command"} {
		if v, ok := tp.Get(args, k); ok && tp.Nodes[v].Kind == jsonscan.String {
			s, _ := tp.String(v)
			return oneLine(s, 120)
		}
	}
	return ""
}

// CallHint returns a short description of call tc (its path or command) for
// notices, re-reading the assistant message that holds it. "" when unknown.
func (c *Context) CallHint(tc ToolCall) string {
	from := c.msg(tc.from)
	if from == nil {
		return ""
	}
	tp := &c.hintTape
	if c.hintFrom != tc.from {
		// the results of one assistant message's calls come together:
		// its line is read and parsed once for them
		c.hintFrom = 0
		// a direct read: the render window moves forward and must not be sent back
		if cap(c.hintBuf) < int(from.n) || cap(c.hintBuf) > 4<<20 {
			c.hintBuf = make([]byte, from.n)
		}
		line := c.hintBuf[:from.n]
		if c.m != nil {
			// a mapped input: copied from the mapping (no read call), guarded
			// against a truncated file, without moving the render cursor
			off, n := from.off, int64(from.n)
			if off < 0 || off+n > int64(len(c.m.data)) {
				return ""
			}
			if guard(func() error { copy(line, c.m.data[off:off+n]); return nil }) != nil {
				return ""
			}
		} else if _, err := c.src.ReadAt(line, from.off); err != nil {
			return ""
		}
		if tp.Parse(line) != nil {
			return ""
		}
		c.hintFrom = tc.from
	}
	msg := uint32(0)
	if from.source() == srcEntryMessage {
		var ok bool
		if msg, ok = tp.Get(0, "message"); !ok {
			return ""
		}
	}
	content, ok := tp.Get(msg, "content")
	if !ok {
		return ""
	}
	hint := ""
	found := false
	tp.Elems(content, func(b uint32) bool {
		if tp.Nodes[b].Kind != jsonscan.Object {
			return true
		}
		typ, ok1 := tp.Get(b, "type")
		id, ok2 := tp.Get(b, "id")
		if !ok1 || !ok2 || !tp.KeyIs(typ, "toolCall") || tp.Nodes[typ].Kind != jsonscan.String ||
			tp.Nodes[id].Kind != jsonscan.String || !tp.KeyIs(id, tc.ID()) {
			return true
		}
		if a, ok := tp.Get(b, "arguments"); ok {
			hint = hintOf(tp, a)
		}
		found = true
		return false
	})
	if !found {
		return ""
	}
	return hint
}
