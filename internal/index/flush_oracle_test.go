package index

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

func readCtx(t testing.TB, data []byte) *session.Context {
	t.Helper()
	ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// scenarioFlushOptions reads the scenario's settings the way pi-condense
// would for the flush keys.
func scenarioFlushOptions(t testing.TB, dir, sessionDir, sessionID string) FlushOptions {
	var s struct {
		ContextPrune struct {
			BatchingMode     string `json:"batchingMode"`
			ChainCompression *struct {
				RollingWindow int `json:"rollingWindow"`
			} `json:"chainCompression"`
		} `json:"contextPrune"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	pred, err := protect.NewPredicate(nil, []string{"**/skills/**/*.md"})
	if err != nil {
		t.Fatal(err)
	}
	window := 3
	if cc := s.ContextPrune.ChainCompression; cc != nil {
		window = cc.RollingWindow
	}
	return FlushOptions{
		Chains: ChainOptions{Enabled: true, RollingWindow: window, RecoveryGraceTurns: 3,
			Fuse: func(cx context.Context, texts, refs []string) summarize.FuseResult {
				return summarize.Fuse(cx, texts, refs, summarize.Options{})
			}},
		Capture:      CaptureOptions{Protect: pred, RawFrom: -1},
		AgentMessage: s.ContextPrune.BatchingMode == "agent-message",
		Dedup:        true, MinBatchChars: 1000, SpillThreshold: 65536, SpillPreviewBytes: 2048,
		Spill: func(key, text string) (string, error) {
			return filepath.Join(sessionDir, sessionID+"-blobs", BlobName(key)), nil
		},
	}
}

type line struct {
	raw   []byte
	typ   string
	ctype string
}

func splitLines(data []byte) []line {
	var out []line
	for _, l := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
		typ, _ := jsval.GetString(l, "type")
		ct, _ := jsval.GetString(l, "customType")
		out = append(out, line{raw: l, typ: typ, ctype: ct})
	}
	return out
}

// comparable is an entry's data with what legitimately differs removed:
// the summary's text (a model wrote pi-condense's), a fused range summary's
// (the same), usage and times.
func comparable(t testing.TB, l line) string {
	t.Helper()
	switch l.ctype {
	case TypeChain:
		data, _ := jsval.Get(l.raw, "data")
		ms, _ := jsval.Members(data)
		var b strings.Builder
		b.WriteString(l.ctype)
		deterministic := bytes.Contains(data, []byte(`"bodySource":"deterministic"`))
		for _, m := range ms {
			v := string(jsval.Canonical(m.Value))
			switch {
			case m.Key == "compressedAt":
				v = "T"
			case m.Key == "rangeSummaryText" && !deterministic:
				v = "<fused>"
			}
			fmt.Fprintf(&b, " %s=%s", m.Key, v)
		}
		return b.String()
	case TypeSummary:
		content, _ := jsval.Get(l.raw, "content")
		text, _ := jsval.String(content)
		footer := text[strings.LastIndex(text, "\n\n---\n"):]
		details, _ := jsval.Get(l.raw, "details")
		return fmt.Sprintf("summary footer=%q details=%s", footer, jsval.Canonical(details))
	case TypeFrontier, TypeStats, TypeFlushMetrics:
		data, _ := jsval.Get(l.raw, "data")
		var m map[string]any
		json.Unmarshal(data, &m)
		for _, k := range []string{"summaryCharCount", "totalInputTokens", "totalOutputTokens", "totalCost", "callCount", "ts", "trigger", "metrics"} {
			delete(m, k)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString(l.ctype)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%v", k, m[k])
		}
		return b.String()
	}
	data, _ := jsval.Get(l.raw, "data")
	c := string(jsval.Canonical(data))
	if bytes.Contains(data, []byte(`"spillPath"`)) {
		// pi-condense spills at turn_end and stamps the record with the time
		// then; pruner's batch time is the assistant entry's
		c = spillTime.ReplaceAllString(c, `"timestamp":T`)
	}
	return l.ctype + " " + c
}

var spillTime = regexp.MustCompile(`"timestamp":\d+`)

// TestFlushMatchesPiCondense: at every point where the real pi-condense
// flushed (a run of context-prune-* entries in a recorded session), pruner's
// flush of the session as it was just before writes the same entries —
// same records, refs, aliases, frontier and counts — modulo ids, times,
// usage and the wording of summaries and fused range summaries — chain
// compression included: the chain entries, backfilled index entries and
// stats counters (pi-condense threads the final reply, not yet persisted at
// message_end, into chain detection; so does the test).
func TestFlushMatchesPiCondense(t *testing.T) {
	scenarios, _ := filepath.Glob(filepath.Join(oracleDir, "*", "settings.json"))
	if len(scenarios) == 0 {
		t.Fatal("no oracle scenarios")
	}
	runs := 0
	for _, sf := range scenarios {
		dir := filepath.Dir(sf)
		snaps, _ := filepath.Glob(filepath.Join(dir, "requests", "req-*.session.jsonl"))
		finals, _ := filepath.Glob(filepath.Join(dir, "final", "*.jsonl"))
		snaps = append(snaps, finals...)
		seen := map[string]bool{}
		for _, snap := range snaps {
			data, err := os.ReadFile(snap)
			if err != nil {
				t.Fatal(err)
			}
			lines := splitLines(data)
			for i := 0; i < len(lines); i++ {
				if !strings.HasPrefix(lines[i].ctype, "context-prune-") {
					continue
				}
				start, j := i, i
				for j < len(lines) && strings.HasPrefix(lines[j].ctype, "context-prune-") {
					j++
				}
				i = j
				run := lines[start:j]
				if len(run) == 0 || (len(run) == 1 && run[0].ctype == TypeFlushMetrics) {
					continue // an empty flush: pruner writes nothing
				}
				if seen[string(run[0].raw)] {
					continue
				}
				seen[string(run[0].raw)] = true
				runs++
				t.Run(fmt.Sprintf("%s/%s:%d", filepath.Base(dir), filepath.Base(snap), start+1), func(t *testing.T) {
					checkRun(t, dir, lines, start, run)
				})
			}
		}
	}
	if runs < 15 {
		t.Fatalf("only %d flush points found", runs)
	}
}

func checkRun(t *testing.T, dir string, lines []line, at int, run []line) {
	var pre [][]byte
	for _, l := range lines[:at] {
		pre = append(pre, l.raw)
	}
	// pi emits message_end before it persists the final reply, and
	// pi-condense threads it in for chain detection (withClosingMessage):
	// so does the test, the reply right after the run
	// (its parent, pi-condense's last entry, becomes the last line before)
	if end := at + len(run); end < len(lines) && isFinalReply(lines[end].raw) {
		parent, _ := jsval.GetString(lines[end].raw, "parentId")
		last, _ := jsval.GetString(lines[at-1].raw, "id")
		pre = append(pre, bytes.Replace(lines[end].raw, []byte(`"parentId":"`+parent+`"`), []byte(`"parentId":"`+last+`"`), 1))
	}
	data := append(bytes.Join(pre, []byte("\n")), '\n')
	ctx := readCtx(t, data)
	st, err := Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var spillPath string
	for _, l := range lines {
		if i := bytes.Index(l.raw, []byte(`"spillPath":"`)); i >= 0 {
			p := l.raw[i+13:]
			spillPath = string(p[:bytes.IndexByte(p, '"')])
		}
	}
	sessionDir := filepath.Dir(filepath.Dir(spillPath))
	o := scenarioFlushOptions(t, dir, sessionDir, ctx.Header.ID)
	spillOnly := len(run) == 1 && run[0].ctype == TypeIndex && bytes.Contains(run[0].raw, []byte(`"spillPath"`))
	// every batch pruner would send a summariser command is one pi-condense
	// sent (2.9's layout: first 2,000 chars)
	sent := summarizerRequests(t, dir)
	o.Clip = summarize.ClipHead
	o.Summarize = func(cx context.Context, bs []summarize.Batch) []summarize.Result {
		for _, b := range bs {
			if body := summarize.SerializeBatch(b, summarize.ClipHead); !sent[body] {
				t.Errorf("pruner's summariser request is not one pi-condense sent:\n%.600s", body)
			}
		}
		return summarize.Summarize(cx, bs, summarize.Options{})
	}
	f, err := Flush(context.Background(), ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.Entries {
		b, err := e.AppendLine(nil, ctx, "id", "parent", "2026-01-01T00:00:00.000Z")
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON entry: %s", b)
		}
		l := splitLines(b)[0]
		got = append(got, comparable(t, l))
		if spillOnly {
			break
		}
	}
	var want []string
	for _, l := range run {
		want = append(want, comparable(t, l))
	}
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("entry %d differs from pi-condense's\n got: %s\nwant: %s", i, short(g), short(w))
		}
	}
}

// isFinalReply reports whether a line is an assistant message without a
// toolCall block.
func isFinalReply(l []byte) bool {
	msg, ok := jsval.Get(l, "message")
	if !ok {
		return false
	}
	if role, _ := jsval.GetString(msg, "role"); role != "assistant" {
		return false
	}
	content, _ := jsval.Get(msg, "content")
	return !bytes.Contains(content, []byte(`"type":"toolCall"`))
}

// short clips a long string around its first difference-prone part.
func short(s string) string {
	if len(s) <= 600 {
		return s
	}
	return s[:300] + " … " + s[len(s)-300:]
}

// summarizerRequests are the <tool-call-batch> bodies of every summariser
// request the real pi-condense sent in a scenario.
func summarizerRequests(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "requests", "req-*.json.gz"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		err = json.NewDecoder(zr).Decode(&body)
		fh.Close()
		if err != nil || len(body.Messages) != 1 {
			continue
		}
		var blocks []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(body.Messages[0].Content, &blocks) != nil || len(blocks) == 0 {
			continue
		}
		text := blocks[0].Text
		i := strings.Index(text, "\n\n<tool-call-batch>\n")
		if i < 0 || !strings.HasSuffix(text, "\n</tool-call-batch>") {
			continue
		}
		out[text[i+len("\n\n<tool-call-batch>\n"):len(text)-len("\n</tool-call-batch>")]] = true
	}
	return out
}
