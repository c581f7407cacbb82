package session

import (
	"bytes"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
)

// ImageChars is pi's estimate of an image block's size in chars (its
// compaction's estimateTokens: 4800 chars, ~1200 tokens).
const ImageChars = 4800

// ModelChars is the size of a context message's JSON as it reaches the
// model, in code points: without its top-level "details" member (pi's
// display-only data: convertToLlm never sends it), and with each image
// block of its content counted as ImageChars rather than its base64 length.
// Savings and stats count this, not the bytes of the line.
func ModelChars(b []byte) int {
	n := RuneCount(b)
	if s, e, ok := jsonscan.ValueRange(b, "details"); ok {
		n -= RuneCount(b[s:e]) + len(`,"details":`)
	}
	if !bytes.Contains(b, []byte(`"image"`)) {
		return n
	}
	content, _ := jsval.Get(b, "content")
	els, _ := jsval.Elements(content)
	for _, el := range els {
		if t, _ := jsval.Get(el, "type"); string(bytes.TrimSpace(t)) == `"image"` {
			n += ImageChars - RuneCount(el)
		}
	}
	return n
}
