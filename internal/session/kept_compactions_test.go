package session

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keptInBranch counts what KeptCompactions counts, from the branch: the
// compaction entries in the context but the last compaction on the path.
func keptInBranch(ctx *Context) int {
	last := -1
	for i := range ctx.Branch {
		if ctx.EntryType(&ctx.Branch[i]) == "compaction" {
			last = i
		}
	}
	n := 0
	for i := range ctx.Branch {
		if be := &ctx.Branch[i]; ctx.EntryType(be) == "compaction" && be.InContext() && i != last {
			n++
		}
	}
	return n
}

// Context.KeptCompactions is the number of older compactions the branch
// shows in the last one's kept range, read with or without the branch: on
// a session made to hold one and on every shipped session.
func TestKeptCompactionsMatchesTheBranch(t *testing.T) {
	made := hdr +
		msgLine("a", "", "user", `"old"`) +
		msgLine("b", "a", "user", `"kept"`) +
		`{"type":"compaction","id":"c1","parentId":"b","timestamp":"2026-01-01T00:00:03.000Z","summary":"S1","firstKeptEntryId":"b","tokensBefore":7}` + "\n" +
		msgLine("d", "c1", "user", `"after one"`) +
		`{"type":"compaction","id":"c2","parentId":"d","timestamp":"2026-01-01T00:00:05.000Z","summary":"S2","firstKeptEntryId":"b","tokensBefore":9}` + "\n" +
		msgLine("e", "c2", "user", `"after two"`)
	inputs := map[string]string{"made": made}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		inputs[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for name, in := range inputs {
		with, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{Branch: true})
		if err != nil || with.Kind != KindSession {
			continue
		}
		without, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{})
		if err != nil {
			t.Fatalf("%s: read without the branch: %v", name, err)
		}
		want := keptInBranch(with)
		if name == "made" && want != 1 {
			t.Fatalf("made: the branch shows %d compactions kept in range, want 1", want)
		}
		if with.KeptCompactions != want || without.KeptCompactions != want {
			t.Errorf("%s: KeptCompactions %d (with the branch), %d (without), the branch shows %d", name, with.KeptCompactions, without.KeptCompactions, want)
		}
		kept += want
	}
	if inputs["made"] == "" || kept == 0 {
		t.Fatal("no session holds a compaction in the last one's kept range")
	}
}
