package promptnarrow

import "testing"

// TestPromptSourcesParse: every name --prompt-source offers (and completes)
// is one ParsePromptSource takes, each to a different source.
func TestPromptSourcesParse(t *testing.T) {
	seen := map[PromptSource]string{}
	for _, name := range PromptSources() {
		src, ok := ParsePromptSource(name)
		if !ok {
			t.Errorf("ParsePromptSource(%q) fails", name)
		}
		if prev, dup := seen[src]; dup {
			t.Errorf("%q and %q parse to the same source", prev, name)
		}
		seen[src] = name
	}
	if _, ok := ParsePromptSource("sys"); ok {
		t.Error(`ParsePromptSource("sys") succeeds`)
	}
}
