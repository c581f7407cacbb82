package render

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestKeySetAgreesWithMap: members added by handle (some twice, some keys
// shared by two handles, some empty) are found as a map[string]bool of
// their keys finds them, and keys not added are not, through every growth
// of the table.
func TestKeySetAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 300; n++ {
		keys := make([]string, 1+r.IntN(400))
		for i := range keys {
			switch r.IntN(10) {
			case 0:
				keys[i] = ""
			case 1:
				keys[i] = keys[r.IntN(i+1)]
			default:
				keys[i] = fmt.Sprintf("call_%d@%d", r.IntN(500), r.IntN(3))
			}
		}
		s := newKeySet(func(dst []byte, h uint64) []byte { return append(dst, keys[h]...) })
		want := map[string]bool{}
		check := func() {
			for k := 0; k < 40; k++ {
				q := fmt.Sprintf("call_%d@%d", r.IntN(500), r.IntN(3))
				if k == 0 {
					q = ""
				}
				if got := s.has([]byte(q)); got != want[q] {
					t.Fatalf("case %d: has(%q) = %v, the map %v", n, q, got, want[q])
				}
				if got := s.hasString(q); got != want[q] {
					t.Fatalf("case %d: hasString(%q) = %v, the map %v", n, q, got, want[q])
				}
			}
		}
		for i := range keys {
			if r.IntN(3) == 0 {
				continue
			}
			s.add(uint64(i))
			want[keys[i]] = true
			if r.IntN(8) == 0 {
				s.add(uint64(i))
			}
			if r.IntN(20) == 0 {
				check()
			}
		}
		check()
		for k := range want {
			if !s.hasString(k) {
				t.Fatalf("case %d: member %q not found", n, k)
			}
		}
	}
}

// TestAppendMessageKey: the occurrence key appended to a buffer is
// messageKey's and index.MessageKey's, for every toolResult of the test
// sessions and the oracle's.
func TestAppendMessageKey(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/condense-oracle/*/*/*.session.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	n := 0
	buf := []byte("junk")
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(f, f, session.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ctx.Messages {
			if m.Role() != session.RoleToolResult {
				continue
			}
			buf = appendMessageKey(buf[:0], m)
			want := index.MessageKey(m.ToolCallID(), []byte(m.Timestamp()))
			if string(buf) != want || messageKey(m) != want {
				t.Fatalf("%s: appendMessageKey %q, messageKey %q, index.MessageKey %q", p, buf, messageKey(m), want)
			}
			n++
		}
		f.Close()
	}
	if n < 50 {
		t.Fatalf("%d results: the sessions do not cover the case", n)
	}
}
