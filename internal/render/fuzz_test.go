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
	o := render.Options{RecoveryGraceTurns: 1, Chains: true, StripFinalThinking: true, PurgeErrors: true,
		PurgeMinArgChars: 10, Supersede: true, MaxImages: 1}
	f.Fuzz(func(t *testing.T, in []byte) {
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
	})
}

func fuzzRender(t *testing.T, in []byte, o render.Options) ([]byte, bool) {
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
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
	oc, err := session.Read(bytes.NewReader(out.Bytes()), bytes.NewReader(out.Bytes()), session.ReadOptions{})
	if err == nil {
		var open map[string]bool
		for _, m := range oc.Messages {
			switch m.Role {
			case session.RoleSystem:
			case session.RoleAssistant:
				open = map[string]bool{}
				for _, tc := range m.ToolCalls {
					open[tc.ID] = true
				}
			case session.RoleToolResult:
				if !open[m.ToolCallID] {
					t.Fatalf("orphan result %q in\n%s", m.ToolCallID, out.Bytes())
				}
				delete(open, m.ToolCallID)
			default:
				open = nil
			}
		}
	}
	return out.Bytes(), true
}

func everyLineHasRole(out []byte) bool {
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if v, ok := jsval.Get(l, "role"); !ok || jsval.TypeOf(v) != jsval.Str {
			return false
		}
	}
	return true
}
