package render_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// BenchmarkRender is the render alone — Render then Write into a buffered
// io.Discard — of the session in $PRUNER_BENCH_FILE (skipped when unset),
// on a context and state built once as `pruner now` builds them with the
// default settings: the flush's state and summaries, masking's raw window
// and plan ($PRUNER_BENCH_NOFLUSH=1: the session's own state, as
// `now --no-flush`). Render's options are the ones pipeline.Run gave it
// (checked: the same bytes as the pipeline's own render). cpu-ns/op is
// user+sys CPU time: on a shared machine, pin it (taskset) and read that.
//
//	PRUNER_BENCH_FILE=/work/perfin/session-200MB.jsonl go test -run '^$' -bench Render -benchtime 3x -benchmem -cpuprofile cpu.prof ./internal/render/
func BenchmarkRender(b *testing.B) {
	path := os.Getenv("PRUNER_BENCH_FILE")
	if path == "" {
		b.Skip("PRUNER_BENCH_FILE is not set")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ctx, err := session.Read(f, f, session.ReadOptions{Branch: true}) // mapped, as the CLI reads a file
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	c, err := config.Load(config.Options{Home: home, AgentDir: home, Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	po, err := pipeline.FromConfig(c, nil)
	if err != nil {
		b.Fatal(err)
	}
	po.Flush = os.Getenv("PRUNER_BENCH_NOFLUSH") == ""
	r, err := pipeline.Run(context.Background(), ctx, po)
	if err != nil {
		b.Fatal(err)
	}
	if r.Rendered == nil {
		b.Skip("nothing to render")
	}
	// the options Run gave Render
	ro := po.Render
	ro.Pairing = r.Pairing
	ro.RawFrom = prune.NewPlan(ctx, po.Prune).Cutoff
	plan := r.Mask
	ro.WillMask = func(i int) bool { return plan.Decisions[i].Kind != prune.Keep }
	if r.Flushed != nil {
		_, ms := pipeline.AppendTime(ctx)
		for _, s := range r.Flushed.Summaries {
			ro.Appended = append(ro.Appended, func(dst []byte) ([]byte, error) { return s.AppendMessage(dst, ms) })
		}
	}
	mask := func(dst []byte, src int) ([]byte, bool, error) { return plan.AppendMessage(dst, ctx, src) }
	write := func(res *render.Result) []byte {
		var out bytes.Buffer
		if _, err := render.Write(&out, ctx, res, render.WriteOptions{Mask: mask}); err != nil {
			b.Fatal(err)
		}
		return out.Bytes()
	}
	res, err := render.Render(ctx, r.State, ro)
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Equal(write(res), write(r.Rendered)) {
		b.Fatal("the benchmark's render differs from the pipeline's")
	}
	st := r.State
	res, r = nil, nil
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(ctx.Bytes)
		cpu := cpuTime()
		for b.Loop() {
			if _, err := render.Render(ctx, st, ro); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	b.Run("render+write", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(ctx.Bytes)
		cpu := cpuTime()
		for b.Loop() {
			res, err := render.Render(ctx, st, ro)
			if err != nil {
				b.Fatal(err)
			}
			w := bufio.NewWriterSize(io.Discard, 1<<20)
			if _, err := render.Write(w, ctx, res, render.WriteOptions{Mask: mask, NoChars: true}); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
}

// reportCPU reports the CPU time per op since cpu (cpu-ns/op: user+sys
// of every thread, the collector's included).
func reportCPU(b *testing.B, cpu time.Duration) {
	if d := cpuTime() - cpu; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
