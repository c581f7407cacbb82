package session

import (
	"bytes"

	"encoding/binary"
	json "github.com/goccy/go-json"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// RuneCount is utf8.RuneCount, 8 bytes at a time: for valid UTF-8 the count
// is the number of bytes that are not continuation bytes (10xxxxxx).
func RuneCount(p []byte) int {
	n := len(p)
	var high uint64 // any byte >= 0x80 seen
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		if w&0x8080808080808080 == 0 {
			continue
		}
		high = 1
		n -= bits.OnesCount64(w & ^(w << 1) & 0x8080808080808080)
	}
	for ; i < len(p); i++ {
		if p[i] >= 0x80 {
			high = 1
			if p[i]&0xC0 == 0x80 {
				n--
			}
		}
	}
	// ASCII needs no check; otherwise invalid UTF-8 counts one per bad byte
	if high != 0 && !utf8.Valid(p) {
		return utf8.RuneCount(p)
	}
	return n
}

// jsonStringChars is the number of code points of the JSON string raw
// (quotes included) once decoded, as utf8.RuneCountInString of the decoded
// Go string: escapes count one each, a surrogate pair escape one, a lone
// surrogate escape one (U+FFFD), invalid UTF-8 bytes one each.
func jsonStringChars(raw []byte) int {
	s := raw[1 : len(raw)-1]
	n := RuneCount(s)
	nb := bytes.Count(s, []byte{'\\'})
	if nb == 0 {
		return n
	}
	// No escaped backslash and no surrogate escape: every backslash starts
	// one escape, 6 bytes for \uXXXX, 2 for the others.
	if !bytes.Contains(s, []byte(`\\`)) && !bytes.Contains(s, []byte(`\ud`)) && !bytes.Contains(s, []byte(`\uD`)) {
		nu := bytes.Count(s, []byte(`\u`))
		return n - (nb - nu) - 5*nu
	}
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 || i+j+1 >= len(s) {
			return n
		}
		i += j
		if s[i+1] != 'u' || i+6 > len(s) {
			n--
			i += 2
			continue
		}
		if isSurrogate(s[i+2:i+6], 'a', 'b', '8', '9') && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' && isSurrogate(s[i+8:i+12], 'c', 'd', 'e', 'f') {
			n -= 11
			i += 12
			continue
		}
		n -= 5
		i += 6
	}
}

func isSurrogate(h []byte, a, b, c, d byte) bool {
	if h[0]|0x20 != 'd' {
		return false
	}
	x := h[1] | 0x20
	return x == a || x == b || x == c || x == d
}

// windowReaderAt serves ReadAt from a window of the underlying file that
// moves forward: a context is rendered in file order (nearly always), so the
// file is read once in large chunks instead of one pread per message.
type windowReaderAt struct {
	r   io.ReaderAt
	buf []byte
	off int64 // file offset of buf[0]
	n   int   // valid bytes in buf
}

const windowSize = 1 << 20

func newWindowReaderAt(r io.ReaderAt) *windowReaderAt { return &windowReaderAt{r: r, off: -1} }

// slice returns the n bytes at off; valid until the next call.
func (w *windowReaderAt) slice(off int64, n int) ([]byte, error) {
	if w.off >= 0 && off >= w.off && off+int64(n) <= w.off+int64(w.n) {
		s := int(off - w.off)
		return w.buf[s : s+n], nil
	}
	size := windowSize
	if n > size {
		size = n
	}
	if cap(w.buf) < size {
		w.buf = make([]byte, size)
	}
	w.buf = w.buf[:cap(w.buf)]
	m, err := w.r.ReadAt(w.buf, off)
	w.off, w.n = off, m
	if m >= n {
		return w.buf[:n], nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	w.off = -1
	return nil, err
}

// fastBlocks fills msg from a content array without decoding the texts (the
// chars are counted on the raw JSON). It returns false, leaving msg
// untouched, when the array holds anything it does not handle (a non-object
// element, a key with escapes, a field of an unexpected type); the caller
// then decodes the array the slow way. content is valid JSON.
func fastBlocks(msg *Message, content []byte, tp *tape) bool {
	var (
		chars, images int
		notice, synth bool
		calls         []ToolCall
		firstText     = true
	)
	i := 1
	for {
		i = skipSpace(content, i)
		if i >= len(content) {
			return false
		}
		switch content[i] {
		case ']':
			msg.TextChars += chars
			msg.Images += images
			msg.HasNotice = msg.HasNotice || notice
			if msg.Role == RoleUser && !firstText {
				msg.Synthetic = synth
			}
			for k := range calls {
				calls[k].from = msg
			}
			msg.ToolCalls = append(msg.ToolCalls, calls...)
			return true
		case ',':
			i++
			continue
		case '{':
		default:
			return false
		}
		e := tp.skip(content, i)
		var typ, text, id, name, args []byte
		if !eachKey(content[i:e], tp, func(k, v []byte) bool {
			switch string(k) {
			case "type":
				typ = v
			case "text":
				text = v
			case "id":
				id = v
			case "name":
				name = v
			case "arguments":
				args = v
			}
			return true
		}) {
			return false
		}
		i = e
		t, ok := rawString(typ)
		if !ok {
			return false
		}
		switch t {
		case "text":
			if len(text) == 0 || text[0] == 'n' {
				if len(text) > 0 && string(text) != "null" {
					return false
				}
				continue
			}
			if text[0] != '"' {
				return false
			}
			if msg.Role == RoleToolResult { // the only role whose size is used
				chars += jsonStringChars(text)
			}
			if rawIsNotice(text) {
				notice = true
			}
			if firstText && msg.Role == RoleUser && rawHasPrefix(text, "Subagent ") {
				var s string
				if json.Unmarshal(text, &s) == nil {
					synth = IsSubagentNotice(s)
				}
			}
			firstText = false
		case "image":
			images++
		case "toolCall":
			ids, ok1 := rawString(id)
			nm, ok2 := rawString(name)
			if !ok1 || !ok2 {
				return false
			}
			tc, ok := fastToolCall(ids, nm, args, tp)
			if !ok {
				tc = toolCallOf(&blockDoc{Type: t, ID: ids, Name: nm, Arguments: args})
			}
			calls = append(calls, tc)
		}
	}
}

// rawString decodes a JSON string value (absent or null: ""); ok is false
// for any other kind of value.
func rawString(v []byte) (string, bool) {
	if len(v) == 0 || string(v) == "null" {
		return "", true
	}
	if v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// rawHasPrefix reports whether the JSON string raw decodes to a string that
// starts with prefix (ASCII, no control characters). Only the first
// len(prefix) characters are decoded.
func rawHasPrefix(raw []byte, prefix string) bool {
	i := 1
	for k := 0; k < len(prefix); k++ {
		if i >= len(raw)-1 {
			return false
		}
		c := raw[i]
		if c != '\\' {
			if c != prefix[k] {
				return false
			}
			i++
			continue
		}
		if i+1 >= len(raw) {
			return false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			c = raw[i+1]
			i += 2
		case 'u':
			if i+6 > len(raw) {
				return false
			}
			v, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
			if err != nil || v >= 0x80 {
				return false
			}
			c = byte(v)
			i += 6
		default: // \b \f \n \r \t: control characters, never in prefix
			return false
		}
		if c != prefix[k] {
			return false
		}
	}
	return true
}

// fastToolCall is toolCallOf without decoding the whole arguments object:
// only path, file_path and command are decoded (write and edit arguments
// carry whole files). ok is false when one of them has escapes in its key or
// the object is unusual; the caller then uses toolCallOf.
func fastToolCall(id, name string, args []byte, tp *tape) (ToolCall, bool) {
	tc := ToolCall{ID: id, Name: name}
	if len(args) > 0 && args[0] == '{' {
		var path []byte
		if !eachKey(args, tp, func(k, v []byte) bool {
			if string(k) == "path" {
				path = v
			}
			return true
		}) {
			return tc, false
		}
		str := func(v []byte) (string, bool) {
			if len(v) == 0 || v[0] != '"' {
				return "", false
			}
			s, ok := rawString(v)
			return s, ok
		}
		if p, ok := str(path); ok {
			tc.Path, tc.HasPath = p, true
		}
	}
	return tc, true
}

// eachKey calls fn with each key (raw, without quotes) and value range of the
// JSON object obj, in order. It returns false when a key has escapes or fn
// does.
func eachKey(obj []byte, tp *tape, fn func(k, v []byte) bool) bool {
	i := skipSpace(obj, 0) + 1
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return true
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			return false
		}
		ks := i
		i = skipString(obj, i)
		k := obj[ks+1 : i-1]
		if bytes.IndexByte(k, '\\') >= 0 {
			return false
		}
		i = skipSpace(obj, i)
		if i < len(obj) && obj[i] == ':' {
			i++
		}
		i = skipSpace(obj, i)
		vs := i
		i = tp.skip(obj, i)
		if !fn(k, obj[vs:i]) {
			return false
		}
	}
}
