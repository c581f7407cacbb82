package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/session"
)

// WriteOptions tune Write.
type WriteOptions struct {
	// Mask, when set, renders a source message that render left unchanged
	// (rolling-window masking of what no index entry covers): it appends the
	// message to dst and reports whether it changed it.
	Mask func(dst []byte, src int) ([]byte, bool, error)
	// NoChars skips counting chars (Stats chars and tokens stay 0).
	NoChars bool
}

// Stats summarise a written render. Chars are Unicode code points of the
// JSON messages, except that an image block counts as pi's estimate of an
// image (session.ImageChars), not the length of its base64 data; tokens are pi's
// estimate, ceil(chars/4).
type Stats struct {
	Messages     int   `json:"messages"`      // written
	Input        int   `json:"inputMessages"` // in the unpruned context
	Changed      int   `json:"changed"`       // written messages that differ from the input (inserted included)
	Masked       int   `json:"masked"`        // of which rewritten by masking
	Dropped      int   `json:"dropped"`       // input messages not written (chains, orphan sweep)
	CharsBefore  int64 `json:"charsBefore"`
	CharsAfter   int64 `json:"charsAfter"`
	TokensBefore int64 `json:"tokensBefore"`
	TokensAfter  int64 `json:"tokensAfter"`
	BytesBefore  int64 `json:"bytesBefore"`
	BytesAfter   int64 `json:"bytesAfter"`
	// FirstChanged is the 0-based index of the first written message that
	// differs from the input context at that position (-1: none): the
	// provider's prompt cache holds up to there.
	FirstChanged     int   `json:"firstChangedMessage"`
	FirstChangedByte int64 `json:"firstChangedByte"`
}

// Write streams the rendered context to w, one JSON message per line.
//
// A source message render kept, and masking will not rewrite (the
// Options.WillMask Render was given says so), is written from the input
// as Context.WriteMessage writes it, and counted from the decoder's counts
// (Context.ModelChars) where it has them: WriteOptions.Mask is not called
// for it.
func Write(w io.Writer, ctx *session.Context, res *Result, o WriteOptions) (Stats, error) {
	st := Stats{Input: len(ctx.Messages), FirstChanged: -1, FirstChangedByte: -1}
	runes := session.ModelChars
	if o.NoChars {
		runes = func([]byte) int { return 0 }
	}
	kept := make([]bool, len(ctx.Messages))
	var buf []byte
	var err error
	for i := range res.Items {
		it := &res.Items[i]
		changed := it.Change != Kept
		if !changed && (o.Mask == nil || res.willMask != nil && !res.willMask(int(it.Src))) {
			n, chars, done, err := writeSource(w, ctx, ctx.Messages[it.Src], &buf, o.NoChars, runes)
			if err != nil {
				return st, err
			}
			if done {
				kept[it.Src] = true
				st.CharsBefore += int64(chars)
				st.BytesBefore += int64(n) + 1
				if st.FirstChanged < 0 && int(it.Src) != i {
					st.FirstChanged, st.FirstChangedByte = i, st.BytesAfter
				}
				st.CharsAfter += int64(chars)
				st.BytesAfter += int64(n) + 1
				st.Messages++
				continue
			}
		}
		buf = buf[:0]
		masked := false
		switch {
		case changed:
			buf, err = it.AppendJSON(buf, ctx)
		case o.Mask != nil:
			buf, masked, err = o.Mask(buf, int(it.Src))
		default:
			buf, err = ctx.AppendMessage(buf, ctx.Messages[it.Src])
		}
		if err != nil {
			return st, err
		}
		if masked {
			st.Masked++
		}
		chars := int64(runes(buf))
		if changed || masked {
			st.Changed++
		} else {
			kept[it.Src] = true // the source message as it is
			st.CharsBefore += chars
			st.BytesBefore += int64(len(buf)) + 1
		}
		if st.FirstChanged < 0 && (changed || masked || int(it.Src) != i) {
			st.FirstChanged, st.FirstChangedByte = i, st.BytesAfter
		}
		st.CharsAfter += chars
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return st, err
		}
		st.BytesAfter += int64(len(buf))
		st.Messages++
	}
	seen := make([]bool, len(ctx.Messages))
	for _, it := range res.Items {
		if it.Src >= 0 {
			seen[it.Src] = true
		}
	}
	var count byteCounter
	for i, m := range ctx.Messages {
		if !seen[i] {
			st.Dropped++
		}
		if kept[i] {
			continue
		}
		count = 0
		n, chars, done, err := writeSource(&count, ctx, m, &buf, o.NoChars, runes)
		if err != nil {
			return st, err
		}
		if !done {
			buf, err = ctx.AppendMessage(buf[:0], m)
			if err != nil {
				return st, err
			}
			n, chars = len(buf), runes(buf)
		}
		st.CharsBefore += int64(chars)
		st.BytesBefore += int64(n) + 1
	}
	if st.FirstChanged < 0 && len(res.Items) < len(ctx.Messages) {
		st.FirstChanged, st.FirstChangedByte = len(res.Items), st.BytesAfter
	}
	st.TokensBefore, st.TokensAfter = estimate.Tokens64(st.CharsBefore), estimate.Tokens64(st.CharsAfter)
	return st, nil
}

// writeSource writes source message m and a newline to w from the input
// (Context.WriteMessage) and returns its size without the newline, in
// bytes and in chars (0 with noChars; from Context.ModelChars, else
// counted with runes from its bytes appended to *buf). done is false when
// the message is not written from the input: nothing was written.
func writeSource(w io.Writer, ctx *session.Context, m *session.Message, buf *[]byte, noChars bool, runes func([]byte) int) (n, chars int, done bool, err error) {
	n, done, err = ctx.WriteMessage(w, m)
	if err != nil || !done {
		return n, 0, done, err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return n, 0, true, err
	}
	if noChars {
		return n, 0, true, nil
	}
	if c, ok := ctx.ModelChars(m); ok {
		return n, c, true, nil
	}
	if *buf, err = ctx.AppendMessage((*buf)[:0], m); err != nil {
		return n, 0, true, err
	}
	return n, runes(*buf), true, nil
}

// byteCounter is an io.Writer that counts what it is given.
type byteCounter int

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

func (c *byteCounter) WriteString(s string) (int, error) {
	*c += byteCounter(len(s))
	return len(s), nil
}

// SavedPercent is the share of chars removed, 0–100.
func (s Stats) SavedPercent() float64 {
	if s.CharsBefore == 0 {
		return 0
	}
	return 100 * float64(s.CharsBefore-s.CharsAfter) / float64(s.CharsBefore)
}

// FormatSummary is the one-line summary of a render for stderr.
func FormatSummary(st Stats, rep Report) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(rep.Stubbed, "stubbed")
	add(rep.SpillStubbed, "spill-stubbed")
	add(rep.Repaired, "repaired (protected now)")
	add(rep.Graced, "in recovery grace")
	add(rep.Superseded, "superseded")
	add(rep.Purged, "purged")
	add(rep.Chains, "chains compressed")
	add(len(rep.Swept), "orphans swept")
	add(rep.ImagesOmitted, "images omitted")
	add(st.Masked, "masked")
	did := "index: nothing to apply"
	if len(parts) > 0 {
		did = strings.Join(parts, ", ")
	}
	saved := fmt.Sprintf("-%.1f%%", st.SavedPercent())
	if st.CharsBefore == st.CharsAfter {
		saved = "unchanged"
	}
	return fmt.Sprintf("pruner: %d → %d messages; %s; %d → %d chars, ~%d → ~%d tokens (%s)",
		st.Input, st.Messages, did, st.CharsBefore, st.CharsAfter, st.TokensBefore, st.TokensAfter, saved)
}
