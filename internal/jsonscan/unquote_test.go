package jsonscan

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAppendUnquoteValid: on a JSON string of valid UTF-8, the unquote that
// trusts the text decodes as AppendUnquote does (and UnquoteInPlace as it
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
		in, flags := UnquoteInPlace(append([]byte("pre"), b...), 3)
		if string(in) != string(got) {
			t.Fatalf("%q: UnquoteInPlace %q, want %q", raw, in, got)
		}
		if at, atFlags := AppendUnquoteText([]byte("pre"), b); string(at) != string(got) || atFlags != flags {
			t.Fatalf("%q: AppendUnquoteText %q (flags %b), want %q (%b)", raw, at, atFlags, got, flags)
		}
		if want := textFlags(text); flags != want {
			t.Fatalf("%q: UnquoteInPlace flags %b, want %b", raw, flags, want)
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

// textFlags is the reference of UnquoteInPlace's flags: the decoded text
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

// TestUnquoteInPlaceLong: on long strings dense with escapes (where
// UnquoteInPlace copies words and decodes short escapes in unquoteWords,
// the text far enough behind), it decodes as AppendUnquote does, with the
// flags textFlags finds, and so does AppendUnquoteText; cut short, the two
// copy the same rest.
func TestUnquoteInPlaceLong(t *testing.T) {
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
		got, flags := UnquoteInPlace(append([]byte("pre"), raw...), 3)
		if string(got) != string(want) {
			t.Fatalf("%q: UnquoteInPlace %q, want %q", raw, got, want)
		}
		if wf := textFlags(want[3:]); flags != wf {
			t.Fatalf("%q: flags %b, want %b", raw, flags, wf)
		}
		at, atFlags := AppendUnquoteText([]byte("pre"), []byte(raw))
		if string(at) != string(want) || atFlags != flags {
			t.Fatalf("%q: AppendUnquoteText %q (flags %b), want %q (%b)", raw, at, atFlags, want, flags)
		}
		// cut short (not JSON): the rest copied as it is, as UnquoteInPlace copies it
		if cut := raw[:len(raw)-1-rng.IntN(min(len(raw)-1, 4))]; len(cut) >= 2 {
			want, wf := UnquoteInPlace(append([]byte("pre"), cut...), 3)
			if at, af := AppendUnquoteText([]byte("pre"), []byte(cut)); string(at) != string(want) || af != wf {
				t.Fatalf("%q: AppendUnquoteText %q (flags %b), UnquoteInPlace %q (%b)", cut, at, af, want, wf)
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
