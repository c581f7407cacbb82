package turns_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

func TestWindow(t *testing.T) {
	// 10 messages, turns start at 3, 5 and 8; 0–2 are the rest of a turn a
	// compaction cut (summary, assistant, result).
	tr := turns.Turns{Starts: []int{3, 5, 8}, Len: 10}
	for n, want := range map[int]int{-1: 10, 0: 10, 1: 8, 2: 5, 3: 3, 4: 3, 100: 3} {
		if got := tr.Window(n); got != want {
			t.Errorf("Window(%d) = %d, want %d", n, got, want)
		}
	}
	for i, want := range []int{0, 0, 0, 1, 1, 2, 2, 2, 3, 3} {
		if got := tr.Index(i); got != want {
			t.Errorf("Index(%d) = %d, want %d", i, got, want)
		}
	}
	// no turn starts in the context: the messages are the turn in progress
	none := turns.Turns{Len: 4}
	for n, want := range map[int]int{0: 4, 1: 0, 3: 0} {
		if got := none.Window(n); got != want {
			t.Errorf("no turns: Window(%d) = %d, want %d", n, got, want)
		}
	}
	// a context that starts with its first user message has no head
	plain := turns.Turns{Starts: []int{0, 4}, Len: 6}
	if plain.Window(5) != 0 || plain.Window(1) != 4 {
		t.Errorf("plain context: Window(5)=%d Window(1)=%d", plain.Window(5), plain.Window(1))
	}
}

func TestIsChainMessage(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"role":"user","content":[{"type":"text","text":"<compressed-chain id=\"b1\" tools=\"t1\">\nx\n</compressed-chain>"}]}`: true,
		`{"role":"user","content":"\n  <compressed-chain id=\"b2\">"}`:                                                           true,
		`{"role":"user","content":[{"type":"text","text":"\u2028\ufeff<compressed-chain"}]}`:                                     true,
		`{"role":"user","content":[{"type":"text","text":"see <compressed-chain id=\"b1\">"}]}`:                                  false,
		`{"role":"user","content":[{"type":"image","data":"x"},{"type":"text","text":"<compressed-chain"}]}`:                     false,
		`{"role":"user","content":[{"type":"text","text":"\u0085<compressed-chain"}]}`:                                           false, // NEL is not JavaScript white space
		`{"role":"user","content":[{"type":"text","text":"fix it"}]}`:                                                            false,
	} {
		if got := turns.IsChainMessage([]byte(raw)); got != want {
			t.Errorf("IsChainMessage(%s) = %v, want %v", raw, got, want)
		}
	}
}

// prefix reads the first n lines of a testdata session.
func prefix(t *testing.T, name string, n int) *session.Context {
	t.Helper()
	data, err := os.ReadFile("../../testdata/sessions/" + name)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n > 0 && n < len(lines) {
		data = bytes.Join(lines[:n], nil)
	}
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestOfAfterCompaction: compact.jsonl at its first compaction (line 670)
// keeps the end of a turn before its first kept user message; those
// messages are turn 0 and outside every window.
func TestOfAfterCompaction(t *testing.T) {
	ctx := prefix(t, "compact.jsonl", 670)
	tr := turns.Of(ctx)
	if tr.Count() != 6 {
		t.Fatalf("%d turns, want 6", tr.Count())
	}
	head := tr.Starts[0]
	roles := []string{}
	for _, m := range ctx.Messages[:head] {
		roles = append(roles, m.Role())
	}
	if got := strings.Join(roles, " "); got != "compactionSummary assistant toolResult assistant toolResult assistant toolResult assistant toolResult assistant" {
		t.Fatalf("head: %s", got)
	}
	for n := 1; n <= 10; n++ {
		w := tr.Window(n)
		if w < head {
			t.Errorf("Window(%d) = %d includes the compacted turn (first user message at %d)", n, w, head)
		}
	}
	if tr.Index(head-1) != 0 || tr.Index(head) != 1 {
		t.Errorf("Index: head %d, first turn %d", tr.Index(head-1), tr.Index(head))
	}
	// a v1 session compacted mid-turn with no user message after it: the
	// turn in progress, inside any window
	v1 := turns.Of(prefix(t, "Whamp__pi-v1-linear.jsonl", 0))
	if v1.Count() != 0 || v1.Window(1) != 0 {
		t.Errorf("v1: %d turns, Window(1) = %d", v1.Count(), v1.Window(1))
	}
}

// TestOfIgnoresMachineUserMessages: subagent notices and pi-condense's
// <compressed-chain> messages start no turn (a context input, one message
// per line, as pruner's own output).
func TestOfIgnoresMachineUserMessages(t *testing.T) {
	in := strings.Join([]string{
		`{"role":"user","content":[{"type":"text","text":"one"}],"timestamp":1}`,
		`{"role":"user","content":[{"type":"text","text":"<compressed-chain id=\"b1\" tools=\"t1\">\nbody\n</compressed-chain>"}],"timestamp":2}`,
		`{"role":"assistant","content":[{"type":"text","text":"done"}],"timestamp":3}`,
		`{"role":"user","content":"Subagent scout (task 7, 12s) finished. Output: …","timestamp":4}`,
		`{"role":"user","content":"two","timestamp":5}`,
	}, "\n") + "\n"
	ctx, err := session.Read(strings.NewReader(in), strings.NewReader(in), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := turns.Of(ctx).Starts; len(got) != 2 || got[0] != 0 || got[1] != 4 {
		t.Fatalf("starts %v, want [0 4]", got)
	}
}

// Of skips re-reading a user message the read time knows cannot be a chain
// message: on every session and chain context in testdata it finds the
// turns that reading every user message finds.
func TestOfMatchesReadingEveryUserMessage(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/chains/*.jsonl", "../../testdata/golden/flush/*.jsonl", "../../testdata/condense-oracle/*/requests/*.context.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	chains := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(f, f, session.ReadOptions{})
		if err != nil {
			f.Close()
			t.Fatal(err)
		}
		var want []int
		for i, m := range ctx.Messages {
			if m.Role() != session.RoleUser || m.Synthetic() {
				continue
			}
			b, err := ctx.AppendMessage(nil, m)
			if err == nil && turns.IsChainMessage(b) {
				chains++
				continue
			}
			want = append(want, i)
		}
		if got := turns.Of(ctx).Starts; !slices.Equal(got, want) {
			t.Errorf("%s: starts %v, reading every user message %v", p, got, want)
		}
		f.Close()
	}
	if chains == 0 {
		t.Error("no chain message in the inputs: the test proves nothing")
	}
}
