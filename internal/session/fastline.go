package session

import (
	"encoding/binary"
	"math/bits"
)

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// tape records where the containers of one validated line end, so later
// scans jump over objects and arrays instead of walking them again.
type tape struct {
	line         []byte
	starts, ends []int32 // in opening order (starts ascending)
	ud           bool    // the line holds the bytes \ud or \uD (see checkSurrogates)
}

func (t *tape) reset(line []byte) {
	t.line, t.starts, t.ends, t.ud = line, t.starts[:0], t.ends[:0], false
}

// skip returns the index just past the value at b[i] (b a subslice of t.line).
func (t *tape) skip(b []byte, i int) int {
	if t == nil || i >= len(b) || (b[i] != '{' && b[i] != '[') {
		return skipValue(b, i)
	}
	base := cap(t.line) - cap(b)
	off := int32(base + i)
	lo, hi := 0, len(t.starts)
	for lo < hi {
		m := (lo + hi) / 2
		if t.starts[m] < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.starts) && t.starts[lo] == off {
		return int(t.ends[lo]) - base
	}
	return skipValue(b, i)
}

// validJSON reports whether b is exactly one JSON value (RFC 8259; blanks
// around it allowed). Bytes >= 0x80 in strings are not checked (goccy and
// JSON.parse both accept invalid UTF-8). It is at least as strict as goccy,
// so a line it accepts is one goccy accepts.
func validJSON(b []byte, t *tape) bool {
	var stack [128]byte
	var open [128]int32 // tape index of each open container
	sp := 0
	i := skipSpace(b, 0)
	const (
		stValue = iota
		stAfter
		stKey
	)
	st := stValue
	for {
		switch st {
		case stValue:
			if i >= len(b) {
				return false
			}
			switch c := b[i]; {
			case c == '{' || c == '[':
				if sp == len(stack) {
					return false
				}
				start := i
				i = skipSpace(b, i+1)
				if i < len(b) && b[i] == c+2 { // '}' or ']'
					i++
					st = stAfter
					continue
				}
				stack[sp] = c
				open[sp] = int32(len(t.starts))
				t.starts = append(t.starts, int32(start))
				t.ends = append(t.ends, 0)
				sp++
				if c == '{' {
					st = stKey
				}
				continue
			case c == '"':
				var ok bool
				if i, ok = scanString(b, i, &t.ud); !ok {
					return false
				}
			case c == 't':
				if !lit(b, i, "true") {
					return false
				}
				i += 4
			case c == 'f':
				if !lit(b, i, "false") {
					return false
				}
				i += 5
			case c == 'n':
				if !lit(b, i, "null") {
					return false
				}
				i += 4
			case c == '-' || c >= '0' && c <= '9':
				var ok bool
				if i, ok = scanNumber(b, i); !ok {
					return false
				}
			default:
				return false
			}
			st = stAfter
		case stAfter:
			i = skipSpace(b, i)
			if sp == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
				if stack[sp-1] == '{' {
					st = stKey
				} else {
					st = stValue
				}
			case stack[sp-1] + 2:
				sp--
				i++
				t.ends[open[sp]] = int32(i)
			default:
				return false
			}
		case stKey:
			if i >= len(b) || b[i] != '"' {
				return false
			}
			var ok bool
			if i, ok = scanString(b, i, &t.ud); !ok {
				return false
			}
			i = skipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return false
			}
			i = skipSpace(b, i+1)
			st = stValue
		}
	}
}

func lit(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func scanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, true
}

func isHex(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// scanString checks the JSON string at b[i]=='"' and returns the index past
// it. Eight bytes at a time, it skips words with no quote, backslash or
// control character.
func scanString(b []byte, i int, ud *bool) (int, bool) {
	i++
	for {
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (0x22 * lo8)
			s := w ^ (0x5c * lo8)
			if m := ((q-lo8)&^q | (s-lo8)&^s | (w-0x20*lo8)&^w) & hi8; m != 0 {
				// the lowest flagged byte is exactly the first '"', '\\' or
				// control byte (borrows only flag bytes above it)
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '\\':
				if i+3 < len(b) && b[i+2] == 'u' && b[i+3]|0x20 == 'd' {
					*ud = true
				}
				i += 2
			case '"', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i, false
				}
				if b[i+2]|0x20 == 'd' {
					*ud = true
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
}

// fastMessageLine decodes a plain `message` entry line without goccy: the
// line is validated, then only the routing keys are read. ok is false for
// anything else (other entry types, unusual field types, keys with escapes,
// invalid JSON); the caller then uses decodeLine.
func fastMessageLine(line []byte, t *tape, d *lineDoc, md *msgDoc) (ok bool) {
	t.reset(line)
	if len(line) == 0 || line[skipSpace(line, 0)] != '{' || !validJSON(line, t) {
		return false
	}
	var typ, id, parent, msg []byte
	off := 0
	if !eachKey(line, t, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			typ = v
		case "id":
			id = v
		case "parentId":
			parent = v
		case "message":
			msg = v
			off = cap(line) - cap(v)
		case "role", "content", "summary", "systemMessage", "replacement", "version", "cwd",
			"firstKeptEntryId", "firstKeptEntryIndex", "targetId", "toolCallId", "toolName", "isError":
			return false // decoded by the slow path
		}
		return true
	}) {
		return false
	}
	if string(typ) != `"message"` || len(msg) == 0 || msg[0] != '{' {
		return false
	}
	*d = lineDoc{Type: "message", msgS: off, msgE: off + len(msg), tape: t}
	if d.ID, ok = optString(id); !ok {
		return false
	}
	if d.ParentID, ok = optString(parent); !ok {
		return false
	}
	*md = msgDoc{}
	var role, callID, toolName, isErr, content, ts []byte
	if !eachKey(msg, t, func(k, v []byte) bool {
		switch string(k) {
		case "role":
			role = v
		case "toolCallId":
			callID = v
		case "toolName":
			toolName = v
		case "isError":
			isErr = v
		case "content":
			content = v
		case "timestamp":
			ts = v
		}
		return true
	}) {
		return false
	}
	for _, f := range []struct {
		v   []byte
		dst *string
	}{{role, &md.Role}, {callID, &md.ToolCallID}, {toolName, &md.ToolName}} {
		s, ok := rawString(f.v)
		if !ok {
			return false
		}
		*f.dst = s
	}
	switch string(isErr) {
	case "true":
		md.IsError = true
	case "", "false", "null":
	default:
		return false
	}
	md.Content = content
	if content == nil {
		md.Content = []byte{} // absent: non-nil so addEntry does not look again
	}
	if len(ts) > 0 {
		md.Timestamp = ts
	}
	d.Message = md
	return true
}

// optString decodes a JSON string or null into a *string (absent, null: nil).
func optString(v []byte) (*string, bool) {
	if len(v) == 0 || string(v) == "null" {
		return nil, true
	}
	if v[0] != '"' {
		return nil, false
	}
	s, ok := rawString(v)
	return &s, ok
}
