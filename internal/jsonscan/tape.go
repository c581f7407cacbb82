// Package jsonscan is a byte-level JSON validator that records a tape of the
// values it saw: for every value its kind, byte range and where it ends on
// the tape, and for strings the code points of the decoded text and whether
// it holds escapes, non-ASCII bytes, invalid UTF-8 or lone UTF-16 surrogate
// escapes — all from one pass over the input.
//
// It accepts exactly what JavaScript's JSON.parse accepts on a decoded line:
// RFC 8259 with JSON whitespace (space, tab, LF, CR) only, any nesting depth
// (the parser keeps its own stack; nothing recurses), lone surrogate escapes,
// and bytes >= 0x80 as they are (Node decodes invalid UTF-8 to U+FFFD before
// parsing, so such bytes never make a line invalid). It knows nothing of
// pi's format: callers map the tape onto their own types, copying bytes
// rather than re-encoding values.
package jsonscan

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// Value kinds.
const (
	Null Kind = iota + 1
	False
	True
	Number
	String
	Object
	Array
)

var kindNames = [...]string{"invalid", "null", "false", "true", "number", "string", "object", "array"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// String flags (Node.Flags).
const (
	// Escaped: the string holds at least one backslash escape.
	Escaped uint8 = 1 << iota
	// NonASCII: the string holds bytes >= 0x80.
	NonASCII
	// BadUTF8: the string holds bytes that are not valid UTF-8.
	BadUTF8
	// LoneSurrogate: the string holds a \uD800–\uDFFF escape that is not
	// half of a surrogate pair (valid for JSON.parse, invalid Unicode).
	LoneSurrogate
	// EscapedPair: the string holds a surrogate pair written as two \u
	// escapes (one code point of Chars, two UTF-16 units: EscapedPairs
	// counts them).
	EscapedPair
	// UEscaped: the string holds a \u escape.
	UEscaped
	// SlashEscaped: the string holds a \/ escape.
	SlashEscaped
)

// MaxInput is the largest input Parse accepts (offsets are 32-bit).
const MaxInput = math.MaxInt32

// Node is one value on a tape.
type Node struct {
	// Start and End are the byte range of the value in the input (a
	// string's quotes included).
	Start, End uint32
	// Next is the tape index just past this value and everything inside it.
	Next uint32
	// Chars is, for a string, the number of code points of its decoded text
	// as Go decodes it (an escape counts one, a surrogate pair one, a lone
	// surrogate one, each invalid UTF-8 byte one); for an object or array,
	// the number of members.
	Chars uint32
	// Cont is, for a string, the number of UTF-8 continuation bytes
	// (10xxxxxx) in its raw text: a string without BadUTF8 is
	// End-Start-Cont code points as written (RawChars).
	Cont  uint32
	Kind  Kind
	Flags uint8
}

// push appends a scalar's node (Next: just past it), each field written
// in place. A Node built on the stack and then appended is read back 16
// bytes at a time right after its fields' 4-byte stores, a load the CPU
// cannot forward from them: that copy took ~40% of Tape.str's perf samples
// on the 200 MB session.
func (t *Tape) push(start, end, chars, cont uint32, kind Kind, flags uint8) {
	k := len(t.Nodes)
	if k == cap(t.Nodes) {
		t.Nodes = append(t.Nodes, Node{})
	} else {
		t.Nodes = t.Nodes[:k+1]
	}
	n := &t.Nodes[k]
	n.Start, n.End, n.Next, n.Chars, n.Cont, n.Kind, n.Flags = start, end, uint32(k+1), chars, cont, kind, flags
}

// Tape is the result of parsing one JSON text. The zero value is ready to
// use; a Tape is reused across Parse calls to keep its buffers.
type Tape struct {
	// Nodes holds the values in document order: an object is followed by
	// its members (key, value, key, value…), an array by its elements.
	// Nodes[0] is the top-level value.
	Nodes []Node
	// Src is the parsed input (not copied).
	Src []byte
	// Flags is the OR of the Flags of every string on the tape (keys
	// included): one test tells whether any string is escaped, non-ASCII,
	// invalid UTF-8 or holds a lone surrogate.
	Flags uint8
	stack []uint32
	avx2  bool // haveAVX2, asked by the first Parse
	asked bool // avx2 is set
}

// SyntaxError says why and where an input is not one JSON value.
type SyntaxError struct {
	Offset int    // byte offset of the problem
	Msg    string // what is wrong
	// Trailing is set when a complete JSON value was followed by more
	// non-whitespace bytes (e.g. two objects joined on one line); Offset is
	// then where those bytes start.
	Trailing bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset)
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) { // one compare for the usual non-space
		i++
	}
	return i
}

// Parse validates src as exactly one JSON value (with optional whitespace
// around it) and fills the tape. On error the tape's contents are undefined.
func (t *Tape) Parse(src []byte) error {
	if !t.asked {
		t.avx2, t.asked = haveAVX2(), true
	}
	t.Src = src
	t.Flags = 0
	t.Nodes = t.Nodes[:0]
	t.stack = t.stack[:0]
	if len(src) > MaxInput {
		return &SyntaxError{Offset: 0, Msg: fmt.Sprintf("input of %d bytes is longer than the %d bytes supported", len(src), MaxInput)}
	}
	b := src
	i := skipSpace(b, 0)
	if i >= len(b) {
		return &SyntaxError{Offset: i, Msg: "no JSON value"}
	}
	for {
		// a value starts at b[i]
		if i >= len(b) {
			return &SyntaxError{Offset: i, Msg: "unexpected end of input"}
		}
		c := b[i]
		switch {
		case c == '{' || c == '[':
			k := Object
			if c == '[' {
				k = Array
			}
			t.stack = append(t.stack, uint32(len(t.Nodes)))
			t.Nodes = append(t.Nodes, Node{Start: uint32(i), Kind: k})
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' or ']': empty
				i++
				t.closeTop(i)
				goto after
			}
			if k == Object {
				goto key
			}
			continue
		case c == '"':
			var err error
			if i, err = t.str(b, i); err != nil {
				return err
			}
		case c == 't':
			if !lit(b, i, "true") {
				return &SyntaxError{Offset: i, Msg: "invalid literal"}
			}
			t.push(uint32(i), uint32(i+4), 0, 0, True, 0)
			i += 4
		case c == 'f':
			if !lit(b, i, "false") {
				return &SyntaxError{Offset: i, Msg: "invalid literal"}
			}
			t.push(uint32(i), uint32(i+5), 0, 0, False, 0)
			i += 5
		case c == 'n':
			if !lit(b, i, "null") {
				return &SyntaxError{Offset: i, Msg: "invalid literal"}
			}
			t.push(uint32(i), uint32(i+4), 0, 0, Null, 0)
			i += 4
		case c == '-' || c >= '0' && c <= '9':
			e, ok := scanNumber(b, i)
			if !ok {
				return &SyntaxError{Offset: e, Msg: "invalid number"}
			}
			t.push(uint32(i), uint32(e), 0, 0, Number, 0)
			i = e
		default:
			return &SyntaxError{Offset: i, Msg: "unexpected " + describe(c)}
		}
	after:
		// after a value: a comma, a closing bracket, or the end
		for {
			i = skipSpace(b, i)
			if len(t.stack) == 0 {
				if i != len(b) {
					return &SyntaxError{Offset: i, Msg: "extra data after the JSON value", Trailing: true}
				}
				return nil
			}
			if i >= len(b) {
				return &SyntaxError{Offset: i, Msg: "unexpected end of input"}
			}
			top := &t.Nodes[t.stack[len(t.stack)-1]]
			top.Chars++
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
				if top.Kind == Object {
					goto key
				}
				goto value
			case '}':
				if top.Kind != Object {
					return &SyntaxError{Offset: i, Msg: "'}' closes an array"}
				}
			case ']':
				if top.Kind != Array {
					return &SyntaxError{Offset: i, Msg: "']' closes an object"}
				}
			default:
				return &SyntaxError{Offset: i, Msg: "unexpected " + describe(b[i]) + " after a value"}
			}
			i++
			t.closeTop(i)
		}
	key:
		if i >= len(b) || b[i] != '"' {
			return &SyntaxError{Offset: i, Msg: "expected a string key"}
		}
		{
			var err error
			if i, err = t.str(b, i); err != nil {
				return err
			}
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return &SyntaxError{Offset: i, Msg: "expected ':' after a key"}
		}
		i = skipSpace(b, i+1)
	value:
	}
}

// closeTop ends the innermost open container at byte end.
func (t *Tape) closeTop(end int) {
	n := t.stack[len(t.stack)-1]
	t.stack = t.stack[:len(t.stack)-1]
	t.Nodes[n].End = uint32(end)
	t.Nodes[n].Next = uint32(len(t.Nodes))
}

// describe names byte c for an error message.
func describe(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return fmt.Sprintf("byte %#02x", c)
	}
	return fmt.Sprintf("character %q", c)
}

func lit(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipDigits returns the index of the first byte at or after i that is
// not an ASCII digit, eight bytes at a time: a word minus '0' in every
// byte holds a digit's value 0–9 in each byte before the first non-digit,
// which shows either as a borrow (below '0': the byte wraps to >= 0xD0) or
// as >= 10 (its high bit set, or set once 0x76 is added); borrows and
// carries move only upward, so the lowest flagged byte is exact.
func skipDigits(b []byte, i int) int {
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:]) - 0x30*lo8
		if m := (x | (x + 0x76*lo8)) & hi8; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func scanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		i = skipDigits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		i = skipDigits(b, i+1)
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

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			r = r<<4 | rune(c-'0')
		default:
			r = r<<4 | rune(c|0x20-'a'+10)
		}
	}
	return r
}

// stops flags (high bit) the bytes of string word w that end a plain run:
// the lowest flagged byte is exactly the first quote, backslash, control
// or high byte (borrows flag only bytes above it).
func stops(w uint64) uint64 {
	q := w ^ (0x22 * lo8)
	s := w ^ (0x5c * lo8)
	return ((q-lo8)&^q | (s-lo8)&^s | (w-0x20*lo8)&^w | w) & hi8
}

// str scans the string at b[i]=='"', appends its node and returns the index
// past it. Eight bytes at a time it skips words with no quote, backslash or
// control byte, counting UTF-8 continuation bytes as it goes.
func (t *Tape) str(b []byte, i int) (int, error) {
	start := i
	i++
	// most strings are short and plain (keys, ids, roles, timestamps): one
	// that ends in its first four words with no escape or high byte is
	// done here: the first byte stops flags is a quote.
	end := -1
	if len(b)-i >= 32 {
		w := b[i : i+32] // one bounds check for the four words
		switch {
		case stops(binary.LittleEndian.Uint64(w)) != 0:
			end = i + bits.TrailingZeros64(stops(binary.LittleEndian.Uint64(w)))>>3
		case stops(binary.LittleEndian.Uint64(w[8:])) != 0:
			end = i + 8 + bits.TrailingZeros64(stops(binary.LittleEndian.Uint64(w[8:])))>>3
		case stops(binary.LittleEndian.Uint64(w[16:])) != 0:
			end = i + 16 + bits.TrailingZeros64(stops(binary.LittleEndian.Uint64(w[16:])))>>3
		case stops(binary.LittleEndian.Uint64(w[24:])) != 0:
			end = i + 24 + bits.TrailingZeros64(stops(binary.LittleEndian.Uint64(w[24:])))>>3
		}
	} else {
		for j := i; j+8 <= len(b); j += 8 {
			if m := stops(binary.LittleEndian.Uint64(b[j:])); m != 0 {
				end = j + bits.TrailingZeros64(m)>>3
				break
			}
		}
	}
	if end >= 0 && b[end] == '"' {
		end++
		t.push(uint32(start), uint32(end), uint32(end-start-2), 0, String, 0)
		return end, nil
	}
	var (
		cont     int // UTF-8 continuation bytes (10xxxxxx)
		escBytes int // bytes taken by escapes
		escChars int // code points the escapes decode to
		flags    uint8
		high     uint64
	)
	for {
		// short strings (keys, ids) end in their first words: look there
		// before paying for the AVX2 call
		near := false
		for k := 0; t.avx2 && k < 2 && i+8 <= len(b); k++ {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (0x22 * lo8)
			s := w ^ (0x5c * lo8)
			if ((q-lo8)&^q|(s-lo8)&^s|(w-0x20*lo8)&^w|w)&hi8 != 0 {
				near = true // a special or high byte: the loops below count it
				break
			}
			i += 8
		}
		if !near && t.avx2 && len(b)-i >= 32 {
			n, c, e, h := strScanAVX2(b[i:])
			i += n
			cont += c
			escBytes += 2 * e
			escChars += e
			if e > 0 {
				flags |= Escaped
			}
			if h {
				high |= 0x80
			}
		}
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (0x22 * lo8)
			s := w ^ (0x5c * lo8)
			if m := ((q-lo8)&^q | (s-lo8)&^s | (w-0x20*lo8)&^w) & hi8; m != 0 {
				// the lowest flagged byte is exactly the first '"', '\\' or
				// control byte (borrows only flag bytes above it)
				k := bits.TrailingZeros64(m) >> 3
				if w&hi8 != 0 && k > 0 {
					w &= 1<<(uint(k)*8) - 1
					high |= w & hi8
					cont += bits.OnesCount64(w &^ (w << 1) & hi8)
				}
				i += k
				break
			}
			if w&hi8 != 0 {
				high |= w
				cont += bits.OnesCount64(w &^ (w << 1) & hi8)
			}
			i += 8
		}
		if i >= len(b) {
			return i, &SyntaxError{Offset: start, Msg: "unterminated string"}
		}
		switch c := b[i]; {
		case c == '"':
			i++
			body := b[start+1 : i-1]
			chars := len(body) - escBytes - cont + escChars
			if high&hi8 != 0 {
				flags |= NonASCII
				if !utf8.Valid(body) {
					flags |= BadUTF8
					chars = CountChars(b[start:i])
				}
			}
			t.Flags |= flags
			t.push(uint32(start), uint32(i), uint32(chars), uint32(cont), String, flags)
			return i, nil
		case c == '\\':
			flags |= Escaped
			if i+1 >= len(b) {
				return i, &SyntaxError{Offset: i, Msg: "unterminated string"}
			}
			switch b[i+1] {
			case '/':
				flags |= SlashEscaped
				i += 2
				escBytes += 2
				escChars++
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
				escBytes += 2
				escChars++
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i, &SyntaxError{Offset: i, Msg: `invalid \u escape`}
				}
				r := hex4(b[i+2:])
				flags |= UEscaped
				switch {
				case r >= 0xD800 && r < 0xDC00 && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' &&
					isHex(b[i+8]) && isHex(b[i+9]) && isHex(b[i+10]) && isHex(b[i+11]) &&
					hex4(b[i+8:]) >= 0xDC00 && hex4(b[i+8:]) < 0xE000:
					flags |= EscapedPair
					i += 12
					escBytes += 12
				case r >= 0xD800 && r < 0xE000:
					flags |= LoneSurrogate
					i += 6
					escBytes += 6
				default:
					i += 6
					escBytes += 6
				}
				escChars++
			default:
				return i, &SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid escape %q", b[i:i+2])}
			}
		case c < 0x20:
			return i, &SyntaxError{Offset: i, Msg: fmt.Sprintf("control character %#02x in a string", c)}
		default:
			if c >= 0x80 {
				high = 0x80
				if c&0xC0 == 0x80 {
					cont++
				}
			}
			i++
		}
	}
}

// CountChars is the number of code points of the JSON string raw (quotes
// included, valid JSON) once decoded as Go decodes it: an escape counts
// one, a surrogate pair one, a lone surrogate one (U+FFFD), each invalid
// UTF-8 byte one. It is the slow, obvious version of Node.Chars.
func CountChars(raw []byte) int {
	s := raw[1 : len(raw)-1]
	n := 0
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			_, size := utf8.DecodeRune(s[i:])
			i += size
			n++
			continue
		}
		n++
		if s[i+1] != 'u' {
			i += 2
			continue
		}
		r := hex4(s[i+2:])
		if r >= 0xD800 && r < 0xDC00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
				i += 12
				continue
			}
		}
		i += 6
	}
	return n
}
