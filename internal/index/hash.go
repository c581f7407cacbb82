package index

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"unsafe"
)

// ContentHash is pi-condense's dedup key of a tool result: the hex SHA-1 of
// toolName, a NUL byte and the normalised text (CRLF → LF, trailing spaces
// and tabs stripped from every line, then JavaScript's trim of the whole).
// Two results with the same hash are the same output for dedup.
func ContentHash(toolName, resultText string) string {
	return hashNormalized(toolName, appendNormalized(make([]byte, 0, len(resultText)), resultText))
}

// hashNormalized is ContentHash of a text already normalised.
func hashNormalized(toolName string, normalized []byte) string {
	h := sha1.New()
	h.Write([]byte(toolName))
	h.Write([]byte{0})
	h.Write(normalized)
	var sum [sha1.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

// appendNormalized appends the text ContentHash hashes: every "\r\n" made
// "\n", trailing spaces and tabs cut from every line, then JavaScript's
// trim of the whole.
func appendNormalized(dst []byte, s string) []byte {
	start := len(dst)
	for len(s) > 0 {
		line, rest, more := strings.Cut(s, "\n")
		if more && strings.HasSuffix(line, "\r") {
			line = line[:len(line)-1] // the \r of a \r\n
		}
		dst = append(dst, strings.TrimRight(line, " \t")...)
		if more {
			dst = append(dst, '\n')
		}
		s = rest
	}
	trimmed := bytes.TrimFunc(dst[start:], isJSWhitespace)
	n := copy(dst[start:], trimmed)
	return dst[:start+n]
}

// appendNormalizedBytes is appendNormalized of a text in bytes (read in
// place, not copied: appendNormalized only reads it).
func appendNormalizedBytes(dst, s []byte) []byte {
	return appendNormalized(dst, unsafe.String(unsafe.SliceData(s), len(s)))
}

// isJSWhitespace is the set String.prototype.trim removes (WhiteSpace and
// LineTerminator of ECMA-262).
func isJSWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
