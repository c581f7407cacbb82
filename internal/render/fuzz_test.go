package render_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// FuzzRender renders arbitrary session text (seeded with testdata/render):
// it never panics or fails on input that reads as a session, every output
// line is strict JSON, no result is left without its call, and rendering
// the output again changes nothing.
func FuzzRender(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(renderDir, "*.jsonl"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil && len(b) < 4000 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) { fuzzRenderBody(t, in, fuzzOptions) })
}

var fuzzOptions = render.Options{RecoveryGraceTurns: 1, Chains: true, StripFinalThinking: true, PurgeErrors: true,
	PurgeMinArgChars: 10, Supersede: true, MaxImages: 1}

// fuzzRenderBody is FuzzRender's check of one input.
func fuzzRenderBody(t testing.TB, in []byte, o render.Options) {
	out, ok := fuzzRender(t, in, o)
	if !ok || len(out) == 0 {
		return
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if !json.Valid(l) {
			t.Fatalf("invalid output line %q", l)
		}
	}
	if !everyLineHasRole(out) {
		return // a session message without a role reads back as no message
	}
	again, ok := fuzzRender(t, out, o)
	if !ok || !bytes.Equal(again, out) {
		t.Fatalf("not idempotent:\n%s\n---\n%s", out, again)
	}
}

func fuzzRender(t testing.TB, in []byte, o render.Options) ([]byte, bool) {
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true, SizeHint: int64(len(in))})
	if err != nil {
		return nil, false
	}
	st, err := index.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := render.Render(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := render.Write(&out, ctx, res, render.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// pairing: every result answers an open call of the latest assistant
	// (read from the items: render keeps roles, call ids and toolCall
	// blocks, and an inserted message is a user message)
	var open map[string]bool
	for _, it := range res.Items {
		role := session.RoleUser
		var m *session.Message
		if it.Src >= 0 {
			m = ctx.Messages[it.Src]
			role = m.Role()
		}
		switch role {
		case session.RoleSystem:
		case session.RoleAssistant:
			open = map[string]bool{}
			for _, tc := range m.ToolCalls() {
				open[tc.ID()] = true
			}
		case session.RoleToolResult:
			if !open[m.ToolCallID()] {
				t.Fatalf("orphan result %q in\n%s", m.ToolCallID(), out.Bytes())
			}
			delete(open, m.ToolCallID())
		default:
			open = nil
		}
	}
	return out.Bytes(), true
}

// BenchmarkFuzzRenderBody runs FuzzRender's body over its seed corpus (the
// fuzzer cannot be profiled; this can: -cpuprofile, -memprofile).
func BenchmarkFuzzRenderBody(b *testing.B) {
	seeds, _ := filepath.Glob(filepath.Join(renderDir, "*.jsonl"))
	var ins [][]byte
	for _, p := range seeds {
		if d, err := os.ReadFile(p); err == nil && len(d) < 4000 {
			ins = append(ins, d)
		}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, in := range ins {
			fuzzRenderBody(b, in, fuzzOptions)
		}
	}
}

func everyLineHasRole(out []byte) bool {
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if v, ok := jsval.Get(l, "role"); !ok || jsval.TypeOf(v) != jsval.Str {
			return false
		}
	}
	return true
}
