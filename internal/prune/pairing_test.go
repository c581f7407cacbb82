package prune_test

import (
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/prune"
)

// TestBrokenPairIsNeverMasked: another extension's message lands between
// a call and its big result (old, unprotected): pi-ai orphans the result,
// and masking leaves it — and the call — exactly as they are, while the
// intact pair beside it is masked.
func TestBrokenPairIsNeverMasked(t *testing.T) {
	big := strings.Repeat("y", 5000)
	res := func(id, call string) string {
		return `{"type":"message","id":"` + id + `","parentId":"PARENT","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"toolResult","toolCallId":"` + call + `","toolName":"bash","content":[{"type":"text","text":"` + big + `"}],"isError":false,"timestamp":3}}`
	}
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"go","timestamp":1}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}},{"type":"toolCall","id":"c2","name":"bash","arguments":{}}],"stopReason":"toolUse","timestamp":2}}`,
		strings.Replace(res("r1", "c1"), "PARENT", "a1", 1),
		`{"type":"custom_message","id":"x1","parentId":"r1","timestamp":"2026-12-01T00:00:00.000Z","customType":"other-ext","content":"note","display":true}`,
		strings.Replace(res("r2", "c2"), "PARENT", "x1", 1),
		`{"type":"message","id":"u2","parentId":"r2","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"two","timestamp":4}}`,
		`{"type":"message","id":"u3","parentId":"u2","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"three","timestamp":5}}`,
	}
	out, st, ctx := pruneString(t, strings.Join(lines, "\n")+"\n", prune.Options{RecentTurns: 2, MaxChars: 4000})
	if st.Masked != 1 || st.Hazards != 1 {
		t.Fatalf("masked %d, hazards %d; want the intact pair masked, the broken one kept", st.Masked, st.Hazards)
	}
	plain, _, _ := pruneString(t, strings.Join(lines, "\n")+"\n", prune.Options{RecentTurns: 100})
	pl, pr := splitLines(plain), splitLines(out)
	for i, m := range ctx.Messages {
		if (m.EntryID() == "r2" || m.EntryID() == "a1") && string(pl[i]) != string(pr[i]) {
			t.Errorf("%s changed", m.EntryID())
		}
		if m.EntryID() == "r1" && string(pl[i]) == string(pr[i]) {
			t.Error("r1 (an intact pair) not masked")
		}
	}
}
