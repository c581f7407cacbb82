package prune

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// latestCallsRef is the plan's call lookup as a map of every call id,
// filled in context order: the reference for latestCalls.
func latestCallsRef(msgs []*session.Message) map[int]*session.ToolCall {
	calls := map[string]*session.ToolCall{}
	out := map[int]*session.ToolCall{}
	for i, m := range msgs {
		switch m.Role() {
		case session.RoleAssistant:
			tcs := m.ToolCalls()
			for k := range tcs {
				calls[tcs[k].ID()] = &tcs[k]
			}
		case session.RoleToolResult:
			out[i] = calls[m.ToolCallID()]
		}
	}
	return out
}

// reusedIDs is a session whose results answer calls of the latest
// assistant, of an older one (a broken pairing), an id that message
// repeats, an id no call has, and a message with more than fewCalls calls.
func reusedIDs() string {
	lines := []string{`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`}
	parent, n := "null", 0
	add := func(msg string) {
		n++
		id := fmt.Sprintf("%08x", n)
		lines = append(lines, fmt.Sprintf(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":%s}`, id, parent, msg))
		parent = `"` + id + `"`
	}
	call := func(ids ...string) {
		var b []string
		for _, id := range ids {
			b = append(b, fmt.Sprintf(`{"type":"toolCall","id":"%s","name":"read","arguments":{"path":"%s.go"}}`, id, id))
		}
		add(`{"role":"assistant","content":[` + strings.Join(b, ",") + `]}`)
	}
	result := func(id string) {
		add(fmt.Sprintf(`{"role":"toolResult","toolCallId":"%s","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":1}`, id))
	}
	add(`{"role":"user","content":"go"}`)
	call("a", "b", "a")
	result("a")
	result("b")
	call("c")
	result("a") // an older assistant's call
	result("c")
	result("zz") // no call
	call("a")
	result("a")
	var many []string
	for k := 0; k < 3*fewCalls; k++ {
		many = append(many, fmt.Sprint("m", k%(2*fewCalls)))
	}
	call(many...)
	result("m3")
	result("c")
	call("d")
	result("d")
	return strings.Join(lines, "\n") + "\n"
}

// NewPlan pairs every result with the call the map of every id gives —
// the same *ToolCall — on every shipped session and on reusedIDs, the
// index built first and late.
func TestLatestCallsIsTheMap(t *testing.T) {
	var inputs [][]byte
	var names []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/cases/*/session.jsonl", "../../testdata/condense-oracle/*/final/*.jsonl"} {
		ps, _ := filepath.Glob(g)
		for _, p := range ps {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			inputs, names = append(inputs, b), append(names, p)
		}
	}
	inputs, names = append(inputs, []byte(reusedIDs())), append(names, "reusedIDs")
	results := 0
	for k, in := range inputs {
		ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := latestCallsRef(ctx.Messages)
		plan := NewPlan(ctx, Options{})
		for i, m := range ctx.Messages {
			if m.Role() != session.RoleToolResult {
				continue
			}
			results++
			got := plan.Call(ctx, i)
			if w := want[i]; w != nil && got != w || w == nil && (got == nil || got.ID() != m.ToolCallID() || got.Name() != m.ToolName()) {
				t.Fatalf("%s message %d (call %q): plan's call %+v, the map's %+v", names[k], i, m.ToolCallID(), got, w)
			}
		}
	}
	if results == 0 {
		t.Fatal("no result: the test proves nothing")
	}
}
