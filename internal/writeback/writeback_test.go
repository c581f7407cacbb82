package writeback

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/sessionfile"
)

// run is `pruner now --write`'s run over the session at path, spilling
// results of 500 chars or more (the CLI's wiring, without flags).
func run(t *testing.T, path string) (*sessionfile.File, *pipeline.Result, *blobs.Plan) {
	t.Helper()
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"contextPrune":{"recentTurnsToKeep":1,"maxRetainedChars":1000,"spillThreshold":500}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.Options{ConfigFile: settings, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	po, err := pipeline.FromConfig(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := sessionfile.Open(path, sessionfile.Options{QuietPeriod: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fl.Close() })
	ctx, err := session.Read(bytes.NewReader(readAll(t, path)), fl.Reader(), session.ReadOptions{Branch: true, AllEntries: true})
	if err != nil {
		t.Fatal(err)
	}
	plan := blobs.ForSession(path, ctx.Header.ID)
	po.Spill = plan.Spill
	res, err := pipeline.Run(t.Context(), ctx, po)
	if err != nil {
		t.Fatal(err)
	}
	return fl, res, plan
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func session1(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, readAll(t, "../../testdata/cases/002-reused-tool-call-ids/session.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWriteThenRestore: Write appends and writes its blobs; Restore gives
// the file back byte for byte and deletes them.
func TestWriteThenRestore(t *testing.T) {
	path := session1(t)
	orig := readAll(t, path)
	fl, res, plan := run(t, path)
	rep, err := Write(t.Context(), Options{File: fl, Result: res, Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged || rep.Info.BaseBytes != int64(len(orig)) {
		t.Fatalf("Write = %+v, want entries appended to the %d bytes", rep, len(orig))
	}
	now := readAll(t, path)
	if !bytes.HasPrefix(now, orig) || len(now) == len(orig) {
		t.Fatal("the written file does not keep the old bytes as its prefix")
	}
	if len(rep.Blobs) == 0 {
		t.Fatal("no blobs written with spillThreshold 500")
	}
	for _, b := range rep.Blobs {
		if _, err := os.Stat(b); err != nil {
			t.Fatalf("blob %s: %v", b, err)
		}
	}
	rr, err := Restore(RestoreOptions{Path: path, Force: true}) // Force: the file was written moments ago
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(t, path), orig) {
		t.Fatal("restore did not give the original bytes back")
	}
	if rr.Removed != len(rep.Blobs) {
		t.Fatalf("restore deleted %d blobs, want %d", rr.Removed, len(rep.Blobs))
	}
	if _, err := os.Stat(plan.Dir()); !os.IsNotExist(err) {
		t.Fatalf("the emptied blob dir is still there: %v", err)
	}
}

// TestFailedReplaceLeavesNothing: when the file changes under the run, the
// replace is refused (a *ReplaceError), the file keeps its bytes and no blob
// is left beside it.
func TestFailedReplaceLeavesNothing(t *testing.T) {
	path := session1(t)
	fl, res, plan := run(t, path)
	if len(plan.Pending()) == 0 {
		t.Fatal("nothing to spill: the test would prove nothing")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"zz","parentId":null,"message":{"role":"user","content":"pi wrote"}}` + "\n")
	f.Close()
	before := readAll(t, path)
	_, err = Write(t.Context(), Options{File: fl, Result: res, Plan: plan})
	var re *ReplaceError
	if !errors.As(err, &re) {
		t.Fatalf("Write on a file that grew: %v, want a *ReplaceError", err)
	}
	if !bytes.Equal(readAll(t, path), before) {
		t.Fatal("the file changed")
	}
	if ents, _ := os.ReadDir(plan.Dir()); len(ents) != 0 {
		t.Fatalf("%d blobs left beside the session", len(ents))
	}
}

// TestRestoreOfAnUntouchedFile: nothing to restore, nothing changed.
func TestRestoreOfAnUntouchedFile(t *testing.T) {
	path := session1(t)
	orig := readAll(t, path)
	rep, err := Restore(RestoreOptions{Path: path})
	if err != nil || !rep.Nothing {
		t.Fatalf("Restore = %+v, %v; want nothing to restore", rep, err)
	}
	if !bytes.Equal(readAll(t, path), orig) {
		t.Fatal("the file changed")
	}
}
