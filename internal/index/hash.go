package index

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// ContentHash is pi-condense's dedup key of a tool result: the hex SHA-1 of
// toolName, a NUL byte and the normalised text (CRLF → LF, trailing spaces
// and tabs stripped from every line, then JavaScript's trim of the whole).
// Two results with the same hash are the same output for dedup.
func ContentHash(toolName, resultText string) string {
	h := sha1.New()
	h.Write([]byte(toolName))
	h.Write([]byte{0})
	h.Write([]byte(normalizeForHash(resultText)))
	return hex.EncodeToString(h.Sum(nil))
}

func normalizeForHash(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimFunc(strings.Join(lines, "\n"), isJSWhitespace)
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
