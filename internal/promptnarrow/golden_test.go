package promptnarrow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const testdataDir = "../../testdata/narrow"

type manifest struct {
	Version string `json:"version"`
	Cases   map[string]struct {
		ActiveTools []string `json:"activeTools"`
	} `json:"cases"`
}

type oracleCase struct {
	name   string
	tools  []string
	prompt string
}

// loadOracle returns the oracle cases of one pi version that have a prompt
// file in testdata (the manifest may list more cases than were copied).
func loadOracle(t testing.TB, version string) []oracleCase {
	t.Helper()
	dir := filepath.Join(testdataDir, "oracle", version)
	b, err := os.ReadFile(filepath.Join(dir, "prompt-manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []oracleCase
	for name, c := range m.Cases {
		p, err := os.ReadFile(filepath.Join(dir, "prompt-"+name+".txt"))
		if err != nil {
			continue
		}
		out = append(out, oracleCase{name: name, tools: c.ActiveTools, prompt: string(p)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) < 5 {
		t.Fatalf("%s: only %d oracle prompts in testdata", version, len(out))
	}
	return out
}

func subset(a, b []string) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func allow(tools ...string) Options { return Options{Allow: tools, AllowSet: true} }

// TestOracleGolden: for every oracle pair X ⊇ Y of both pi versions,
// narrow(prompt X, tools Y) equals pi's own prompt Y byte for byte.
func TestOracleGolden(t *testing.T) {
	wantLayout := map[string]Layout{"0.79.1": LayoutPi07, "1.6.0": LayoutPi1}
	for _, version := range []string{"0.79.1", "1.6.0"} {
		cases := loadOracle(t, version)
		for _, from := range cases {
			for _, to := range cases {
				if !subset(to.tools, from.tools) {
					continue
				}
				t.Run(version+"/"+from.name+"->"+to.name, func(t *testing.T) {
					got, rep := Narrow(from.prompt, allow(to.tools...))
					if rep.Layout != wantLayout[version] {
						t.Errorf("layout = %s, want %s", rep.Layout, wantLayout[version])
					}
					if got != to.prompt {
						t.Fatalf("narrow mismatch\n%s", diffLines(to.prompt, got))
					}
					if (from.name == to.name) != !rep.Changed {
						t.Errorf("Changed = %v for %s->%s", rep.Changed, from.name, to.name)
					}
				})
			}
		}
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readAllowed(t testing.TB, path string) []string {
	var out []string
	for _, l := range strings.Split(readFile(t, path), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestCases009And013 runs the shared narrowing cases (pi 0.58 layout).
func TestCases009And013(t *testing.T) {
	for _, c := range []string{"009-narrow-only-denied-bullets", "013-narrow-idempotent-and-byte-stable"} {
		dir := filepath.Join(testdataDir, "cases", c)
		prompt := readFile(t, filepath.Join(dir, "prompt.txt"))
		for _, sfx := range []string{"", "-2"} {
			t.Run(c+sfx, func(t *testing.T) {
				a := readAllowed(t, filepath.Join(dir, "allowed"+sfx+".txt"))
				want := readFile(t, filepath.Join(dir, "expected"+sfx+".txt"))
				got, rep := Narrow(prompt, allow(a...))
				if rep.Layout != LayoutPi05 {
					t.Errorf("layout = %s", rep.Layout)
				}
				if got != want {
					t.Fatalf("mismatch\n%s", diffLines(want, got))
				}
				again, rep2 := Narrow(got, allow(a...))
				if again != got || rep2.Changed {
					t.Fatalf("not idempotent\n%s", diffLines(got, again))
				}
			})
		}
	}
	// 013 item 4: composable.
	dir := filepath.Join(testdataDir, "cases", "013-narrow-idempotent-and-byte-stable")
	got, _ := Narrow(readFile(t, filepath.Join(dir, "expected.txt")), allow())
	if want := readFile(t, filepath.Join(dir, "expected-2.txt")); got != want {
		t.Fatalf("013 composition mismatch\n%s", diffLines(want, got))
	}
	// 009: a no-op returns the input unchanged and reports so.
	p := readFile(t, filepath.Join(testdataDir, "cases", "009-narrow-only-denied-bullets", "prompt.txt"))
	if got, rep := Narrow(p, allow("read", "bash", "edit", "write")); got != p || rep.Changed {
		t.Fatal("009 no-op changed the prompt")
	}
}

// diffLines is a small line diff for failure messages.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	b.WriteString("first difference at line " + itoaTest(i+1) + "\n")
	for k := i; k < i+6; k++ {
		if k < len(w) {
			b.WriteString("want: " + strings.ReplaceAll(w[k], "\r", "\\r") + "\n")
		}
		if k < len(g) {
			b.WriteString("got:  " + strings.ReplaceAll(g[k], "\r", "\\r") + "\n")
		}
	}
	return b.String()
}

func itoaTest(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
