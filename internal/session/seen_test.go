package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ReadOptions.SizeHint changes nothing Read builds: on every shipped
// session the context and the branch are the same with no hint, the
// file's size, and a hint of one byte.
func TestSizeHintDoesNotChangeTheContext(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, hint := range []int64{0, int64(len(data)), 1} {
			ctx, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{SizeHint: hint, Branch: true})
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, ctx)
			for i := range ctx.Branch {
				e := &ctx.Branch[i]
				got = fmt.Appendf(got, "%s %s %s %s %d %v\n", ctx.EntryType(e), ctx.EntryCustomType(e), ctx.EntryID(e), ctx.EntryParentID(e), e.Line(), ctx.EntryMessage(e) != nil)
			}
			if hint == 0 {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: SizeHint %d gives another context or branch than none", filepath.Base(p), hint)
			}
		}
	}
}

// The leaf's path follows pi's rules on sessions full of repeated ids: an
// entry's parent is the last entry with the parent's id (pi's Map), the
// walk stops at a missing parent or a cycle. Random sessions whose ids come
// from a small pool (8-hex ids and others, parents mostly the entry before)
// are read and their branch compared with a plain map walk.
func TestPathWithRepeatedIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 16))
	for n := 0; n < 300; n++ {
		pool := 2 + rng.IntN(40)
		idOf := func(k int) string {
			if k%5 == 4 {
				return fmt.Sprintf("id-%d", k) // not 8 hex digits: interned
			}
			return fmt.Sprintf("%08x", k*0x1f3d+7)
		}
		var ids, pars []string
		var in strings.Builder
		in.WriteString(hdr)
		entries := 1 + rng.IntN(60)
		for i := 0; i < entries; i++ {
			id := idOf(rng.IntN(pool))
			par := ""
			switch r := rng.IntN(10); {
			case i > 0 && r < 7:
				par = ids[i-1]
			case r < 9:
				par = idOf(rng.IntN(pool))
			}
			ids, pars = append(ids, id), append(pars, par)
			in.WriteString(msgLine(id, par, "user", fmt.Sprintf(`"m%d"`, i)))
		}
		// the reference: pi's Map (last wins) and a walk from the last entry
		last := map[string]int{}
		for i, id := range ids {
			last[id] = i
		}
		var want []int
		seen := map[int]bool{}
		for cur := entries - 1; !seen[cur]; {
			seen[cur] = true
			want = append(want, cur)
			p, ok := last[pars[cur]]
			if pars[cur] == "" || !ok {
				break
			}
			cur = p
		}
		slices.Reverse(want)
		data := in.String()
		ctx, err := Read(strings.NewReader(data), strings.NewReader(data), ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for i := range ctx.Branch {
			got = append(got, ctx.Branch[i].Line()-2) // line 1 is the header
		}
		if !slices.Equal(got, want) {
			t.Fatalf("session %d (ids %v, parents %v): path %v, want %v", n, ids, pars, got, want)
		}
	}
}
