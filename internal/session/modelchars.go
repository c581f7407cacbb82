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

// ContentChars is ModelChars's share of a message's "content" value
// (raw JSON): its code points, with each image block counted as
// ImageChars rather than its own size. ModelChars of a message is the
// same message's ModelChars with another content c, minus ContentChars
// of its content, plus ContentChars(c).
func ContentChars(content []byte) int {
	n := RuneCount(content)
	if !bytes.Contains(content, []byte(`"image"`)) {
		return n
	}
	els, _ := jsval.Elements(content)
	for _, el := range els {
		if t, _ := jsval.Get(el, "type"); string(bytes.TrimSpace(t)) == `"image"` {
			n += ImageChars - RuneCount(el)
		}
	}
	return n
}

// tapeContentChars is ContentChars of the content value of mv (a string
// node of the tape, not 0), from the tape's counts: ok false when it does
// not fit an int32.
func tapeContentChars(tp *jsonscan.Tape, mv *msgView) (int32, bool) {
	n := tp.RawChars(mv.f[mContent]) + mv.imageAdj(tp)
	return int32(n), n <= 1<<31-1 && n >= -1<<31
}

// imageAdj is what ContentChars adds to the code points of the content of
// mv for its image blocks (ImageChars less each block's own size), counted
// once. ModelChars's "image" test reads the raw bytes: a type written
// "im\u0061ge" is no image to it, nor here.
func (mv *msgView) imageAdj(tp *jsonscan.Tape) int {
	if mv.hasAdj {
		return mv.adj
	}
	mv.hasAdj = true
	if c := mv.f[mContent]; c != 0 && tp.Nodes[c].Kind == jsonscan.Array {
		tp.Elems(c, func(el uint32) bool {
			if t, ok := tp.Get(el, "type"); ok && string(tp.Raw(t)) == `"image"` {
				mv.adj += ImageChars - tp.RawChars(el)
			}
			return true
		})
	}
	return mv.adj
}

// ModelChars returns ModelChars of message m's bytes as AppendMessage writes
// them, when the decoder counted it from the line's tape (ok): a message
// rendered as the input's bytes. ok is false for a message pruner builds or
// changes (summaries, context edits, v2 role fixes): count its bytes.
func (c *Context) ModelChars(m *Message) (n int, ok bool) {
	if m.flags&flagModelChars == 0 || !m.bytesAsRead() {
		return 0, false
	}
	return int(m.mchars), true
}

// tapeModelChars is ModelChars of the message value mv indexes (its
// details and content members found when its keys were read), from the
// tape's counts (no byte read again): ok false when it does not fit an
// int32.
func tapeModelChars(tp *jsonscan.Tape, mv *msgView) (int32, bool) {
	n := tp.RawChars(mv.obj)
	if tp.Nodes[mv.obj].Kind != jsonscan.Object {
		return int32(n), n <= 1<<31-1
	}
	if d := mv.f[mDetails]; d != 0 {
		n -= tp.RawChars(d) + len(`,"details":`)
	}
	n += mv.imageAdj(tp)
	return int32(n), n <= 1<<31-1 && n >= -1<<31
}
