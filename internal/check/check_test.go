package check

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
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
	return Options{Rules: protect.DefaultRules(), Home: "/home/user", HomeFixed: true, Workers: 2}
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
	want := "s.jsonl:2: protected-path: read of protected path \".env\" (/home/user/proj/.env) denied by rule \".env\" (deny read) [entry a call c1]\n" +
		"s.jsonl:3: joined-lines: two JSON objects joined on one line (7 + 7 bytes); pi drops both\n"
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
	if len(run.Tool.Driver.Rules) != len(Kinds) || len(run.Results) != 2 {
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
