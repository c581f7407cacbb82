package config

import (
	"path/filepath"
	"reflect"
	"testing"
)

// LoadGate with NoKeyWarnings (hook: its stderr is the model's reason)
// skips the settings files' unknown-key warnings and nothing else: the
// same files, the same rules, and a project's rule warnings kept.
func TestLoadGateNoKeyWarnings(t *testing.T) {
	agent, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(agent, "settings.json"), `{"contextPrune":{"recentTurns":2,"maxRetaindChars":9,
		"protectedPathRules":{"paths":[{"path":"secrets/**","deny":["read"]}]}}}`)
	write(t, filepath.Join(proj, ".pi", "settings.json"), `{"contextPrune":{"otherToolKey":1,"protectedPathRules":{"paths":[{"path":"x","deny":[]}]}}}`)
	o := Options{AgentDir: agent, ProjectDir: proj, Getenv: env(nil)}
	all, err := LoadGate(o)
	if err != nil {
		t.Fatal(err)
	}
	o.NoKeyWarnings = true
	quiet, err := LoadGate(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Warnings) != 4 { // three unknown keys, one rule that adds nothing
		t.Fatalf("warnings without NoKeyWarnings: %q", all.Warnings)
	}
	if len(quiet.Warnings) != 1 || quiet.Warnings[0] != all.Warnings[len(all.Warnings)-1] {
		t.Errorf("warnings with NoKeyWarnings: %q (all: %q)", quiet.Warnings, all.Warnings)
	}
	if !reflect.DeepEqual(all.Files, quiet.Files) {
		t.Errorf("files %v / %v", all.Files, quiet.Files)
	}
	ra, err := all.DenyRules("")
	if err != nil {
		t.Fatal(err)
	}
	rq, err := quiet.DenyRules("")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ra, rq) {
		t.Errorf("rules differ:\n%+v\n%+v", ra, rq)
	}
}

// isGateKeyTypo flags the spellings of protectedPathRules a user may type,
// and no key pruner or pi-condense reads (one would then be an error).
func TestIsGateKeyTypo(t *testing.T) {
	for _, k := range []string{"protectedPathRule", "protectedpathrules", "ProtectedPathRules", "protected_path_rules",
		"protected-path-rules", "protectedPathsRules", "protectedPathRulez", "protectPathRules"} {
		if !isGateKeyTypo(k) {
			t.Errorf("%q: not a gate key typo", k)
		}
	}
	for _, k := range append(append(knownKeys(), sharedKeys()...), CondenseKeys()...) {
		if isGateKeyTypo(k) {
			t.Errorf("%q (a key pruner or pi-condense reads) taken for a gate key typo", k)
		}
	}
	for _, k := range []string{"protectedPaths", "protectedTools", "theme", "rules"} {
		if isGateKeyTypo(k) {
			t.Errorf("%q taken for a gate key typo", k)
		}
	}
}
