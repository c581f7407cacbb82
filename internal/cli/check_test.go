package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func checkCmd(s *IOStreams) interface {
	SetArgs([]string)
	Execute() error
} {
	c := NewCmdCheck(s)
	c.SilenceErrors, c.SilenceUsage = true, true
	c.Flags().String("config", "", "")
	c.Flags().Bool("quiet", false, "")
	return c
}

const checkSession = `{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/home/u/p"}
{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"cat .env"}}]}}
{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[]}}
{"type":"message","id":"a","parentId":"b","timestamp":"t","message":{"role":"user","content":"dup"}}
`

// TestCheckSARIFValidates runs `pruner check --format sarif` and validates
// the output against the vendored SARIF 2.1.0 schema.
func TestCheckSARIFValidates(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte(checkSession), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": "/home/u", "PI_CODING_AGENT_DIR": dir}
	out, errs, code := runProtectCmd(t, checkCmd, vars, "", "--format", "sarif", p)
	if code != 1 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	f, err := os.Open("../../testdata/protect/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("invalid SARIF: %v\n%s", err, out)
	}
	for _, want := range []string{`"startLine": 2`, `"startLine": 4`, `"ruleId": "duplicate-entry-id"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestCheckCmd(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte(checkSession), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": "/home/u", "PI_CODING_AGENT_DIR": dir}
	out, _, code := runProtectCmd(t, checkCmd, vars, "", "--jobs", "1", p)
	if code != 1 || !strings.Contains(out, "s.jsonl:2: protected-path (") || !strings.Contains(out, "s.jsonl:4: duplicate-entry-id:") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	_, _, code = runProtectCmd(t, checkCmd, vars, "", "--exit-zero", p)
	if code != 0 {
		t.Fatalf("--exit-zero: exit %d", code)
	}
	out, _, code = runProtectCmd(t, checkCmd, vars, checkSession, "--format", "json", "-")
	if code != 1 || !strings.Contains(out, `"file": "<stdin>"`) {
		t.Fatalf("stdin: %d %s", code, out)
	}
	_, errs, code := runProtectCmd(t, checkCmd, vars, "", "--progress", "always", "--jobs", "2", p, p)
	if code != 1 || !strings.Contains(errs, "checking [") || !strings.Contains(errs, "2/2 sessions") {
		t.Fatalf("progress: %d %q", code, errs)
	}
	for _, bad := range [][]string{{"--jobs", "-1", p}, {"--progress", "x", p}, {filepath.Join(dir, "none")}} {
		if _, _, code := runProtectCmd(t, checkCmd, vars, "", bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

func TestCheckLimitSizesTheLargestInputsAtOnce(t *testing.T) {
	const mb = 1 << 20
	sizes := []int64{10 * mb, 1000 * mb, 0, 500 * mb}
	if got := checkLimit(nil, 2); got != memoryLimit {
		t.Errorf("no inputs: %d, want memoryLimit %d", got, memoryLimit)
	}
	if got := checkLimit([]int64{mb}, 1); got != memoryLimit {
		t.Errorf("a small input: %d, want memoryLimit %d", got, memoryLimit)
	}
	if got, want := checkLimit(sizes, 1), indexLimit(1000*mb); got != want {
		t.Errorf("one worker: %d, want %d (the largest input)", got, want)
	}
	if got, want := checkLimit(sizes, 2), indexLimit(1500*mb); got != want {
		t.Errorf("two workers: %d, want %d (the two largest inputs)", got, want)
	}
	if got, want := checkLimit(sizes, 0), checkLimit(sizes, 1); got != want {
		t.Errorf("workers 0: %d, want one worker's %d", got, want)
	}
	if sizes[1] != 1000*mb {
		t.Error("checkLimit reordered its argument")
	}
}

// check collects only at the heap limit (GOGC pacing off, then put back)
// when every input is a regular file of at most smallCheckInput, and keeps
// GOGC's pacing for stdin (its size is not known), a larger file, and when
// GOGC is set; the heap limit is set and put back each time.
func TestCheckCollectsAtTheLimitOnlyForSmallFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.jsonl")
	if err := os.WriteFile(small, []byte(checkSession), 0o644); err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(t.TempDir(), "large.jsonl")
	data := []byte(checkSession)
	for len(data) <= smallCheckInput {
		data = append(data, `{"type":"message","id":"x","parentId":"a","timestamp":"t","message":{"role":"user","content":"`+strings.Repeat("x", 1<<16)+`"}}`+"\n"...)
	}
	if err := os.WriteFile(large, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		gogc  string
		atLim bool
	}{
		{"a small file", []string{small}, "", true},
		{"a directory of small files", []string{dir}, "", true},
		{"GOGC set", []string{small}, "50", false},
		{"stdin", []string{"-"}, "", false},
		{"a small file and stdin", []string{small, "-"}, "", false},
		{"a large file", []string{small, large}, "", false},
	} {
		var percents []int
		var limits []int64
		var out, errb bytes.Buffer
		env := map[string]string{"HOME": "/home/u", "PI_CODING_AGENT_DIR": dir, "GOGC": c.gogc}
		s := &IOStreams{In: strings.NewReader(checkSession), Out: &out, ErrOut: &errb, Getenv: func(k string) string { return env[k] },
			SetGCPercent:   func(p int) int { percents = append(percents, p); return 100 },
			SetMemoryLimit: func(n int64) int64 { limits = append(limits, n); return 1 << 62 }}
		cmd := checkCmd(s)
		cmd.SetArgs(append([]string{"--exit-zero"}, c.args...))
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%s: %v (%s)", c.name, err, errb.String())
		}
		want := []int(nil)
		if c.atLim {
			want = []int{-1, 100}
		}
		if !slices.Equal(percents, want) {
			t.Errorf("%s: GC percents set %v, want %v", c.name, percents, want)
		}
		if len(limits) != 2 || limits[1] != 1<<62 {
			t.Errorf("%s: limits set %v, want one and the old one back", c.name, limits)
		}
	}
}

// sarifSchema is the vendored SARIF 2.1.0 schema, compiled.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../testdata/protect/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestCheckReportOnFailure: a check that fails (exit 2) before or while it
// reads its inputs still prints a whole --format json / sarif document
// that says why (a CI step uploads it), and one that succeeds says so.
func TestCheckReportOnFailure(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(good, []byte(checkSession), 0o644); err != nil {
		t.Fatal(err)
	}
	walked := filepath.Join(dir, "walked")
	if err := os.MkdirAll(walked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(walked, "broken.jsonl")); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	sch := sarifSchema(t)
	vars := map[string]string{"HOME": "/home/u", "PI_CODING_AGENT_DIR": dir}
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		error string // in the document's errors; "" for none
	}{
		{"missing file", []string{missing}, "", 2, missing + ": no such file"},
		{"missing directory", []string{filepath.Join(dir, "nodir")}, "", 2, "nodir: no such file"},
		{"missing among good", []string{good, missing}, "", 2, missing + ": no such file"},
		{"unreadable while walking", []string{walked}, "", 2, "broken.jsonl: no such file"},
		{"rules do not load", []string{"--rules", filepath.Join(dir, "nope.json"), good}, "", 2, "nope.json: no such file"},
		{"empty stdin", nil, "", 2, "no input: no PATH was given"},
		{"findings", []string{good}, "", 1, ""},
	} {
		for _, format := range []string{"json", "sarif"} {
			out, errs, code := runProtectCmd(t, checkCmd, vars, tc.stdin, append([]string{"--format", format}, tc.args...)...)
			if code != tc.code {
				t.Errorf("%s, %s: exit %d, want %d; stderr %s", tc.name, format, code, tc.code, errs)
				continue
			}
			var doc struct {
				Errors []string `json:"errors"`
				Runs   []struct {
					Invocations []struct {
						ExecutionSuccessful bool `json:"executionSuccessful"`
						Notes               []struct {
							Level   string `json:"level"`
							Message struct {
								Text string `json:"text"`
							} `json:"message"`
						} `json:"toolExecutionNotifications"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Errorf("%s, %s: stdout is not a JSON document: %v\n%q", tc.name, format, err, out)
				continue
			}
			var errors []string
			if format == "sarif" {
				inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(out))
				if err := sch.Validate(inst); err != nil {
					t.Errorf("%s: invalid SARIF: %v\n%s", tc.name, err, out)
				}
				if len(doc.Runs) != 1 || len(doc.Runs[0].Invocations) != 1 {
					t.Errorf("%s: want one run with one invocation:\n%s", tc.name, out)
					continue
				}
				inv := doc.Runs[0].Invocations[0]
				if inv.ExecutionSuccessful != (tc.error == "") {
					t.Errorf("%s: executionSuccessful = %v", tc.name, inv.ExecutionSuccessful)
				}
				for _, n := range inv.Notes {
					if n.Level != "error" {
						t.Errorf("%s: notification level %q", tc.name, n.Level)
					}
					errors = append(errors, n.Message.Text)
				}
			} else {
				errors = doc.Errors
			}
			joined := strings.Join(errors, "\n")
			if tc.error == "" && len(errors) > 0 || tc.error != "" && !strings.Contains(joined, tc.error) {
				t.Errorf("%s, %s: errors %q, want %q", tc.name, format, errors, tc.error)
			}
			if strings.Contains(joined, "or directory") || strings.Contains(joined, "open ") {
				t.Errorf("%s, %s: errors %q not in pruner's wording", tc.name, format, errors)
			}
		}
	}
}
