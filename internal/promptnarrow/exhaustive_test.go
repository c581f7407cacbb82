package promptnarrow

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadExhaustive reads testdata/narrow/exhaustive/prompts.json.gz: pi's own
// buildSystemPrompt output (0.58.3, 0.79.1, 1.6.0) for every subset of the
// seven built-in tools, with two skills ("<ver>") and with only the first
// ("<ver>/without-second"). Keys are the tool names joined by ",".
func loadExhaustive(t testing.TB) map[string]map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(testdataDir, "exhaustive", "prompts.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]string
	if err := json.NewDecoder(zr).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func splitKey(k string) []string {
	if k == "" {
		return []string{}
	}
	return strings.Split(k, ",")
}

// TestExhaustiveSubsets: for each pi version and every pair B ⊇ A of
// built-in tool sets (3^7 = 2187 pairs), narrow(pi(B), A) == pi(A) byte for
// byte; and with --deny-skill second, == pi(A) built without that skill.
func TestExhaustiveSubsets(t *testing.T) {
	m := loadExhaustive(t)
	wantLayout := map[string]Layout{"0.58.3": LayoutPi05, "0.79.1": LayoutPi07, "1.6.0": LayoutPi1}
	for _, v := range []string{"0.58.3", "0.79.1", "1.6.0"} {
		full, one := m[v], m[v+"/without-second"]
		if len(full) != 128 || len(one) != 128 {
			t.Fatalf("%s: %d/%d prompts", v, len(full), len(one))
		}
		pairs, fails := 0, 0
		for bk, bp := range full {
			b := splitKey(bk)
			for ak, ap := range full {
				a := splitKey(ak)
				if !subset(a, b) {
					continue
				}
				pairs++
				got, rep := Narrow(bp, allow(a...))
				if got != ap {
					if fails++; fails <= 3 {
						t.Errorf("%s: [%s] -> [%s] (layout %s)\n%s", v, bk, ak, rep.Layout, diffLines(ap, got))
					}
					continue
				}
				if rep.Layout != wantLayout[v] && !(v != "1.6.0" && len(rep.Notes) > 0) {
					t.Errorf("%s [%s]: layout %s", v, bk, rep.Layout)
				}
				got, _ = Narrow(bp, Options{Allow: a, AllowSet: true, DenySkills: []string{"second"}})
				if got != one[ak] {
					if fails++; fails <= 3 {
						t.Errorf("%s deny-skill: [%s] -> [%s]\n%s", v, bk, ak, diffLines(one[ak], got))
					}
				}
			}
		}
		if pairs != 2187 {
			t.Errorf("%s: %d pairs", v, pairs)
		}
		if fails > 0 {
			t.Errorf("%s: %d of %d pairs differ", v, fails, pairs)
		}
	}
}
