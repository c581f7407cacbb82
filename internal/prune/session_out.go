package prune

import (
	"fmt"
	"io"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/session"
)

// RenderSession writes the whole session file to w — every line byte for
// byte, in order, including entries off the leaf path — except the entries
// whose tool result plan prunes: their "message" value gets the pruned
// content, every other byte of the line kept. size is the input size in
// bytes (a final line without "\n" stays without one). ctx must be a
// session (not a context).
func RenderSession(w io.Writer, ctx *session.Context, plan *Plan, size int64) (Stats, error) {
	if ctx.Kind != session.KindSession {
		return Stats{}, fmt.Errorf("session output needs a session file, not a %s", ctx.Kind)
	}
	byOff := map[int64]int{}
	for i, m := range ctx.Messages {
		if plan.Decisions[i].Kind == Keep {
			continue
		}
		if off, ok := m.InEntry(); ok {
			byOff[off] = i
		}
	}
	st := Stats{Messages: len(ctx.Messages), ToolResults: plan.ToolResults, Protected: plan.Protected, Recent: plan.Recent, Hazards: plan.Hazards,
		FirstChanged: -1, FirstChangedByte: -1}
	lr := session.NewLineReader(io.NewSectionReader(ctx.Source(), 0, size))
	var buf, orig []byte
	var written int64
	for {
		line, _, off, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
		buf = append(buf[:0], line...)
		if i, ok := byOff[off]; ok {
			m := ctx.Messages[i]
			var perr error
			orig, perr = ctx.AppendMessage(orig[:0], m)
			if perr != nil {
				return st, perr
			}
			pm, perr := prunedMessage(nil, ctx, m, plan.Decisions[i], orig, plan.Opts)
			if perr != nil {
				return st, perr
			}
			if session.ModelChars(pm) < session.ModelChars(orig) {
				s, e, ok := session.ValueRange(line, "message")
				if ok {
					buf = append(append(append(buf[:0], line[:s]...), pm...), line[e:]...)
					st.Pruned++
					if st.FirstChanged < 0 {
						st.FirstChanged, st.FirstChangedByte = i, written
					}
				}
			}
		}
		st.CharsBefore += int64(estimate.EntryChars(line))
		st.CharsAfter += int64(estimate.EntryChars(buf))
		if off+int64(len(line)) < size {
			buf = append(buf, '\n')
		}
		if _, err := w.Write(buf); err != nil {
			return st, err
		}
		written += int64(len(buf))
	}
	st.BytesBefore, st.BytesAfter = size, written
	st.TokensBefore, st.TokensAfter = estimate.Tokens64(st.CharsBefore), estimate.Tokens64(st.CharsAfter)
	return st, nil
}
