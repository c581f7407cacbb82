package prune_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

func readPrefix(t testing.TB, path string, lines int) (*session.Context, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines > 0 {
		ls := bytes.SplitAfter(data, []byte("\n"))
		if lines < len(ls) {
			data = bytes.Join(ls[:lines], nil)
		}
	}
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, data
}

// TestRecentWindowAfterCompaction: compact.jsonl at its first compaction
// (line 670) starts with the end of a turn whose user message was
// compacted: four results (0000023e…00000244, 137–1286 chars), then six
// user turns. With recentTurnsToKeep 6 (or 7) and maxRetainedChars 1000 the
// two results over 1000 chars were kept raw, as if they were in the last
// turns; they belong to an older turn than all six and are masked.
func TestRecentWindowAfterCompaction(t *testing.T) {
	ctx, _ := readPrefix(t, "../../testdata/sessions/compact.jsonl", 670)
	for _, n := range []int{6, 7, 20} {
		plan := prune.NewPlan(ctx, prune.Options{RecentTurns: n, MaxChars: 1000})
		got := map[string]prune.Kind{}
		for i, m := range ctx.Messages {
			if m.Role() == session.RoleToolResult && i < 12 {
				got[m.EntryID()] = plan.Decisions[i].Kind
			}
		}
		want := map[string]prune.Kind{"0000023e": prune.Keep, "00000240": prune.Masked, "00000242": prune.Keep, "00000244": prune.Masked}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("recentTurnsToKeep %d: head decisions %v, want %v", n, got, want)
		}
		// every result of the six turns is recent
		first := turns.Of(ctx).Starts[0]
		if plan.Cutoff != first {
			t.Errorf("recentTurnsToKeep %d: cutoff %d, want the first user message %d", n, plan.Cutoff, first)
		}
	}
}

// TestRecentWindowWithoutATurn: a compaction mid-turn with no user message
// after it (the v1 session): the results are the turn in progress and stay
// raw whatever the limit.
func TestRecentWindowWithoutATurn(t *testing.T) {
	ctx, _ := readPrefix(t, "../../testdata/sessions/Whamp__pi-v1-linear.jsonl", 0)
	plan := prune.NewPlan(ctx, prune.Options{RecentTurns: 1, MaxChars: 0})
	if plan.Recent != 1 || plan.ToolResults != 1 {
		t.Fatalf("recent %d of %d results, want the one result recent", plan.Recent, plan.ToolResults)
	}
}

// TestRecentWindowIgnoresMachineUserMessages: pi-condense's
// <compressed-chain> message (in a context input: pruner's own output
// read back) and a subagent notice are user messages that start no turn.
// Counting them shrank the window: the result of the first turn was
// masked though only two turns had started — and `now S | now -` differed
// from `now S` once render had inserted a chain.
func TestRecentWindowIgnoresMachineUserMessages(t *testing.T) {
	big := strings.Repeat("x", 5000)
	in := strings.Join([]string{
		`{"role":"user","content":[{"type":"text","text":"read it"}],"timestamp":1}`,
		`{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.txt"}}],"stopReason":"toolUse","timestamp":2}`,
		`{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"` + big + `"}],"isError":false,"timestamp":3}`,
		`{"role":"assistant","content":[{"type":"text","text":"read"}],"stopReason":"stop","timestamp":4}`,
		`{"role":"user","content":[{"type":"text","text":"now count"}],"timestamp":5}`,
		`{"role":"user","content":[{"type":"text","text":"<compressed-chain id=\"b1\" tools=\"t1\">\n- ` + "`t1`" + ` ran bash\n</compressed-chain>"}],"timestamp":9}`,
		`{"role":"user","content":"Subagent scout (task 7, 3s) finished. Output: none","timestamp":10}`,
		`{"role":"assistant","content":[{"type":"text","text":"counted"}],"stopReason":"stop","timestamp":11}`,
	}, "\n") + "\n"
	out := runReader(t, []byte(in), &prune.Options{RecentTurns: 2, MaxChars: 4000})
	if !bytes.Equal(out, []byte(in)) {
		t.Fatalf("two turns started, recentTurnsToKeep 2: nothing may change, got\n%s", out)
	}
	out = runReader(t, []byte(in), &prune.Options{RecentTurns: 1, MaxChars: 4000})
	if !bytes.Contains(out, []byte(session.NoticePrefix+"pruned read result] call c1")) {
		t.Fatalf("recentTurnsToKeep 1: the first turn's result must be masked, got\n%s", out)
	}
}

// TestRecentWindowProperty, over the compactions of every session in
// testdata (the prefix ending at each compaction entry and a few entries
// later): a result before the first user turn of the context is never
// inside the recent window once a turn starts in the context, for any
// recentTurnsToKeep; without a turn in the context, every result is.
func TestRecentWindowProperty(t *testing.T) {
	for _, path := range allSessions(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ls := bytes.SplitAfter(data, []byte("\n"))
		var cuts []int
		for k, l := range ls {
			if bytes.Contains(l, []byte(`"type":"compaction"`)) {
				for _, d := range []int{1, 2, 4, 8, 16, 40} {
					cuts = append(cuts, k+d)
				}
			}
		}
		cuts = append(cuts, 0)
		for _, cut := range cuts {
			ctx, _ := readPrefix(t, path, cut)
			tr := turns.Of(ctx)
			for _, n := range []int{1, 2, 3, 5, 8, 1000} {
				plan := prune.NewPlan(ctx, prune.Options{RecentTurns: n, MaxChars: 0})
				for i, m := range ctx.Messages {
					if m.Role() != session.RoleToolResult {
						continue
					}
					head := tr.Count() > 0 && i < tr.Starts[0]
					recent := i >= plan.Cutoff
					switch {
					case head && recent:
						t.Errorf("%s lines %d, recentTurnsToKeep %d: result %s of a compacted turn is inside the window", path, cut, n, m.EntryID())
					case tr.Count() == 0 && !recent:
						t.Errorf("%s lines %d, recentTurnsToKeep %d: result %s of the turn in progress is outside the window", path, cut, n, m.EntryID())
					case !head && tr.Count() > 0 && recent != (tr.Count()-tr.Index(i) < n):
						t.Errorf("%s lines %d, recentTurnsToKeep %d: result %s (turn %d of %d): recent %v", path, cut, n, m.EntryID(), tr.Index(i), tr.Count(), recent)
					}
				}
			}
		}
	}
}
