package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// runMain runs pruner with args in-process, with an empty agent dir.
func runMain(t *testing.T, env map[string]string, stdin []byte, args ...string) ([]byte, []byte, int) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	vars := map[string]string{"HOME": dir, "PI_CODING_AGENT_DIR": dir}
	for k, v := range env {
		vars[k] = v
	}
	s := &IOStreams{In: bytes.NewReader(stdin), Out: &out, ErrOut: &errb, Getenv: func(k string) string { return vars[k] }}
	code := Main(args, s, BuildInfo{Version: "test"})
	return out.Bytes(), errb.Bytes(), code
}

// statsSessions are the sessions of testdata: the shipped ones, the
// bug-report cases and the pi-condense oracle's final sessions.
func statsSessions(t *testing.T) []string {
	var out []string
	for _, g := range []string{"sessions/*.jsonl", "cases/*/session.jsonl", "condense-oracle/*/final/*.jsonl"} {
		m, _ := filepath.Glob(filepath.Join("../../testdata", g))
		out = append(out, m...)
	}
	if len(out) < 15 {
		t.Fatalf("only %d sessions", len(out))
	}
	return out
}

func splitLines(b []byte) [][]byte {
	ls := bytes.Split(b, []byte("\n"))
	if n := len(ls); n > 0 && len(ls[n-1]) == 0 {
		ls = ls[:n-1]
	}
	return ls
}

func modelChars(ls [][]byte) int64 {
	var n int64
	for _, l := range ls {
		n += int64(session.ModelChars(l))
	}
	return n
}

// statsDocJSON is the part of `stats --json` the tests read.
type statsDocJSON struct {
	SchemaVersion int `json:"schemaVersion"`
	Sessions      []struct {
		Input      string                      `json:"input"`
		Total      map[string]int64            `json:"total"`
		Strategies map[string]map[string]int64 `json:"strategies"`
		Tools      map[string]map[string]any   `json:"tools"`
		Cache      map[string]*struct {
			FirstChanged     int   `json:"firstChangedMessage"`
			FirstChangedByte int64 `json:"firstChangedByte"`
			Reused           bool  `json:"reused"`
			CachedMessages   int   `json:"cachedMessages"`
		} `json:"cache"`
	} `json:"sessions"`
	Errors []struct {
		Input string `json:"input"`
		Error string `json:"error"`
	} `json:"errors"`
	Total struct {
		Sessions   int   `json:"sessions"`
		CharsAfter int64 `json:"charsAfter"`
	} `json:"total"`
}

func statsSchema(t *testing.T) *jsonschema.Schema { return loadSchema(t, "stats.schema.json") }

// loadSchema compiles docs/NAME.
func loadSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("stats --json does not validate against docs/stats.schema.json: %v", err)
	}
}

// TestStatsMatchesNow runs `pruner stats --json` over every session in
// testdata under several flag sets and checks each session against the
// real `pruner now` and `pruner context` commands: the strategies' after
// chars sum to the chars of now's output messages and their before chars
// to context's (and the messages to their lines), the totals are those of
// `now --stats-json`, and the unpruned cache break is the first line where
// context and now differ. The document validates against the published
// schema. Besides testdata's sessions it runs on a generated one whose
// large result (≥ spillThreshold) the flush spills.
func TestStatsMatchesNow(t *testing.T) {
	sch := statsSchema(t)
	all := append(statsSessions(t), writeSpillSession(t, t.TempDir(), 8, 70<<10))
	for i, flags := range [][]string{nil, {"--no-flush"}, {"--no-mask"}, {"--recent-turns", "1", "--max-chars", "500"}} {
		paths := all
		if i > 0 {
			// the large sessions under the defaults only (time)
			paths = nil
			for _, p := range all {
				if st, err := os.Stat(p); err == nil && st.Size() < 500<<10 {
					paths = append(paths, p)
				}
			}
		}
		t.Run(strings.Join(append([]string{"flags"}, flags...), " "), func(t *testing.T) {
			out, errOut, code := runMain(t, nil, nil, append(append([]string{"stats", "--json"}, flags...), paths...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			validate(t, sch, out)
			var doc statsDocJSON
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.SchemaVersion != 1 || len(doc.Sessions) != len(paths) || doc.Total.Sessions != len(paths) {
				t.Fatalf("schema %d, %d sessions of %d", doc.SchemaVersion, len(doc.Sessions), len(paths))
			}
			var sumAfter int64
			for i, p := range paths {
				s := doc.Sessions[i]
				if s.Input != p {
					t.Fatalf("session %d is %s, want %s", i, s.Input, p)
				}
				now, nowStats, code := runMain(t, nil, nil, append(append([]string{"now", "--stats-json"}, flags...), p)...)
				if code != 0 {
					t.Fatalf("now %s: exit %d", p, code)
				}
				ctx, _, code := runMain(t, nil, nil, "context", "-q", p)
				if code != 0 {
					t.Fatalf("context %s: exit %d", p, code)
				}
				var ns struct{ CharsBefore, CharsAfter, TokensBefore, TokensAfter int64 }
				if err := json.Unmarshal(lastLine(nowStats), &ns); err != nil {
					t.Fatalf("now --stats-json %s: %v: %s", p, err, nowStats)
				}
				nl, cl := splitLines(now), splitLines(ctx)
				var before, after, msgsBefore, msgsAfter int64
				for _, v := range s.Strategies {
					before += v["charsBefore"]
					after += v["charsAfter"]
					msgsBefore += v["messagesBefore"]
					msgsAfter += v["messagesAfter"]
				}
				if after != modelChars(nl) || before != modelChars(cl) || msgsAfter != int64(len(nl)) || msgsBefore != int64(len(cl)) {
					t.Fatalf("%s: strategies sum to %d → %d chars, %d → %d messages; context and now have %d → %d chars, %d → %d lines",
						p, before, after, msgsBefore, msgsAfter, modelChars(cl), modelChars(nl), len(cl), len(nl))
				}
				if s.Total["charsBefore"] != ns.CharsBefore || s.Total["charsAfter"] != ns.CharsAfter ||
					s.Total["tokensBefore"] != ns.TokensBefore || s.Total["tokensAfter"] != ns.TokensAfter {
					t.Fatalf("%s: total %v; now --stats-json %+v", p, s.Total, ns)
				}
				k, off := -1, int64(-1)
				var at int64
				for j := 0; j < max(len(nl), len(cl)); j++ {
					if j >= len(nl) || j >= len(cl) || !bytes.Equal(nl[j], cl[j]) {
						k, off = j, at
						break
					}
					at += int64(len(nl[j])) + 1
				}
				u := s.Cache["unpruned"]
				if u.FirstChanged != k || u.FirstChangedByte != off {
					t.Fatalf("%s: unpruned break at %d (byte %d); context and now differ first at line %d (byte %d)", p, u.FirstChanged, u.FirstChangedByte, k, off)
				}
				sumAfter += after
			}
			if doc.Total.CharsAfter != sumAfter {
				t.Fatalf("total after %d, sessions sum to %d", doc.Total.CharsAfter, sumAfter)
			}
		})
	}
}

func lastLine(b []byte) []byte {
	ls := splitLines(b)
	if len(ls) == 0 {
		return nil
	}
	return ls[len(ls)-1]
}

// TestStatsChartColor: colour only on a terminal, never with NO_COLOR or
// a dumb terminal; the chart's glyphs are there either way.
func TestStatsChartColor(t *testing.T) {
	p := "../../testdata/sessions/pi-1.6.0-rpc-scenario.jsonl"
	for _, c := range []struct {
		tty   bool
		env   map[string]string
		color bool
	}{
		{false, nil, false},
		{true, nil, true},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"TERM": "dumb"}, false},
	} {
		var out, errb bytes.Buffer
		s := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errb, OutIsTerminal: c.tty,
			Getenv: func(k string) string { return c.env[k] }}
		if code := Main([]string{"stats", p}, s, BuildInfo{}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if got := strings.Contains(out.String(), "\x1b["); got != c.color {
			t.Errorf("tty %v env %v: colour %v, want %v", c.tty, c.env, got, c.color)
		}
		if !strings.Contains(out.String(), "█") || !strings.Contains(out.String(), "░") {
			t.Errorf("no chart:\n%s", out.String())
		}
	}
}

// TestStatsSummaryCache: with summarizerCmd set, stats runs no command and
// writes nothing. Before `now` ran the command, the flush's summaries are
// deterministic stand-ins (counted); once `now` has run it (and cached its
// summaries), stats measures exactly what `now` prints.
func TestStatsSummaryCache(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	env := map[string]string{"XDG_CACHE_HOME": cache} // the cache dir, through the injected environment
	marker := filepath.Join(dir, "ran")
	// one bullet per [[N:tool]] label of the request: a valid summary
	cmd := `touch ` + marker + `; grep -o '^\[\[[0-9]*:[a-z_]*\]\]' | sed 's/^/- /; s/$/ was run/'`
	settings := filepath.Join(dir, "settings.json")
	b, _ := json.Marshal(map[string]any{"contextPrune": map[string]any{"summarizerCmd": cmd}})
	if err := os.WriteFile(settings, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p := "../../testdata/cases/002-reused-tool-call-ids/session.jsonl"
	stats := func() (int, int64) {
		t.Helper()
		out, errOut, code := runMain(t, env, nil, "stats", "--json", "--config", settings, p)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("stats ran the summariser command")
		}
		var doc struct {
			Sessions []struct {
				SummariesEstimated int              `json:"summariesEstimated"`
				Total              map[string]int64 `json:"total"`
			} `json:"sessions"`
		}
		if err := json.Unmarshal(out, &doc); err != nil || len(doc.Sessions) != 1 {
			t.Fatal(err, string(out))
		}
		return doc.Sessions[0].SummariesEstimated, doc.Sessions[0].Total["charsAfter"]
	}
	est, _ := stats()
	if est == 0 {
		t.Fatal("no summary counted as estimated")
	}
	if _, err := os.Stat(cache); err == nil {
		t.Fatal("stats wrote the summary cache")
	}
	text, _, _ := runMain(t, env, nil, "stats", "--config", settings, p)
	if !bytes.Contains(text, []byte("deterministic stand-ins")) {
		t.Fatalf("no note on estimated summaries:\n%s", text)
	}

	now, errOut, code := runMain(t, env, nil, "now", "-q", "--config", settings, p)
	if code != 0 || bytes.Contains(errOut, []byte("warning")) {
		t.Fatalf("now with the summariser: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("now did not run the summariser command")
	}
	if !bytes.Contains(now, []byte(" was run")) {
		t.Fatal("now's output holds no summary the command wrote")
	}
	os.Remove(marker)
	est, after := stats()
	if est != 0 || after != modelChars(splitLines(now)) {
		t.Fatalf("after now: %d estimated, %d chars after; now printed %d chars", est, after, modelChars(splitLines(now)))
	}
}
