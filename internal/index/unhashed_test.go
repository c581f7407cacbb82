package index

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// TestUnhashedSeeds: a first flush leaves its records' content hashes
// unhashed (no dedup of that flush could find them), as Rebuild leaves
// the records it reads, and seedUnhashed then seeds the same hashes, each
// to the same first record key, in the flushed state and in the states
// rebuilt from the flush's entries as written (each hash its record's
// text's) — on every shipped session, with spills (their hashes written:
// the batches' records are then hashed at once) and without.
func TestUnhashedSeeds(t *testing.T) {
	var paths []string
	for _, dir := range []string{"sessions", "chains", "golden/now", "golden/flush"} {
		ps, _ := filepath.Glob(filepath.Join("../../testdata", dir, "*.jsonl"))
		paths = append(paths, ps...)
	}
	unhashed, rebuilt := 0, 0
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
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data = append(bytes.TrimRight(data, "\n"), '\n')
			parent := ctx.LeafID
			for i, e := range fl.Entries {
				id := fmt.Sprintf("f%03d", i)
				l, err := e.AppendLine(nil, ctx, id, parent, "2026-12-01T00:00:00.000Z")
				if err != nil {
					t.Fatal(err)
				}
				ents = append(ents, Entry{Type: e.Type, CustomType: e.CustomType, ID: id, Line: 1 << 20, Raw: l})
				data = append(append(data, l...), '\n')
				parent = id
			}
			// the entries rebuilt as read (texts held), and as Rebuild
			// reads the written session (texts left in their lines)
			re := RebuildEntries(append(prior, ents...))
			wr, err := Rebuild(readCtx(t, data))
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range []*State{re, wr} {
				if len(st.unhashed) > 0 {
					unhashed += len(st.unhashed)
					rebuilt++
				}
				if err := st.seedUnhashed(); err != nil {
					t.Fatal(err)
				}
			}
			s := fl.State
			for _, re := range []*State{re, wr} {
				if len(s.hashes) != len(re.hashes) || len(s.hashOdd) != len(re.hashOdd) || len(s.unhashed) != 0 {
					t.Fatalf("%s (spill %d): %d+%d hashes seeded (%d left), rebuilt %d+%d", p, threshold, len(s.hashes), len(s.hashOdd), len(s.unhashed), len(re.hashes), len(re.hashOdd))
				}
				for sum, kid := range re.hashes {
					if id, ok := s.hashes[sum]; !ok || s.keys[id].key != re.keys[kid].key {
						t.Fatalf("%s (spill %d): hash %x is %q's, rebuilt %q's", p, threshold, sum, s.keys[id].key, re.keys[kid].key)
					}
					// and the hash is its record's text's
					r, _ := re.RecordOf(re.keys[kid].key)
					text, err := re.ResultText(&r)
					if err != nil {
						t.Fatal(err)
					}
					if h := ContentHash(r.ToolName, text); r.ContentHash == nil && h != hex.EncodeToString(sum[:]) {
						t.Fatalf("%s (spill %d): %q seeds %x, its text hashes to %s", p, threshold, re.keys[kid].key, sum, h)
					}
				}
				for h, kid := range re.hashOdd {
					if id, ok := s.hashOdd[h]; !ok || s.keys[id].key != re.keys[kid].key {
						t.Fatalf("%s (spill %d): hash %q is %q's, rebuilt %q's", p, threshold, h, s.keys[id].key, re.keys[kid].key)
					}
				}
			}
		}
	}
	if rebuilt == 0 {
		t.Fatal("no rebuild left a record unhashed")
	}
	if unhashed == 0 {
		t.Fatal("no flush left a record unhashed")
	}
}

// FuzzNonEmptyString: nonEmptyString is whether jsval.AppendStringValue
// decodes the value to a non-empty string.
func FuzzNonEmptyString(f *testing.F) {
	for _, s := range []string{`""`, `"a"`, ` "a" `, `"\n"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"a\"`,
		`"\\"`, `"\/"`, `7`, `null`, `"`, `"ab`, "\t\"x\"\r\n", `"\u0000"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := jsval.AppendStringValue(nil, []byte(v))
		if want := ok && len(d) > 0; nonEmptyString([]byte(v)) != want {
			t.Fatalf("nonEmptyString(%q) = %v, want %v", v, !want, want)
		}
	})
}
