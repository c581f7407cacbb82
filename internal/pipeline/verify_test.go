package pipeline

import (
	"bytes"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// TestLostLineCodes: every line the reader does not keep as an entry is
// warned with a code Verify treats as lost — by code, not by the words of
// the message (most of them do not say "skipped").
func TestLostLineCodes(t *testing.T) {
	in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}

not json
{"a":1}{"b":2}
` + "\xEF\xBB\xBF" + `{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"x","timestamp":2}}
[1,2]
"text"
`
	ctx, err := session.Read(bytes.NewReader([]byte(in)), bytes.NewReader([]byte(in)), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	lost := map[int]bool{}
	for _, w := range ctx.Warnings {
		if lostLine(w.Code) {
			lost[w.Line] = true
		}
	}
	for line := 3; line <= 8; line++ {
		if !lost[line] {
			t.Errorf("line %d: no lost-line warning (warnings: %v)", line, ctx.Warnings)
		}
	}
}
