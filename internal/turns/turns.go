// Package turns finds the user turns of a built context: the unit every
// "last N turns" window counts (recentTurnsToKeep in masking,
// recoveryGraceTurns in the index render, the raw window the flush keeps).
//
// A turn starts at a user message a person typed. A subagent completion
// notice and pi-condense's `<compressed-chain>` message are user messages
// too, but machine-written: they start no turn.
//
// After a compaction the context starts mid-turn: the summary, then the
// kept entries before the first kept user message (the rest of a turn whose
// user message was summarised). Those messages belong to an older turn than
// any that starts inside the context, so a window counts only the turns
// that start inside the context, and everything before the first of them
// is outside every window. When no turn starts inside the context at all,
// those messages are the turn in progress (the model has not answered its
// last results yet) and are inside any window of one turn or more.
//
// Of is a pure function of the context (it reads the bytes of user
// messages through the context, nothing else); Turns is a value.
package turns

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// ChainPrefix starts the text of pi-condense's synthetic chain message
// (`<compressed-chain id="bN" …>`).
const ChainPrefix = "<compressed-chain"

// Turns is the turn structure of a context of Len messages.
type Turns struct {
	// Starts are the indexes of the messages that start a turn, ascending.
	Starts []int
	// Len is the number of messages.
	Len int
}

// Of returns the turns of ctx. Only user messages are looked at; a user
// message whose bytes cannot be re-read is counted as a turn start (the
// render pass reads the same bytes and reports the error).
func Of(ctx *session.Context) Turns {
	t := Turns{Len: len(ctx.Messages)}
	var buf []byte
	for i, m := range ctx.Messages {
		if m.Role() != session.RoleUser || m.Synthetic() {
			continue
		}
		if !m.ChainCandidate() {
			// read time saw a text that cannot start a chain message: a
			// turn, without reading the message again
			t.Starts = append(t.Starts, i)
			continue
		}
		var err error
		buf, err = ctx.AppendMessage(buf[:0], m)
		if err == nil && IsChainMessage(buf) {
			continue
		}
		t.Starts = append(t.Starts, i)
	}
	return t
}

// FromStarts builds Turns from a start predicate over n messages (for a
// sequence that is not a session.Context, e.g. a rendered one).
func FromStarts(n int, starts func(i int) bool) Turns {
	t := Turns{Len: n}
	for i := 0; i < n; i++ {
		if starts(i) {
			t.Starts = append(t.Starts, i)
		}
	}
	return t
}

// IsChainMessage reports whether the raw user message is pi-condense's
// synthetic `<compressed-chain>` message: its string content, or its first
// content block's text, starts with ChainPrefix after leading white space
// (pi-condense's isSyntheticChainMessage).
func IsChainMessage(raw []byte) bool {
	if !bytes.Contains(raw, []byte(ChainPrefix)) {
		return false
	}
	content, _ := jsval.Get(raw, "content")
	var text string
	switch jsval.TypeOf(content) {
	case jsval.Str:
		text, _ = jsval.String(content)
	case jsval.Arr:
		els, _ := jsval.Elements(content)
		if len(els) == 0 {
			return false
		}
		if t, _ := jsval.Get(els[0], "type"); !isString(t, "text") {
			return false
		}
		v, _ := jsval.Get(els[0], "text")
		var ok bool
		if text, ok = jsval.String(v); !ok {
			return false
		}
	default:
		return false
	}
	return strings.HasPrefix(strings.TrimLeftFunc(text, isJSSpace), ChainPrefix)
}

func isString(v []byte, want string) bool {
	s, ok := jsval.String(v)
	return ok && s == want
}

// isJSSpace is JavaScript's trimStart set: white space and line terminators
// (Unicode Zs, tab, VT, FF, BOM, LF, CR, U+2028, U+2029).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\uFEFF', '\n', '\r', '\u2028', '\u2029':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// Count is the number of turns that start inside the context.
func (t Turns) Count() int { return len(t.Starts) }

// Window returns the index of the first message inside the last n turns:
// messages at or after it are inside the window. n ≤ 0 is an empty window
// (Len). Messages before the first turn start are outside every window
// unless no turn starts in the context (then the window is everything).
func (t Turns) Window(n int) int {
	switch {
	case n <= 0:
		return t.Len
	case len(t.Starts) == 0:
		return 0
	case len(t.Starts) > n:
		return t.Starts[len(t.Starts)-n]
	default:
		return t.Starts[0]
	}
}

// Index is the turn message i belongs to: 1 for the first turn that starts
// inside the context, Count() for the last; 0 for the messages before the
// first turn start (a turn that started before the context).
func (t Turns) Index(i int) int {
	lo, hi := 0, len(t.Starts)
	for lo < hi {
		mid := (lo + hi) / 2
		if t.Starts[mid] <= i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
