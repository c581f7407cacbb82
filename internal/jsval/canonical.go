package jsval

import (
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as JSON.stringify writes a string: `"` and `\`
// escaped, \b \f \n \r \t short forms, other control characters as \u00xx,
// everything else as raw UTF-8 (invalid bytes as U+FFFD).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && plainWord(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscapedASCII(dst, c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainWord reports whether the eight bytes of w (little-endian) are all
// written as they are in a JSON string: printable ASCII, neither a quote
// nor a backslash. (Each test is exact for "some byte": a borrow flags
// only bytes above one that is flagged itself.)
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := w^(ones*'"'), w^(ones*'\\')
	return (w|(w-ones*0x20)&^w|(q-ones)&^q|(b-ones)&^b)&highs == 0
}

func appendEscapedASCII(dst []byte, c byte) []byte {
	switch c {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	if c < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(dst, c)
}

// appendCanonicalString re-encodes the raw JSON string v as JSON.stringify
// would write the string JSON.parse reads from it — except that a lone
// surrogate escape becomes U+FFFD (as invalid UTF-8 does), where the
// well-formed JSON.stringify writes it back as an escape: Anthropic's and
// OpenAI's parsers reject such a string with a 400 (case 007), so neither a
// line pruner writes nor a text it renders holds one.
func appendCanonicalString(dst, v []byte) []byte {
	body := v[1 : len(v)-1]
	dst = append(dst, '"')
	start := 0 // body[start:i] is copied as it is
	for i := 0; i < len(body); {
		for i+8 <= len(body) && plainWord(binary.LittleEndian.Uint64(body[i:])) {
			i += 8
		}
		if i >= len(body) {
			break
		}
		c := body[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, body[start:i]...)
				dst = append(dst, "\uFFFD"...)
				start = i + 1
			}
			i += size
			continue
		}
		dst = append(dst, body[start:i]...)
		switch {
		case c == '\\' && i+1 < len(body):
			switch body[i+1] {
			case 'u':
				r, n, ok := unicodeEscape(body[i:])
				if !ok {
					dst = append(dst, body[i:i+2]...)
					i += 2
					break
				}
				switch {
				case r < utf8.RuneSelf:
					dst = appendEscapedASCII(dst, byte(r))
				case r >= 0xD800 && r <= 0xDFFF:
					// a lone surrogate: U+FFFD, where JSON.stringify
					// would write the escape (which strict parsers
					// reject: no line pruner writes holds one)
					dst = append(dst, "\uFFFD"...)
				default:
					dst = utf8.AppendRune(dst, r)
				}
				i += n
			case '/':
				dst = append(dst, '/')
				i += 2
			default: // " \ b f n r t: already canonical
				dst = append(dst, body[i:i+2]...)
				i += 2
			}
		default:
			dst = appendEscapedASCII(dst, c)
			i++
		}
		start = i
	}
	dst = append(dst, body[start:]...)
	return append(dst, '"')
}

// AppendNumber appends f as JavaScript's Number.prototype.toString writes
// it (what JSON.stringify writes for a finite number); NaN and ±Infinity
// are written as null, as JSON.stringify does.
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0') // also -0
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// shortest round-trip digits and exponent: d.ddde±x
	e := strconv.AppendFloat(nil, f, 'e', -1, 64)
	mant, exp := e, 0
	for i, c := range e {
		if c == 'e' {
			mant = e[:i]
			exp, _ = strconv.Atoi(string(e[i+1:]))
			break
		}
	}
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	k := len(digits)
	n := exp + 1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// FormatNumber is AppendNumber as a string (also what `${n}` gives in
// JavaScript for a finite number).
func FormatNumber(f float64) string { return string(AppendNumber(nil, f)) }

// arrayIndex reports whether an object key is an array index (a canonical
// decimal below 2³²−1): JavaScript orders such keys first, ascending.
func arrayIndex(k string) (uint32, bool) {
	if k == "" || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	// digits parsed here, not by strconv: a key that is not a number
	// (nearly every key) made strconv allocate its error (1 GB: ~6 MB of
	// them in the render's rewritten messages)
	n := uint64(0)
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return uint32(n), true
}

// AppendCanonical appends JSON.stringify(JSON.parse(v)) for the valid JSON
// value v: strings re-escaped, numbers respelt, objects with duplicate keys
// collapsed (first position, last value) and integer-like keys moved first in
// ascending order. Invalid input is copied as it is.
func AppendCanonical(dst, v []byte) []byte {
	v = trim(v)
	switch TypeOf(v) {
	case Str:
		if len(v) < 2 || v[len(v)-1] != '"' {
			return append(dst, v...)
		}
		return appendCanonicalString(dst, v)
	case Num:
		if plainInteger(v) {
			return append(dst, v...) // JSON.stringify writes it as it is
		}
		f, ok := Number(v)
		if !ok {
			return append(dst, v...)
		}
		return AppendNumber(dst, f)
	case Null, Bool:
		return append(dst, v...)
	case Arr:
		els, ok := Elements(v)
		if !ok {
			return append(dst, v...)
		}
		dst = append(dst, '[')
		for i, el := range els {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanonical(dst, el)
		}
		return append(dst, ']')
	case Obj:
		if out, ok := appendPlainObject(dst, v); ok {
			return out
		}
		ms, ok := Members(v)
		if !ok {
			return append(dst, v...)
		}
		return AppendObject(dst, ms)
	}
	return append(dst, v...)
}

// plainMembers is how many members appendPlainObject takes.
const plainMembers = 16

// appendPlainObject is AppendObject of the object v when its members are
// few (≤ plainMembers), their keys plain (printable ASCII without quote or
// backslash: each decodes to its own bytes and JSON.stringify writes it
// back as it is), none an array index (no reordering) and none repeated:
// the keys are copied, the values canonicalised. ok is false, with dst
// untouched, for any other object.
func appendPlainObject(dst, v []byte) ([]byte, bool) {
	var keys, vals [plainMembers][]byte
	n := 0
	plain := eachMemberRaw(v, func(rawKey, value []byte) bool {
		if n == plainMembers || !plainKey(rawKey) {
			n = -1
			return false
		}
		for _, k := range keys[:n] {
			if string(k) == string(rawKey) {
				n = -1
				return false
			}
		}
		keys[n], vals[n] = rawKey, value
		n++
		return true
	})
	if !plain || n < 0 {
		return dst, false
	}
	dst = append(dst, '{')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, keys[i]...)
		dst = append(dst, ':')
		dst = AppendCanonical(dst, vals[i])
	}
	return append(dst, '}'), true
}

// plainKey reports whether the raw JSON string rawKey (quotes included) is
// printable ASCII without escapes and not an array index.
func plainKey(rawKey []byte) bool {
	if len(rawKey) < 2 || rawKey[len(rawKey)-1] != '"' {
		return false
	}
	body := rawKey[1 : len(rawKey)-1]
	digits := len(body) > 0
	for _, c := range body {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
		if c < '0' || c > '9' {
			digits = false
		}
	}
	if digits {
		_, isIndex := arrayIndex(string(body))
		return !isIndex
	}
	return true
}

// smallObject is the member count up to which AppendObject finds duplicate
// keys by comparison.
const smallObject = 16

// AppendObject appends the canonical JSON of an object built from members
// in the given order (as a JavaScript object literal or spread would hold
// them): duplicate keys keep their first position and last value,
// integer-like keys go first, values are canonicalised.
func AppendObject(dst []byte, ms []Member) []byte {
	var order []Member
	if len(ms) <= smallObject {
		// a few keys: duplicates found by comparison, no map; without
		// duplicates the members are the order (read, never written)
		order = ms
	scan:
		for i := 1; i < len(ms); i++ {
			for j := range i {
				if ms[j].Key == ms[i].Key {
					order = dedupMembers(ms)
					break scan
				}
			}
		}
	} else {
		order = make([]Member, 0, len(ms))
		pos := make(map[string]int, len(ms))
		for _, m := range ms {
			if i, ok := pos[m.Key]; ok {
				order[i].Value = m.Value
				continue
			}
			pos[m.Key] = len(order)
			order = append(order, m)
		}
	}
	var ints []int
	for i, m := range order {
		if _, ok := arrayIndex(m.Key); ok {
			ints = append(ints, i)
		}
	}
	if len(ints) > 0 {
		sort.SliceStable(ints, func(a, b int) bool {
			x, _ := arrayIndex(order[ints[a]].Key)
			y, _ := arrayIndex(order[ints[b]].Key)
			return x < y
		})
		sorted := make([]Member, 0, len(order))
		isInt := make(map[int]bool, len(ints))
		for _, i := range ints {
			sorted = append(sorted, order[i])
			isInt[i] = true
		}
		for i, m := range order {
			if !isInt[i] {
				sorted = append(sorted, m)
			}
		}
		order = sorted
	}
	dst = append(dst, '{')
	for i, m := range order {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = AppendCanonical(dst, m.Value)
	}
	return append(dst, '}')
}

// dedupMembers keeps each key's first position and last value.
func dedupMembers(ms []Member) []Member {
	order := make([]Member, 0, len(ms))
next:
	for _, m := range ms {
		for i := range order {
			if order[i].Key == m.Key {
				order[i].Value = m.Value
				continue next
			}
		}
		order = append(order, m)
	}
	return order
}

// plainInteger reports whether v is an integer literal that
// Number.prototype.toString writes back byte for byte: "0", or an optional
// minus and 1 to 15 digits without a leading zero (exact in a float64).
func plainInteger(v []byte) bool {
	d := v
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || d[0] == '0' && (len(d) > 1 || len(v) > 1) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Canonical returns JSON.stringify(JSON.parse(v)).
// The result is rarely longer than v (white space and escapes go), so v's
// length is allocated once.
func Canonical(v []byte) []byte { return AppendCanonical(make([]byte, 0, len(v)), v) }

// PlainKey reports whether the raw JSON string rawKey (quotes included) is
// an object key JSON.stringify writes back byte for byte without moving it:
// printable ASCII without quote or backslash, not an array index.
func PlainKey(rawKey []byte) bool { return plainKey(rawKey) }

// PlainInteger reports whether the raw JSON number v is an integer
// JSON.stringify writes back as it is (AppendCanonical copies it).
func PlainInteger(v []byte) bool { return plainInteger(v) }
