// Package estimate is pi's estimate of how much a message weighs in the
// context (its compaction's estimateTokens): text counts its chars, an
// image block counts ImageChars whatever its base64 length, and tokens are
// ceil(chars/4). Masking's notices and stats, the index render's stats and
// the "is a notice shorter than what it replaces" rule all use it, so an
// old image is worth pruning however small its data.
//
// Chars are Unicode code points (pruner's unit everywhere; pi counts UTF-16
// units, which differ on astral characters only).
package estimate

import (
	"bytes"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// ImageChars is pi's estimate of one image block (ESTIMATED_IMAGE_CHARS).
const ImageChars = 4800

// ImageTokens is the token estimate of one image block (1200).
const ImageTokens = (ImageChars + 3) / 4

// Tokens is pi's token estimate of chars: ceil(chars/4).
func Tokens(chars int) int { return (chars + 3) / 4 }

// Tokens64 is Tokens for totals.
func Tokens64(chars int64) int64 { return (chars + 3) / 4 }

// Chars is the size of a raw JSON message (or a session entry line holding
// one under "message") in code points, each image block of its content
// counted as ImageChars instead of its own JSON.
func Chars(raw []byte) int {
	n := session.RuneCount(raw)
	if !bytes.Contains(raw, []byte(`"image"`)) {
		return n
	}
	content, ok := jsval.Get(raw, "content")
	if !ok {
		if msg, isMsg := jsval.Get(raw, "message"); isMsg {
			content, _ = jsval.Get(msg, "content")
		}
	}
	els, _ := jsval.Elements(content)
	for _, el := range els {
		if t, _ := jsval.Get(el, "type"); isImage(t) {
			n += ImageChars - session.RuneCount(el)
		}
	}
	return n
}

func isImage(v []byte) bool {
	s, ok := jsval.String(v)
	return ok && s == "image"
}
