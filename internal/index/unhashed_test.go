package index

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestUnhashedSeeds: a first flush leaves its records' content hashes
// unhashed (no dedup of that flush could find them), and seedUnhashed
// then seeds the same hashes, each to the same first record key, as a
// state rebuilt from the flush's entries as written — on every shipped
// session, with spills (hashed at once: the batches' records are then
// hashed too) and without.
func TestUnhashedSeeds(t *testing.T) {
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now", "golden/flush"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	unhashed := 0
	for _, p := range paths {
		for _, threshold := range []int{0, 4000} {
			ctx := readSession(t, p)
			st, err := Rebuild(ctx)
			if err != nil {
				t.Fatal(err)
			}
			o := deferOptions(t, 0, 0)
			o.SpillThreshold = threshold
			fl, err := Flush(t.Context(), ctx, st, o)
			if err != nil {
				t.Fatal(err)
			}
			unhashed += len(fl.State.unhashed)
			if err := fl.State.seedUnhashed(); err != nil {
				t.Fatal(err)
			}
			prior, err := BranchEntries(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var ents []Entry
			for i, e := range fl.Entries {
				id := fmt.Sprintf("f%03d", i)
				l, err := e.AppendLine(nil, ctx, id, "p", "2026-12-01T00:00:00.000Z")
				if err != nil {
					t.Fatal(err)
				}
				ents = append(ents, Entry{Type: e.Type, CustomType: e.CustomType, ID: id, Line: 1 << 20, Raw: l})
			}
			re := RebuildEntries(append(prior, ents...))
			s := fl.State
			if len(s.hashes) != len(re.hashes) || len(s.hashOdd) != len(re.hashOdd) || len(s.unhashed) != 0 {
				t.Fatalf("%s (spill %d): %d+%d hashes seeded (%d left), rebuilt %d+%d", p, threshold, len(s.hashes), len(s.hashOdd), len(s.unhashed), len(re.hashes), len(re.hashOdd))
			}
			for sum, kid := range re.hashes {
				if id, ok := s.hashes[sum]; !ok || s.keys[id].key != re.keys[kid].key {
					t.Fatalf("%s (spill %d): hash %x is %q's, rebuilt %q's", p, threshold, sum, s.keys[id].key, re.keys[kid].key)
				}
			}
			for h, kid := range re.hashOdd {
				if id, ok := s.hashOdd[h]; !ok || s.keys[id].key != re.keys[kid].key {
					t.Fatalf("%s (spill %d): hash %q is %q's, rebuilt %q's", p, threshold, h, s.keys[id].key, re.keys[kid].key)
				}
			}
		}
	}
	if unhashed == 0 {
		t.Fatal("no flush left a record unhashed")
	}
}
