package promptnarrow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSectionsPatch16: pi 1.x records a tool-set change as a section patch
// (diffSystemPromptSections). Applying the recorded patch of all -> case to
// the all-tools sections and joining them as pi does ("\n\n") gives the same
// bytes as narrowing the all-tools prompt.
func TestSectionsPatch16(t *testing.T) {
	dir := filepath.Join(testdataDir, "oracle", "1.6.0")
	load := func(name string, v any) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	order := []string{"preamble", "tools", "rules", "docs", "addendum", "project_context", "skills", "cwd"}
	var all map[string]string
	load("prompt-all.sections.json", &all)
	var m manifest
	load("prompt-manifest.json", &m)
	patches, _ := filepath.Glob(filepath.Join(dir, "narrow-all-to-*.patch.json"))
	if len(patches) < 4 {
		t.Fatalf("only %d patches", len(patches))
	}
	for _, p := range patches {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "narrow-all-to-"), ".patch.json")
		var patch map[string]*string
		load(filepath.Base(p), &patch)
		secs := map[string]string{}
		for k, v := range all {
			secs[k] = v
		}
		for k, v := range patch {
			if v == nil {
				delete(secs, k)
			} else {
				secs[k] = *v
			}
		}
		var parts []string
		for _, k := range order {
			if s, ok := secs[k]; ok && s != "" {
				parts = append(parts, s)
			}
		}
		want := strings.Join(parts, "\n\n")
		got, _ := Narrow(oraclePrompt(t, "1.6.0", "all"), allow(m.Cases[name].ActiveTools...))
		if got != want {
			t.Errorf("all->%s: narrowed prompt != all sections + recorded patch\n%s", name, diffLines(want, got))
		}
	}
}
