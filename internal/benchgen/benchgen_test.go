package benchgen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

func seeds(t testing.TB) [][]byte {
	t.Helper()
	s, err := ReadSeeds("../../testdata/sessions/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func gen(t testing.TB, size, seed int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Generate(&buf, seeds(t), size, seed); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGenerateValid(t *testing.T) {
	const target = 8_000_000
	out := gen(t, target, 7)
	if d := float64(len(out)-target) / target; d < -0.05 || d > 0.05 {
		t.Errorf("size %d, want %d ±5%%", len(out), target)
	}
	if out[len(out)-1] != '\n' {
		t.Error("no final newline")
	}
	lines := bytes.Split(out[:len(out)-1], []byte("\n"))
	var hdr struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
		ID      string `json:"id"`
	}
	if err := json.Unmarshal(lines[0], &hdr); err != nil || hdr.Type != "session" || hdr.Version != 3 || hdr.ID == "" {
		t.Fatalf("bad header %s (%v)", lines[0], err)
	}
	ids := map[string]bool{}
	calls := map[string]bool{}     // every toolCall id ever written
	turnCalls := map[string]bool{} // calls of the current user turn without a result yet
	prev := ""
	var lastTS int64
	counts := map[string]int{}
	for i, l := range lines[1:] {
		num := i + 2
		var e struct {
			Type     string  `json:"type"`
			ID       string  `json:"id"`
			ParentID *string `json:"parentId"`
			Message  *struct {
				Role       string `json:"role"`
				ToolCallID string `json:"toolCallId"`
				Content    json.RawMessage
				Timestamp  *int64 `json:"timestamp"`
			} `json:"message"`
			FirstKeptEntryID string `json:"firstKeptEntryId"`
		}
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatalf("line %d: %v", num, err)
		}
		if len(e.ID) != 8 || ids[e.ID] {
			t.Fatalf("line %d: bad or duplicate id %q", num, e.ID)
		}
		ids[e.ID] = true
		if (prev == "") != (e.ParentID == nil) || (e.ParentID != nil && *e.ParentID != prev) {
			t.Fatalf("line %d: parentId does not chain to %q", num, prev)
		}
		prev = e.ID
		counts[e.Type]++
		if e.Type == "compaction" && !ids[e.FirstKeptEntryID] {
			t.Errorf("line %d: firstKeptEntryId %q not an earlier entry", num, e.FirstKeptEntryID)
		}
		if e.Type != "message" {
			continue
		}
		m := e.Message
		counts[m.Role]++
		// message timestamps are unique and increasing (chains are found by
		// them: a replayed seed turn must not repeat its seed's times)
		if m.Timestamp == nil || *m.Timestamp <= lastTS {
			t.Fatalf("line %d: message timestamp %v not after %d", num, m.Timestamp, lastTS)
		}
		lastTS = *m.Timestamp
		switch m.Role {
		case "user":
			clear(turnCalls)
		case "assistant":
			var blocks []struct {
				Type              string `json:"type"`
				ID                string `json:"id"`
				ThinkingSignature string `json:"thinkingSignature"`
			}
			if len(m.Content) > 0 && m.Content[0] == '[' {
				if err := json.Unmarshal(m.Content, &blocks); err != nil {
					t.Fatalf("line %d: content: %v", num, err)
				}
			}
			for _, b := range blocks {
				switch b.Type {
				case "toolCall":
					if calls[b.ID] {
						t.Fatalf("line %d: duplicate toolCall id %q", num, b.ID)
					}
					calls[b.ID], turnCalls[b.ID] = true, true
				case "thinking":
					if b.ThinkingSignature != "" {
						counts["signed thinking"]++
					}
				}
			}
		case "toolResult":
			if !turnCalls[m.ToolCallID] {
				t.Fatalf("line %d: toolResult %q has no earlier unanswered toolCall in its turn", num, m.ToolCallID)
			}
			delete(turnCalls, m.ToolCallID)
			if bytes.Contains(m.Content, []byte(`"type":"image"`)) {
				counts["image result"]++
			}
			if bytes.Contains(m.Content, []byte(`"text":"`)) && len(m.Content) > 50_000 {
				counts["50KB result"]++
			}
		}
	}
	t.Logf("%d lines: %v", len(lines), counts)
	for _, k := range []string{"user", "assistant", "toolResult", "compaction", "signed thinking", "image result", "50KB result", "thinking_level_change", "model_change"} {
		if counts[k] == 0 {
			t.Errorf("no %s in the output", k)
		}
	}
	if counts["compaction"] > 2 {
		t.Errorf("%d compactions, want at most 2", counts["compaction"])
	}

	// pruner reads it without a warning, and the context spans nearly all of it.
	ctx, err := session.Read(bytes.NewReader(out), bytes.NewReader(out), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ctx.Warnings) > 0 {
		t.Errorf("warnings: %v", ctx.Warnings)
	}
	if ctx.Header.Version != 3 || len(ctx.Messages) < counts["toolResult"]*9/10 {
		t.Errorf("context has %d messages for %d tool results", len(ctx.Messages), counts["toolResult"])
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a, b, c := gen(t, 1_000_000, 3), gen(t, 1_000_000, 3), gen(t, 1_000_000, 4)
	if !bytes.Equal(a, b) {
		t.Error("same seed, different output")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds, same output")
	}
}

func TestGenerateSizes(t *testing.T) {
	s := seeds(t)
	for _, target := range []int64{2_000_000, 5_000_000, 30_000_000} {
		var n countWriter
		if err := Generate(&n, s, target, 1); err != nil {
			t.Fatal(err)
		}
		if d := float64(int64(n)-target) / float64(target); d < -0.05 || d > 0.05 {
			t.Errorf("target %d: got %d bytes", target, n)
		}
	}
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"200MB": 200e6, "20MiB": 20 << 20, "1.5GB": 1.5e9, "512KB": 512e3, "1000": 1000, "3M": 3e6} {
		got, err := ParseSize(s)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MB", "-1MB", "x"} {
		if _, err := ParseSize(s); err == nil || !strings.Contains(err.Error(), "bad size") {
			t.Errorf("ParseSize(%q): want an error", s)
		}
	}
}
