package cli

import (
	"bytes"
	"strings"
	"testing"
)

// runTree runs args through the whole command tree (whole) or through Main's
// tree of the named command alone, returning the exit code and both streams.
func runTree(t *testing.T, whole bool, args []string) (int, string, string) {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "PI_CODING_AGENT_DIR": home}
	var out, errOut bytes.Buffer
	s := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(k string) string { return env[k] }}
	bi := BuildInfo{Version: "test"}
	var code int
	if whole {
		code = execute(NewCmdRoot(s, bi), args, s)
	} else {
		code = Main(args, s, bi)
	}
	return code, out.String(), errOut.String()
}

// TestOneCommandTree: Main builds only the command its first argument names;
// that command answers exactly as in the whole tree — its help, its usage
// errors (unknown flags, missing values, extra arguments) and their exit
// codes — and what names no command (root flags, help, completion, typos)
// still reaches the whole tree.
func TestOneCommandTree(t *testing.T) {
	var cases [][]string
	for _, c := range subcommands(nil, BuildInfo{}) {
		cases = append(cases,
			[]string{c.name, "--help"},
			[]string{c.name, "-h"},
			[]string{c.name, "--no-such-flag"},
			[]string{c.name, "--config"},
			[]string{c.name, "--help", "--no-such-flag"},
			[]string{"help", c.name},
		)
	}
	cases = append(cases,
		[]string{"version"},
		[]string{"version", "extra"},
		[]string{"hook", "--format", "xml"},
		[]string{"--version"},
		[]string{"--help"},
		[]string{},
		[]string{"nwo"},
		[]string{"completion", "bash"},
		[]string{"__complete", "ho"},
		[]string{"__complete", "hook", "--fo"},
	)
	for _, args := range cases {
		wc, wout, werr := runTree(t, true, args)
		oc, oout, oerr := runTree(t, false, args)
		if wc != oc || wout != oout || werr != oerr {
			t.Errorf("pruner %s: the whole tree gives exit %d\n%s\n%s\nthe command's own tree exit %d\n%s\n%s",
				strings.Join(args, " "), wc, wout, werr, oc, oout, oerr)
		}
	}
	if n := len(newCmdRoot(&IOStreams{}, BuildInfo{}, "hook").Commands()); n != 1 {
		t.Errorf("the tree of hook alone has %d commands, want 1", n)
	}
	if got := commandNamed([]string{"--help", "hook"}, nil, BuildInfo{}); got != "" {
		t.Errorf("commandNamed(--help hook) = %q: only a first argument names the command", got)
	}
}
