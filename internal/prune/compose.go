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
	if before, ok := ctx.ModelChars(m); ok {
		cs, ce, ok1 := m.ContentRange()
		cc, ok2 := m.ContentChars()
		if ok1 && ok2 {
			if b, changed, done, err := p.appendAround(dst, ctx, m, d, before, cc, cs, ce); done {
				return b, changed, err
			}
		}
	}
	return p.appendCopy(dst, ctx, m, d)
}

// appendCopy is AppendMessage of a pruned message from a copy of the
// original.
func (p *Plan) appendCopy(dst []byte, ctx *session.Context, m *session.Message, d Decision) ([]byte, bool, error) {
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

// appendAround is AppendMessage of a pruned message whose content range
// (cs, ce), ModelChars (before) and the content's ContentChars (cc) the
// decoder recorded: the pruned message's ModelChars follows from them and
// the new content's, without counting the rest again; the bytes around
// the content are copied from the input where they are, and the content is
// read only when the decision needs it (an excerpt's text, the blocks
// around images), so a masked result's output is never copied nor read.
// done is false when the range does not fit the message's bytes (nothing
// appended): use appendCopy.
func (p *Plan) appendAround(dst []byte, ctx *session.Context, m *session.Message, d Decision, before, cc, cs, ce int) (out []byte, changed, done bool, err error) {
	start := len(dst)
	same, fits := false, true
	after := 0
	err = ctx.ViewMessage(m, func(b []byte) error {
		if cs > ce || ce > len(b) {
			fits = false // not the bytes the decoder read
			return nil
		}
		content := b[cs:ce]
		nc, ok := newContent(ctx, m, d, content, p.Opts)
		if !ok {
			nc = content
		}
		dst = append(dst, b[:cs]...)
		dst = append(dst, nc...)
		dst = append(dst, b[ce:]...)
		same = bytes.Equal(nc, content)
		after = before - cc + session.ContentChars(nc)
		return nil
	})
	switch {
	case err != nil:
		return dst[:start], false, true, err
	case !fits:
		return dst[:start], false, false, nil
	case after >= before:
		// a notice longer than what it replaces saves nothing: the original
		b, err := ctx.AppendMessage(dst[:start], m)
		return b, false, true, err
	}
	return dst, !same, true, nil
}
