package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendUnquoteValid is AppendUnquote of a JSON string the tape
// found valid UTF-8 (no BadUTF8 flag): the runs between escapes are copied
// without checking them again. A string cut short (not valid JSON) has its
// rest copied as it is.
func AppendUnquoteValid(dst, raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	dst = slices.Grow(dst, len(s))
	for {
		j := bytes.IndexByte(s, '\\')
		if j < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:j]...)
		if j+1 >= len(s) {
			return append(dst, s[j:]...)
		}
		switch c := s[j+1]; c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			if j+6 > len(s) {
				return append(dst, s[j:]...)
			}
			r := hex4(s[j+2:])
			if utf16.IsSurrogate(r) {
				if r < 0xDC00 && j+12 <= len(s) && s[j+6] == '\\' && s[j+7] == 'u' {
					if r2 := hex4(s[j+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
						dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
						s = s[j+12:]
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			s = s[j+6:]
			continue
		default: // " \ /
			dst = append(dst, c)
		}
		s = s[j+2:]
	}
}

// StringLens is the JavaScript length and the UTF-8 length of the JSON
// string raw (quotes included, valid UTF-8) as AppendUnquoteValid decodes
// it, without decoding it: the lengths of the raw text, less what each
// escape takes beyond what it decodes to.
func StringLens(raw []byte) (chars, n int) {
	s := raw[1 : len(raw)-1]
	chars, n = utf16Len(s), len(s)
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			return chars, n
		}
		i += j
		switch {
		case i+1 >= len(s) || s[i+1] == 'u' && i+6 > len(s):
			return chars, n // a string cut short: its rest as it is
		case s[i+1] != 'u':
			chars, n = chars-1, n-1
			i += 2
			continue
		}
		r := hex4(s[i+2:])
		if utf16.IsSurrogate(r) {
			if r < 0xDC00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
					chars, n = chars-10, n-(12-4) // a pair: two units, four bytes
					i += 12
					continue
				}
			}
			r = utf8.RuneError
		}
		chars, n = chars-5, n-(6-utf8.RuneLen(r))
		i += 6
	}
}

// EscapedPairs is the number of surrogate pairs written as two \u escapes
// in the JSON string raw (quotes included): each decodes to one code point
// that JavaScript counts as two UTF-16 units.
func EscapedPairs(raw []byte) int {
	s := raw[1 : len(raw)-1]
	pairs := 0
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 || i+j+1 >= len(s) {
			return pairs
		}
		i += j
		if s[i+1] != 'u' || i+12 > len(s) {
			i += 2 // (a \u escape's hex digits are no backslash)
			continue
		}
		if r := hex4(s[i+2:]); r >= 0xD800 && r < 0xDC00 && s[i+6] == '\\' && s[i+7] == 'u' {
			if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
				pairs++
				i += 12
				continue
			}
		}
		i += 6
	}
}

// Astral is the number of bytes >= 0xF0 in raw: in valid UTF-8, the code
// points beyond U+FFFF written as they are (four bytes, one code point,
// two UTF-16 units), eight bytes at a time.
func Astral(raw []byte) int {
	n := 0
	for len(raw) >= 8 {
		w := binary.LittleEndian.Uint64(raw)
		n += bits.OnesCount64(w & (w << 1) & (w << 2) & (w << 3) & hi8) // the top four bits of a byte set
		raw = raw[8:]
	}
	for _, c := range raw {
		if c >= 0xF0 {
			n++
		}
	}
	return n
}

// utf16Len is the JavaScript length of valid UTF-8 text: one unit per code
// point, two for one of four bytes.
func utf16Len(s []byte) int {
	n := utf8.RuneCount(s)
	for _, c := range s {
		if c >= 0xF0 {
			n++
		}
	}
	return n
}
