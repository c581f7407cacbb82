package session

import "testing"

// TestModelChars: stats count what reaches the model — pi's display-only
// details are left out (a result whose details repeat its output counted
// twice, and savings looked half of what the request saved), an image block
// counts as pi's estimate.
func TestModelChars(t *testing.T) {
	plain := `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out"}],"isError":false,"timestamp":1}`
	withDetails := `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out"}],"details":{"truncation":{"content":"out out out out out out"}},"isError":false,"timestamp":1}`
	if got, want := ModelChars([]byte(withDetails)), RuneCount([]byte(plain)); got != want {
		t.Errorf("with details: %d chars, want %d (as without)", got, want)
	}
	img := `{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":false,"timestamp":1}`
	block := `{"type":"image","data":"AAAA","mimeType":"image/png"}`
	if got, want := ModelChars([]byte(img)), RuneCount([]byte(img))-RuneCount([]byte(block))+ImageChars; got != want {
		t.Errorf("image: %d chars, want %d", got, want)
	}
}
