package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// checkChainOutputs: every compressed chain in the output dropped its tool
// turns, and the output of every protected call inside it — protected when
// the chain was compressed, or under the current config — is in the chain
// message, in a <protected-output> block, in order, once: verbatim, or as
// the superseded notice of an older read of a file read again later (only
// the newest read stays verbatim); it is no tool result any more. It
// returns how many protected outputs it saw.
func checkChainOutputs(t *testing.T, r *Result, out []byte, o Options) int {
	t.Helper()
	if r.Rendered == nil || r.State == nil {
		return 0
	}
	ctx := r.Ctx
	var texts []string // the chain messages' texts
	for _, it := range r.Rendered.Items {
		if it.Change != render.ChainMessage {
			continue
		}
		b, err := it.AppendJSON(nil, ctx)
		if err != nil {
			t.Fatal(err)
		}
		content, _ := jsval.Get(b, "content")
		els, _ := jsval.Elements(content)
		text, _ := jsval.String(mustGetRaw(els[0], "text"))
		texts = append(texts, text)
	}
	if len(texts) == 0 {
		return 0
	}
	seen := 0
	results := map[string]bool{} // toolResult lines in the output, by call id@ts
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if role, _ := jsval.Get(l, "role"); string(role) == `"toolResult"` {
			id, _ := jsval.Get(l, "toolCallId")
			ts, _ := jsval.Get(l, "timestamp")
			results[string(id)+"@"+string(ts)] = true
		}
	}
	ts := func(m *session.Message) (float64, bool) {
		raw, err := ctx.AppendMessage(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := jsval.Get(raw, "timestamp")
		return jsval.Number(v)
	}
	for _, text := range texts {
		id := text[len(`<compressed-chain id="`):]
		id = id[:strings.IndexByte(id, '"')]
		c, ok := r.State.ChainByBlock(id)
		if !ok {
			t.Fatalf("chain message %s has no chain entry", id)
		}
		start, end := -1, -1
		for i, m := range ctx.Messages {
			f, ok := ts(m)
			switch {
			case !ok:
			case m.Role() == session.RoleUser && f == float64(c.StartUserTimestamp) && start < 0:
				start = i
			case m.Role() == session.RoleAssistant && c.FinalAssistantTimestamp != nil && f == float64(*c.FinalAssistantTimestamp) && start >= 0 && end < 0:
				end = i
			}
		}
		if start < 0 || end < 0 {
			t.Fatalf("chain %s: its range is not in the context", id)
		}
		prot := map[string]bool{}
		for _, p := range c.ProtectedToolCallIDs {
			prot[p] = true
		}
		paths := map[string]string{}
		type block struct{ tool, verbatim, notice string }
		var want []block
		for i := start + 1; i < end; i++ {
			m := ctx.Messages[i]
			switch m.Role() {
			case session.RoleAssistant:
				for _, tc := range m.ToolCalls() {
					if o.Prune.Protect.Protected(tc.Name(), tc.Path(), tc.HasPath()) {
						prot[tc.ID()] = true
					}
					if tc.HasPath() {
						paths[tc.ID()] = tc.Path()
					}
				}
			case session.RoleToolResult:
				key := string(jsval.AppendString(nil, m.ToolCallID())) + "@" + m.Timestamp()
				if results[key] {
					t.Fatalf("chain %s: result %s is still in the output", id, key)
				}
				if !prot[m.ToolCallID()] && !o.Prune.Protect.ToolProtected(m.ToolName()) {
					continue
				}
				raw, err := ctx.AppendMessage(nil, m)
				if err != nil {
					t.Fatal(err)
				}
				b := block{tool: m.ToolName(), verbatim: resultText(raw)}
				if p, ok := paths[m.ToolCallID()]; ok && m.ToolName() == "read" {
					b.notice = render.SupersededNotice(p)
				}
				want = append(want, b)
			}
		}
		got := protectedBlock.FindAllStringSubmatch(text, -1)
		if len(got) != len(want) {
			t.Fatalf("chain %s: %d protected-output blocks, want %d", id, len(got), len(want))
		}
		for k, g := range got {
			w := want[k]
			if g[1] != w.tool || (g[2] != w.verbatim && (w.notice == "" || g[2] != w.notice)) {
				t.Fatalf("chain %s: protected output %d is %q (%s), want the %s output verbatim (or superseded): %.200q", id, k+1, g[2], g[1], w.tool, w.verbatim)
			}
			if g[2] == w.verbatim && strings.Count(strings.Join(texts, "\n"), g[0]) != 1 {
				t.Fatalf("chain %s: protected output %d appears more than once", id, k+1)
			}
			seen++
		}
	}
	return seen
}

var protectedBlock = regexp.MustCompile(`(?s)<protected-output tool="([^"]*)">\n(.*?)\n</protected-output>`)

func mustGetRaw(obj []byte, key string) []byte {
	v, _ := jsval.Get(obj, key)
	return v
}

// resultText joins a tool result's text blocks with "\n".
func resultText(raw []byte) string {
	content, _ := jsval.Get(raw, "content")
	els, _ := jsval.Elements(content)
	var parts []string
	for _, el := range els {
		if typ, _ := jsval.Get(el, "type"); string(typ) != `"text"` {
			continue
		}
		s, _ := jsval.String(mustGetRaw(el, "text"))
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n")
}

// TestChainProtectedOutputs: testdata/chains/protected.jsonl compresses a
// chain holding a protected skill read (protectedPaths) and one holding a
// protected tool (protectedTools: todo); both outputs move into their chain
// messages — the skill read, read again later, as its superseded notice —
// (a check that sees none would prove nothing).
func TestChainProtectedOutputs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "chains", "protected.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	o := defaults(t)
	r, out, _ := run(t, data, o)
	if n := checkChainOutputs(t, r, out, o); n != 2 {
		t.Fatalf("%d protected outputs in compressed chains, want 2", n)
	}
	if r.Flushed.Chains != 4 || r.Flushed.Fused != 1 || r.Flushed.Backfilled != 3 {
		t.Fatalf("%d chains (%d fused, %d calls backfilled), want 4 (1, 3)", r.Flushed.Chains, r.Flushed.Fused, r.Flushed.Backfilled)
	}
	if !bytes.Contains(out, []byte(`<protected-output tool=\"read\">\n[Superseded: skills/demo/SKILL.md was read again later`)) {
		t.Error("the old skill read in b1 is not superseded")
	}
}

// TestGeneratedSessionCompressesChains: a benchmark session (benchgen) has
// chains the defaults compress, so `make bench` measures chains at scale (its
// replayed turns once repeated their seeds' timestamps, and no chain could be
// named).
func TestGeneratedSessionCompressesChains(t *testing.T) {
	seeds, err := benchgen.ReadSeeds("../../testdata/sessions/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := benchgen.Generate(&buf, seeds, 2_000_000, 1); err != nil {
		t.Fatal(err)
	}
	in := buf.Bytes()
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), ctx, defaults(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Flushed == nil || r.Flushed.Chains < 20 || r.Rendered == nil || r.Rendered.Report.Chains != r.Flushed.Chains {
		t.Fatalf("flush %+v; want 20 chains or more, all rendered", r.Flushed)
	}
	t.Logf("%d messages: %d chains compressed, %d calls dropped", len(ctx.Messages), r.Flushed.Chains, r.Flushed.ChainCalls)
}
