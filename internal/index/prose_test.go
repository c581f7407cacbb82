package index

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/summarize"
)

// TestProseForTheSummariserOnly: a flush with a summariser hands it each
// batch's prose as Capture reads it; a flush whose summaries are
// deterministic captures none (noProse) and writes the same summaries.
func TestProseForTheSummariserOnly(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	prose := 0
	for _, file := range files {
		ctx := readSession(t, file)
		st, err := Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		batches, err := Capture(ctx, st, CaptureOptions{RawFrom: -1})
		if err != nil {
			t.Fatal(err)
		}
		read := map[string]bool{} // the prose Capture read
		for _, b := range batches {
			read[b.AssistantText] = true
		}
		var got []string
		o := FlushOptions{Capture: CaptureOptions{RawFrom: -1}}
		with := o
		with.Summarize = func(_ context.Context, bs []summarize.Batch) []summarize.Result {
			out := make([]summarize.Result, len(bs))
			for i, b := range bs {
				got = append(got, b.AssistantText)
				out[i] = summarize.Result{Text: summarize.Deterministic(b), Source: summarize.SourceDeterministic}
			}
			return out
		}
		fw, err := Flush(context.Background(), ctx, st, with)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := Flush(context.Background(), ctx, st, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(fw.Summaries) != len(fd.Summaries) {
			t.Fatalf("%s: %d summaries with the summariser, %d without", file, len(fw.Summaries), len(fd.Summaries))
		}
		for i := range fd.Summaries {
			if fw.Summaries[i].Content != fd.Summaries[i].Content {
				t.Errorf("%s: summary %d differs without the prose", file, i)
			}
		}
		for _, p := range got {
			if !read[p] {
				t.Errorf("%s: the summariser got prose Capture did not read: %.80q", file, p)
			}
			if p != "" {
				prose++
			}
		}
	}
	if prose == 0 {
		t.Fatal("no batch had prose: the sessions do not cover it")
	}
}
