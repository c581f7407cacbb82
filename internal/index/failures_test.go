package index

import (
	"reflect"
	"testing"
)

// TestFailureWarnings: summariser failures that read alike are one warning
// with their count; a failure that struck one batch keeps its own warning;
// batch and chain failures are told apart.
func TestFailureWarnings(t *testing.T) {
	f := &Flushed{}
	for i := 0; i < 22; i++ {
		f.failed("summarizer failed: exit status 1", false, 3, "turn N (3 calls): summarizer failed: exit status 1; used the deterministic summary")
	}
	f.failed("summarizer timed out after 1s", false, 2, "turn 7 (2 calls): summarizer timed out after 1s; used the deterministic summary")
	f.failed("summarizer failed: exit status 1", true, 4, "chain b1 (4 summaries): x; used the deterministic fusion")
	f.failed("summarizer failed: exit status 1", true, 5, "chain b2 (5 summaries): x; used the deterministic fusion")
	want := []string{
		"summarizer failed: exit status 1, for 22 batches (66 calls); used the deterministic summaries",
		"turn 7 (2 calls): summarizer timed out after 1s; used the deterministic summary",
		"summarizer failed: exit status 1, for 2 chains (9 summaries); used the deterministic fusions",
	}
	if got := f.failureWarnings(); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
