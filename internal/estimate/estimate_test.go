package estimate_test

import (
	"testing"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/session"
)

func TestEntryChars(t *testing.T) {
	img := `{"type":"image","data":"QUJD","mimeType":"image/png"}`
	msg := `{"role":"toolResult","content":[{"type":"text","text":"é"},` + img + `]}`
	line := `{"type":"message","id":"e1","message":` + msg + `}`
	if got, want := estimate.EntryChars([]byte(line)), session.RuneCount([]byte(line))-len(img)+estimate.ImageChars; got != want {
		t.Errorf("EntryChars = %d, want %d (the image at %d chars)", got, want, estimate.ImageChars)
	}
	other := `{"type":"model_change","id":"e2","provider":"é"}`
	if got := estimate.EntryChars([]byte(other)); got != session.RuneCount([]byte(other)) {
		t.Errorf("a line without a message: %d", got)
	}
	if estimate.ImageTokens != 1200 || estimate.Tokens(4801) != 1201 || estimate.Tokens64(0) != 0 {
		t.Error("token estimates")
	}
}
