package estimate_test

import (
	"testing"

	"github.com/pruner-dev/pruner/internal/estimate"
)

func TestChars(t *testing.T) {
	img := `{"type":"image","data":"QUJD","mimeType":"image/png"}`
	for raw, want := range map[string]int{
		`{"role":"user","content":"héllo"}`:                                                       33, // code points, not bytes
		`{"role":"toolResult","content":[{"type":"text","text":"a"},` + img + `]}`:                len(`{"role":"toolResult","content":[{"type":"text","text":"a"},]}`) + estimate.ImageChars,
		`{"type":"message","message":{"role":"user","content":[` + img + `,` + img + `]}}`:        len(`{"type":"message","message":{"role":"user","content":[,]}}`) + 2*estimate.ImageChars,
		`{"role":"user","content":[{"type":"text","text":"\"image\" is a word"}]}`:                len(`{"role":"user","content":[{"type":"text","text":"\"image\" is a word"}]}`),
		`{"role":"user","content":[{"type":"text","text":"x"}],"note":{"content":[` + img + `]}}`: len(`{"role":"user","content":[{"type":"text","text":"x"}],"note":{"content":[]}}`) + len(img), // only the message's content
	} {
		if got := estimate.Chars([]byte(raw)); got != want {
			t.Errorf("Chars(%s) = %d, want %d", raw, got, want)
		}
	}
	if estimate.ImageTokens != 1200 || estimate.Tokens(4801) != 1201 || estimate.Tokens64(0) != 0 {
		t.Error("token estimates")
	}
}
