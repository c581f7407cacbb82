package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestQueryChainListsSpilledCalls: `query bN` gives the chain's block and
// then every call the chain dropped — a spilled call too, which has no tN
// in the chain's refs (its record is found by its occurrence key).
func TestQueryChainListsSpilledCalls(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n")
	parent, n := "null", 0
	add := func(msg string) {
		n++
		id := fmt.Sprintf("e%07d", n)
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:%02d.000Z","message":%s}`+"\n", id, parent, n%60, msg)
		parent = `"` + id + `"`
	}
	const usage = `"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	for turn := 0; turn < 8; turn++ {
		ts := 1767225600000 + turn*10000
		add(fmt.Sprintf(`{"role":"user","content":"step %d","timestamp":%d}`, turn, ts))
		add(fmt.Sprintf(`{"role":"assistant","content":[{"type":"toolCall","id":"c%d","name":"bash","arguments":{"command":"cat big%d"}},{"type":"toolCall","id":"d%d","name":"bash","arguments":{"command":"ls %d"}}],%s,"stopReason":"toolUse","timestamp":%d}`, turn, turn, turn, turn, usage, ts+1))
		size := 3000
		if turn%2 == 0 {
			size = 60000 // spilled
		}
		add(fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":"%s"}],"isError":false,"timestamp":%d}`, turn, strings.Repeat(strings.Repeat("x", 99)+`\n`, size/100), ts+2))
		add(fmt.Sprintf(`{"role":"toolResult","toolCallId":"d%d","toolName":"bash","content":[{"type":"text","text":"%s"}],"isError":false,"timestamp":%d}`, turn, strings.Repeat(strings.Repeat("y", 49)+`\n`, 40), ts+3))
		add(fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"done %d"}],%s,"stopReason":"stop","timestamp":%d}`, turn, usage, ts+4))
	}
	o := defaults(t)
	o.SpillThreshold = 20000
	o.Spill = func(key, text string) (string, error) { return "/blobs/" + key, nil }
	r, err := Run(context.Background(), read(t, []byte(b.String())), o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Flushed == nil || r.Flushed.Spilled == 0 || r.Flushed.Chains == 0 {
		t.Fatalf("want spills and chains, got %+v (%v)", r.Flushed, r.FlushSkipped)
	}
	st, err := r.IndexState()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := 1; ; i++ {
		id := fmt.Sprintf("b%d", i)
		blocks := st.QueryChains([]string{id}, nil)
		if len(blocks) == 0 || blocks[0].Chain == nil {
			break
		}
		c := blocks[0].Chain
		got := map[string]bool{}
		for _, bl := range blocks[1:] {
			if !bl.Found || bl.Record == nil {
				t.Errorf("%s: a block of the chain is not a found record: %q", id, bl.Text)
				continue
			}
			// a deduplicated call answers with the record it is an alias
			// of: its own id is the label's (id@timestamp)
			call := bl.Record.ToolCallID
			if id, _, ok := strings.Cut(bl.Label, "@"); ok {
				call = id
			}
			got[call] = true
		}
		for _, call := range c.DroppedToolCallIDs {
			if !got[call] {
				t.Errorf("%s drops %s (refs %v) but query of it does not list it", id, call, c.Refs())
			}
		}
		if len(blocks)-1 != len(c.DroppedToolCallIDs) {
			t.Errorf("%s: %d call blocks for %d dropped calls", id, len(blocks)-1, len(c.DroppedToolCallIDs))
		}
		if len(c.Refs()) < len(c.DroppedToolCallIDs) {
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no chain dropped a call without a ref: the test does not reach the spilled case")
	}
}
