package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestNoEntriesRendersTheSame: a flush that keeps no entries (a run that
// prints the context, Options.NoEntries) renders the same context and
// leaves the same rewrite points and render report as one that keeps them
// (--write), appends none of the flush's entries and keeps none of the
// items chains drop (the render's Dropped, for the session's edits).
func TestNoEntriesRendersTheSame(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "sessions", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	chains, _ := filepath.Glob(filepath.Join(testdata, "chains", "*.jsonl"))
	files = append(files, chains...)
	dropped := 0 // the items chains dropped with the entries kept
	vs := variants(t)
	all := vs["tight"] // every closed chain compressed
	all.Chains.RollingWindow = 0
	vs["all-chains"] = all
	for name, o := range vs {
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(name+"/"+filepath.Base(file), func(t *testing.T) {
				r, want, _ := runVerify(t, data, o, false)
				no := o // (o is every file's: not changed here)
				no.NoEntries = true
				nr, got, _ := runVerify(t, data, no, false)
				if !bytes.Equal(got, want) {
					t.Errorf("the context differs without the entries")
				}
				if r.State != nil && !reflect.DeepEqual(nr.State.RewritePoints, r.State.RewritePoints) {
					t.Errorf("rewrite points: got %v, want %v", nr.State.RewritePoints, r.State.RewritePoints)
				}
				if nr.Flushed != nil && len(nr.Flushed.Entries) > 0 {
					t.Errorf("%d entries kept", len(nr.Flushed.Entries))
				}
				if (r.Rendered == nil) != (nr.Rendered == nil) {
					t.Fatalf("rendered %v, with the entries %v", nr.Rendered != nil, r.Rendered != nil)
				}
				if nr.Rendered != nil {
					if len(nr.Rendered.Dropped) > 0 {
						t.Errorf("%d dropped items kept", len(nr.Rendered.Dropped))
					}
					if !reflect.DeepEqual(nr.Rendered.Report, r.Rendered.Report) {
						t.Errorf("report %+v, with the entries %+v", nr.Rendered.Report, r.Rendered.Report)
					}
					dropped += len(r.Rendered.Dropped)
				}
			})
		}
	}
	if dropped == 0 {
		t.Fatal("no chain dropped an item: the sessions do not cover Dropped")
	}
}
