package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// complete runs `pruner __complete ARGS…` and returns the values offered
// (the directive line and cobra's note dropped).
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	s := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	if code := Main(append([]string{cobra.ShellCompRequestCmd}, args...), s, BuildInfo{Version: "test"}); code != 0 {
		t.Fatalf("__complete %v: exit %d: %s", args, code, errOut.String())
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l != "" && !strings.HasPrefix(l, ":") {
			got = append(got, strings.SplitN(l, "\t", 2)[0])
		}
	}
	return got
}

// TestEnumFlagsComplete: every flag with a fixed set of values, on every
// command, offers exactly those values to shell completion (from the table
// checkEnums validates against), and the ones the issue named are among
// them.
func TestEnumFlagsComplete(t *testing.T) {
	root := NewCmdRoot(&IOStreams{}, BuildInfo{})
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			values, ok := f.Annotations[enumAnnotation]
			if !ok {
				return
			}
			seen[c.Name()+" --"+f.Name] = true
			if got := complete(t, c.Name(), "--"+f.Name, ""); !slices.Equal(got, values) {
				t.Errorf("pruner __complete %s --%s '': %q, want %q", c.Name(), f.Name, got, values)
			}
			if !slices.Contains(values, f.DefValue) {
				t.Errorf("%s --%s: default %q is not one of its values %q", c.Name(), f.Name, f.DefValue, values)
			}
			// a prefix narrows the offer
			if got := complete(t, c.Name(), "--"+f.Name, values[0][:1]); !slices.Contains(got, values[0]) {
				t.Errorf("pruner __complete %s --%s %q: %q, want %q among them", c.Name(), f.Name, values[0][:1], got, values[0])
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, want := range []string{"check --format", "check --fail-on", "check --progress", "stats --progress", "hook --format", "narrow --report", "narrow --prompt-source"} {
		if !seen[want] {
			t.Errorf("%s is not an enum flag (no completion of its values)", want)
		}
	}
}

// enumLiteral is a flag's value check written out by hand
// (`UsageError("--format: want text or json, got %q")`), which would
// bypass the table completion offers.
var enumLiteral = regexp.MustCompile(`"--[a-z-]+: want [a-z]+(, [a-z]+)* or [a-z]+, got`)

// TestNoHandWrittenEnumChecks: the class, not the case — a new flag with
// fixed values must go through enumFlag, so its completion and its check
// cannot drift apart.
func TestNoHandWrittenEnumChecks(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range enumLiteral.FindAll(b, -1) {
			t.Errorf("%s: %s: a hand-written enum check; use enumFlag (validation and completion from one table)", f, m)
		}
	}
}

// TestCheckEnumsRejects: a value off the table is the usage error users
// saw before, naming the values; a hidden alias is accepted.
func TestCheckEnumsRejects(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--format", "xml", "x.jsonl"}, `pruner: --format: want text, json or sarif, got "xml"`},
		{[]string{"check", "--fail-on", "fatal", "x.jsonl"}, `pruner: --fail-on: want error, warning or note, got "fatal"`},
		{[]string{"stats", "--progress", "sometimes", "x.jsonl"}, `pruner: --progress: want auto, always or never, got "sometimes"`},
		{[]string{"hook", "--format", "yaml"}, `pruner: --format: want text or json, got "yaml"`},
		{[]string{"narrow", "--report", "html", "--allow", "read", "p.txt"}, `pruner: --report: want text, json or none, got "html"`},
		{[]string{"narrow", "--prompt-source", "sys", "--allow", "read", "p.txt"}, `pruner: --prompt-source: want auto, default or custom, got "sys"`},
	} {
		var out, errOut bytes.Buffer
		s := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }}
		if code := Main(tc.args, s, BuildInfo{Version: "test"}); code != ExitError || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}
