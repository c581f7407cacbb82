package pipeline

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/session"
)

// benchInput is a generated v3 session (20 MB; PRUNER_BENCH_SIZE changes
// it), built once from testdata/sessions by benchgen.
var benchInput = sync.OnceValues(func() ([]byte, error) { return benchgen.BenchInput("../../testdata/sessions/*.jsonl") })

// BenchmarkNow is `pruner now` with the defaults (flush, render, mask) into
// io.Discard: MB/s of input.
func BenchmarkNow(b *testing.B) {
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	benchNow(b, in)
}

// benchNow runs `pruner now` with the defaults on in, b.N times: read, run,
// the context written out.
func benchNow(b *testing.B, in []byte) {
	o := defaults(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
		if err != nil {
			b.Fatal(err)
		}
		r, err := Run(context.Background(), ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := r.writeContext(&out); err != nil {
			b.Fatal(err)
		}
		io.Discard.Write(out.Bytes())
	}
}

// flushedBenchInput is benchInput as `now --write` leaves it: the session
// with the flush's entries appended (a session flushed before).
func flushedBenchInput(b *testing.B) []byte {
	b.Helper()
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true, AllEntries: true})
	if err != nil {
		b.Fatal(err)
	}
	r, err := Run(context.Background(), ctx, defaults(b))
	if err != nil {
		b.Fatal(err)
	}
	a, err := r.Append(nil)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := r.WriteSession(&out, bytes.NewReader(in), int64(len(in)), a); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkRebuild is index.Rebuild of a session flushed before (the
// generated input with `now --write`'s entries): MB/s of that session.
func BenchmarkRebuild(b *testing.B) {
	in := flushedBenchInput(b)
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		st, err := index.Rebuild(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if st.Entries == 0 {
			b.Fatal("no pi-condense entry rebuilt")
		}
	}
}

// BenchmarkNowFlushed is `pruner now` with the defaults on a session
// flushed before (flushedBenchInput).
func BenchmarkNowFlushed(b *testing.B) {
	benchNow(b, flushedBenchInput(b))
}

// BenchmarkFlush is the first flush of the generated input's whole history
// (index.Flush with the defaults, as Run calls it: capture, summaries,
// chains), the session read once: MB/s of input.
func BenchmarkFlush(b *testing.B) {
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	ctx, err := session.Read(bytes.NewReader(in), bytes.NewReader(in), session.ReadOptions{Branch: true})
	if err != nil {
		b.Fatal(err)
	}
	o := defaults(b)
	r := &Result{Ctx: ctx}
	r.Pairing = pairing.Find(ctx)
	o.Prune.Pairing = r.Pairing
	window := rawWindow(ctx, o, nil)
	st, err := index.Rebuild(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := r.flush(context.Background(), st, o, window)
		if err != nil {
			b.Fatal(err)
		}
		if f.Summarized == 0 || f.Chains == 0 {
			b.Fatalf("flushed %d calls, %d chains: the benchmark measures nothing", f.Summarized, f.Chains)
		}
	}
}
