package cli

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
)

// readme is README.md of the repository.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeRuleCounts: the README's counts of deny rules are the code's
// (guard.DefaultRules, guard.GateRules with an agent dir and a binary, as
// `pruner config` lists them), and it names every built-in rule.
func TestReadmeRuleCounts(t *testing.T) {
	text := strings.Join(strings.Fields(readme(t)), " ")
	defaults := guard.DefaultRules().Entries
	gate := guard.GateRules("/home/u/.pi/agent", "/usr/local/bin/pruner").Entries
	for _, c := range []struct {
		re   string
		want int
	}{
		{`(\d+) built-in rules`, len(defaults)},
		{`the (\d+) rules that, whatever the rules, deny write and edit of the gate's own configuration`, len(gate)},
		{`: (\d+) rules in all\)`, len(defaults) + len(gate)},
	} {
		m := regexp.MustCompile(c.re).FindStringSubmatch(text)
		if m == nil {
			t.Errorf("README: no %q", c.re)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != c.want {
			t.Errorf("README: %q says %d, the code has %d", m[0], n, c.want)
		}
	}
	for _, e := range defaults {
		if !strings.Contains(text, "`"+e.Path+"`") {
			t.Errorf("README does not name the built-in rule %s", e.Path)
		}
	}
	for _, e := range gate {
		p := strings.TrimPrefix(e.Path, "/home/u/.pi/agent/")
		if p != "/usr/local/bin/pruner" && !strings.Contains(text, "`"+p+"`") {
			t.Errorf("README does not name the gate rule %s", p)
		}
	}
}

// TestReadmeExitCodes: the README's exit-code table has a row for each
// exit code of errors.go.
func TestReadmeExitCodes(t *testing.T) {
	text := readme(t)
	for _, code := range []int{ExitOK, ExitFindings, ExitError, ExitInterrupted} {
		if !strings.Contains(text, fmt.Sprintf("\n| %d | ", code)) {
			t.Errorf("README's exit-code table has no row for %d", code)
		}
	}
}
