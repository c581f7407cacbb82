package session_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/pruner-dev/pruner/internal/session"
)

// EntryReader streams every entry of every branch with Read's rules: the
// same lines skipped (reported as warnings with a code and line number), the
// same v1 ids, each toolCall's raw arguments and each result's fields.
func ExampleEntryReader() {
	in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":".env"}}],"timestamp":1}}
not json
{"type":"message","id":"b2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"SECRET=1"}],"isError":false,"timestamp":2}}
`
	er := session.NewEntryReader(strings.NewReader(in), session.EntryOptions{
		OnWarning: func(w session.Warning) { fmt.Printf("line %d: %s (%s)\n", w.Line, w.Msg, w.Code) },
	})
	for {
		e, err := er.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		m := e.Message
		if m == nil {
			continue
		}
		for _, c := range m.ToolCalls {
			fmt.Printf("line %d: entry %s calls %s %s %s\n", e.Line, e.ID, c.ID, c.Name, c.Arguments)
		}
		if m.Role == session.RoleToolResult {
			fmt.Printf("line %d: entry %s answers %s (%s), %d chars\n", e.Line, e.ID, m.ToolCallID, m.ToolName, m.TextChars)
		}
	}
	// Output:
	// line 2: entry a1 calls c1 read {"path":".env"}
	// line 3: not valid JSON (pi skips it) (invalid-json)
	// line 4: entry b2 answers c1 (read), 8 chars
}
