package main

import (
	"os"
	"regexp"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPreCommitHookFiles: the shipped pre-commit hook runs on pi session
// files, not on every *.jsonl of a repository (it matched `\.jsonl$`).
func TestPreCommitHookFiles(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID    string `yaml:"id"`
		Entry string `yaml:"entry"`
		Files string `yaml:"files"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].ID != "pruner-check" || hooks[0].Entry != "pruner check" {
		t.Fatalf("hooks: %+v", hooks)
	}
	// pre-commit matches with Python's re.search; this pattern means the
	// same in RE2
	re, err := regexp.Compile(hooks[0].Files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"sessions/a.jsonl",
		"ci/sessions/--home-me-proj--/2026-11-30T10-00-00-000Z_0196.jsonl",
		"2026-11-30T10-00-00-000Z_019a7d0e-4d5c-7000-8000-000000000000.jsonl",
		"docs/2026-01-02T03-04-05-678Z_x.jsonl",
	} {
		if !re.MatchString(p) {
			t.Errorf("%s is a pi session file; the hook skips it", p)
		}
	}
	for _, p := range []string{"data/events.jsonl", "testdata/fixture.jsonl", "logs/2026-11-30.jsonl", "sessions.jsonl", "sessions/a.json", "mysessions/x.txt"} {
		if re.MatchString(p) {
			t.Errorf("%s is not a session file; the hook runs on it", p)
		}
	}
}
