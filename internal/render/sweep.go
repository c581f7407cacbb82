package render

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/pruner-dev/pruner/internal/session"
)

// orphanSweep is pi-condense's structural post-condition: each assistant
// message opens its toolCall ids, a toolResult must answer an open id
// (consuming it) or it is dropped, and any other message closes every open
// call (it becomes a user boundary at the provider). Dropped results are
// reported as an orphan-sweep diagnostic.
func (r *renderer) orphanSweep() error {
	var open openCalls
	var swept []string
	out := r.slots[:0] // in place: a slot moves down, never up
	for i := range r.slots {
		s := r.slots[i]
		if !r.visible(&s) {
			out = append(out, s)
			continue
		}
		switch r.role(&s) {
		case session.RoleAssistant:
			open.open(r.msg(&s).ToolCalls())
		case session.RoleToolResult:
			if !open.answer(r.msg(&s).ToolCallID()) {
				swept = append(swept, r.msg(&s).ToolCallID())
				continue
			}
		default:
			open.close()
		}
		out = append(out, s)
	}
	clear(r.slots[len(out):]) // what moved down is not held twice
	r.slots = out
	if len(swept) == 0 {
		return nil
	}
	r.rep.Swept = swept
	ids := append([]string(nil), swept...)
	sort.Strings(ids)
	shown := ids
	more := ""
	if len(shown) > 5 {
		shown, more = shown[:5], fmt.Sprintf(" ... +%d more", len(ids)-5)
	}
	sum := sha1.Sum([]byte(strings.Join(ids, ",")))
	r.rep.Diagnostics = append(r.rep.Diagnostics, Diagnostic{Kind: "orphan-sweep",
		Detail: fmt.Sprintf("swept %d orphan toolResult(s): %s%s (key %s)", len(swept), strings.Join(shown, ", "), more, hex.EncodeToString(sum[:])[:16])})
	return nil
}
