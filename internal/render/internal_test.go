package render

import (
	"math/rand/v2"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/session"
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

// TestPlainIntegerKey: a timestamp used as written in an occurrence key
// is one index.MessageKey's float round trip writes back the same, over
// integers around every digit count and spellings that are not plain.
func TestPlainIntegerKey(t *testing.T) {
	cases := []string{"0", "-0", "00", "01", "-01", "1", "-1", "9", "1767608641500", "-1767608641500",
		"999999999999999", "1000000000000000", "9007199254740993", "1e3", "1.5", "1.0", "", "-", "+1", " 1", "\"1\"", "null"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		d := 1 + rng.IntN(18)
		b := make([]byte, d)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if rng.IntN(3) == 0 {
			b = append([]byte{'-'}, b...)
		}
		cases = append(cases, string(b))
	}
	for _, ts := range cases {
		want := index.MessageKey("id", []byte(ts))
		if plainInteger(ts) && "id@"+ts != want {
			t.Fatalf("timestamp %q: as written %q, MessageKey %q", ts, "id@"+ts, want)
		}
	}
}

// TestOpenCalls: the set answers as a map of the latest assistant's call
// ids does, with repeated ids and past the slice's size.
func TestOpenCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var o openCalls
	var model map[string]bool
	for step := range 20000 {
		switch rng.IntN(6) {
		case 0:
			n := rng.IntN(2 * smallOpen)
			calls := make([]session.ToolCall, n)
			model = map[string]bool{}
			for i := range calls {
				calls[i].ID = string(rune('a' + rng.IntN(40)))
				model[calls[i].ID] = true
			}
			o.open(calls)
		case 1:
			o.close()
			model = nil
		default:
			id := string(rune('a' + rng.IntN(40)))
			want := model[id]
			delete(model, id)
			if got := o.answer(id); got != want {
				t.Fatalf("step %d: answer(%s) = %v, want %v", step, id, got, want)
			}
		}
	}
}
