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
// leaves the same rewrite points as one that keeps them (--write), and
// appends none of the flush's entries.
func TestNoEntriesRendersTheSame(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "sessions", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	chains, _ := filepath.Glob(filepath.Join(testdata, "chains", "*.jsonl"))
	files = append(files, chains...)
	for name, o := range variants(t) {
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(name+"/"+filepath.Base(file), func(t *testing.T) {
				r, want, _ := runVerify(t, data, o, false)
				o.NoEntries = true
				nr, got, _ := runVerify(t, data, o, false)
				if !bytes.Equal(got, want) {
					t.Errorf("the context differs without the entries")
				}
				if r.State != nil && !reflect.DeepEqual(nr.State.RewritePoints, r.State.RewritePoints) {
					t.Errorf("rewrite points: got %v, want %v", nr.State.RewritePoints, r.State.RewritePoints)
				}
				if nr.Flushed != nil && len(nr.Flushed.Entries) > 0 {
					t.Errorf("%d entries kept", len(nr.Flushed.Entries))
				}
			})
		}
	}
}
