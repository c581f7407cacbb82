package pairing_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/session"
)

// sess builds a session, each entry the child of the last; ids are the
// names given.
type sess struct {
	lines  []string
	parent string
}

func newSess() *sess {
	return &sess{lines: []string{`{"type":"session","version":3,"id":"s","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`}}
}

func (b *sess) add(id, body string) *sess {
	p := "null"
	if b.parent != "" {
		p = `"` + b.parent + `"`
	}
	b.lines = append(b.lines, `{`+body+`,"id":"`+id+`","parentId":`+p+`,"timestamp":"2026-12-01T00:00:00.000Z"}`)
	b.parent = id
	return b
}

func (b *sess) msg(id, m string) *sess { return b.add(id, `"type":"message","message":`+m) }

func (b *sess) user(id string) *sess {
	return b.msg(id, `{"role":"user","content":"go","timestamp":1}`)
}

func (b *sess) calls(id string, ids ...string) *sess {
	var bl []string
	for _, c := range ids {
		bl = append(bl, fmt.Sprintf(`{"type":"toolCall","id":%q,"name":"bash","arguments":{"command":"ls"}}`, c))
	}
	return b.msg(id, `{"role":"assistant","content":[`+strings.Join(bl, ",")+`],"stopReason":"toolUse","timestamp":2}`)
}

func (b *sess) result(id, call string) *sess {
	return b.msg(id, fmt.Sprintf(`{"role":"toolResult","toolCallId":%q,"toolName":"bash","content":[{"type":"text","text":"out"}],"isError":false,"timestamp":3}`, call))
}

func (b *sess) reply(id string) *sess {
	return b.msg(id, `{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","timestamp":4}`)
}

func (b *sess) custom(id string) *sess {
	return b.add(id, `"type":"custom_message","customType":"other-ext","content":"note","display":true`)
}

func (b *sess) compaction(id, firstKept string) *sess {
	return b.add(id, `"type":"compaction","summary":"earlier","firstKeptEntryId":"`+firstKept+`","tokensBefore":100`)
}

func (b *sess) read(t *testing.T) *session.Context {
	t.Helper()
	in := strings.Join(b.lines, "\n") + "\n"
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// hazards is the report as "severity kind: description" lines.
func hazards(r *pairing.Report) string {
	var out []string
	for _, h := range r.Hazards {
		out = append(out, h.Severity.String()+" "+h.Kind.String()+": "+h.String())
	}
	return strings.Join(out, "\n")
}

func TestFind(t *testing.T) {
	cases := []struct {
		name string
		b    *sess
		want string
	}{
		{"paired", newSess().user("u1").calls("a1", "c1", "c2").result("r1", "c1").result("r2", "c2").reply("a2"), ""},
		{"another extension's message between", newSess().user("u1").calls("a1", "c1", "c2").result("r1", "c1").custom("x1").result("r2", "c2").reply("a2"),
			"error interrupted: toolResult entry r2 (call c2) is cut off from its call in assistant entry a1 by custom entry x1: pi-ai closes the call before it and orphans the result"},
		{"a user message between", newSess().user("u1").calls("a1", "c1").user("u2").result("r1", "c1"),
			"error interrupted: toolResult entry r1 (call c1) is cut off from its call in assistant entry a1 by user entry u2: pi-ai closes the call before it and orphans the result"},
		{"a later assistant between", newSess().user("u1").calls("a1", "c1").calls("a2", "c2").result("r2", "c2").result("r1", "c1"),
			"error interrupted: toolResult entry r1 (call c1) is cut off from its call in assistant entry a1 by assistant entry a2: pi-ai closes the call before it and orphans the result"},
		{"no call", newSess().user("u1").result("r1", "c9").reply("a1"),
			"error no-call: toolResult entry r1 (call c9) answers no call before it: pi-ai sends it without its call"},
		{"duplicate", newSess().user("u1").calls("a1", "c1").result("r1", "c1").result("r2", "c1"),
			"error duplicate: toolResult entry r2 is a second result for call c1 of assistant entry a1 (first: toolResult entry r1): pi-ai sends both"},
		{"a system message is held back", newSess().user("u1").calls("a1", "c1").
			msg("s1", `{"role":"system","content":"prompt","timestamp":5}`).result("r1", "c1"), ""},
		{"a !! bash execution is not sent", newSess().user("u1").calls("a1", "c1").
			msg("b1", `{"role":"bashExecution","command":"ls","output":"","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":5}`).result("r1", "c1"), ""},
		{"a ! bash execution is", newSess().user("u1").calls("a1", "c1").
			msg("b1", `{"role":"bashExecution","command":"ls","output":"","exitCode":0,"cancelled":false,"truncated":false,"timestamp":5}`).result("r1", "c1"),
			"error interrupted: toolResult entry r1 (call c1) is cut off from its call in assistant entry a1 by bashExecution entry b1: pi-ai closes the call before it and orphans the result"},
		{"a reused id answers the latest call", newSess().user("u1").calls("a1", "c1").result("r1", "c1").reply("a2").user("u2").calls("a3", "c1").result("r3", "c1"), ""},
		// pi 0.80.6–0.86.x: buildContextEntries keeps the older compaction k1
		// (in k2's kept range, from a1 on) and flatMap(sessionEntryToContextMessages)
		// renders it as a compactionSummary between a1 and r2; pi 1.6
		// (index > 0: no messages) and ≤ 0.80.3 (appendMessage ignores it) do not.
		{"an older compaction in the kept range", newSess().user("u1").calls("a1", "c1", "c2").result("r1", "c1").compaction("k1", "a1").result("r2", "c2").reply("a2").user("u2").compaction("k2", "a1"),
			"warning interrupted: pi 0.80.6–0.86.x renders compaction entry k1 (kept in range) as a summary between assistant entry a1 (call c2) and its toolResult entry r2: the result is orphaned there"},
		{"an older compaction between pairs", newSess().user("u1").calls("a1", "c1").result("r1", "c1").compaction("k1", "a1").reply("a2").user("u2").compaction("k2", "a1"), ""},
	}
	for _, c := range cases {
		ctx := c.b.read(t)
		r := pairing.Find(ctx)
		if got := hazards(r); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		for _, h := range r.Hazards {
			if !r.Involves(h.Result.Index) || (h.Call != nil && !r.Involves(h.Call.Index)) {
				t.Errorf("%s: the hazard's messages are not involved", c.name)
			}
		}
	}
	var nilReport *pairing.Report
	if nilReport.Involves(0) || nilReport.Errors() != 0 {
		t.Error("a nil report involves something")
	}
}

// TestFindManyBetween lists the first separators and counts the rest.
func TestFindManyBetween(t *testing.T) {
	b := newSess().user("u1").calls("a1", "c1")
	for i := 0; i < 8; i++ {
		b.custom(fmt.Sprintf("x%d", i))
	}
	r := pairing.Find(b.result("r1", "c1").read(t))
	if len(r.Hazards) != 1 || len(r.Hazards[0].Between) != 5 || r.Hazards[0].MoreBetween != 3 || !strings.Contains(r.Hazards[0].String(), "custom entry x4, 3 more:") {
		t.Fatalf("%+v", r.Hazards)
	}
}

// TestCrossing: an inserted message inside a pair is found; one between
// pairs, or in a broken pair's gap, is reported only inside the span.
func TestCrossing(t *testing.T) {
	u := pairing.Msg{Role: session.RoleUser}
	a := func(ids ...string) pairing.Msg {
		var tc []session.ToolCall
		for _, id := range ids {
			tc = append(tc, session.NewToolCall(id, "bash", "", false))
		}
		return pairing.Msg{Role: session.RoleAssistant, Calls: tc}
	}
	r := func(id string) pairing.Msg { return pairing.Msg{Role: session.RoleToolResult, ToolCallID: id} }
	msgs := []pairing.Msg{u, u, a("c1", "c2"), r("c1"), u, r("c2"), u, a(), u}
	got := pairing.Crossing(msgs, func(i int) bool { return i == 1 || i == 4 || i == 8 })
	if fmt.Sprint(got) != "[4]" {
		t.Fatalf("crossing %v, want [4]", got)
	}
}

// TestNoHazardsInTestdata: no session shipped in testdata holds a hazard
// (so no golden file depends on the fail-closed rules).
func TestNoHazardsInTestdata(t *testing.T) {
	var all []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/cases/*/session.jsonl", "../../testdata/condense-oracle/*/*/*.session.jsonl", "../../testdata/condense-oracle/*/final/*.jsonl"} {
		m, _ := filepath.Glob(g)
		all = append(all, m...)
	}
	if len(all) < 40 {
		t.Fatalf("%d sessions", len(all))
	}
	for _, p := range all {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(f, f, session.ReadOptions{Branch: true})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if r := pairing.Find(ctx); len(r.Hazards) > 0 {
			t.Errorf("%s: %s", p, hazards(r))
		}
	}
}
