package jsonscan

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// strScanRef is the obvious version of strScanAVX2: the same stops (\/ is no
// simple escape: the Go loop flags it, SlashEscaped), byte by
// byte, over the same whole 32-byte windows (b[:len(b)&^31]): an escape
// whose second byte is past them is not taken.
func strScanRef(b []byte) (n, cont, esc int, high bool) {
	end := len(b) &^ 31
	i := 0
	for i < end {
		c := b[i]
		switch {
		case c == '"' || c < 0x20:
			return i, cont, esc, high
		case c == '\\':
			if i+1 >= end || !strings.ContainsRune(`n"\trbf`, rune(b[i+1])) {
				return i, cont, esc, high
			}
			esc++
			i += 2
			continue
		}
		if c >= 0x80 {
			high = true
			if c&0xC0 == 0x80 {
				cont++
			}
		}
		i++
	}
	return i, cont, esc, high
}

func FuzzStrScan(f *testing.F) {
	for _, s := range []string{strings.Repeat("a", 40) + `"`, strings.Repeat(`ab\n`, 30), strings.Repeat("é", 40) + `\u0041` + strings.Repeat("x", 40),
		strings.Repeat("x", 31) + `\`, strings.Repeat("\xff\x80", 20) + "\x01", strings.Repeat(`\\`, 40) + `\"`,
		strings.Repeat("x", 31) + `\n` + strings.Repeat("y", 40), strings.Repeat("x", 31) + `\u0041` + strings.Repeat("y", 40),
		strings.Repeat("x", 31) + `\` + "\x01" + strings.Repeat("y", 40), strings.Repeat("x", 30) + `\\\"` + strings.Repeat("y", 40),
		strings.Repeat("x", 63) + `\` + strings.Repeat(`\\`, 20) + `"`, strings.Repeat(`a\"b\\c\/\té`, 12) + `\q`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !haveAVX2() {
			t.Skip("no AVX2")
		}
		n, c, e, h := strScanAVX2(b)
		rn, rc, re, rh := strScanRef(b)
		if n != rn || c != rc || e != re || h != rh {
			t.Fatalf("strScanAVX2(%q) = %d %d %d %v, reference %d %d %d %v", b, n, c, e, h, rn, rc, re, rh)
		}
	})
}

// appendUnquoteByByte is AppendUnquote as first written, a character at a
// time: the reference for the one that copies runs.
func appendUnquoteByByte(dst, raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				dst = append(dst, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
			continue
		}
		switch s[i+1] {
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
			r := hex4(s[i+2:])
			if utf16.IsSurrogate(r) {
				if r < 0xDC00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
						dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
						i += 12
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default:
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

func FuzzAppendUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\u0041\/\n\"\\ b"`, "\"\xff\xfe bad \xe2\x82 \\n x\"", `"\ud800\udc00\ud83d x"`, `"é€😀"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var tp Tape
		if tp.Parse(in) != nil || tp.Nodes[0].Kind != String {
			return
		}
		if got, want := AppendUnquote(nil, in), appendUnquoteByByte(nil, in); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", in, got, want)
		}
	})
}
