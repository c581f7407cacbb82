package prune_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

const casesDir = "../../testdata/cases"

// run prunes a session file with the options of a settings file (nil: no
// pruning) and returns the output lines and stats.
func run(t testing.TB, path string, opts *prune.Options) ([][]byte, prune.Stats) {
	t.Helper()
	out, st := runBytes(t, path, opts)
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(out) == 0 {
		lines = nil
	}
	return lines, st
}

func runBytes(t testing.TB, path string, opts *prune.Options) ([]byte, prune.Stats) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, err := session.Read(f, f, session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var plan *prune.Plan
	if opts != nil {
		plan = prune.NewPlan(ctx, *opts)
	}
	var buf bytes.Buffer
	st, err := prune.Render(&buf, ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), st
}

func runReader(t testing.TB, data []byte, opts *prune.Options) []byte {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var plan *prune.Plan
	if opts != nil {
		plan = prune.NewPlan(ctx, *opts)
	}
	var buf bytes.Buffer
	if _, err := prune.Render(&buf, ctx, plan); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func caseOptions(t testing.TB, dir string) prune.Options {
	t.Helper()
	c, err := config.Load(config.Options{ConfigFile: filepath.Join(dir, "settings.json"), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	o, err := pipeline.PruneOptions(c)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// inputMessage returns the raw "message" bytes of 1-based line n of a session.
func inputMessage(t testing.TB, path string, n int) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Split(data, []byte("\n"))[n-1]
	s, e, ok := session.ValueRange(line, "message")
	if !ok {
		t.Fatalf("line %d has no message", n)
	}
	return line[s:e]
}

type msg struct {
	Role       string `json:"role"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	IsError    bool   `json:"isError"`
	Timestamp  int64  `json:"timestamp"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func parse(t testing.TB, line []byte) msg {
	t.Helper()
	var m msg
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("output line is not JSON: %v\n%.200s", err, line)
	}
	return m
}

// findLine returns the output line equal to the input message, or the one
// whose timestamp matches (for pruned lines).
func findByTimestamp(t testing.TB, out [][]byte, ts int64) []byte {
	t.Helper()
	for _, l := range out {
		if parse(t, l).Timestamp == ts {
			return l
		}
	}
	t.Fatalf("no output message with timestamp %d", ts)
	return nil
}

func contains(out [][]byte, b []byte) bool {
	for _, l := range out {
		if bytes.Equal(l, b) {
			return true
		}
	}
	return false
}

// Case 002: tool call ids reused across turns (bash:0 three times). Every
// decision is keyed by the occurrence, never by the bare id.
func TestCase002ReusedToolCallIDs(t *testing.T) {
	dir := filepath.Join(casesDir, "002-reused-tool-call-ids")
	path := filepath.Join(dir, "session.jsonl")
	opts := caseOptions(t, dir)
	out, st := run(t, path, &opts)

	n := 0
	for _, l := range out {
		if parse(t, l).ToolCallID == "bash:0" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("bash:0 results in output = %d, want 3", n)
	}
	for _, line := range []int{10, 12, 16} {
		if !contains(out, inputMessage(t, path, line)) {
			t.Errorf("line %d: not byte-identical in the output", line)
		}
	}
	for _, tc := range []struct {
		line    int
		entry   string
		mention string
	}{{4, "ccce329e", "npm run build"}, {8, "709279b5", "src/a.ts"}} {
		in := parse(t, inputMessage(t, path, tc.line))
		got := parse(t, findByTimestamp(t, out, in.Timestamp))
		if len(got.Content) != 1 || !strings.HasPrefix(got.Content[0].Text, session.NoticePrefix) {
			t.Fatalf("line %d: not stubbed: %+v", tc.line, got.Content)
		}
		text := got.Content[0].Text
		for _, want := range []string{tc.entry, tc.mention, in.ToolCallID} {
			if !strings.Contains(text, want) {
				t.Errorf("line %d: stub %q does not name %q", tc.line, text, want)
			}
		}
		if got.ToolCallID != in.ToolCallID || got.ToolName != in.ToolName || got.IsError != in.IsError {
			t.Errorf("line %d: identity fields changed", tc.line)
		}
	}
	if st.Pruned != 2 {
		t.Errorf("pruned = %d, want 2", st.Pruned)
	}
	assertIdempotent(t, path, opts)
}

// Case 003: skill reads protected by the protectedPaths glob stay verbatim.
func TestCase003SkillReadProtectedByPath(t *testing.T) {
	dir := filepath.Join(casesDir, "003-skill-read-protected-by-path")
	path := filepath.Join(dir, "session.jsonl")
	opts := caseOptions(t, dir)
	out, _ := run(t, path, &opts)
	for _, line := range []int{4, 6, 8, 18} {
		if !contains(out, inputMessage(t, path, line)) {
			t.Errorf("line %d: want byte-identical", line)
		}
	}
	for _, line := range []int{10, 12, 14} {
		in := parse(t, inputMessage(t, path, line))
		got := parse(t, findByTimestamp(t, out, in.Timestamp))
		if !strings.HasPrefix(got.Content[0].Text, session.NoticePrefix) {
			t.Errorf("line %d: want stubbed, got %.80q", line, got.Content[0].Text)
		}
	}
	all := bytes.Join(out, []byte("\n"))
	if c := bytes.Count(all, []byte("Dispatch the conformance-reviewer subagent")); c < 1 {
		t.Error("the skill's closing gate is missing from the pruned context")
	}
	// kill switch: protectedPaths [] makes 4, 6, 8 prunable
	off := opts
	off.Protect = nil
	out2, _ := run(t, path, &off)
	for _, line := range []int{4, 6, 8} {
		if contains(out2, inputMessage(t, path, line)) {
			t.Errorf("protectedPaths []: line %d still verbatim", line)
		}
	}
	assertIdempotent(t, path, opts)
}

// Case 007: previews never split characters; lines not changed are copied,
// never re-encoded; sizes are code points.
func TestCase007UnicodeSafeTruncation(t *testing.T) {
	dir := filepath.Join(casesDir, "007-unicode-safe-truncation")
	path := filepath.Join(dir, "session.jsonl")
	opts := caseOptions(t, dir)
	raw, _ := runBytes(t, path, &opts)
	if !utf8.Valid(raw) {
		t.Fatal("output is not valid UTF-8")
	}
	out := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
	for _, l := range out {
		if !json.Valid(l) {
			t.Fatalf("invalid JSON line: %.100s", l)
		}
	}
	for _, line := range []int{4, 6} {
		in := parse(t, inputMessage(t, path, line))
		got := findByTimestamp(t, out, in.Timestamp)
		if contains(out, inputMessage(t, path, line)) {
			t.Errorf("line %d: want stubbed", line)
		}
		if bytes.Contains(bytes.ToLower(got), []byte(`\ud83d"`)) || bytes.Contains(got, []byte(`\ud83d`)) {
			t.Errorf("line %d: stub copies a lone surrogate", line)
		}
		m := parse(t, got)
		if line == 4 {
			if strings.ContainsRune(m.Content[0].Text, utf8.RuneError) {
				t.Error("line 4 preview holds U+FFFD")
			}
			if !strings.Contains(m.Content[0].Text, "3518 chars") {
				t.Errorf("line 4: size should be 3518 chars (code points): %.200q", m.Content[0].Text)
			}
		}
	}
	if !contains(out, inputMessage(t, path, 10)) {
		t.Error("line 10 (recent, with 🚀) is not byte-identical")
	}
	// pruning off: line 6 passes through byte-identical, with a warning
	f, _ := os.Open(path)
	defer f.Close()
	ctx, err := session.Read(f, f, session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range ctx.Warnings {
		if w.Line == 6 && strings.Contains(w.Msg, "surrogate") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning for the lone surrogate on line 6: %v", ctx.Warnings)
	}
	plain, _ := run(t, path, nil)
	if !contains(plain, inputMessage(t, path, 6)) {
		t.Error("pruning off: line 6 not byte-identical")
	}
	assertIdempotent(t, path, opts)
}

// Excerpts of error results are cut on code-point boundaries, even with a
// small limit that puts the cut inside an emoji or a combining sequence.
func TestExcerptBoundaries(t *testing.T) {
	text := strings.Repeat("ab📁é\u0301👨\u200d👩\u200d👧 ", 400)
	o := prune.Options{RecentTurns: 1, MaxChars: 100}
	data := contextWith(t, text, true)
	out := runReader(t, data, &o)
	if !utf8.Valid(out) {
		t.Fatal("invalid UTF-8")
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	m := parse(t, lines[2])
	got := m.Content[0].Text
	if !strings.HasPrefix(got, session.NoticePrefix+"pruned bash error result") {
		t.Fatalf("not an excerpt: %.100q", got)
	}
	if strings.Contains(got, "\u200d\n") || strings.Contains(got, "\n\u0301") {
		t.Errorf("excerpt splits a grapheme: %q", got)
	}
	if again := runReader(t, out, &o); !bytes.Equal(again, out) {
		t.Error("excerpt not idempotent")
	}
}

// contextWith builds a context (one message per line): user, assistant with
// a bash call, its result with text, then a second user turn.
func contextWith(t testing.TB, text string, isError bool) []byte {
	t.Helper()
	res := map[string]any{"role": "toolResult", "toolCallId": "c1", "toolName": "bash",
		"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError, "timestamp": 3}
	rb, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(`{"role":"user","content":"go","timestamp":1}
{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"make test"}}],"stopReason":"toolUse","timestamp":2}
` + string(rb) + `
{"role":"user","content":"next","timestamp":4}
`)
}

func assertIdempotent(t *testing.T, path string, opts prune.Options) {
	t.Helper()
	once, _ := runBytes(t, path, &opts)
	twice := runReader(t, once, &opts)
	if !bytes.Equal(once, twice) {
		t.Error("pruning the pruned output changed it (not idempotent)")
	}
}
