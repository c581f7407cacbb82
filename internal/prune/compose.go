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
	orig, err := ctx.AppendMessage(nil, m)
	if err != nil {
		return dst, false, err
	}
	start := len(dst)
	dst, err = prunedMessage(dst, ctx, m, d, orig, p.Opts)
	if err != nil {
		return dst, false, err
	}
	if session.ModelChars(dst[start:]) >= session.ModelChars(orig) {
		return append(dst[:start], orig...), false, nil
	}
	return dst, !bytes.Equal(dst[start:], orig), nil
}
