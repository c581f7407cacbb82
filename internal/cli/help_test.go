package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
)

func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	s := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	if code := Main(append(args, "--help"), s, BuildInfo{Version: "test"}); code != 0 {
		t.Fatalf("%v --help: exit %d: %s", args, code, errOut.String())
	}
	return out.String()
}

// TestRootHelpListsEveryCommand: `pruner --help`'s overview names every
// command (query, restore, config and version were missing).
func TestRootHelpListsEveryCommand(t *testing.T) {
	root := NewCmdRoot(&IOStreams{}, BuildInfo{})
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "completion" || c.Name() == "help" {
			continue
		}
		if !regexp.MustCompile(`\bpruner ` + regexp.QuoteMeta(c.Name()) + `\b`).MatchString(root.Long) {
			t.Errorf("pruner --help does not list %q in its overview", c.Name())
		}
	}
}

// envCall finds the environment variables pruner's code looks up by name.
var envCall = regexp.MustCompile(`(?:\.Env|getenv|Getenv)\("([A-Z][A-Z0-9_]*)"\)`)

// TestConfigHelpListsEveryEnvVariable: every environment variable the
// pruner binary reads — the config keys' own, PRUNER_PRUNING, pi's agent
// dir, the home and cache dirs, GOMEMLIMIT, … — is in `pruner config
// --help`. The variables are found in the source, so a new one must be
// documented as soon as it is read.
func TestConfigHelpListsEveryEnvVariable(t *testing.T) {
	help := helpOf(t, "config")
	want := map[string]string{}
	root := filepath.Join("..", "..", "internal")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "benchgen", "realpi": // test tooling, not in the pruner binary
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range envCall.FindAllStringSubmatch(string(src), -1) {
			want[m[1]] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"PI_CODING_AGENT_DIR", "PRUNER_PRUNING", "PRUNER_FLUSH", "PRUNER_SUMMARIZER_CMD", "PRUNER_SUMMARIZER_CONCURRENCY"} {
		want[v] = "(always)"
	}
	if len(want) < 8 {
		t.Fatalf("found only %d variables in the source: the pattern no longer matches", len(want))
	}
	for v, where := range want {
		if !regexp.MustCompile(`\b` + v + `\b`).MatchString(help) {
			t.Errorf("pruner config --help does not name %s (read in %s)", v, where)
		}
	}
}

// TestCheckHelpListsEveryDefaultRule: `pruner check --help` lists exactly
// the built-in rules of the rule table (guard.DefaultRules), in its order,
// with each rule's denied ops (it used to leave five out).
func TestCheckHelpListsEveryDefaultRule(t *testing.T) {
	help := helpOf(t, "check")
	const head = "the built-in defaults (path, denied ops):\n"
	i := strings.Index(help, head)
	if i < 0 {
		t.Fatalf("check --help has no %q", head)
	}
	block, _, _ := strings.Cut(help[i+len(head):], "\n\n")
	var got []string
	for _, line := range strings.Split(block, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("check --help: rule line %q: want PATH OPS", line)
		}
		got = append(got, f[0]+" "+strings.Join(f[1:], ""))
	}
	var want []string
	for _, e := range guard.DefaultRules().Entries {
		want = append(want, e.Path+" "+e.Deny.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("check --help lists the built-in rules\n%s\nwant (guard.DefaultRules)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
