package pairing

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInside: the sweep finds the points some span holds strictly inside,
// as comparing every point with every span finds them, on random spans
// (nested, overlapping, repeated, empty) and points.
func TestInside(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 2000; round++ {
		n := 1 + rng.IntN(60)
		var spans [][2]int
		for range rng.IntN(12) {
			a, b := rng.IntN(n), rng.IntN(n)
			spans = append(spans, [2]int{min(a, b), max(a, b)})
		}
		var ins []int
		for p := range n {
			if rng.IntN(3) == 0 {
				ins = append(ins, p)
			}
		}
		var want []int
		for _, p := range ins {
			for _, s := range spans {
				if s[0] < p && p < s[1] {
					want = append(want, p)
					break
				}
			}
		}
		if got := inside(slices.Clone(spans), ins); !slices.Equal(got, want) {
			t.Fatalf("spans %v, points %v: %v, want %v", spans, ins, got, want)
		}
	}
}
