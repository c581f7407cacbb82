package jsonscan

import (
	"strings"
	"testing"
)

// strScanRef is the obvious version of strScanAVX2: the same stops, byte by
// byte, with the same 32-byte window rule (it only looks at bytes that have
// 32 bytes from their window start to the end of b).
func strScanRef(b []byte) (n, cont, esc int, high bool) {
	i, blk := 0, 0
	for {
		if len(b)-blk < 32 {
			return i, cont, esc, high
		}
		for i < blk+32 {
			c := b[i]
			switch {
			case c == '"' || c < 0x20:
				return i, cont, esc, high
			case c == '\\':
				if i+1 >= len(b) || !strings.ContainsRune(`n"\t/rbf`, rune(b[i+1])) {
					return i, cont, esc, high
				}
				esc++
				i += 2
				blk = i
				goto next
			}
			if c >= 0x80 {
				high = true
				if c&0xC0 == 0x80 {
					cont++
				}
			}
			i++
		}
		blk = i
	next:
	}
}

func FuzzStrScan(f *testing.F) {
	for _, s := range []string{strings.Repeat("a", 40) + `"`, strings.Repeat(`ab\n`, 30), strings.Repeat("é", 40) + `\u0041` + strings.Repeat("x", 40),
		strings.Repeat("x", 31) + `\`, strings.Repeat("\xff\x80", 20) + "\x01", strings.Repeat(`\\`, 40) + `\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !haveAVX2 {
			t.Skip("no AVX2")
		}
		n, c, e, h := strScanAVX2(b)
		rn, rc, re, rh := strScanRef(b)
		if n != rn || c != rc || e != re || h != rh {
			t.Fatalf("strScanAVX2(%q) = %d %d %d %v, reference %d %d %d %v", b, n, c, e, h, rn, rc, re, rh)
		}
	})
}
