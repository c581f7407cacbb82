package jsonscan

import (
	"bytes"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Raw returns the bytes of node n as written in the input.
func (t *Tape) Raw(n uint32) []byte {
	nd := &t.Nodes[n]
	return t.Src[nd.Start:nd.End]
}

// RawChars is the number of code points of node n's bytes as written in the
// input (quotes, escapes and everything inside it included), counted as
// utf8.RuneCount counts them (each invalid byte one), without reading the
// bytes again: the tape's per-string counts are summed, and only a string
// holding invalid UTF-8 is counted afresh.
func (t *Tape) RawChars(n uint32) int {
	nd := &t.Nodes[n]
	c := int(nd.End - nd.Start)
	if t.Flags&NonASCII == 0 {
		return c
	}
	for i, end := n, nd.Next; i < end; i++ {
		s := &t.Nodes[i]
		if s.Kind != String || s.Flags&NonASCII == 0 {
			continue
		}
		if s.Flags&BadUTF8 != 0 {
			c += utf8.RuneCount(t.Src[s.Start:s.End]) - int(s.End-s.Start)
			continue
		}
		c -= int(s.Cont)
	}
	return c
}

// Get returns the tape index of the value of key in the object at index obj
// (keys matched exactly, as JSON.parse does; when a key repeats the last one
// wins). ok is false when obj is not an object or has no such key.
func (t *Tape) Get(obj uint32, key string) (v uint32, ok bool) {
	if t.Nodes[obj].Kind != Object {
		return 0, false
	}
	end := t.Nodes[obj].Next
	for k := obj + 1; k < end; {
		val := k + 1
		if t.KeyIs(k, key) {
			v, ok = val, true
		}
		k = t.Nodes[val].Next
	}
	return v, ok
}

// KeyIs reports whether the string node k decodes to key.
func (t *Tape) KeyIs(k uint32, key string) bool {
	nd := &t.Nodes[k]
	if nd.Flags&Escaped == 0 {
		return int(nd.End-nd.Start) == len(key)+2 && string(t.Src[nd.Start+1:nd.End-1]) == key
	}
	s, _ := t.String(k)
	return s == key
}

// Key returns the raw text of the key node k without its quotes when it has
// no escapes (ok false otherwise: use String).
func (t *Tape) Key(k uint32) ([]byte, bool) {
	nd := &t.Nodes[k]
	if nd.Flags&Escaped != 0 {
		return nil, false
	}
	return t.Src[nd.Start+1 : nd.End-1], true
}

// String decodes the string node n. ok is false when n is not a string.
// Invalid UTF-8 and lone surrogates become U+FFFD (as encoding/json does).
func (t *Tape) String(n uint32) (string, bool) {
	nd := &t.Nodes[n]
	if nd.Kind != String {
		return "", false
	}
	if nd.Flags&(Escaped|BadUTF8) == 0 {
		return string(t.Src[nd.Start+1 : nd.End-1]), true
	}
	// decoded text is at most as long as the raw string (escapes shrink),
	// unless bad bytes become U+FFFD: one buffer, made the string as it is
	b := AppendUnquote(make([]byte, 0, nd.End-nd.Start), t.Src[nd.Start:nd.End])
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// Members calls fn with the tape index of each key and value of the object
// at obj, in order, until fn returns false.
func (t *Tape) Members(obj uint32, fn func(k, v uint32) bool) {
	if t.Nodes[obj].Kind != Object {
		return
	}
	end := t.Nodes[obj].Next
	for k := obj + 1; k < end; {
		v := k + 1
		if !fn(k, v) {
			return
		}
		k = t.Nodes[v].Next
	}
}

// Elems calls fn with the tape index of each element of the array at arr, in
// order, until fn returns false.
func (t *Tape) Elems(arr uint32, fn func(e uint32) bool) {
	if t.Nodes[arr].Kind != Array {
		return
	}
	end := t.Nodes[arr].Next
	for e := arr + 1; e < end; e = t.Nodes[e].Next {
		if !fn(e) {
			return
		}
	}
}

// HasPrefix reports whether the string node n decodes to a text that starts
// with prefix (ASCII). Only the first len(prefix) characters are decoded.
func (t *Tape) HasPrefix(n uint32, prefix string) bool {
	nd := &t.Nodes[n]
	if nd.Kind != String {
		return false
	}
	raw := t.Src[nd.Start:nd.End]
	if nd.Flags&Escaped == 0 {
		return len(raw)-2 >= len(prefix) && string(raw[1:1+len(prefix)]) == prefix
	}
	return rawHasPrefix(raw, prefix)
}

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
		switch raw[i+1] {
		case '"', '\\', '/':
			c = raw[i+1]
			i += 2
		case 'u':
			v := hex4(raw[i+2:])
			if v >= 0x80 {
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

// AppendUnquote appends the decoded text of the JSON string raw (quotes
// included, valid JSON) to dst. Invalid UTF-8 bytes and lone surrogate
// escapes become U+FFFD, as with encoding/json.
func AppendUnquote(dst, raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		// the run up to the next escape, copied at once when it is valid
		// UTF-8 (a backslash is never inside a multi-byte sequence)
		if j := bytes.IndexByte(s[i:], '\\'); j != 0 {
			if j < 0 {
				j = len(s) - i
			}
			run := s[i : i+j]
			if utf8.Valid(run) {
				dst = append(dst, run...)
			} else {
				for k := 0; k < len(run); {
					r, size := utf8.DecodeRune(run[k:])
					dst = utf8.AppendRune(dst, r) // an invalid byte: U+FFFD
					k += size
				}
			}
			i += j
			continue
		}
		// s[i] is a backslash
		r, next := escapeAt(s, i)
		if next < 0 {
			return append(dst, s[i:]...)
		}
		dst = utf8.AppendRune(dst, r)
		i = next
	}
	return dst
}

// Number returns the float64 value of the number node n (ok false when n
// is not a number).
func (t *Tape) Number(n uint32) (float64, bool) {
	if t.Nodes[n].Kind != Number {
		return 0, false
	}
	raw := t.Raw(n)
	if len(raw) <= 15 {
		// a non-negative integer of up to 15 digits (timestamps, counts) is
		// exact in a float64: no float parse
		v := uint64(0)
		for _, c := range raw {
			if c < '0' || c > '9' {
				goto parse
			}
			v = v*10 + uint64(c-'0')
		}
		return float64(v), true
	}
parse:
	f, _ := strconv.ParseFloat(string(raw), 64) // overflow: ±Inf, as in JavaScript
	return f, true
}

// Truthy reports JavaScript truthiness of node n: false for null, false,
// 0, -0 and "", true for everything else.
func (t *Tape) Truthy(n uint32) bool {
	nd := &t.Nodes[n]
	switch nd.Kind {
	case Null, False:
		return false
	case String:
		return nd.End-nd.Start > 2
	case Number:
		f, _ := t.Number(n)
		return f != 0
	}
	return true
}

// ValueRange returns the [start,end) byte range of key's value in the JSON
// object obj, which must be valid JSON (last occurrence wins, keys matched
// exactly); ok is false when the key is absent or obj is not an object. It
// skips values without building a tape (no allocation, no recursion).
func ValueRange(obj []byte, key string) (start, end int, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return 0, 0, false
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return start, end, ok
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			return start, end, ok
		}
		ks := i
		i = SkipValue(obj, i)
		ke := i
		i = skipSpace(obj, i)
		if i < len(obj) && obj[i] == ':' {
			i++
		}
		i = skipSpace(obj, i)
		vs := i
		i = SkipValue(obj, i)
		if keyEquals(obj[ks:ke], key) {
			start, end, ok = vs, i, true
		}
	}
}

func keyEquals(raw []byte, key string) bool {
	if len(raw) == len(key)+2 && string(raw[1:len(raw)-1]) == key {
		return true
	}
	for _, c := range raw {
		if c == '\\' {
			return string(AppendUnquote(nil, raw)) == key
		}
	}
	return false
}

// SkipValue returns the index just past the JSON value starting at b[i] in
// valid JSON.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = SkipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// SkipString returns the index just past the JSON string at b[i]=='"' (valid
// JSON). It jumps from quote to quote with bytes.IndexByte (vectorised); a
// quote preceded by an odd run of backslashes is escaped.
func SkipString(b []byte, i int) int {
	i++
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		k := i
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i + 1
		}
		i++
	}
	return len(b)
}
