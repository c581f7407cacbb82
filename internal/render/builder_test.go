package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// sb builds a pi session line by line (each entry the child of the last).
type sb struct {
	lines  []string
	parent string
	n      int
}

func newSession() *sb {
	return &sb{lines: []string{`{"type":"session","version":3,"id":"sess","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`}}
}

func (b *sb) entry(body string) string {
	b.n++
	id := fmt.Sprintf("e%03d", b.n)
	p := "null"
	if b.parent != "" {
		p = `"` + b.parent + `"`
	}
	b.lines = append(b.lines, `{`+body+`,"id":"`+id+`","parentId":`+p+`,"timestamp":"2026-12-01T00:00:00.000Z"}`)
	b.parent = id
	return id
}

func (b *sb) message(m string) string { return b.entry(`"type":"message","message":` + m) }

func (b *sb) user(text string, ts int) {
	b.message(fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":%q}],"timestamp":%d}`, text, ts))
}

// call is a toolCall block.
func call(id, name, args string) string {
	return fmt.Sprintf(`{"type":"toolCall","id":%q,"name":%q,"arguments":%s}`, id, name, args)
}

func (b *sb) assistant(ts int, blocks ...string) {
	b.message(fmt.Sprintf(`{"role":"assistant","content":[%s],"stopReason":"toolUse","timestamp":%d}`, strings.Join(blocks, ","), ts))
}

func (b *sb) reply(text string, ts int) {
	b.message(fmt.Sprintf(`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":%q}],"stopReason":"stop","timestamp":%d}`, text, ts))
}

func (b *sb) result(id, tool, text string, isError bool, ts int) {
	b.message(fmt.Sprintf(`{"role":"toolResult","toolCallId":%q,"toolName":%q,"content":[{"type":"text","text":%q}],"isError":%v,"timestamp":%d}`, id, tool, text, isError, ts))
}

func (b *sb) custom(ctype, data string) {
	b.entry(`"type":"custom","customType":"` + ctype + `","data":` + data)
}

// summarize writes a summary message and its index entry for records
// (ref t<n> for each, starting at first).
func (b *sb) summarize(first int, recs ...[3]string) {
	var refs, rs []string
	for i, r := range recs {
		refs = append(refs, fmt.Sprintf(`{"shortId":"t%d","toolCallId":%q,"resultTimestamp":%s}`, first+i, r[0], r[2]))
		rs = append(rs, fmt.Sprintf(`{"toolCallId":%q,"toolName":%q,"args":{},"resultText":"raw","isError":false,"turnIndex":0,"timestamp":1,"resultTimestamp":%s}`, r[0], r[1], r[2]))
	}
	b.entry(fmt.Sprintf(`"type":"custom_message","customType":"context-prune-summary","content":"summary %d","display":false,"details":{"toolCallRefs":[%s],"toolNames":[],"turnIndex":0,"timestamp":1}`, first, strings.Join(refs, ",")))
	b.custom(index.TypeIndex, `{"toolCalls":[`+strings.Join(rs, ",")+`]}`)
}

func (b *sb) String() string { return strings.Join(b.lines, "\n") + "\n" }

// run renders the session and returns the output lines decoded, the raw
// output and the result.
func run(t *testing.T, in string, o render.Options) ([]map[string]any, []byte, *render.Result) {
	t.Helper()
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) > 0 {
		t.Fatalf("index warnings: %v", st.Warnings)
	}
	res, err := render.Render(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := render.Write(&out, ctx, res, render.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var msgs []map[string]any
	for _, l := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("output line not JSON: %s", l)
		}
		msgs = append(msgs, m)
	}
	return msgs, out.Bytes(), res
}

// text returns the text of a message's first content block.
func text(m map[string]any) string {
	c, _ := m["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	b, _ := c[0].(map[string]any)
	s, _ := b["text"].(string)
	return s
}

// results returns the toolResult messages with the given call id.
func results(msgs []map[string]any, id string) []map[string]any {
	var out []map[string]any
	for _, m := range msgs {
		if m["role"] == "toolResult" && m["toolCallId"] == id {
			out = append(out, m)
		}
	}
	return out
}

func mustPredicate(t *testing.T, tools, paths []string) *protect.Predicate {
	t.Helper()
	p, err := protect.NewPredicate(tools, paths)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func defaults(t *testing.T) render.Options {
	return render.Options{
		Protect: mustPredicate(t, nil, []string{"**/skills/**/*.md"}), RecoveryGraceTurns: 3, Chains: true, StripFinalThinking: true,
		PurgeErrors: true, PurgeCooldownTurns: 2, PurgeMinArgChars: 500, Supersede: true,
	}
}

// next is the id the next entry gets.
func (b *sb) next() string { return fmt.Sprintf("e%03d", b.n+1) }

// compaction appends a compaction whose kept entries start at firstKept.
func (b *sb) compaction(firstKept string) {
	b.entry(`"type":"compaction","summary":"earlier work","firstKeptEntryId":"` + firstKept + `","tokensBefore":1000`)
}

// notice appends a subagent completion notice (a user message no person typed).
func (b *sb) notice(ts int) {
	b.message(fmt.Sprintf(`{"role":"user","content":"Subagent scout (task %d, 2s) finished. Output: ok","timestamp":%d}`, ts, ts))
}
