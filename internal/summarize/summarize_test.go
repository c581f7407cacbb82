package summarize

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSubstituteLabels(t *testing.T) {
	refs := []string{"t7", "t8"}
	names := []string{"bash", "read"}
	cases := []struct{ in, want string }{
		{"[[1:bash]] ran the build", "`t7` ran the build"},
		{"- [[2:read]] read a file", "- `t8` read a file"},
		{"* [[2:READ ]] case and spaces", "* `t8` case and spaces"},
		{"  - [[1:bash]]   extra space", "  - `t7` extra space"},
		{"- [[1:read]] wrong name", "- wrong name"},
		{"- [[3:bash]] out of range", "- out of range"},
		{"- [[0:bash]] zero", "- zero"},
		{"- **[[1:bash]]** bold", "- **** bold"},
		{"1. [[1:bash]] numbered", "1. numbered"},
		{"> [[1:bash]] quoted", "> quoted"},
		{"see [[2:read]] mid-line", "see mid-line"},
		{"- [[1:bash]] and [[2:read]] both", "- `t7` and both"},
		{"```\n[[1:bash]] in a fence\n```\n[[2:read]] after", "```\n[[1:bash]] in a fence\n```\n`t8` after"},
		{"[[1.5:bash]] dotted", "[[1.5:bash]] dotted"},
		{"no labels at all", "no labels at all"},
	}
	for _, c := range cases {
		if got := SubstituteLabels(c.in, refs, names); got != c.want {
			t.Errorf("SubstituteLabels(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFooter(t *testing.T) {
	want := "\n\n---\n**Summarized tool refs**: `t1`, `t2`\nUse `context_tree_query` with these refs to retrieve the original full outputs."
	if got := Footer([]string{"t1", "t2"}); got != want {
		t.Fatalf("Footer = %q", got)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("a", 9000) + "😀" + strings.Repeat("b", 3999)
	got := clipResult(long, ClipHeadTail)
	if !strings.HasPrefix(got, strings.Repeat("a", 4000)+" ...[") || !strings.HasSuffix(got, " chars elided]... "+"😀"[:0]+strings.Repeat("b", 3999)) {
		t.Fatalf("head+tail clip: %q…%q", got[:20], got[len(got)-40:])
	}
	// the astral char straddles the 4,000-unit tail: it is left out, not split
	if strings.Contains(got, "\uFFFD") || strings.Contains(got, "😀") {
		t.Fatal("clip split or kept a surrogate pair across the cut")
	}
	if n := JSLen(long) - 4000 - 3999; !strings.Contains(got, fmt.Sprintf("...[%d chars elided]...", n)) {
		t.Fatalf("elided count wrong: %q", got[4000:4040])
	}
	if clipResult(strings.Repeat("x", 8000), ClipHeadTail) != strings.Repeat("x", 8000) {
		t.Fatal("8,000 chars must be sent whole")
	}
	if got := clipResult(strings.Repeat("x", 2500), ClipHead); got != strings.Repeat("x", 2000)+" ...[500 chars truncated]" {
		t.Fatalf("2.9 clip: %q", got[1990:])
	}
}

func TestRequestLayout(t *testing.T) {
	b := Batch{AssistantText: "Let me look.", Calls: []Call{
		{ToolName: "bash", Args: `{"command":"ls"}`, ArgsPretty: "{\n  \"command\": \"ls\"\n}", Result: "a\nb"},
		{ToolName: "read", Args: `{"path":"x"}`, ArgsPretty: "{\n  \"path\": \"x\"\n}", Result: "boom", IsError: true},
	}}
	want := Prompt + "\n\n<tool-call-batch>\nAssistant said: Let me look.\n\n" +
		"[[1:bash]] Tool: bash({\n  \"command\": \"ls\"\n})\nResult (OK): a\nb\n---\n" +
		"[[2:read]] Tool: read({\n  \"path\": \"x\"\n})\nResult (ERROR): boom\n</tool-call-batch>"
	if got := Request(b, ClipHeadTail); got != want {
		t.Fatalf("Request =\n%s\nwant\n%s", got, want)
	}
}

func batchOf(results ...string) Batch {
	var b Batch
	for i, r := range results {
		b.Calls = append(b.Calls, Call{ToolName: "bash", Args: fmt.Sprintf(`{"command":"step %d"}`, i), Result: r})
	}
	return b
}

func TestSummarizeCommandOutcomes(t *testing.T) {
	b := batchOf(strings.Repeat("line\n", 500))
	det := Deterministic(b)
	cases := []struct {
		name   string
		run    RunnerFunc
		source Source
		text   string
		warn   string
	}{
		{"ok", func(context.Context, []byte) ([]byte, error) { return []byte("- [[1:bash]] printed lines\n\n"), nil }, SourceCommand, "- [[1:bash]] printed lines", ""},
		{"exit 1", func(context.Context, []byte) ([]byte, error) { return nil, errors.New("exit status 1: quota") }, SourceFallback, det, "summarizer failed: exit status 1: quota"},
		{"empty", func(context.Context, []byte) ([]byte, error) { return []byte(" \n"), nil }, SourceFallback, det, "summarizer printed nothing"},
		{"binary", func(context.Context, []byte) ([]byte, error) { return []byte("\x00\x01[[1:bash]]"), nil }, SourceFallback, det, "binary"},
		{"no label", func(context.Context, []byte) ([]byte, error) { return []byte("Error: no API key"), nil }, SourceFallback, det, "no [[N:tool]] label"},
		{"timeout", func(ctx context.Context, _ []byte) ([]byte, error) { <-ctx.Done(); return nil, ctx.Err() }, SourceFallback, det, "timed out after 20ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			timeout := 20 * time.Millisecond // the timeout case only: a loaded machine must not time the others out
			if c.name != "timeout" {
				timeout = time.Minute
			}
			r := Summarize(context.Background(), []Batch{b}, Options{Command: c.run, Timeout: timeout})[0]
			if r.Source != c.source || r.Text != c.text || !strings.Contains(r.Warning, c.warn) || (c.warn == "") != (r.Warning == "") {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

type mapCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *mapCache) Get(k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *mapCache) Put(k, s string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = s
	return nil
}

func TestSummarizeCacheAndConcurrency(t *testing.T) {
	var running, peak, calls atomic.Int32
	run := RunnerFunc(func(ctx context.Context, req []byte) ([]byte, error) {
		calls.Add(1)
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		running.Add(-1)
		return []byte(fmt.Sprintf("- [[1:bash]] summary %d", calls.Load())), nil
	})
	var batches []Batch
	for i := 0; i < 9; i++ {
		batches = append(batches, batchOf(fmt.Sprintf("result %d", i)))
	}
	cache := &mapCache{m: map[string]string{}}
	first := Summarize(context.Background(), batches, Options{Command: run, Concurrency: 3, Cache: cache})
	if peak.Load() > 3 || calls.Load() != 9 {
		t.Fatalf("peak %d calls %d; want ≤3 and 9", peak.Load(), calls.Load())
	}
	second := Summarize(context.Background(), batches, Options{Command: run, Concurrency: 3, Cache: cache})
	if calls.Load() != 9 {
		t.Fatalf("cached batches ran the command again (%d calls)", calls.Load())
	}
	for i := range first {
		if second[i].Text != first[i].Text || second[i].Source != SourceCache {
			t.Fatalf("batch %d: second run %+v, first %+v", i, second[i], first[i])
		}
	}
}

func TestKeyIgnoresNothingThatMatters(t *testing.T) {
	a, b := batchOf("x"), batchOf("y")
	if Key(a, ClipHeadTail, "llm") == Key(b, ClipHeadTail, "llm") {
		t.Fatal("different results, same key")
	}
	if Key(a, ClipHeadTail, "llm") != Key(batchOf("x"), ClipHeadTail, "llm") {
		t.Fatal("same batch, different key")
	}
	if Key(a, ClipHeadTail, "llm -m a") == Key(a, ClipHeadTail, "llm -m b") {
		t.Fatal("different commands, same key")
	}
	if FuseKey([]string{"s"}, "a") == FuseKey([]string{"s"}, "b") {
		t.Fatal("different commands, same fusion key")
	}
}

// TestFailuresAreNotCached: a command that fails (or prints no summary)
// leaves nothing in the cache — the next run asks again, and a command that
// works then gives its summary; a summary of one command is not reused for
// another. Fusions alike.
func TestFailuresAreNotCached(t *testing.T) {
	cache := &mapCache{m: map[string]string{}}
	b := []Batch{batchOf("result")}
	calls := 0
	fail := RunnerFunc(func(context.Context, []byte) ([]byte, error) { calls++; return nil, errors.New("boom") })
	garbage := RunnerFunc(func(context.Context, []byte) ([]byte, error) { calls++; return []byte("no label"), nil })
	ok := RunnerFunc(func(context.Context, []byte) ([]byte, error) { calls++; return []byte("- [[1:bash]] works"), nil })
	for _, r := range []Runner{fail, garbage} {
		got := Summarize(context.Background(), b, Options{Command: r, Cache: cache, CommandID: "cmd"})
		if got[0].Source != SourceFallback || len(cache.m) != 0 {
			t.Fatalf("a failure: %+v, cache %v", got[0], cache.m)
		}
	}
	got := Summarize(context.Background(), b, Options{Command: ok, Cache: cache, CommandID: "cmd"})
	if got[0].Source != SourceCommand || got[0].Text != "- [[1:bash]] works" || len(cache.m) != 1 {
		t.Fatalf("the working command after failures: %+v (cache %d)", got[0], len(cache.m))
	}
	before := calls
	got = Summarize(context.Background(), b, Options{Command: ok, Cache: cache, CommandID: "other"})
	if got[0].Source != SourceCommand || calls != before+1 {
		t.Fatalf("another command reused the cache: %+v", got[0])
	}
	fused := Fuse(context.Background(), []string{"a `t1`", "b `t2`"}, []string{"t1", "t2"}, Options{Command: fail, Cache: cache, CommandID: "f"})
	if fused.Source != SourceFallback || len(cache.m) != 2 {
		t.Fatalf("a failed fusion: %+v, cache %d", fused, len(cache.m))
	}
}

func TestJSLen(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "😀": 2, "a😀b": 4, "\xff": 1} {
		if got := JSLen(s); got != want {
			t.Errorf("JSLen(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestCommandThatCannotRunRunsOnce: a command that cannot run (not found)
// is run for the first batch only, that batch's warning says so with a
// hint, and every other batch (and a fusion) falls back without running it
// and without a warning of its own (it printed 20 identical warnings).
func TestCommandThatCannotRunRunsOnce(t *testing.T) {
	var runs atomic.Int32
	notFound := RunnerFunc(func(ctx context.Context, _ []byte) ([]byte, error) {
		runs.Add(1)
		return nil, fmt.Errorf("%w: exit status 127: sh: llm: not found", ErrCannotRun)
	})
	var batches []Batch
	for i := range 8 {
		batches = append(batches, batchOf(fmt.Sprintf("result %d", i)))
	}
	opts := Options{Command: StopWhenCannotRun(notFound), Concurrency: 4}
	out := Summarize(context.Background(), batches, opts)
	if n := runs.Load(); n != 1 {
		t.Fatalf("the command ran %d times, want 1", n)
	}
	for i, r := range out {
		if r.Source != SourceFallback || r.Text != Deterministic(batches[i]) {
			t.Errorf("batch %d: %+v, want the deterministic fallback", i, r)
		}
		if (i == 0) != (r.Warning != "") {
			t.Errorf("batch %d: warning %q (only the first batch warns)", i, r.Warning)
		}
	}
	if !strings.Contains(out[0].Warning, "summarizer cannot run") || !strings.Contains(out[0].Warning, "PATH") {
		t.Errorf("warning %q: want 'cannot run' and the PATH hint", out[0].Warning)
	}
	if r := Fuse(context.Background(), []string{"a `t1`", "b `t2`"}, []string{"t1", "t2"}, opts); r.Source != SourceFallback || r.Warning != "" || runs.Load() != 1 {
		t.Errorf("fusion after a command that cannot run: %+v, %d runs", r, runs.Load())
	}
	// a command that runs and fails is still run for every batch
	runs.Store(0)
	fails := RunnerFunc(func(ctx context.Context, _ []byte) ([]byte, error) {
		runs.Add(1)
		return nil, errors.New("exit status 1: quota exceeded")
	})
	out = Summarize(context.Background(), batches, Options{Command: StopWhenCannotRun(fails)})
	if n := runs.Load(); n != int32(len(batches)) {
		t.Errorf("a failing command ran %d times, want %d", n, len(batches))
	}
	for i, r := range out {
		if !strings.Contains(r.Warning, "quota exceeded") {
			t.Errorf("batch %d: warning %q", i, r.Warning)
		}
	}
}
