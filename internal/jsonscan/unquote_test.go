package jsonscan

import (
	"encoding/json"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// FuzzAppendUnquoteValid: on a JSON string of valid UTF-8, the unquote that
// trusts the text decodes as AppendUnquote does, StringLens gives the
// decoded text's JavaScript and UTF-8 lengths, and EscapedPairs counts the
// escaped surrogate pairs.
func FuzzAppendUnquoteValid(f *testing.F) {
	for _, s := range []string{`""`, `"a\nb"`, `"\ud83d\ude00x"`, `"\ud83d"`, `"é\u00e9😀"`, `"\\\"\/\b\f\r\t"`} {
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
		units, n := StringLens(b)
		if wantUnits := len(utf16.Encode([]rune(string(text)))); units != wantUnits || n != len(text) {
			t.Fatalf("%q: StringLens %d %d, want %d %d", raw, units, n, wantUnits, len(text))
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
