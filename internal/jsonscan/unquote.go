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
		r, next := escapeAt(s, j)
		if next < 0 {
			return append(dst, s[j:]...)
		}
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		s = s[next:]
	}
}

// escapeAt decodes the escape at s[j] (a backslash) of a JSON string's
// body as JSON.parse does: the code point it stands for (a pair of \u
// escapes is one code point, a lone surrogate U+FFFD) and the index past
// it; next is -1 when the body ends inside the escape (a string cut
// short). AppendUnquoteValid, AppendUnquoteText and AppendUnquote decode
// their escapes through it.
func escapeAt(s []byte, j int) (r rune, next int) {
	if j+1 >= len(s) {
		return 0, -1
	}
	switch c := s[j+1]; c {
	case 'b':
		return '\b', j + 2
	case 'f':
		return '\f', j + 2
	case 'n':
		return '\n', j + 2
	case 'r':
		return '\r', j + 2
	case 't':
		return '\t', j + 2
	case 'u':
		if j+6 > len(s) {
			return 0, -1
		}
		r := hex4(s[j+2:])
		if utf16.IsSurrogate(r) {
			if r < 0xDC00 && j+12 <= len(s) && s[j+6] == '\\' && s[j+7] == 'u' {
				if r2 := hex4(s[j+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
					return utf16.DecodeRune(r, r2), j + 12
				}
			}
			return utf8.RuneError, j + 6
		}
		return r, j + 6
	default: // " \ /
		return rune(c), j + 2
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
	for len(raw) >= 32 {
		// four words at a time, skipped when all ASCII (most text is)
		w0, w1 := binary.LittleEndian.Uint64(raw), binary.LittleEndian.Uint64(raw[8:])
		w2, w3 := binary.LittleEndian.Uint64(raw[16:]), binary.LittleEndian.Uint64(raw[24:])
		if (w0|w1|w2|w3)&hi8 != 0 {
			n += bits.OnesCount64(w0&(w0<<1)&(w0<<2)&(w0<<3)&hi8) + bits.OnesCount64(w1&(w1<<1)&(w1<<2)&(w1<<3)&hi8) +
				bits.OnesCount64(w2&(w2<<1)&(w2<<2)&(w2<<3)&hi8) + bits.OnesCount64(w3&(w3<<1)&(w3<<2)&(w3<<3)&hi8)
		}
		raw = raw[32:]
	}
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

// Text flags (AppendUnquoteText): what the decoded text holds that a hash of
// it normalised (CRLF, blanks before line breaks) would change.
const (
	// TextCR: the text holds a '\r'.
	TextCR uint8 = 1 << iota
	// TextBlankEOL: a '\n' after the text's first byte follows a ' ' or a
	// '\t'.
	TextBlankEOL
)

// unquoteWords is AppendUnquoteText's loop (and the test's in-place
// decoder's) once the text is written at least
// eight bytes behind the body (b[w] at or before b[start+1+i-8]): each
// word of the body is stored at w as it is read — it lands on bytes
// already read, and the bytes of it past a backslash are written over by
// what comes next — and the short escapes (\n \t \" \\ \r \/ \b \f) are
// decoded here, by table (shortEscapes: no branch on the kind); it returns
// at a \u escape (i at its backslash) or with fewer than eight bytes of the
// body left, for the caller's loop to go on with (the gap only grows). The
// text starts at b[start] (a line break at its start follows no blank).
// AppendUnquoteText runs it with b apart from s, where any gap will do.
func unquoteWords(b, s []byte, start, w, i int, flags uint8) (int, int, uint8) {
	for i >= 0 && i <= len(s)-8 && w >= 0 && w <= len(b)-8 {
		x := binary.LittleEndian.Uint64(s[i : i+8])
		binary.LittleEndian.PutUint64(b[w:w+8], x)
		y := x ^ 0x5c*lo8
		m := (y - lo8) &^ y & hi8
		if m == 0 {
			w, i = w+8, i+8
			continue
		}
		k := bits.TrailingZeros64(m) >> 3
		w, i = w+k, i+k
		if i+1 >= len(s) {
			break
		}
		c := shortEscapes[s[i+1]]
		if c == 0 {
			return w, i, flags // \u (or not an escape): the caller's
		}
		if c == '\r' {
			flags |= TextCR
		}
		if c == '\n' && w > start && (b[w-1] == ' ' || b[w-1] == '\t') {
			flags |= TextBlankEOL
		}
		b[w] = c
		w, i = w+1, i+2
	}
	return w, i, flags
}

// shortEscapes is what the two-byte escape \x decodes to, by x (0: none;
// \u is not one).
var shortEscapes = [256]byte{'n': '\n', 't': '\t', '"': '"', '\\': '\\', '/': '/', 'r': '\r', 'b': '\b', 'f': '\f'}

// AppendUnquoteText is AppendUnquoteValid(dst, raw) with the text's flags,
// decoding words at a time: the JSON string raw (quotes included; valid UTF-8, as the tape
// found it) decoded onto dst's end, and the text's flags (TextCR,
// TextBlankEOL). Words of the body are stored at the text's end as they are
// read (dst has room for the whole body: the text never outgrows it), the
// short escapes decoded by table; a string cut short (not valid JSON) has
// its rest copied as it is.
func AppendUnquoteText(dst, raw []byte) ([]byte, uint8) {
	return appendUnquoteText(dst, raw, len(raw) >= 66 && haveAVX2()) // (a shorter body: a window or none)
}

// appendUnquoteText is AppendUnquoteText, its windows decoded by
// unquoteAVX2 when avx2 (only where haveAVX2()), else by unquoteWords.
func appendUnquoteText(dst, raw []byte, avx2 bool) ([]byte, uint8) {
	if len(raw) < 2 {
		return append(dst, raw...), 0
	}
	s := raw[1 : len(raw)-1]
	n0 := len(dst)
	b := slices.Grow(dst, len(s))[:n0+len(s)]
	w, i, flags := n0, 0, uint8(0)
	for {
		// (b is separate from s: a word or window stored at w overwrites
		// nothing unread, and fits, the text never longer than the body
		// read)
		if avx2 {
			w, i, flags = unquoteAVX2(b, s, n0, w, i, flags)
		}
		w, i, flags = unquoteWords(b, s, n0, w, i, flags)
		if i >= len(s) {
			return b[:w], flags
		}
		if s[i] != '\\' {
			b[w] = s[i]
			w, i = w+1, i+1
			continue
		}
		r, next := escapeAt(s, i)
		if next < 0 {
			break // cut short
		}
		switch r {
		case '\n':
			if w > n0 && (b[w-1] == ' ' || b[w-1] == '\t') {
				flags |= TextBlankEOL
			}
		case '\r':
			flags |= TextCR
		}
		if r < utf8.RuneSelf {
			b[w] = byte(r)
			w++
		} else {
			w += utf8.EncodeRune(b[w:], r)
		}
		i = next
	}
	w += copy(b[w:], s[i:])
	return b[:w], flags
}
