package prune

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHeadTail: the byte-offset cuts are the cuts of the code-point slice
// (the excerpt of an error result reads the same), for any text and width.
func FuzzHeadTail(f *testing.F) {
	for _, s := range []string{"", "abc", "héllo wörld", "e\u0301e\u0301e\u0301e\u0301", "👩\u200d👩\u200d👧 family 👍🏽 ok", "a\ufe0fb\ufe0fc", "\xff\xfeab", strings.Repeat("日本語", 50)} {
		for _, n := range []int{0, 1, 2, 3, 5, 40} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1<<12 {
			return
		}
		h, tl := headTail(s, n)
		wh, wt := headTailRunes(s, n)
		if h != wh || tl != wt {
			t.Fatalf("headTail(%q, %d) = %q, %q; on code points %q, %q", s, n, h, tl, wh, wt)
		}
		if utf8.ValidString(s) && !strings.HasPrefix(s, h) {
			t.Fatalf("head %q is not a prefix of %q", h, s)
		}
	})
}
