// Command pruner-benchgen writes a large, realistic pi session (format v3)
// for benchmarks, made of user turns replayed from real sessions.
//
//	pruner-benchgen -o bench/out/session-200MB.jsonl -size 200MB -seed 1
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pruner-dev/pruner/internal/benchgen"
)

func main() {
	out := flag.String("o", "-", "output `FILE` (- for stdout)")
	size := flag.String("size", "200MB", "target `SIZE` (KB/MB/GB = 1000^n, KiB/MiB/GiB = 1024^n)")
	seed := flag.Int64("seed", 1, "random `N` (same seed, same seeds: same bytes)")
	seeds := flag.String("seeds", "testdata/sessions/*.jsonl", "`GLOB` of seed sessions")
	printSize := flag.Bool("print-size", false, "print the SIZE argument in bytes and exit (for scripts)")
	flag.Parse()
	if *printSize {
		n, err := benchgen.ParseSize(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "pruner-benchgen:", err)
			os.Exit(1)
		}
		fmt.Println(n)
		return
	}
	if err := run(*out, *size, *seed, *seeds); err != nil {
		fmt.Fprintln(os.Stderr, "pruner-benchgen:", err)
		os.Exit(1)
	}
}

func run(out, size string, seed int64, glob string) error {
	n, err := benchgen.ParseSize(size)
	if err != nil {
		return err
	}
	src, err := benchgen.ReadSeeds(glob)
	if err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	var f *os.File
	if out != "-" {
		if f, err = os.Create(out); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := benchgen.Generate(bw, src, n, seed); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		return f.Close()
	}
	return nil
}
