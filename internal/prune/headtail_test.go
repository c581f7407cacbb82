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
		h, tl, om := headTail(s, n)
		wh, wt, wom := headTailRunes(s, n)
		if h != wh || tl != wt || om != wom {
			t.Fatalf("headTail(%q, %d) = %q, %q, %d; on code points %q, %q, %d", s, n, h, tl, om, wh, wt, wom)
		}
		// omitted is what the excerpt's notice said before it was returned
		if want := utf8.RuneCountInString(s) - utf8.RuneCountInString(h) - utf8.RuneCountInString(tl); om != want {
			t.Fatalf("headTail(%q, %d): %d omitted, counted %d", s, n, om, want)
		}
		if utf8.ValidString(s) && !strings.HasPrefix(s, h) {
			t.Fatalf("head %q is not a prefix of %q", h, s)
		}
	})
}
