package prune_test

import (
	"bufio"
	"io"
	"os"
	"testing"

	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

// BenchmarkFileNow is `pruner now -q FILE` without the CLI, on the file in
// $PRUNER_BENCH_FILE (e.g. bench/out/session-200MB-seed1.jsonl; skipped
// when unset): Read from the file (memory-mapped), NewPlan with the default
// settings, RenderWith to a buffered io.Discard.
func BenchmarkFileNow(b *testing.B) {
	path := os.Getenv("PRUNER_BENCH_FILE")
	if path == "" {
		b.Skip()
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	pred, _ := protect.NewPredicate(nil, []string{"**/skills/**/*.md"})
	opts := prune.Options{RecentTurns: 2, MaxChars: 4000, Protect: pred}
	for b.Loop() {
		f, _ := os.Open(path)
		ctx, err := session.Read(f, f, session.ReadOptions{SizeHint: st.Size()})
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(io.Discard, 1<<20)
		if _, err := prune.RenderWith(w, ctx, prune.NewPlan(ctx, opts), prune.RenderOptions{NoChars: true}); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
