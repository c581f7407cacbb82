// Package jsval reads JSON values as JavaScript's JSON.parse sees them and
// writes them as JSON.stringify does: object keys match exactly (case
// matters, unlike goccy/go-json and encoding/json struct decoding), the last
// of duplicate keys wins, types are checked like `typeof`, and Canonical
// re-serialises a value byte for byte as JSON.stringify(JSON.parse(v)) would
// (key order with integer-like keys first, escapes, number spelling).
//
// It works on raw JSON bytes that are already valid (pruner's session decoder
// validates every line); on invalid input it never panics, and readers
// report not-ok.
package jsval

import (
	"bytes"
	"github.com/pruner-dev/pruner/internal/jsonscan"
	"strconv"
	"unicode/utf8"
)

// Member is one key/value pair of an object, in source order.
type Member struct {
	Key   string // decoded key
	Value []byte // raw JSON value
}

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString and skipValue are the scanner's (valid JSON, vectorised).
func skipString(b []byte, i int) int { return jsonscan.SkipString(b, i) }

func skipValue(b []byte, i int) int { return jsonscan.SkipValue(b, i) }

// trim strips surrounding JSON whitespace.
func trim(v []byte) []byte {
	s := skipSpace(v, 0)
	e := len(v)
	for e > s {
		switch v[e-1] {
		case ' ', '\t', '\n', '\r':
			e--
			continue
		}
		break
	}
	return v[s:e]
}

// Members returns the members of the object obj in source order (duplicates
// included); ok is false when obj is not an object.
func Members(obj []byte) ([]Member, bool) {
	var out []Member
	ok := EachMember(obj, func(k string, v []byte) bool {
		out = append(out, Member{k, v})
		return true
	})
	return out, ok
}

// EachMember calls fn for each member of the object obj in source order
// until fn returns false; it reports whether obj is an object.
func EachMember(obj []byte, fn func(key string, value []byte) bool) bool {
	return eachMemberRaw(obj, func(rawKey, v []byte) bool {
		key, _ := String(rawKey)
		return fn(key, v)
	})
}

// EachMemberRaw is EachMember with each key as its raw JSON string (quotes
// and escapes included), not decoded: no allocation per member.
func EachMemberRaw(obj []byte, fn func(rawKey, value []byte) bool) bool {
	return eachMemberRaw(obj, fn)
}

// eachMemberRaw is EachMember with each key as its raw JSON string (quotes
// included), not decoded.
func eachMemberRaw(obj []byte, fn func(rawKey, value []byte) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) {
			return false
		}
		switch obj[i] {
		case '}':
			return true
		case ',':
			i++
			continue
		case '"':
		default:
			return false
		}
		ks := i
		i = skipString(obj, i)
		rawKey := obj[ks:i]
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		vs := i
		i = skipValue(obj, i)
		if !fn(rawKey, obj[vs:i]) {
			return true
		}
	}
}

// keyIs reports whether the raw JSON string rawKey decodes to key.
func keyIs(rawKey []byte, key string) bool {
	if len(rawKey) < 2 {
		return false
	}
	body := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body) == key
	}
	k, _ := String(rawKey)
	return k == key
}

// Object returns the members of the object obj by key (the last of
// duplicate keys wins, as with JSON.parse), in one pass; nil when obj is not
// an object.
func Object(obj []byte) map[string][]byte {
	m := map[string][]byte{}
	if !EachMember(obj, func(k string, v []byte) bool {
		m[k] = v
		return true
	}) {
		return nil
	}
	return m
}

// Get returns the raw value of key in the object obj: exact (case-sensitive)
// match, the last duplicate wins, as with JSON.parse.
func Get(obj []byte, key string) ([]byte, bool) {
	var val []byte
	found := false
	eachMemberRaw(obj, func(k, v []byte) bool {
		if keyIs(k, key) {
			val, found = v, true
		}
		return true
	})
	return val, found
}

// GetString returns the string value of key in the object obj (Get, then
// String): ok is false when the key is absent or its value is no string.
func GetString(obj []byte, key string) (string, bool) {
	v, ok := Get(obj, key)
	if !ok {
		return "", false
	}
	return String(v)
}

// Elements returns the raw elements of the array arr; ok is false when arr
// is not an array.
func Elements(arr []byte) ([][]byte, bool) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	i++
	var out [][]byte
	for {
		i = skipSpace(arr, i)
		if i >= len(arr) {
			return out, false
		}
		switch arr[i] {
		case ']':
			return out, true
		case ',':
			i++
			continue
		}
		s := i
		i = skipValue(arr, i)
		if i == s {
			return out, false
		}
		out = append(out, arr[s:i])
	}
}

// Type is a value's JavaScript typeof, with "array" and "null" told apart.
type Type uint8

// Value types.
const (
	Invalid Type = iota
	Null
	Bool
	Num
	Str
	Arr
	Obj
)

// TypeOf returns the type of the raw value v.
func TypeOf(v []byte) Type {
	v = trim(v)
	if len(v) == 0 {
		return Invalid
	}
	switch v[0] {
	case '"':
		return Str
	case '{':
		return Obj
	case '[':
		return Arr
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return Num
	}
	return Invalid
}

// String decodes a JSON string value (typeof "string"). Lone UTF-16
// surrogate escapes become U+FFFD (Go strings are UTF-8).
func String(v []byte) (string, bool) {
	v = trim(v)
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		if utf8.Valid(body) {
			return string(body), true
		}
		return string(bytes.ToValidUTF8(body, []byte("\uFFFD"))), true
	}
	out, ok := appendUnescaped(make([]byte, 0, len(body)), body)
	if !ok {
		return "", false
	}
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return string(out), true
}

// AppendStringValue appends the decoded JSON string value v to dst (String
// without the string: a reused buffer takes no allocation); ok is false when
// v is not a string. The bytes are valid UTF-8, as String's.
func AppendStringValue(dst, v []byte) ([]byte, bool) {
	v = trim(v)
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return dst, false
	}
	body := v[1 : len(v)-1]
	start := len(dst)
	if bytes.IndexByte(body, '\\') < 0 {
		dst = append(dst, body...)
	} else {
		var ok bool
		if dst, ok = appendUnescaped(dst, body); !ok {
			return dst[:start], false
		}
	}
	if !utf8.Valid(dst[start:]) {
		dst = append(dst[:start], bytes.ToValidUTF8(dst[start:], []byte("\uFFFD"))...)
	}
	return dst, true
}

// appendUnescaped appends the body of a JSON string (between its quotes)
// to out with its escapes decoded (a lone surrogate as U+FFFD); ok is false
// on a bad escape.
func appendUnescaped(out, body []byte) ([]byte, bool) {
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(body) {
			return out, false
		}
		switch body[i+1] {
		case '"', '\\', '/':
			out = append(out, body[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, ok := unicodeEscape(body[i:])
			if !ok {
				return out, false
			}
			if r >= 0xD800 && r <= 0xDFFF {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			i += n
			continue
		default:
			return out, false
		}
		i += 2
	}
	return out, true
}

// unicodeEscape decodes `\uXXXX` (and a following low surrogate escape when
// XXXX is a high surrogate) at the start of b. It returns the code point (a
// lone surrogate as itself), the bytes consumed and ok.
func unicodeEscape(b []byte) (rune, int, bool) {
	h, ok := hex4(b)
	if !ok {
		return 0, 0, false
	}
	if h >= 0xD800 && h <= 0xDBFF && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if l, ok := hex4(b[6:]); ok && l >= 0xDC00 && l <= 0xDFFF {
			return 0x10000 + (h-0xD800)<<10 + (l - 0xDC00), 12, true
		}
	}
	return h, 6, true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}

// Number decodes a JSON number value (typeof "number"); numbers too large
// for a float64 are ±Inf, as in JavaScript.
func Number(v []byte) (float64, bool) {
	v = trim(v)
	if TypeOf(v) != Num {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// Boolean decodes a JSON true or false.
func Boolean(v []byte) (value, ok bool) {
	switch string(trim(v)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// IsTrue reports whether v is the JSON literal true (JavaScript `=== true`).
func IsTrue(v []byte) bool { return string(trim(v)) == "true" }

// Truthy reports JavaScript truthiness of a raw value (absent is falsy).
func Truthy(v []byte) bool {
	v = trim(v)
	switch TypeOf(v) {
	case Invalid, Null:
		return false
	case Bool:
		return v[0] == 't'
	case Str:
		return len(v) > 2
	case Num:
		f, _ := Number(v)
		return f != 0 && f == f
	}
	return true
}

// UTF16Len is a string's JavaScript length (UTF-16 code units).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		// ASCII eight bytes at a time
		for i+8 <= len(s) && (uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56)&0x8080808080808080 == 0 {
			i += 8
			n += 8
		}
		if i >= len(s) {
			break
		}
		if s[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}

// RawUTF16Len is the JavaScript length of the JSON text raw (the length of
// the string JSON.stringify returns when raw is canonical).
func RawUTF16Len(raw []byte) int {
	n := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}
