package jsonscan_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/pruner-dev/pruner/internal/benchgen"
	"github.com/pruner-dev/pruner/internal/jsonscan"
)

var benchLines = sync.OnceValues(func() ([][]byte, error) {
	in, err := benchgen.BenchInput("../../testdata/sessions/*.jsonl")
	if err != nil {
		return nil, err
	}
	return bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n")), nil
})

// BenchmarkParse validates and tapes every line of the pi-derived bench
// session (MB/s; ns/line is reported as a custom metric).
func BenchmarkParse(b *testing.B) {
	lines, err := benchLines()
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var tp jsonscan.Tape
	for b.Loop() {
		for _, l := range lines {
			if err := tp.Parse(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines))/1e3, "µs/line")
}

// BenchmarkAstral counts the four-byte characters of the bench session's
// lines (MB/s).
func BenchmarkAstral(b *testing.B) {
	lines, err := benchLines()
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	b.SetBytes(int64(size))
	n := 0
	for b.Loop() {
		for _, l := range lines {
			n += jsonscan.Astral(l)
		}
	}
	_ = n
}

// BenchmarkAppendUnquoteText decodes the escaped strings of the bench
// session's lines (MB/s of JSON).
func BenchmarkAppendUnquoteText(b *testing.B) {
	lines, err := benchLines()
	if err != nil {
		b.Fatal(err)
	}
	var strs [][]byte
	var tp jsonscan.Tape
	for _, l := range lines {
		if tp.Parse(l) != nil {
			b.Fatal("bench line does not parse")
		}
		for _, nd := range tp.Nodes {
			if nd.Kind == jsonscan.String && nd.Flags&jsonscan.Escaped != 0 && nd.Flags&jsonscan.BadUTF8 == 0 {
				strs = append(strs, l[nd.Start:nd.End])
			}
		}
	}
	size := 0
	for _, s := range strs {
		size += len(s)
	}
	b.SetBytes(int64(size))
	var buf []byte
	for b.Loop() {
		for _, s := range strs {
			buf, _ = jsonscan.AppendUnquoteText(buf[:0], s)
		}
	}
}
