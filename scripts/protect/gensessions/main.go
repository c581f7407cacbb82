// Command gensessions writes synthetic pi sessions for `pruner check`
// benchmarks (see internal/check/checkgen).
//
//	go run ./scripts/protect/gensessions -n 1000 -out /tmp/sessions
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pruner-dev/pruner/internal/check/checkgen"
)

func main() {
	n := flag.Int("n", 1000, "number of sessions")
	out := flag.String("out", "", "output directory (required)")
	seed := flag.Int64("seed", 1, "random seed")
	turns := flag.Int("turns", 12, "user turns per session")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gensessions: -out DIR is required")
		os.Exit(2)
	}
	bytes, err := checkgen.Write(*out, checkgen.Options{Sessions: *n, Turns: *turns, Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensessions:", err)
		os.Exit(1)
	}
	fmt.Printf("%d sessions, %.1f MB in %s\n", *n, float64(bytes)/1e6, *out)
}
