package prune

import (
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// TestContentKeysAreExact: content is read as JSON.parse reads it — keys
// are case-sensitive, so a block with "TYPE" or "Text" is not a text or
// image block — and an unreadable block never hides the others.
func TestContentKeysAreExact(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a\nb"},
		{`[{"TYPE":"text","text":"no"},{"type":"text","text":"yes"}]`, "yes"},
		{`[{"type":"text","Text":"no"},{"type":"text","text":"yes"}]`, "yes"},
		{`[{"type":"Text","text":"no"}]`, ""},
		{`[{"type":"text","text":1},{"type":"text","text":"kept"}]`, "kept"},
		{`[{"type":"text","text":"x","text":"last wins"}]`, "last wins"},
		{`[{"type":"\u0074ext","text":"escaped type"}]`, "escaped type"},
	} {
		if got := textOf([]byte(tc.content)); got != tc.want {
			t.Errorf("textOf(%s) = %q, want %q", tc.content, got, tc.want)
		}
	}
	img := `[{"type":"text","text":"t"},{"TYPE":"image","mimeType":"image/png","data":"AAAA"},{"type":"image","mimeType":"image/png","data":"AAAA"}]`
	line := `{"role":"toolResult","toolCallId":"c1","toolName":"read","content":` + img + `,"isError":false,"timestamp":1}` + "\n"
	ctx, err := session.Read(strings.NewReader(line), strings.NewReader(line), session.ReadOptions{})
	if err != nil || len(ctx.Messages) != 1 {
		t.Fatal(err)
	}
	got := string(maskImages(ctx.Messages[0], []byte(img)))
	if strings.Count(got, `"type":"image"`) != 0 || !strings.Contains(got, `{"TYPE":"image","mimeType":"image/png","data":"AAAA"}`) {
		t.Errorf("maskImages(%s) = %s: only the block with the exact key is an image", img, got)
	}
}
