package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSpillSession writes a session of turns turns, each a user question,
// an assistant bash call and its result, the first result large
// (bigChars, over the default spillThreshold when ≥ 65536) so that the
// flush spills it; returns its path.
func writeSpillSession(t *testing.T, dir string, turns, bigChars int) string {
	t.Helper()
	var b strings.Builder
	line := func(v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	line(map[string]any{"type": "session", "version": 3, "id": "5b1a7f0e-spill-4c1e-9d3a-000000000001", "timestamp": "2026-03-15T09:00:00.000Z", "cwd": "/home/user/proj"})
	parent := any(nil)
	n := 0
	entry := func(msg map[string]any) {
		n++
		id := fmt.Sprintf("e%07d", n)
		ts := int64(1773565200000) + int64(n)*1000
		msg["timestamp"] = ts
		line(map[string]any{"type": "message", "id": id, "parentId": parent, "timestamp": fmt.Sprintf("2026-03-15T09:%02d:%02d.000Z", n/60, n%60), "message": msg})
		parent = id
	}
	for i := 0; i < turns; i++ {
		entry(map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("Step %d: run the build and tell me what failed.", i)}}})
		call := fmt.Sprintf("bash:%d", i)
		entry(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": call, "name": "bash", "arguments": map[string]any{"command": fmt.Sprintf("make step%d 2>&1", i)}}},
			"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse",
			"usage": map[string]any{"input": 100, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 110, "cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}})
		var out strings.Builder
		size := 400
		if i == 0 {
			size = bigChars
		}
		for k := 0; out.Len() < size; k++ {
			fmt.Fprintf(&out, "[%04d] cc: step %d unit %d compiled (%d ms)\n", k, i, k, k*7%1000)
		}
		entry(map[string]any{"role": "toolResult", "toolCallId": call, "toolName": "bash", "content": []any{map[string]any{"type": "text", "text": out.String()}}, "isError": false})
	}
	p := filepath.Join(dir, "spill.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteSpillSessionSpills: the generated session TestStatsMatchesNow
// adds does spill (else that test would not cover the spill path).
func TestWriteSpillSessionSpills(t *testing.T) {
	p := writeSpillSession(t, t.TempDir(), 6, 70<<10)
	out, errOut, code := runMain(t, nil, nil, "now", p)
	if code != 0 {
		t.Fatalf("now: exit %d: %s", code, errOut)
	}
	if !strings.Contains(string(out), "spilled to file") || !strings.Contains(string(errOut), "1 spill-stubbed") {
		t.Fatalf("the generated session spills nothing: %s\n%s", errOut, out)
	}
}
