package check

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const hdr = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/user/proj"}`

func entry(id, parent, msg string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01Z","message":` + msg + `}`
}

func call(id, name, args string) string {
	return `{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"toolCall","id":"` + id + `","name":"` + name + `","arguments":` + args + `}],"stopReason":"toolUse","timestamp":1}`
}

func result(id, name string) string {
	return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"` + name + `","content":[{"type":"text","text":"out"}],"isError":false,"timestamp":2}`
}

func opts() Options {
	return Options{Rules: guard.DefaultRules(), Home: "/home/user", HomeFixed: true, Workers: 2}
}

func run(t *testing.T, lines ...string) Result {
	t.Helper()
	return CheckReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "s.jsonl", opts())
}

func kinds(r Result) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, string(f.Kind)+"@"+itoa(f.Line))
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestCleanSession(t *testing.T) {
	r := run(t, hdr,
		entry("a", "", `{"role":"user","content":"hi","timestamp":0}`),
		entry("b", "a", call("c1", "read", `{"path":"src/main.go"}`)),
		entry("c", "b", result("c1", "read")),
		entry("d", "c", `{"role":"assistant","content":"plain string content","timestamp":3}`),
	)
	if len(r.Findings) != 0 || r.Err != nil || r.Lines != 5 {
		t.Fatalf("%+v", r)
	}
}

func TestViolationLine(t *testing.T) {
	r := run(t, hdr,
		entry("a", "", `{"role":"user","content":"hi","timestamp":0}`),
		entry("b", "a", call("c1", "bash", `{"command":"echo x && cat .e''nv"}`)),
		entry("c", "b", result("c1", "bash")),
		entry("d", "c", call("c2", "read", `{"path":"~/.pi/agent/auth.json"}`)),
	)
	if len(r.Findings) != 2 {
		t.Fatalf("%v", kinds(r))
	}
	f := r.Findings[0]
	if f.Line != 3 || f.Kind != KindProtectedPath || f.EntryID != "b" || f.ToolCallID != "c1" || f.Rule != ".env" || f.Op != "bash" || f.Tool != "bash" || f.Command == "" {
		t.Fatalf("%+v", f)
	}
	f = r.Findings[1]
	if f.Line != 5 || f.Rule != "~/.pi/agent/auth.json" || f.Op != "read" || f.Resolved != "/home/user/.pi/agent/auth.json" {
		t.Fatalf("%+v", f)
	}
}

func TestStructuralFindings(t *testing.T) {
	r := run(t, hdr,
		entry("a", "", `{"role":"user","content":"hi","timestamp":0}`),
		`{not json`,
		entry("b", "a", `{"role":"user","content":"x"}`)+entry("c", "b", `{"role":"user","content":"y"}`),
		entry("d", "a", result("nope", "read")),
		entry("a", "d", `{"role":"user","content":"dup"}`),
		entry("x", "y", `{"role":"user","content":"cycle"}`),
		entry("y", "z", `{"role":"user","content":"cycle"}`),
		entry("z", "x", `{"role":"user","content":"cycle"}`),
		entry("w", "z", `{"role":"user","content":"points into the cycle"}`),
		`{"type":"future_entry","id":"f","parentId":"w"}`,
		``,
	)
	got := strings.Join(kinds(r), " ")
	want := "unparseable-line@3 joined-lines@4 orphan-tool-result@5 duplicate-entry-id@6 parent-cycle@7"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(r.Findings[4].Message, "x -> y -> z") {
		t.Fatalf("cycle message %q", r.Findings[4].Message)
	}
}

func TestBadHeader(t *testing.T) {
	r := run(t, entry("a", "", `{"role":"user","content":"hi"}`), entry("b", "a", call("c", "read", `{"path":".env"}`)))
	if got := strings.Join(kinds(r), " "); got != "bad-header@1 protected-path@2" {
		t.Fatal(got)
	}
	r = run(t, hdr, hdr)
	if got := strings.Join(kinds(r), " "); got != "bad-header@2" {
		t.Fatal(got)
	}
}

func TestWindowsSessionAndInferHome(t *testing.T) {
	h := `{"type":"session","version":3,"id":"w","timestamp":"x","cwd":"C:\\Users\\bob\\proj"}`
	o := opts()
	o.HomeFixed = false
	r := CheckReader(strings.NewReader(h+"\n"+entry("a", "", call("c", "read", `{"path":"..\\.pi\\agent\\auth.json"}`))+"\n"), "w.jsonl", o)
	if len(r.Findings) != 1 || r.Findings[0].Rule != "~/.pi/agent/auth.json" {
		t.Fatalf("%+v", r.Findings)
	}
	for _, c := range [][3]string{
		{"/home/bob/p", "/home/user", "/home/bob"},
		{"/home/user/p", "/home/user", "/home/user"},
		{"/Users/al/x", "/home/user", "/Users/al"},
		{`C:\Users\bob\p`, "/home/user", `C:\Users\bob`},
		{"/srv/x", "/home/user", "/home/user"},
		{"", "/h", "/h"},
		{"/root", "/home/user", "/root"},
		{"/root/p", "/home/user", "/root"},
		{"/rootx/p", "/home/user", "/home/user"},
		{"/home/", "/h", "/h"},
		{`d:/Users/eve`, "/h", `d:/Users/eve`},
	} {
		if got := InferHome(c[0], c[1]); got != c[2] {
			t.Errorf("InferHome(%q,%q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestLongLine(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	r := run(t, hdr, entry("a", "", `{"role":"toolResult","toolCallId":"q","toolName":"read","content":[{"type":"text","text":"`+big+`"}]}`),
		entry("b", "a", call("c", "write", `{"path":"node_modules/x","content":"`+big+`"}`)))
	if got := strings.Join(kinds(r), " "); got != "orphan-tool-result@2 protected-path@3" {
		t.Fatal(got)
	}
}

func TestExpandAndRun(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "--home-user-proj--")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, lines ...string) string {
		p := filepath.Join(sub, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	clean := write("a.jsonl", hdr, entry("a", "", call("c", "read", `{"path":"x"}`)))
	bad := write("b.jsonl", hdr, entry("a", "", call("c", "read", `{"path":".env"}`)))
	write("notes.txt", "ignored")
	files, err := Expand([]string{dir})
	if err != nil || len(files) != 2 || files[0] != clean || files[1] != bad {
		t.Fatalf("%v %v", files, err)
	}
	if _, err := Expand([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Fatal("missing path expanded")
	}
	var progress []int
	o := opts()
	o.Progress = func(done, total int) { progress = append(progress, done) }
	rs := Run(append(files, "-", filepath.Join(dir, "gone.jsonl")), strings.NewReader(hdr+"\n"), o)
	if len(rs) != 4 || len(rs[0].Findings) != 0 || len(rs[1].Findings) != 1 || rs[2].File != "<stdin>" || rs[3].Err == nil {
		t.Fatalf("%+v", rs)
	}
	if len(progress) != 4 || Count(rs) != 1 {
		t.Fatalf("progress %v count %d", progress, Count(rs))
	}
}

func TestRenderers(t *testing.T) {
	r := run(t, hdr, entry("a", "", call("c1", "read", `{"path":".env"}`)), `{"x":1}{"y":2}`)
	rs := []Result{r}
	var text bytes.Buffer
	if err := WriteText(&text, rs); err != nil {
		t.Fatal(err)
	}
	want := "s.jsonl:2: protected-path (no-result): read of protected path \".env\" (/home/user/proj/.env), protected by rule \".env\" (deny read) [entry a call c1]\n" +
		"  hint: the session does not show what the call read or changed: look at its result and at the protected path; pruner hook (extensions/protect.ts in pi) denies such calls before they run\n" +
		"s.jsonl:3: joined-lines: two JSON values joined on one line (pi skips the whole line)\n"
	if text.String() != want {
		t.Fatalf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rs); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Sessions int
		Findings []Finding
	}
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil || rep.Sessions != 1 || len(rep.Findings) != 2 || rep.Findings[0].Rule != ".env" {
		t.Fatalf("%s %v", js.String(), err)
	}
	// every count and list is present, 0 and [] included
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &fields); err != nil {
		t.Fatal(err)
	}
	if string(fields["empty"]) != "0" || string(fields["errors"]) != "[]" {
		t.Fatalf("empty %s, errors %s: want 0 and []\n%s", fields["empty"], fields["errors"], js.String())
	}
	var sarif bytes.Buffer
	if err := WriteSARIF(&sarif, rs, SARIFOptions{Version: "1.0.0", Root: "."}); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarif.Bytes())
	var doc struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(sarif.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if len(run.Tool.Driver.Rules) != len(Kinds()) || len(run.Results) != 2 {
		t.Fatalf("%s", sarif.String())
	}
	loc := run.Results[0].Locations[0].PhysicalLocation
	if run.Results[0].RuleID != "protected-path" || loc.Region.StartLine != 2 || loc.ArtifactLocation.URI != "s.jsonl" {
		t.Fatalf("%+v", run.Results[0])
	}
	// an empty run still validates
	sarif.Reset()
	if err := WriteSARIF(&sarif, nil, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarif.Bytes())
}

// validateSARIF validates a log against the vendored SARIF 2.1.0 schema
// (testdata/protect/sarif-schema-2.1.0.json, from @microsoft/jest-sarif).
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	if err := sarifErr(t, data); err != nil {
		t.Fatalf("SARIF does not validate: %v\n%s", err, data)
	}
}

func TestSARIFSchemaRejects(t *testing.T) {
	for _, bad := range []string{
		`{"version":"2.1.0"}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"region":{"startLine":0}}}]}]}]}`,
	} {
		if sarifErr(t, []byte(bad)) == nil {
			t.Errorf("schema accepted %s", bad)
		}
	}
}

func sarifErr(t *testing.T, data []byte) error {
	t.Helper()
	f, err := os.Open("../../testdata/protect/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

func TestArtifactURI(t *testing.T) {
	root := t.TempDir()
	for _, c := range [][2]string{
		{filepath.Join(root, "a b", "s#1.jsonl"), "a%20b/s%231.jsonl"},
		{"<stdin>", "stdin"},
	} {
		if got := artifactURI(c[0], root); got != c[1] {
			t.Errorf("artifactURI(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	if got := artifactURI("/elsewhere/x.jsonl", root); !strings.HasPrefix(got, "file:///") {
		t.Errorf("outside root: %q", got)
	}
}

func TestProtectedOutputPruned(t *testing.T) {
	pred, err := protect.NewPredicate([]string{"skill_*"}, []string{"**/SKILL.md"})
	if err != nil {
		t.Fatal(err)
	}
	notice := func(id, name string) string {
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"` + name + `","content":[{"type":"text","text":"[pruner: pruned ` + name + ` result] call ` + id + `"}],"isError":false,"timestamp":2}`
	}
	lines := []string{hdr,
		entry("a", "", call("c1", "read", `{"path":"skills/x/SKILL.md"}`)),
		entry("b", "a", notice("c1", "read")),
		entry("c", "b", call("c2", "read", `{"path":"src/big.go"}`)),
		entry("d", "c", notice("c2", "read")),
		entry("e", "d", call("c3", "skill_load", `{}`)),
		entry("f", "e", notice("c3", "skill_load")),
		entry("g", "f", call("c4", "read", `{"path":"skills/y/SKILL.md"}`)),
		entry("h", "g", result("c4", "read")),
	}
	o := opts()
	o.Predicate = pred
	r := CheckReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "s.jsonl", o)
	if got := strings.Join(kinds(r), " "); got != "protected-output-pruned@3 protected-output-pruned@7" {
		t.Fatalf("%s\n%+v", got, r.Findings)
	}
	if r.Findings[0].Path != "skills/x/SKILL.md" || r.Findings[0].ToolCallID != "c1" || !strings.Contains(r.Findings[0].Message, "read skills/x/SKILL.md") {
		t.Fatalf("%+v", r.Findings[0])
	}
	// without a predicate nothing is reported
	r = run(t, lines...)
	if len(r.Findings) != 0 {
		t.Fatalf("%v", kinds(r))
	}
}

// TestStdinOnce: `pruner check - -` used to give stdin to two workers that
// reset and read the same reader at once (a data race `go test -race`
// reports). stdin is read by one worker; the second "-" is an error.
func TestStdinOnce(t *testing.T) {
	lines := []string{hdr, entry("a", "", call("c1", "read", `{"path":".env"}`))}
	for i := range 2000 { // long enough for two readers to overlap
		lines = append(lines, entry(fmt.Sprint("u", i), "a", `{"role":"user","content":"`+strings.Repeat("x", 200)+`","timestamp":0}`))
	}
	session := strings.Join(lines, "\n") + "\n"
	o := opts()
	o.Workers = 4
	rs := Run([]string{"-", "-", "-", "-"}, strings.NewReader(session), o)
	if rs[0].Err != nil || rs[0].Entries != 2002 || len(rs[0].Findings) != 1 {
		t.Fatalf("first stdin: %+v", rs[0])
	}
	for _, r := range rs[1:] {
		if !errors.Is(r.Err, ErrStdinTwice) {
			t.Fatalf("second stdin: %+v", r)
		}
	}
}

// TestOddBlockDoesNotHideCalls: one toolCall with a numeric id (or no name,
// or string arguments) on a line must not hide the line's other calls.
func TestOddBlockDoesNotHideCalls(t *testing.T) {
	line := `{"role":"assistant","content":[` +
		`{"type":"toolCall","id":123,"name":"bash","arguments":{"command":"ls"}},` +
		`{"type":"toolCall","id":"c2","name":"read","arguments":{"path":".env"}},` +
		`{"type":"toolCall","id":"c3","name":"bash","arguments":"{\"command\":\"cat ~/.pi/agent/auth.json\"}"},` +
		`{"type":"toolCall","id":"c4","arguments":{"path":"x"}},` +
		`{"type":"toolCall","id":"c5","name":"read","arguments":[1]}` +
		`],"stopReason":"toolUse","timestamp":1}`
	r := run(t, hdr, entry("a", "", line), entry("b", "a", result("123", "bash")))
	var got []string
	for _, f := range r.Findings {
		got = append(got, string(f.Kind)+":"+f.ToolCallID+":"+f.Rule)
	}
	want := []string{"protected-path:c2:.env", "protected-path:c3:~/.pi/agent/auth.json", "unreadable-call:c4:", "unreadable-call:c5:", "orphan-tool-result:123:"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("findings %v, want %v", got, want)
	}
	// a numeric id is not the string id of the result (pi compares them
	// with ===): the result is an orphan, as pi sees it
}

// TestDeepArguments: a line nested deeper than JSON decoders go is read
// (as pi reads it); a call whose arguments cannot be decoded is reported,
// never skipped.
func TestDeepArguments(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	line := `{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls","x":` + deep + `}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":".env"}}],"timestamp":1}`
	r := run(t, hdr, entry("a", "", line))
	var got []string
	for _, f := range r.Findings {
		got = append(got, string(f.Kind)+":"+f.ToolCallID)
	}
	if strings.Join(got, " ") != "unreadable-call:c1 protected-path:c2" || !strings.Contains(r.Findings[0].Message, "nested deeper") {
		t.Fatalf("%v %+v", got, r.Findings)
	}
}

// TestLinesNowAccepts: a routing field of an odd type (a numeric id, a
// null cwd) does not make a line "not valid JSON".
func TestLinesNowAccepts(t *testing.T) {
	r := run(t, `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":null}`,
		`{"type":"message","id":7,"parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"/p/.env"}}],"timestamp":1}}`)
	if len(r.Findings) != 1 || r.Findings[0].Kind != KindProtectedPath || r.Entries != 2 {
		t.Fatalf("%+v", r.Findings)
	}
}

// TestOutcomes: attempt versus leak, told apart by the call's result.
func TestOutcomes(t *testing.T) {
	res := func(id, tool string, isErr bool, text string) string {
		e := "false"
		if isErr {
			e = "true"
		}
		c := `[]`
		if text != "" {
			b, _ := json.Marshal(text)
			c = `[{"type":"text","text":` + string(b) + `}]`
		}
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"` + tool + `","content":` + c + `,"isError":` + e + `,"timestamp":2}`
	}
	cases := []struct {
		name, tool, args, result string
		want                     Outcome
		level                    string
	}{
		{"blocked by pruner", "read", `{"path":".env"}`, res("c", "read", true, `pruner protected-paths: read of protected path ".env" …`), OutcomeAttempt, LevelNote},
		{"blocked by pikit", "bash", `{"command":"cat .env"}`, res("c", "bash", true, `[protected-paths] Bash command references protected path ".env" (bash denied).`), OutcomeAttempt, LevelNote},
		{"blocked, pi's default text", "bash", `{"command":"cat .env"}`, res("c", "bash", true, "Tool execution was blocked"), OutcomeAttempt, LevelNote},
		{"error without content", "bash", `{"command":"cat .env"}`, res("c", "bash", true, ""), OutcomeAttempt, LevelNote},
		{"file tool error", "read", `{"path":".env"}`, res("c", "read", true, "ENOENT: no such file or directory"), OutcomeAttempt, LevelNote},
		{"read returned content", "read", `{"path":".env"}`, res("c", "read", false, "API_KEY=sk-123"), OutcomeLeak, LevelError},
		{"bash error with output", "bash", `{"command":"cat .env; false"}`, res("c", "bash", true, "API_KEY=sk-123\nCommand exited with code 1"), OutcomeLeak, LevelError},
		{"write went through", "write", `{"path":"node_modules/x.js","content":"x"}`, res("c", "write", false, "Successfully wrote 1 bytes"), OutcomeWritten, LevelError},
		{"edit went through", "edit", `{"path":"node_modules/x.js","oldText":"a","newText":"b"}`, res("c", "edit", false, "Successfully replaced text"), OutcomeWritten, LevelError},
		{"shell write that printed nothing", "bash", `{"command":"cp evil.ts node_modules/x.js"}`, res("c", "bash", false, ""), OutcomeWritten, LevelError},
		{"shell write that failed silently", "bash", `{"command":"cp evil.ts node_modules/x.js"}`, res("c", "bash", true, ""), OutcomeAttempt, LevelNote},
		{"empty output", "bash", `{"command":"cat .env"}`, res("c", "bash", false, ""), OutcomeRan, LevelError},
		{"folder read naming a protected file", "bash", `{"command":"grep -r KEY ."}`, res("c", "bash", false, "./.env:KEY=1\n./src/a.go:KEY"), OutcomeLeak, LevelError},
		{"folder read naming none", "bash", `{"command":"grep -r KEY ."}`, res("c", "bash", false, "./src/a.go:KEY"), OutcomeRan, LevelWarning},
		{"unverifiable that ran", "bash", `{"command":"cat $(cat list)"}`, res("c", "bash", false, "something"), OutcomeRan, LevelWarning},
		{"unverifiable blocked", "bash", `{"command":"cat $(cat list)"}`, res("c", "bash", true, "pruner protected-paths: bash call cannot be verified"), OutcomeAttempt, LevelNote},
		{"no result", "read", `{"path":".env"}`, "", OutcomeNoResult, LevelError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := []string{hdr, entry("a", "", call("c", c.tool, c.args))}
			if c.result != "" {
				lines = append(lines, entry("b", "a", c.result))
			}
			r := run(t, lines...)
			if len(r.Findings) == 0 {
				t.Fatal("no finding")
			}
			f := r.Findings[0]
			if f.Outcome != c.want || f.Level != c.level {
				t.Fatalf("%s: outcome %q level %q, want %q %q (%s)", f.Kind, f.Outcome, f.Level, c.want, c.level, f.Message)
			}
		})
	}
}

// failingAt fails every read past off (the file went away mid-check).
type failingAt struct {
	data []byte
	off  int64
}

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.off {
		return 0, errors.New("input/output error")
	}
	return copy(p, f.data[off:]), nil
}

// TestPairingPassFailureIsReported: when the pairing pass cannot read the
// session, check says so with an error finding (it never passes silently).
func TestPairingPassFailureIsReported(t *testing.T) {
	data := []byte(strings.Join([]string{hdr, entry("a1", "", call("c1", "bash", `{"command":"ls"}`)), entry("a2", "a1", result("c1", "bash"))}, "\n") + "\n")
	res := CheckReader(bytes.NewReader(data), "s.jsonl", opts())
	if len(res.Findings) != 0 || !res.sessionHeader {
		t.Fatalf("first pass: %v", kinds(res))
	}
	addPairing(&res, failingAt{data: data, off: 10})
	if len(res.Findings) != 1 || res.Findings[0].Kind != KindPairing || res.Findings[0].Level != LevelError ||
		!strings.Contains(res.Findings[0].Message, "tool pairing not checked") || !strings.Contains(res.Findings[0].Message, "input/output error") {
		t.Fatalf("findings: %+v", res.Findings)
	}
	// a readable session: the pass runs and finds nothing
	res = CheckReader(bytes.NewReader(data), "s.jsonl", opts())
	addPairing(&res, bytes.NewReader(data))
	if len(res.Findings) != 0 {
		t.Fatalf("findings on a clean session: %+v", res.Findings)
	}
}

// TestCycleMessageInLinkOrder: the loop is named as the parentId links run
// (each id's parent next), from the entry first in the file, closed.
func TestCycleMessageInLinkOrder(t *testing.T) {
	u := `{"role":"user","content":"x","timestamp":1}`
	// file order a, b, c; links a → c → b → a
	res := run(t, hdr, entry("a", "c", u), entry("b", "a", u), entry("c", "b", u))
	var msg string
	for _, f := range res.Findings {
		if f.Kind == KindParentCycle {
			msg = f.Message
		}
	}
	if msg != "parentId chain loops: a -> c -> b -> a" {
		t.Fatalf("cycle message %q", msg)
	}
}

// TestPairingPassWithoutBranchFindsTheSame: the pairing pass, which builds
// the leaf's branch only when the context counts an older compaction in the
// last one's kept range, finds what a pass that always builds it finds, on
// every shipped session and on sessions made to hold such a compaction (one
// between a call and its result: the warning) or none.
func TestPairingPassWithoutBranchFindsTheSame(t *testing.T) {
	inputs := map[string][]byte{}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			inputs[p], err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	head := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/u/p"}` + "\n" +
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"go","timestamp":1}}` + "\n" +
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"ls","arguments":{}}],"timestamp":2}}` + "\n"
	compaction := func(id, parent, kept string) string {
		return `{"type":"compaction","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-01-01T00:00:03.000Z","summary":"S","firstKeptEntryId":"` + kept + `","tokensBefore":7}` + "\n"
	}
	tail := `{"type":"message","id":"a3","parentId":"c1","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"ls","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":4}}` + "\n" +
		compaction("c2", "a3", "a1") +
		`{"type":"message","id":"a4","parentId":"c2","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":"on","timestamp":5}}` + "\n"
	inputs["kept"] = []byte(head + compaction("c1", "a2", "a1") + tail) // c1 in c2's range, between t1 and its result
	inputs["not kept"] = []byte(strings.ReplaceAll(head+compaction("c1", "a2", "a1")+tail, `"firstKeptEntryId":"a1","tokensBefore":7}`+"\n"+`{"type":"message","id":"a4"`, `"firstKeptEntryId":"a3","tokensBefore":7}`+"\n"+`{"type":"message","id":"a4"`))
	warned, compared := 0, 0
	for p, data := range inputs {
		res := CheckReader(bytes.NewReader(data), p, opts())
		if res.Err != nil || !res.sessionHeader {
			continue
		}
		compared++
		with := res
		with.Findings = slices.Clone(res.Findings)
		addPairing(&res, bytes.NewReader(data))
		addPairingBranch(&with, bytes.NewReader(data), true)
		if !reflect.DeepEqual(res.Findings, with.Findings) {
			t.Errorf("%s: building the branch only when asked %v, always %v", p, kinds(res), kinds(with))
		}
		for _, f := range res.Findings {
			if f.Kind == KindPairing && f.Level == LevelWarning {
				warned++
				if p != "kept" {
					t.Errorf("%s: a stale-compaction warning: %s", p, f.Message)
				}
			}
		}
	}
	if compared < 20 || warned == 0 {
		t.Fatalf("%d sessions compared, %d stale-compaction warnings: want the made one's", compared, warned)
	}
}
