package prune

import (
	"bytes"

	"github.com/pruner-dev/pruner/internal/session"
)

// AppendMessage appends message i of ctx as the plan renders it (a kept
// message copied byte for byte; a notice longer than what it replaces is
// not used, sizes as pi estimates them) and reports whether it differs from the input. It lets a later
// stage (the index render) mask only the messages it leaves untouched.
func (p *Plan) AppendMessage(dst []byte, ctx *session.Context, i int) ([]byte, bool, error) {
	m := ctx.Messages[i]
	d := p.Decisions[i]
	if d.Kind == Keep {
		b, err := ctx.AppendMessage(dst, m)
		return b, false, err
	}
	// the original is appended first and the pruned message after it, in
	// dst: the one kept is moved into place (no buffer per message)
	start := len(dst)
	dst, err := ctx.AppendMessage(dst, m)
	if err != nil {
		return dst[:start], false, err
	}
	orig := dst[start:]
	mid := len(dst)
	dst, err = prunedMessage(dst, ctx, m, d, orig, p.Opts)
	if err != nil {
		return dst[:start], false, err
	}
	before, ok := ctx.ModelChars(m)
	if !ok {
		before = session.ModelChars(orig)
	}
	pm := dst[mid:]
	if session.ModelChars(pm) >= before {
		return dst[:mid], false, nil
	}
	changed := !bytes.Equal(pm, orig)
	n := copy(dst[start:], pm)
	return dst[:start+n], changed, nil
}
