package index

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// TestStringCharsLong: stringChars is the JavaScript length of the decoded
// text for long strings (the tape's vectorised scan) mixing ASCII, two-,
// three- and four-byte runes, short escapes, \u escapes, escaped surrogate
// pairs and lone surrogates; jsonscan.Astral counts the four-byte runes.
func TestStringCharsLong(t *testing.T) {
	pieces := []string{"a", "plain text ", `\n`, `\"`, `\\`, "é", "€", "😀", `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, "\u2028", "日本語", `\t`}
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 3000; round++ {
		var b strings.Builder
		for range rng.IntN(200) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := []byte(`"` + b.String() + `"`)
		var tp jsonscan.Tape
		if err := tp.Parse(raw); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		text := jsonscan.AppendUnquote(nil, raw)
		if got, want := stringChars(&tp.Nodes[0], raw), textChars(text); got != want {
			t.Fatalf("%q: stringChars %d, want %d", raw, got, want)
		}
		if got, want := jsonscan.Astral(raw), strings.Count(string(raw), "😀"); got != want {
			t.Fatalf("%q: Astral %d, want %d", raw, got, want)
		}
	}
}
