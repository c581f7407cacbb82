package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// refRE finds the tN refs of a pruned context (stubs, summaries, chains).
var refRE = regexp.MustCompile("ref `(t[0-9]+)`|tools=\\\\\"([t0-9,]+)\\\\\"")

// TestSessionEqualsWriteWithSpills: on every session of testdata, with a
// spillThreshold low enough that results spill, `now --session` prints
// exactly the bytes `now --write` writes (the blobs it names included: the
// marker lists them), the context is the same before and after --write,
// every blob the context names exists after --write (and none before), and
// every tN ref the context prints resolves with query after --write.
func TestSessionEqualsWriteWithSpills(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"contextPrune":{"recentTurnsToKeep":1,"spillThreshold":2000}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	spilled := 0
	for _, src := range statsSessions(t) {
		if st, err := os.Stat(src); err != nil || st.Size() > 1<<20 {
			continue // the large ones add time, not cases
		}
		t.Run(filepath.Base(filepath.Dir(src))+"/"+filepath.Base(src), func(t *testing.T) {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			p := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) []byte {
				t.Helper()
				out, errOut, code := runMain(t, nil, nil, append([]string{"--config", settings}, args...)...)
				if code != 0 {
					t.Fatalf("pruner %v: exit %d: %s", args, code, errOut)
				}
				return out
			}
			session := run("now", "-q", "--session", p)
			ctx := run("now", "-q", p)
			blobsBefore, _ := filepath.Glob(filepath.Join(dir, "*-blobs", "*"))
			if len(blobsBefore) > 0 {
				t.Fatalf("now without --write wrote blobs: %v", blobsBefore)
			}
			_, errOut, code := runMain(t, nil, nil, "--config", settings, "now", "-q", "--write", p)
			if code != 0 {
				// a session --write refuses: --session printed it as it is
				if !bytes.Contains(errOut, []byte("nothing written")) || !bytes.Equal(session, data) {
					t.Fatalf("--write: exit %d: %s", code, errOut)
				}
				return
			}
			written, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(written, session) {
				t.Fatalf("--write wrote %d bytes, --session printed %d: they differ", len(written), len(session))
			}
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			if after := run("now", "-q", p); !bytes.Equal(after, ctx) {
				t.Fatal("the context after --write differs from the context before it")
			}
			// the blobs the marker lists are the ones written
			var listed []string
			for _, l := range splitLines(written[len(data):]) {
				var e struct {
					CustomType string `json:"customType"`
					Data       struct {
						Blobs []string `json:"blobs"`
					} `json:"data"`
				}
				if json.Unmarshal(l, &e) == nil && e.CustomType == "pruner-write" {
					listed = append(listed, e.Data.Blobs...)
				}
			}
			blobsAfter, _ := filepath.Glob(filepath.Join(dir, "*-blobs", "*"))
			sort.Strings(listed)
			if len(listed) != len(blobsAfter) {
				t.Fatalf("the marker lists %d blobs, %d written", len(listed), len(blobsAfter))
			}
			for i := range listed {
				if real, _ := filepath.EvalSymlinks(blobsAfter[i]); listed[i] != real && listed[i] != blobsAfter[i] {
					t.Errorf("listed %s, written %s", listed[i], blobsAfter[i])
				}
			}
			spilled += len(blobsAfter)
			refs := map[string]bool{}
			for _, m := range refRE.FindAllSubmatch(ctx, -1) {
				for _, g := range m[1:] {
					for _, r := range bytes.Split(g, []byte(",")) {
						if len(r) > 0 {
							refs[string(r)] = true
						}
					}
				}
			}
			names := make([]string, 0, len(refs))
			for r := range refs {
				names = append(names, r)
			}
			sort.Strings(names)
			if len(names) > 0 {
				out := run(append(append([]string{"query", "--json", "--no-flush"}, names...), p)...)
				var doc struct {
					Blocks []struct {
						Query string `json:"query"`
						Found bool   `json:"found"`
					} `json:"blocks"`
				}
				if err := json.Unmarshal(out, &doc); err != nil {
					t.Fatal(err)
				}
				for _, b := range doc.Blocks {
					if !b.Found {
						t.Errorf("ref %s of the context does not resolve after --write", b.Query)
					}
				}
			}
		})
	}
	if spilled == 0 {
		t.Fatal("no session spilled: the property was not exercised")
	}
}

// TestNowStatsJSONSchema: `now --stats-json` has one shape
// (docs/now-stats.schema.json: every field required, none other) whatever
// ran — masking alone, the index render, a flush, pruning off, a context —
// on every session of testdata.
func TestNowStatsJSONSchema(t *testing.T) {
	sch := loadSchema(t, "now-stats.schema.json")
	nochains := filepath.Join(t.TempDir(), "nochains.json")
	if err := os.WriteFile(nochains, []byte(`{"contextPrune":{"chainCompression":{"enabled":false}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		env  map[string]string
		args []string
	}{
		{nil, nil},
		{nil, []string{"--no-flush"}},
		{nil, []string{"--no-mask"}},
		{nil, []string{"--no-flush", "--no-mask"}},
		{nil, []string{"--no-prune"}},
		{nil, []string{"--config", nochains}},
		{nil, []string{"--recent-turns", "1", "--max-chars", "100"}},
		{map[string]string{"PRUNER_PRUNING": "off"}, nil},
	}
	for _, p := range statsSessions(t) {
		if st, err := os.Stat(p); err != nil || st.Size() > 1<<20 {
			continue
		}
		for _, r := range runs {
			_, errOut, code := runMain(t, r.env, nil, append(append([]string{"now", "-q", "--stats-json"}, r.args...), p)...)
			if code != 0 {
				t.Fatalf("now --stats-json %v %s: exit %d: %s", r.args, p, code, errOut)
			}
			statsJSONAlone(t, sch, errOut)
		}
	}
	// a context on stdin (masked only)
	ctx, _, _ := runMain(t, nil, nil, "context", "-q", "../../testdata/sessions/pi-1.6.0-rpc-scenario.jsonl")
	_, errOut, code := runMain(t, nil, ctx, "now", "--stats-json", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	statsJSONAlone(t, sch, errOut)
}

// statsJSONAlone checks that stderr is --stats-json's object alone, one
// line valid against the schema, and returns its log.
func statsJSONAlone(t *testing.T, sch *jsonschema.Schema, errOut []byte) []string {
	t.Helper()
	if ls := splitLines(errOut); len(ls) != 1 {
		t.Fatalf("--stats-json: stderr has %d lines, want the JSON object alone:\n%s", len(ls), errOut)
	}
	validate(t, sch, errOut)
	var ns struct {
		Warnings int      `json:"warnings"`
		Log      []string `json:"log"`
	}
	if err := json.Unmarshal(errOut, &ns); err != nil {
		t.Fatal(err)
	}
	return ns.Log
}

// TestNowStatsJSONAlone: with --stats-json, the warnings, notes and hints a
// run prints go into the object's log, so `2>stats.json` is one valid
// JSON object; a run that fails prints them as text, then its error.
func TestNowStatsJSONAlone(t *testing.T) {
	sch := loadSchema(t, "now-stats.schema.json")
	dir := t.TempDir()
	p := writeSpillSession(t, dir, 6, 70<<10)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// a line that is not JSON, and a UTF-8 BOM on a later line: warnings
	// (and the BOM's hint)
	bad := filepath.Join(dir, "warned.jsonl")
	if err := os.WriteFile(bad, append(append(b, "not json at all\n"...), "\xEF\xBB\xBF{\"type\":\"label\"}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, text, code := runMain(t, nil, nil, "now", bad)
	if code != 0 || !bytes.Contains(text, []byte("warning:")) {
		t.Fatalf("now without --stats-json: exit %d, no warning on stderr:\n%s", code, text)
	}
	// what stderr says without it, but the summary (the flush's line and
	// the last), which the object replaces
	var wantLog []string
	all := logLines(string(text))
	for _, l := range all[:len(all)-1] {
		if !strings.HasPrefix(l, "pruner: flush: ") {
			wantLog = append(wantLog, l)
		}
	}
	for _, args := range [][]string{{bad}, {"-q", bad}, {"--no-flush", bad}, {"-"}} {
		var stdin []byte
		if args[0] == "-" {
			stdin = append(b, "not json at all\n"...)
		}
		_, errOut, code := runMain(t, nil, stdin, append([]string{"now", "--stats-json"}, args...)...)
		if code != 0 {
			t.Fatalf("now --stats-json %v: exit %d: %s", args, code, errOut)
		}
		log := statsJSONAlone(t, sch, errOut)
		if len(log) == 0 || !strings.Contains(strings.Join(log, "\n"), "warning:") {
			t.Errorf("now --stats-json %v: the warnings are not in the log: %q", args, log)
		}
		if len(args) == 1 && args[0] == bad && strings.Join(log, "\n") != strings.Join(wantLog, "\n") {
			t.Errorf("now --stats-json %v: log\n%q\nwant what stderr says without it\n%q", args, log, wantLog)
		}
	}
	// a failure: the text, then the error; no object
	_, errOut, code := runMain(t, nil, nil, "now", "--stats-json", filepath.Join(dir, "missing.jsonl"))
	if code != ExitError || !bytes.Contains(errOut, []byte("missing.jsonl: no such file")) || bytes.Contains(errOut, []byte("{")) {
		t.Errorf("now --stats-json missing.jsonl: exit %d: %s", code, errOut)
	}
	// --session prints no object: its stderr text is as without the flag
	_, plain, _ := runMain(t, nil, nil, "now", "--session", bad)
	_, withFlag, code := runMain(t, nil, nil, "now", "--session", "--stats-json", bad)
	if code != 0 || !bytes.Equal(plain, withFlag) {
		t.Errorf("now --session --stats-json: exit %d, stderr\n%s\nwant\n%s", code, withFlag, plain)
	}
}

// failWriter fails every write (a full disk, a closed pipe).
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorsFail: every command that prints data exits 2 when its
// output cannot be written, never 0 with a cut output.
func TestWriteErrorsFail(t *testing.T) {
	s := "../../testdata/cases/002-reused-tool-call-ids/session.jsonl"
	for _, args := range [][]string{
		{"now", "-q", s},
		{"now", "-q", "--session", s},
		{"context", "-q", s},
		{"query", "t1", s},
		{"query", "--json", "t1", s},
		{"query", "--entry", "ccce329e", s},
		{"config"},
		{"config", "--json"},
		{"version"},
		{"stats", s},
	} {
		var errb bytes.Buffer
		dir := t.TempDir()
		vars := map[string]string{"HOME": dir, "PI_CODING_AGENT_DIR": dir}
		io := &IOStreams{In: bytes.NewReader(nil), Out: failWriter{}, ErrOut: &errb, Getenv: func(k string) string { return vars[k] }}
		if code := Main(args, io, BuildInfo{Version: "test"}); code != ExitError {
			t.Errorf("pruner %v with a failing stdout: exit %d, want %d (%s)", args, code, ExitError, errb.String())
		}
	}
}
