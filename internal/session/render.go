package session

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// Raw returns the input line a message comes from (without the newline),
// read from the input source. The slice is valid until the next call.
func (c *Context) Raw(m *Message) ([]byte, error) { return c.rawLine(m.line, m.off, m.n) }

// rawLine is Raw of the n bytes at off of input line num.
func (c *Context) rawLine(num int32, off int64, n int32) ([]byte, error) {
	if c.m != nil {
		b, err := c.m.slice(off, int(n), &c.rawBuf)
		if err != nil {
			return nil, fmt.Errorf("line %d: re-reading input: %w", num, err)
		}
		return b, nil
	}
	if c.win == nil {
		c.win = newWindowReaderAt(c.src)
	}
	buf, err := c.win.slice(off, int(n))
	if err != nil {
		return nil, fmt.Errorf("line %d: re-reading input: %w", num, err)
	}
	return buf, nil
}

// AppendMessage appends the JSON bytes of message m to dst (no newline),
// exactly as pi's JSON.stringify would write the message object: untouched
// messages are copied byte for byte from the input; summaries and custom
// messages are built with pi's key order (mirrors pi's
// createCompactionSummaryMessage, createBranchSummaryMessage,
// createCustomMessage).
func (c *Context) AppendMessage(dst []byte, m *Message) ([]byte, error) {
	if c.m == nil {
		line, err := c.Raw(m)
		if err != nil {
			return dst, err
		}
		return c.appendMessage(dst, m, line)
	}
	// a mapped input: the line is read where it is mapped, once, with a
	// truncated file turned into an error
	if m.off < 0 || m.n < 0 || m.off+int64(m.n) > int64(len(c.m.data)) {
		return dst, fmt.Errorf("line %d: re-reading input: %w", m.line, io.ErrUnexpectedEOF)
	}
	var out []byte
	err := guard(func() error {
		var err error
		out, err = c.appendMessage(dst, m, c.m.data[m.off:m.off+int64(m.n)])
		return err
	})
	if err == errChanged {
		return dst, fmt.Errorf("line %d: re-reading input: %w", m.line, err)
	}
	c.m.advance(m.off)
	return out, err
}

// WriteMessage writes the JSON bytes of message m (no newline) to w as
// AppendMessage would append them, and returns how many. A message
// rendered as the input's bytes, of a mapped input, is written from the
// mapping without a copy into a buffer; for any other, done is false and
// nothing is written: use AppendMessage. A write error is returned as it
// is; a truncated input is an error as with AppendMessage.
func (c *Context) WriteMessage(w io.Writer, m *Message) (n int, done bool, err error) {
	vs, ve, vok := m.valueRange()
	if c.m == nil || !m.bytesAsRead() || m.source() == srcEntryMessage && !vok {
		return 0, false, nil
	}
	if m.off < 0 || m.n < 0 || m.off+int64(m.n) > int64(len(c.m.data)) {
		return 0, true, fmt.Errorf("line %d: re-reading input: %w", m.line, io.ErrUnexpectedEOF)
	}
	line := c.m.data[m.off : m.off+int64(m.n)]
	if m.source() == srcEntryMessage && ve > len(line) {
		return 0, false, nil
	}
	err = guard(func() error {
		var obj []byte
		if m.source() == srcWholeLine {
			obj = bytes.TrimSpace(line)
		} else {
			obj = line[vs:ve]
		}
		var err error
		n, err = w.Write(obj)
		return err
	})
	if err == errChanged {
		return n, true, fmt.Errorf("line %d: re-reading input: %w", m.line, err)
	}
	c.m.advance(m.off)
	return n, true, err
}

// ViewMessage calls fn with the JSON bytes of message m as AppendMessage
// would append them. A message rendered as the input's bytes, of a mapped
// input, is passed where it is mapped (no copy; fn touches only the pages
// it reads, and a truncated input is an error as with AppendMessage); any
// other is appended to a buffer the next ViewMessage reuses. fn must not
// keep b nor call ViewMessage.
func (c *Context) ViewMessage(m *Message, fn func(b []byte) error) error {
	vs, ve, vok := m.valueRange()
	if c.m == nil || !m.bytesAsRead() || m.source() == srcEntryMessage && !vok ||
		m.off < 0 || m.n < 0 || m.off+int64(m.n) > int64(len(c.m.data)) ||
		m.source() == srcEntryMessage && ve > int(m.n) {
		b, err := c.AppendMessage(c.viewBuf[:0], m)
		if err != nil {
			return err
		}
		if cap(b) <= 1<<20 {
			c.viewBuf = b[:0] // a rare huge message is not kept
		}
		return fn(b)
	}
	line := c.m.data[m.off : m.off+int64(m.n)]
	var ferr error
	err := guard(func() error {
		if m.source() == srcWholeLine {
			ferr = fn(bytes.TrimSpace(line))
		} else {
			ferr = fn(line[vs:ve])
		}
		return nil
	})
	if err == errChanged {
		return fmt.Errorf("line %d: re-reading input: %w", m.line, err)
	}
	c.m.advance(m.off)
	return ferr
}

// ReadMessage is ViewMessage for a reader that scans the whole message
// (the render's phases): a message of the input's bytes, of a mapped
// input, up to readCopyMax bytes, is read into a buffer the next
// ReadMessage reuses (pread) instead of passed where it is mapped. A
// phase that walks the context from its start faults in again every page
// the one before it gave back (the mapping keeps a window resident), and
// on this VM a fault cost more than copying its bytes (200 MB render: 10k
// faults and ~95 ms of its ~340 ms CPU). A larger message, and any other,
// is passed as ViewMessage passes it, and so is every message of an input
// small enough that the mapping gives none of its pages back (resident:
// a copy would be a read call and a copy a message for nothing). fn must
// not keep b nor call ReadMessage; a truncated input is an error as with
// ViewMessage.
func (c *Context) ReadMessage(m *Message, fn func(b []byte) error) error {
	vs, ve, vok := m.valueRange()
	if c.m == nil || c.m.resident() || !m.bytesAsRead() || m.source() == srcEntryMessage && !vok ||
		m.off < 0 || m.n < 0 || m.off+int64(m.n) > int64(len(c.m.data)) ||
		m.source() == srcEntryMessage && ve > int(m.n) || m.n > readCopyMax {
		return c.ViewMessage(m, fn)
	}
	line, err := c.readCopy(&c.readBuf, m.off, int(m.n))
	if err != nil {
		return fmt.Errorf("line %d: re-reading input: %w", m.line, err)
	}
	if m.source() == srcWholeLine {
		return fn(bytes.TrimSpace(line))
	}
	return fn(line[vs:ve])
}

// readCopyMax is the largest read ReadMessage and ViewEntryBytes copy (a
// larger one is viewed where it is mapped: its faults are few for its
// size, and its copy would be a heap allocation of that size).
const readCopyMax = 1 << 20

// readCopy reads the n bytes at off of a mapped input into *buf (grown
// as needed, at most readCopyMax) from the file, not the mapping; a short
// read is the truncated input's errChanged.
func (c *Context) readCopy(buf *[]byte, off int64, n int) ([]byte, error) {
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if k, _ := c.src.ReadAt(b, off); k < n {
		return nil, errChanged
	}
	return b, nil
}

// appendMessage is AppendMessage with the message's line.
func (c *Context) appendMessage(dst []byte, m *Message, line []byte) ([]byte, error) {
	var obj []byte
	switch m.source() {
	case srcWholeLine:
		obj = bytes.TrimSpace(line)
	case srcEntryMessage:
		if vs, ve, ok := m.valueRange(); ok && ve <= len(line) {
			obj = line[vs:ve]
			break
		}
		s, e, ok := jsonscan.ValueRange(line, "message")
		if !ok {
			return dst, fmt.Errorf("line %d: message value not found", m.line)
		}
		obj = line[s:e]
	case srcSystemMessage:
		s, e, ok := jsonscan.ValueRange(line, "systemMessage")
		if !ok {
			return dst, fmt.Errorf("line %d: systemMessage value not found", m.line)
		}
		obj = line[s:e]
	case srcSynth:
		out, ok := appendSynth(dst, m, line)
		if !ok {
			return dst, fmt.Errorf("line %d: no longer valid JSON (did the file change?)", m.line)
		}
		return out, nil
	}
	if m.flags&(flagRoleFix|flagPatched) == 0 {
		return append(dst, obj...), nil
	}
	role := ""
	if m.flags&flagRoleFix != 0 {
		role = RoleCustom
	}
	return appendPatched(dst, obj, role, m.contentPatch()), nil
}

// appendPatched writes obj with the role value and/or the content value
// replaced. An empty non-nil content drops the key (JSON.stringify of
// undefined); a missing content key is appended at the end (object spread).
func appendPatched(dst, obj []byte, role string, content []byte) []byte {
	type splice struct {
		s, e int
		v    []byte
	}
	var sp []splice
	if role != "" {
		if s, e, ok := jsonscan.ValueRange(obj, "role"); ok {
			sp = append(sp, splice{s, e, AppendJSString(nil, role)})
		}
	}
	if content != nil {
		if s, e, ok := jsonscan.ValueRange(obj, "content"); ok {
			if len(content) == 0 {
				// drop `,"content":…` (or `"content":…,`)
				ks := bytes.LastIndex(obj[:s], []byte(`"content"`))
				pre := ks
				for pre > 0 && (obj[pre-1] == ' ' || obj[pre-1] == ',') {
					pre--
				}
				if obj[pre-1] == '{' { // first key: eat the following comma instead
					pre = ks
					for e < len(obj) && (obj[e] == ',' || obj[e] == ' ') {
						e++
					}
				}
				sp = append(sp, splice{pre, e, nil})
			} else {
				sp = append(sp, splice{s, e, content})
			}
		} else if len(content) > 0 {
			end := bytes.LastIndexByte(obj, '}')
			v := []byte(`"content":`)
			if bytes.TrimSpace(obj[1:end]) != nil && len(bytes.TrimSpace(obj[1:end])) > 0 {
				v = append([]byte{','}, v...)
			}
			sp = append(sp, splice{end, end, append(v, content...)})
		}
	}
	if len(sp) == 2 && sp[1].s < sp[0].s {
		sp[0], sp[1] = sp[1], sp[0]
	}
	last := 0
	for _, x := range sp {
		dst = append(dst, obj[last:x.s]...)
		dst = append(dst, x.v...)
		last = x.e
	}
	return append(dst, obj[last:]...)
}

// appendSynth builds the runtime message pi creates for a custom_message,
// branch_summary or compaction entry. Field values are copied byte for byte
// from the line; absent (undefined) fields are omitted, as JSON.stringify
// does. ok is false when the line no longer parses (it changed on disk).
func appendSynth(dst []byte, m *Message, line []byte) ([]byte, bool) {
	var tp jsonscan.Tape
	if tp.Parse(line) != nil || tp.Nodes[0].Kind != jsonscan.Object {
		return dst, false
	}
	get := func(k string) []byte {
		if v, ok := tp.Get(0, k); ok {
			return tp.Raw(v)
		}
		return nil
	}
	dst = append(dst, `{"role":`...)
	dst = AppendJSString(dst, m.Role())
	field := func(k string, v []byte) {
		if len(v) == 0 {
			return
		}
		dst = append(dst, ',', '"')
		dst = append(dst, k...)
		dst = append(dst, '"', ':')
		dst = append(dst, v...)
	}
	switch m.Role() {
	case RoleCustom:
		field("customType", get("customType"))
		c := get("content")
		switch {
		case m.flags&flagPatched != 0:
			field("content", m.contentPatch())
		case len(c) == 0 || string(c) == "null":
			field("content", []byte("[]"))
		default:
			field("content", c)
		}
		field("display", get("display"))
		field("details", get("details"))
	case RoleBranchSummary:
		field("summary", get("summary"))
		field("fromId", get("fromId"))
	case RoleCompactionSummary:
		field("summary", get("summary"))
		field("tokensBefore", get("tokensBefore"))
	}
	dst = append(dst, `,"timestamp":`...)
	dst = append(dst, jsDateMillis(get("timestamp"))...)
	return append(dst, '}'), true
}

// jsDateMillis is `new Date(ts).getTime()` written by JSON.stringify: an ISO
// string or a number of milliseconds; anything unparseable is NaN → null.
func jsDateMillis(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "null"
	}
	if raw[0] == '"' {
		s := string(jsonscan.AppendUnquote(nil, raw))
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return strconv.FormatInt(t.UnixMilli(), 10)
			}
		}
		return "null"
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return strconv.FormatInt(int64(f), 10)
	}
	return "null"
}

// ContentOf returns the raw JSON "content" value of message m as it will be
// rendered (after edits), or nil when absent.
func (c *Context) ContentOf(m *Message) ([]byte, error) {
	if m.flags&flagPatched != 0 {
		return m.contentPatch(), nil
	}
	b, err := c.AppendMessage(nil, m)
	if err != nil {
		return nil, err
	}
	s, e, ok := jsonscan.ValueRange(b, "content")
	if !ok {
		return nil, nil
	}
	return b[s:e], nil
}
