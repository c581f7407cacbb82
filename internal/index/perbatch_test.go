package index

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// TestDeterministicFlushBatchByBatch: a flush with no summariser (Summarize
// nil) makes each batch's deterministic summary as soon as the batch is
// read and lets its texts go; it writes the same entries, byte for byte,
// with the same counts, as a flush that summarises a chunk of batches at a
// time with the deterministic engine — on every shipped session and a
// generated one, with dedup on and off.
func TestDeterministicFlushBatchByBatch(t *testing.T) {
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now", "golden/flush"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	seeds, err := benchgen.ReadSeeds("../../testdata/sessions/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := benchgen.Generate(&buf, seeds, 2<<20, 3); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(t.TempDir(), "gen.jsonl")
	if err := os.WriteFile(gen, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, gen)
	summarized := 0
	for _, p := range paths {
		for _, dedup := range []bool{true, false} {
			flush := func(summ func(context.Context, []summarize.Batch) []summarize.Result) (*Flushed, *session.Context) {
				ctx := readSession(t, p)
				if ctx.Kind != session.KindSession {
					return nil, nil
				}
				st, err := Rebuild(ctx)
				if err != nil {
					t.Fatal(err)
				}
				o := FlushOptions{Capture: CaptureOptions{RawFrom: -1}, Dedup: dedup, Chains: ChainOptions{Enabled: true}, Now: 1, Summarize: summ}
				f, err := Flush(t.Context(), ctx, st, o)
				if err != nil {
					t.Fatal(err)
				}
				return f, ctx
			}
			byBatch, ctx := flush(nil)
			if byBatch == nil {
				continue
			}
			byChunk, ctx2 := flush(func(cx context.Context, bs []summarize.Batch) []summarize.Result {
				return summarize.Summarize(cx, bs, summarize.Options{})
			})
			if byBatch.Summarized != byChunk.Summarized || byBatch.SummaryChars != byChunk.SummaryChars || byBatch.Processed != byChunk.Processed ||
				byBatch.Deduped != byChunk.Deduped || byBatch.Trivial != byChunk.Trivial || byBatch.RawChars != byChunk.RawChars {
				t.Fatalf("%s (dedup %v): batch by batch %+v, by chunk %+v", p, dedup, *byBatch, *byChunk)
			}
			if len(byBatch.Entries) != len(byChunk.Entries) {
				t.Fatalf("%s (dedup %v): %d entries, by chunk %d", p, dedup, len(byBatch.Entries), len(byChunk.Entries))
			}
			for i := range byBatch.Entries {
				a, err := byBatch.Entries[i].AppendLine(nil, ctx, "id", "parent", "ts")
				if err != nil {
					t.Fatal(err)
				}
				b, err := byChunk.Entries[i].AppendLine(nil, ctx2, "id", "parent", "ts")
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("%s (dedup %v) entry %d:\n batch by batch %s\n by chunk       %s", p, dedup, i, a, b)
				}
			}
			summarized += byBatch.Summarized
		}
	}
	if summarized == 0 {
		t.Fatal("no flush summarised a batch")
	}
}
