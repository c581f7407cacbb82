// Package estimate is pi's estimate of how much context content weighs
// (its compaction's estimateTokens): text counts its chars, an image block
// counts ImageChars whatever its base64 length, and tokens are ceil(chars/4).
// The size of a message is session.ModelChars (what reaches the model:
// details left out, images at ImageChars) — the one function masking's
// decisions and stats, the index render's stats and the "a notice longer
// than what it replaces is not used" rule all use; this package adds the
// token estimates the notices print and the size of a session entry line.
//
// Chars are Unicode code points (pruner's unit everywhere; pi counts UTF-16
// units, which differ on astral characters only).
package estimate

import (
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// ImageChars is pi's estimate of one image block (ESTIMATED_IMAGE_CHARS).
const ImageChars = session.ImageChars

// ImageTokens is the token estimate of one image block (1200).
const ImageTokens = (ImageChars + 3) / 4

// Tokens is pi's token estimate of chars: ceil(chars/4).
func Tokens(chars int) int { return (chars + 3) / 4 }

// Tokens64 is Tokens for totals.
func Tokens64(chars int64) int64 { return (chars + 3) / 4 }

// EntryChars is the size of a session file line: its code points, with the
// message it holds (if any) counted as session.ModelChars counts it.
func EntryChars(line []byte) int {
	msg, ok := jsval.Get(line, "message")
	if !ok || jsval.TypeOf(msg) != jsval.Obj {
		return session.RuneCount(line)
	}
	return session.RuneCount(line) - session.RuneCount(msg) + session.ModelChars(msg)
}
