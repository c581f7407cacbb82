package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAppendUnquoteValid: on a JSON string of valid UTF-8, the unquote that
// trusts the text decodes as AppendUnquote does (and unquoteInPlace as it
// does, with the text's flags), and EscapedPairs counts the escaped
// surrogate pairs.
func FuzzAppendUnquoteValid(f *testing.F) {
	for _, s := range []string{`""`, `"a\nb"`, `"a \nb\t\n\r\n"`, `"\n \u000a\t\u000Ax\u000d"`, `"\ud800\ud800\udc00 é\\n"`, `"0123456789abcdef\"0123456789\\"`, `"\ud83d\ude00x"`, `"\ud83d"`, `"é\u00e9😀"`, `"\\\"\/\b\f\r\t"`,
		`"0123456789\n\n\n\n\n\n\n\n\n \nabcdefgh\t\"\\\/\r\b\fxyz\u0041\ud83d\ude00 \t\n012345678\n"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var v string
		if !utf8.ValidString(raw) || json.Unmarshal([]byte(raw), &v) != nil || len(raw) < 2 || raw[0] != '"' {
			return
		}
		b := []byte(raw)
		got := AppendUnquoteValid([]byte("pre"), b)
		if want := AppendUnquote([]byte("pre"), b); string(got) != string(want) {
			t.Fatalf("%q: got %q, want %q", raw, got, want)
		}
		text := got[3:]
		in, flags := unquoteInPlace(append([]byte("pre"), b...), 3)
		if string(in) != string(got) {
			t.Fatalf("%q: unquoteInPlace %q, want %q", raw, in, got)
		}
		if at, atFlags := AppendUnquoteText([]byte("pre"), b); string(at) != string(got) || atFlags != flags {
			t.Fatalf("%q: AppendUnquoteText %q (flags %b), want %q (%b)", raw, at, atFlags, got, flags)
		}
		if want := textFlags(text); flags != want {
			t.Fatalf("%q: unquoteInPlace flags %b, want %b", raw, flags, want)
		}
		pairs := 0
		for _, r := range string(text) {
			if r > 0xFFFF {
				pairs++
			}
		}
		if raw := []rune(string(b)); EscapedPairs(b) > pairs {
			t.Fatalf("%q: EscapedPairs %d, more than the %d pairs decoded", string(raw), EscapedPairs(b), pairs)
		}
	})
}

// textFlags is the reference of unquoteInPlace's flags: the decoded text
// searched.
func textFlags(text []byte) uint8 {
	var f uint8
	if bytes.IndexByte(text, '\r') >= 0 {
		f |= TextCR
	}
	for i := 1; i < len(text); i++ {
		if text[i] == '\n' && (text[i-1] == ' ' || text[i-1] == '\t') {
			f |= TextBlankEOL
		}
	}
	return f
}

// TestUnquoteTextLong: on long strings dense with escapes (where
// unquoteInPlace copies words and decodes short escapes in unquoteWords,
// the text far enough behind), it decodes as AppendUnquote does, with the
// flags textFlags finds, and so does AppendUnquoteText; cut short, the two
// copy the same rest.
func TestUnquoteTextLong(t *testing.T) {
	pieces := []string{`\n`, `\t`, `\"`, `\\`, `\/`, `\r`, `\b`, `\f`, `\u0041`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, ` `, "é", "😀", "a", "bc", "0123456789", " \\n", "\\t\\n"}
	rng := rand.New(rand.NewPCG(11, 33))
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		sb.WriteByte('"')
		for k := rng.IntN(80); k > 0; k-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		sb.WriteByte('"')
		raw := sb.String()
		if !json.Valid([]byte(raw)) {
			t.Fatalf("%q: not JSON", raw)
		}
		want := AppendUnquote([]byte("pre"), []byte(raw))
		got, flags := unquoteInPlace(append([]byte("pre"), raw...), 3)
		if string(got) != string(want) {
			t.Fatalf("%q: unquoteInPlace %q, want %q", raw, got, want)
		}
		if wf := textFlags(want[3:]); flags != wf {
			t.Fatalf("%q: flags %b, want %b", raw, flags, wf)
		}
		at, atFlags := AppendUnquoteText([]byte("pre"), []byte(raw))
		if string(at) != string(want) || atFlags != flags {
			t.Fatalf("%q: AppendUnquoteText %q (flags %b), want %q (%b)", raw, at, atFlags, want, flags)
		}
		// cut short (not JSON): the rest copied as it is, as unquoteInPlace copies it
		if cut := raw[:len(raw)-1-rng.IntN(min(len(raw)-1, 4))]; len(cut) >= 2 {
			want, wf := unquoteInPlace(append([]byte("pre"), cut...), 3)
			if at, af := AppendUnquoteText([]byte("pre"), []byte(cut)); string(at) != string(want) || af != wf {
				t.Fatalf("%q: AppendUnquoteText %q (flags %b), unquoteInPlace %q (%b)", cut, at, af, want, wf)
			}
		}
	}
}

// TestAstralBytes: Astral counts the bytes >= 0xF0, whatever their place
// in a word or a run of four words (ASCII runs skipped).
func TestAstralBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 5000; n++ {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			switch rng.IntN(8) {
			case 0:
				b[i] = byte(0x80 + rng.IntN(0x80))
			default:
				b[i] = byte(rng.IntN(0x80))
			}
		}
		want := 0
		for _, c := range b {
			if c >= 0xF0 {
				want++
			}
		}
		if got := Astral(b); got != want {
			t.Fatalf("% x: Astral %d, want %d", b, got, want)
		}
	}
}

// unquoteInPlace decodes the JSON string b[start:] (quotes included; one
// the tape found valid UTF-8, as AppendUnquoteValid takes) over itself: it
// returns b[:start] and the decoded text, AppendUnquoteValid(b[:start],
// b[start:]) without a second buffer, and the text's flags (TextCR,
// TextBlankEOL). A JSON string holds no raw line break or carriage return:
// each the text holds is an escape, seen as it is decoded. The text never
// outgrows the JSON (each escape is at least as long as what it decodes
// to), so each write lands on bytes already read. It was the flush's
// decoder before AppendUnquoteText; kept here as the second driver of
// unquoteWords the tests compare AppendUnquoteText with (cut-short strings).
func unquoteInPlace(b []byte, start int) ([]byte, uint8) {
	if len(b)-start < 2 {
		return b, 0
	}
	s := b[start+1 : len(b)-1] // the body, read at i; the text written at w
	w, i, flags := start, 0, uint8(0)
	newline := func() {
		if w > start && (b[w-1] == ' ' || b[w-1] == '\t') {
			flags |= TextBlankEOL
		}
	}
	for {
		// the text is written behind where the body is read (b[start+1+i]),
		// and more so after each escape: once eight bytes behind, words are
		// copied whole and short escapes decoded by unquoteWords, until a
		// \u escape or the body's last bytes, which this loop takes on
		if start+1+i-w >= 8 {
			w, i, flags = unquoteWords(b, s, start, w, i, flags)
		}
		// the next backslash: in the next four words eight bytes at a
		// time (most runs are a line: short), else by IndexByte
		j := i
		for k := 0; k < 4 && j+8 <= len(s); k++ {
			x := binary.LittleEndian.Uint64(s[j:]) ^ 0x5c*lo8
			if m := (x - lo8) &^ x & hi8; m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				goto found
			}
			j += 8
		}
		if k := bytes.IndexByte(s[j:], '\\'); k >= 0 {
			j += k
		} else {
			w += copy(b[w:], s[i:])
			return b[:w], flags
		}
	found:
		w += copy(b[w:], s[i:j])
		if j+1 >= len(s) {
			w += copy(b[w:], s[j:])
			return b[:w], flags
		}
		r, next := escapeAt(s, j)
		if next < 0 {
			w += copy(b[w:], s[j:])
			return b[:w], flags
		}
		i = next
		switch r {
		case '\n':
			newline()
		case '\r':
			flags |= TextCR
		}
		if r < utf8.RuneSelf {
			b[w] = byte(r)
			w++
		} else {
			w += utf8.EncodeRune(b[w:], r)
		}
	}
}

// TestUnquoteTextWindows: on long strings (runs of plain bytes around the
// 32-byte windows' edges, escapes dense and sparse), AppendUnquoteText's
// AVX2 windows (where the CPU has them) decode as its words alone do and
// as AppendUnquote does, with textFlags' flags; cut short, both copy the
// same rest.
func TestUnquoteTextWindows(t *testing.T) {
	pieces := []string{`\n`, `\t`, `\"`, `\\`, `\/`, `\r`, `\b`, `\f`, `\u0041`, `\ud83d\ude00`, `\ud800`, ` `, "é", "😀",
		strings.Repeat("a", 31), strings.Repeat("b", 32), strings.Repeat("c", 33), strings.Repeat("d", 7), strings.Repeat("e", 64), " \\n", "\\t\\n", "\\\\n"}
	rng := rand.New(rand.NewPCG(5, 32))
	for n := 0; n < 5000; n++ {
		var sb strings.Builder
		sb.WriteByte('"')
		for k := rng.IntN(120); k > 0; k-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		sb.WriteByte('"')
		raw := []byte(sb.String())
		if !json.Valid(raw) {
			t.Fatalf("%q: not JSON", raw)
		}
		want := AppendUnquote([]byte("pre"), raw)
		words, wf := appendUnquoteText([]byte("pre"), raw, false)
		if string(words) != string(want) || wf != textFlags(want[3:]) {
			t.Fatalf("%q: words %q (flags %b), want %q (%b)", raw, words, wf, want, textFlags(want[3:]))
		}
		if !haveAVX2() {
			continue
		}
		if got, gf := appendUnquoteText([]byte("pre"), raw, true); string(got) != string(want) || gf != wf {
			t.Fatalf("%q: AVX2 %q (flags %b), want %q (%b)", raw, got, gf, want, wf)
		}
		for _, cut := range [][]byte{raw[:len(raw)-1], raw[:len(raw)-2], raw[:len(raw)*2/3]} {
			if len(cut) < 2 {
				continue
			}
			words, wf := appendUnquoteText([]byte("pre"), cut, false)
			if got, gf := appendUnquoteText([]byte("pre"), cut, true); string(got) != string(words) || gf != wf {
				t.Fatalf("%q: AVX2 %q (flags %b), words %q (%b)", cut, got, gf, words, wf)
			}
		}
	}
}
