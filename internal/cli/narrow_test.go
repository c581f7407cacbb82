package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/promptnarrow"
)

const narrowCases = "../../testdata/narrow/cases"

func runNarrow(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errb}
	cmd := NewCmdNarrow(s)
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	err := cmd.Execute()
	return out.String(), errb.String(), ExitCode(err)
}

func TestNarrowCmdCase009(t *testing.T) {
	dir := filepath.Join(narrowCases, "009-narrow-only-denied-bullets")
	want, _ := os.ReadFile(filepath.Join(dir, "expected.txt"))
	out, errOut, code := runNarrow(t, "", filepath.Join(dir, "prompt.txt"), "--allow", "bash,read")
	if code != 0 || out != string(want) {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	if !strings.Contains(errOut, "narrowed (layout pi-0.5x)") || !strings.Contains(errOut, "\n  line removed: - edit:") {
		t.Fatalf("text report: %s", errOut)
	}
}

func TestNarrowCmdStdinAllowEmpty(t *testing.T) {
	dir := filepath.Join(narrowCases, "013-narrow-idempotent-and-byte-stable")
	in, _ := os.ReadFile(filepath.Join(dir, "prompt.txt"))
	want, _ := os.ReadFile(filepath.Join(dir, "expected-2.txt"))
	out, _, code := runNarrow(t, string(in), "-", "--allow", "", "--report", "none")
	if code != 0 || out != string(want) {
		t.Fatalf("code %d\n%s", code, out)
	}
}

func TestNarrowCmdCheckExitCodes(t *testing.T) {
	p := filepath.Join(narrowCases, "009-narrow-only-denied-bullets", "prompt.txt")
	out, errOut, code := runNarrow(t, "", p, "--allow", "read,bash", "--check")
	if code != ExitFindings || out != "" || !strings.Contains(errOut, "edit, write") {
		t.Fatalf("check with outside tools: code %d out %q err %q", code, out, errOut)
	}
	_, _, code = runNarrow(t, "", p, "--deny", "grep,find,ls", "--check")
	if code != ExitOK {
		t.Fatalf("check ok: code %d", code)
	}
}

func TestNarrowCmdJSONReport(t *testing.T) {
	p := filepath.Join(narrowCases, "009-narrow-only-denied-bullets", "prompt.txt")
	_, errOut, code := runNarrow(t, "", p, "--deny", "write", "--deny-skill", "brave-search", "--report", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var rep promptnarrow.Report
	if err := json.Unmarshal([]byte(errOut), &rep); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if rep.Layout != promptnarrow.LayoutPi05 || strings.Join(rep.ToolsRemoved, ",") != "write" ||
		strings.Join(rep.SkillsRemoved, ",") != "brave-search" || !rep.SkillsBlockRemoved {
		t.Fatalf("report %+v", rep)
	}
}

func TestNarrowCmdPolicy(t *testing.T) {
	dir := t.TempDir()
	pol := filepath.Join(dir, "config.json")
	os.WriteFile(pol, []byte(`{"permission": {"*": "allow", "edit": "deny", "write": {"*": "deny"}, "bash": {"*": "deny", "git *": "ask"}}}`), 0o644)
	src := filepath.Join(narrowCases, "009-narrow-only-denied-bullets")
	want, _ := os.ReadFile(filepath.Join(src, "expected.txt"))
	out, errOut, code := runNarrow(t, "", filepath.Join(src, "prompt.txt"), "--policy", pol)
	if code != 0 || out != string(want) {
		t.Fatalf("code %d %s", code, errOut)
	}
	os.WriteFile(pol, []byte(`{"permission": 5}`), 0o644)
	if _, _, code := runNarrow(t, "", filepath.Join(src, "prompt.txt"), "--policy", pol); code != ExitError {
		t.Fatalf("bad policy: code %d", code)
	}
	if _, _, code := runNarrow(t, "", filepath.Join(src, "prompt.txt"), "--policy", filepath.Join(dir, "missing.json")); code != ExitError {
		t.Fatalf("missing policy: code %d", code)
	}
}

func TestNarrowCmdErrors(t *testing.T) {
	if _, _, code := runNarrow(t, "", "/nonexistent/prompt.txt", "--allow", "read"); code != ExitError {
		t.Fatalf("missing file: %d", code)
	}
	if _, _, code := runNarrow(t, "x", "-", "--report", "yaml"); code != ExitError {
		t.Fatalf("bad --report: %d", code)
	}
	if _, _, code := runNarrow(t, "x", "a", "b"); code != ExitError {
		t.Fatalf("two args: %d", code)
	}
}

func TestNarrowCmdUnrecognisedWarns(t *testing.T) {
	out, errOut, code := runNarrow(t, "Custom prompt.\nNo tools here.", "-", "--allow", "read", "--report", "none")
	if code != 0 || out != "Custom prompt.\nNo tools here." || !strings.Contains(errOut, "warning") {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
}
