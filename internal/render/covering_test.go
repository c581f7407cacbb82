package render

import (
	"math/rand/v2"
	"testing"
)

// TestFirstCovering: the one-pass marking finds, for every slot, the first
// range (in order) holding it strictly inside — what comparing every pair
// finds — on random ranges, nested, overlapping and repeated ones included.
func TestFirstCovering(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 2 + rng.IntN(40)
		ranges := make([]chainRange, rng.IntN(8))
		for k := range ranges {
			a, b := rng.IntN(n), rng.IntN(n)
			if a > b {
				a, b = b, a
			}
			if a == b {
				b = min(a+1, n-1)
				if a == b {
					a--
				}
			}
			ranges[k] = chainRange{start: a, end: b}
		}
		got := firstCovering(n, ranges)
		for i := range n {
			want := int32(0)
			for k, rg := range ranges {
				if rg.start < i && i < rg.end {
					want = int32(k + 1)
					break
				}
			}
			if got[i] != want {
				t.Fatalf("trial %d: n=%d ranges %v: slot %d: got %d, want %d", trial, n, ranges, i, got[i], want)
			}
		}
	}
}
