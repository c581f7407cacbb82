package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeGoldenRewritesEveryGoldenSet: `make golden` runs the golden tests
// of every package whose tests take -update (it ran only prune's: the flush
// and render golden files were left stale).
func TestMakeGoldenRewritesEveryGoldenSet(t *testing.T) {
	// the declaration, as the Makefile greps for it (not a mention of it,
	// like this test's own)
	updateFlag := regexp.MustCompile(`(?m)^var update = flag.Bool`)
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is not on PATH: the README's set-up needs it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if updateFlag.Match(src) {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				pkgs = append(pkgs, "./"+filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(pkgs) < 3 {
		t.Fatalf("found only %v with an -update flag", pkgs)
	}
	cmd := exec.Command("make", "-n", "-s", "golden")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n golden: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`go test .*-run Golden .*-update`).Match(out) {
		t.Fatalf("make golden does not run the golden tests with -update:\n%s", out)
	}
	for _, p := range pkgs {
		if !regexp.MustCompile(regexp.QuoteMeta(p) + `(\s|$)`).Match(out) {
			t.Errorf("make golden does not rewrite the golden files of %s:\n%s", p, out)
		}
	}
	if strings.Contains(string(out), "./cmd/pruner ") || strings.HasSuffix(strings.TrimSpace(string(out)), "./cmd/pruner") {
		t.Errorf("make golden runs ./cmd/pruner, which has no -update flag:\n%s", out)
	}
}
