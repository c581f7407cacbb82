package prune

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// Stats summarise a render. Chars are Unicode code points of the rendered
// JSON messages (not bytes), each image block counted as pi's estimate
// (estimate.ImageChars), not its base64 length; tokens are pi's estimate,
// ceil(chars/4).
type Stats struct {
	Messages     int   `json:"messages"`
	ToolResults  int   `json:"toolResults"`
	Pruned       int   `json:"pruned"`
	Masked       int   `json:"masked"`
	Excerpts     int   `json:"excerpts"`
	Images       int   `json:"imagesMasked"`
	Protected    int   `json:"protected"`
	Recent       int   `json:"recent"`
	Hazards      int   `json:"pairingHazards"` // old results left untouched: pi-ai would not pair them
	CharsBefore  int64 `json:"charsBefore"`
	CharsAfter   int64 `json:"charsAfter"`
	TokensBefore int64 `json:"tokensBefore"`
	TokensAfter  int64 `json:"tokensAfter"`
	BytesBefore  int64 `json:"bytesBefore"`
	BytesAfter   int64 `json:"bytesAfter"`
	// FirstChanged is the 0-based index of the first message that differs
	// from the unpruned context (-1: none). Everything before it is a stable
	// prefix for the provider's prompt cache.
	FirstChanged int `json:"firstChangedMessage"`
	// FirstChangedByte is the byte offset of that message in the output (-1: none).
	FirstChangedByte int64 `json:"firstChangedByte"`
}

// SavedPercent is the share of chars removed, 0–100.
func (s Stats) SavedPercent() float64 {
	if s.CharsBefore == 0 {
		return 0
	}
	return 100 * float64(s.CharsBefore-s.CharsAfter) / float64(s.CharsBefore)
}

// Render writes the context to w as JSONL, one message per line, applying
// plan (nil: no pruning). Kept messages are copied byte for byte from the
// input. It returns the stats and the first I/O error.
func Render(w io.Writer, ctx *session.Context, plan *Plan) (Stats, error) {
	return RenderWith(w, ctx, plan, RenderOptions{})
}

// RenderOptions tune RenderWith.
type RenderOptions struct {
	// NoChars skips counting chars for Stats (CharsBefore/After and tokens
	// stay 0): a run whose summary is not shown need not pay for it.
	NoChars bool
}

// RenderWith is Render with options.
func RenderWith(w io.Writer, ctx *session.Context, plan *Plan, ro RenderOptions) (Stats, error) {
	runes := session.ModelChars
	if ro.NoChars {
		runes = func([]byte) int { return 0 }
	}
	st := Stats{Messages: len(ctx.Messages), FirstChanged: -1, FirstChangedByte: -1}
	if plan != nil {
		st.ToolResults, st.Protected, st.Recent, st.Hazards = plan.ToolResults, plan.Protected, plan.Recent, plan.Hazards
	} else {
		for _, m := range ctx.Messages {
			if m.Role() == session.RoleToolResult {
				st.ToolResults++
			}
		}
	}
	var buf, orig []byte
	var err error
	var written int64
	for i, m := range ctx.Messages {
		buf = buf[:0]
		d := Decision{}
		if plan != nil {
			d = plan.Decisions[i]
		}
		if d.Kind == Keep {
			n, ok := 0, ro.NoChars
			if !ok {
				n, ok = ctx.ModelChars(m) // counted when the line was read
			}
			if ok {
				// written from the input as it is, without a copy
				wn, done, err := ctx.WriteMessage(w, m)
				if err != nil {
					return st, err
				}
				if done {
					if _, err := w.Write(newline); err != nil {
						return st, err
					}
					st.CharsBefore += int64(n)
					st.CharsAfter += int64(n)
					st.BytesBefore += int64(wn) + 1
					written += int64(wn) + 1
					continue
				}
			}
			buf, err = ctx.AppendMessage(buf, m)
			if err != nil {
				return st, err
			}
			if !ok {
				n = runes(buf)
			}
			st.CharsBefore += int64(n)
			st.CharsAfter += int64(n)
			st.BytesBefore += int64(len(buf)) + 1
		} else {
			orig, err = ctx.AppendMessage(orig[:0], m)
			if err != nil {
				return st, err
			}
			st.BytesBefore += int64(len(orig)) + 1
			buf, err = prunedMessage(buf, ctx, m, d, orig, plan.Opts)
			if err != nil {
				return st, err
			}
			nb, ok := ctx.ModelChars(m)
			if !ok {
				nb = session.ModelChars(orig)
			}
			before, after := int64(nb), int64(session.ModelChars(buf))
			if after >= before {
				// a notice longer than what it replaces (as pi estimates sizes)
				// saves nothing: keep the original
				buf = append(buf[:0], orig...)
				after = before
			}
			if !ro.NoChars {
				// stats count what reaches the model (details left out)
				st.CharsBefore += before
				st.CharsAfter += after
			}
			if !bytes.Equal(buf, orig) {
				st.Pruned++
				if st.FirstChanged < 0 {
					st.FirstChanged, st.FirstChangedByte = i, written
				}
				switch d.Kind {
				case Masked:
					st.Masked++
				case Excerpt:
					st.Excerpts++
				case ImagesMasked:
					st.Images++
				}
			}
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return st, err
		}
		written += int64(len(buf))
	}
	st.BytesAfter = written
	st.TokensBefore, st.TokensAfter = estimate.Tokens64(st.CharsBefore), estimate.Tokens64(st.CharsAfter)
	return st, nil
}

var newline = []byte{'\n'}

// prunedMessage renders message m with its content replaced per d.
func prunedMessage(dst []byte, ctx *session.Context, m *session.Message, d Decision, orig []byte, o Options) ([]byte, error) {
	s, e, ok := session.ValueRange(orig, "content")
	if !ok {
		return append(dst, orig...), nil
	}
	nc, ok := newContent(ctx, m, d, orig[s:e], o)
	if !ok {
		return append(dst, orig...), nil
	}
	dst = append(dst, orig[:s]...)
	dst = append(dst, nc...)
	return append(dst, orig[e:]...), nil
}

// newContent is the content value that replaces content (message m's
// "content" value) per d; ok is false when d changes nothing.
func newContent(ctx *session.Context, m *session.Message, d Decision, content []byte, o Options) ([]byte, bool) {
	switch d.Kind {
	case Masked:
		call := d.call(ctx, m)
		return textContent(maskNotice(m, *call, ctx.CallHint(*call))), true
	case Excerpt:
		n := o.MaxChars / 4
		if n > 1000 {
			n = 1000
		}
		call := d.call(ctx, m)
		return textContent(excerptNotice(m, *call, ctx.CallHint(*call), textOf(content), n)), true
	case ImagesMasked:
		return maskImages(m, content), true
	}
	return nil, false
}

// maskImages rewrites a content array, replacing each image block with a
// text notice and keeping every other block's bytes.
func maskImages(m *session.Message, content []byte) []byte {
	blocks, ok := jsval.Elements(content)
	if !ok {
		return content
	}
	out := []byte{'['}
	for i, b := range blocks {
		if i > 0 {
			out = append(out, ',')
		}
		// exact keys, as JSON.parse reads them: {"TYPE":"image"} is no image
		if jsString(b, "type") == "image" {
			out = append(out, `{"type":"text","text":`...)
			out = session.AppendJSString(out, imageNotice(m, jsString(b, "mimeType"), jsStringLen(b, "data")))
			out = append(out, '}')
			continue
		}
		out = append(out, b...)
	}
	return append(out, ']')
}

// jsString is the string member key of the object obj ("" when absent or
// not a string), exact key as JSON.parse reads it.
func jsString(obj []byte, key string) string {
	v, _ := jsval.Get(obj, key)
	s, _ := jsval.String(v)
	return s
}

// jsStringLen is len(jsString(obj, key)) without decoding a string that
// needs no decoding (no escape, valid UTF-8: an image's base64 data).
func jsStringLen(obj []byte, key string) int {
	v, _ := jsval.Get(obj, key)
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		if body := v[1 : n-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
			return len(body)
		}
	}
	return len(jsString(obj, key))
}

// FormatSummary is the one-line human summary printed on stderr.
func FormatSummary(st Stats) string {
	saved := fmt.Sprintf("-%.1f%%", st.SavedPercent())
	if st.CharsBefore == st.CharsAfter {
		saved = "unchanged"
	}
	return fmt.Sprintf("pruner: %d messages, %d of %d tool results pruned (%d protected, %d recent); %d → %d chars, ~%d → ~%d tokens (%s)",
		st.Messages, st.Pruned, st.ToolResults, st.Protected, st.Recent, st.CharsBefore, st.CharsAfter, st.TokensBefore, st.TokensAfter, saved)
}
