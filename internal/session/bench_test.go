package session_test

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/session"
)

// benchInput is a generated v3 session (20 MB by default; set
// PRUNER_BENCH_SIZE, e.g. 200MB, to change it), built once in memory from
// testdata/sessions by benchgen, so the benchmarks need no prepared file.
var benchInput = sync.OnceValues(func() ([]byte, error) { return benchgen.BenchInput("../../testdata/sessions/*.jsonl") })

func input(b *testing.B) []byte {
	in, err := benchInput()
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkLineReader is the framing floor: lines only, no decoding.
func BenchmarkLineReader(b *testing.B) {
	in := input(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		lr := session.NewLineReader(bytes.NewReader(in))
		for {
			if _, _, _, err := lr.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkRead decodes the session and builds the leaf's context.
func BenchmarkRead(b *testing.B) {
	in := input(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r := bytes.NewReader(in)
		ctx, err := session.Read(r, r, session.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(ctx.Messages) == 0 {
			b.Fatal("empty context")
		}
	}
	perLine(b, in)
}

// perLine reports µs per input line, the cost that decides throughput on
// real sessions (about 1–2 KB a line).
func perLine(b *testing.B, in []byte) {
	lines := bytes.Count(in, []byte("\n"))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines)/1e3, "µs/line")
}

// BenchmarkEntries streams every entry with EntryReader (what check and
// query use).
func BenchmarkEntries(b *testing.B) {
	in := input(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		er := session.NewEntryReader(bytes.NewReader(in), session.EntryOptions{})
		for {
			if _, err := er.Next(); err != nil {
				break
			}
		}
	}
	perLine(b, in)
}

// BenchmarkContext is `pruner context`: Read, then every message rendered.
func BenchmarkContext(b *testing.B) {
	in := input(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		r := bytes.NewReader(in)
		ctx, err := session.Read(r, r, session.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range ctx.Messages {
			if out, err = ctx.AppendMessage(out[:0], m); err != nil {
				b.Fatal(err)
			}
			io.Discard.Write(out)
		}
	}
	perLine(b, in)
}

// BenchmarkIndexHeap reports what a built context keeps on the heap: live
// bytes per input line and per input byte after Read (the index that
// bounds a run's memory), without and with the leaf's branch.
func BenchmarkIndexHeap(b *testing.B) {
	in := input(b)
	lines := bytes.Count(in, []byte("\n"))
	for _, branch := range []bool{false, true} {
		name := "context"
		if branch {
			name = "branch"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			var live uint64
			for b.Loop() {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.HeapAlloc
				r := bytes.NewReader(in)
				ctx, err := session.Read(r, r, session.ReadOptions{Branch: branch})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&ms)
				runtime.KeepAlive(ctx)
				live = ms.HeapAlloc - min(before, ms.HeapAlloc)
			}
			b.ReportMetric(float64(live)/float64(lines), "live-B/line")
			b.ReportMetric(float64(live)/float64(len(in)), "live-B/byte")
		})
	}
}
