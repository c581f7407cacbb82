package pipeline

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
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
