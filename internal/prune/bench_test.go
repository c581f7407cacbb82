package prune_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/session"
)

// benchInput is a generated v3 session (20 MB by default; set
// PRUNER_BENCH_SIZE, e.g. 200MB, to change it), built once in memory from
// testdata/sessions by benchgen, so the benchmarks need no prepared file.
var benchInput = sync.OnceValues(func() ([]byte, error) { return benchgen.BenchInput("../../testdata/sessions/*.jsonl") })

func benchSetup(b *testing.B) ([]byte, prune.Options) {
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	p, err := protect.NewPredicate(protect.DefaultProtectedTools(), protect.DefaultProtectedPaths())
	if err != nil {
		b.Fatal(err)
	}
	return in, prune.Options{RecentTurns: config.DefaultRecentTurns, MaxChars: config.DefaultMaxChars, Protect: p}
}

// BenchmarkNow is `pruner now` without the CLI: Read + NewPlan + Render.
func BenchmarkNow(b *testing.B) {
	in, opts := benchSetup(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r := bytes.NewReader(in)
		ctx, err := session.Read(r, r, session.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := prune.Render(io.Discard, ctx, prune.NewPlan(ctx, opts))
		if err != nil {
			b.Fatal(err)
		}
		if st.Pruned == 0 {
			b.Fatal("nothing pruned")
		}
	}
}

// BenchmarkPlanRender is NewPlan + Render on an already built context.
func BenchmarkPlanRender(b *testing.B) {
	in, opts := benchSetup(b)
	r := bytes.NewReader(in)
	ctx, err := session.Read(r, r, session.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := prune.Render(io.Discard, ctx, prune.NewPlan(ctx, opts)); err != nil {
			b.Fatal(err)
		}
	}
}
