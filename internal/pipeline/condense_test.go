package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/config"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
)

// scenarioOptions are the options `pruner now --config <scenario
// settings>` gets.
func scenarioOptions(t *testing.T, dir string) Options {
	t.Helper()
	c, err := config.Load(config.Options{ConfigFile: filepath.Join(dir, "settings.json"), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	o, err := FromConfig(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestGiveBackToPiCondense: at every point where the real pi-condense
// flushed (a run of context-prune-* entries in a recorded session), pruner
// flushes the session as it was just before and writes it (`now --write`:
// marker, entries, context edits); the lines pi wrote after pi-condense's
// flush are then appended, and the result is rendered as pi-condense renders
// a session (`now --no-flush --no-mask`): the context equals what the real
// pi-condense handed pi for that request, byte for byte, but for the
// summaries' wording (a model wrote pi-condense's). pi-condense started on
// a session pruner flushed rebuilds the same refs and renders the same stubs.
func TestGiveBackToPiCondense(t *testing.T) {
	scenarios, _ := filepath.Glob(filepath.Join(testdata, "condense-oracle", "*", "settings.json"))
	checked := 0
	for _, sf := range scenarios {
		dir := filepath.Dir(sf)
		snaps, _ := filepath.Glob(filepath.Join(dir, "requests", "req-*.session.jsonl"))
		for _, snap := range snaps {
			want, err := os.ReadFile(strings.TrimSuffix(snap, ".session.jsonl") + ".context.jsonl")
			if err != nil {
				continue
			}
			data, err := os.ReadFile(snap)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(data, []byte("\n"))
			start, end := lastRun(lines)
			if start < 0 {
				continue
			}
			run := lines[start:end]
			if skipRun(run) {
				continue
			}
			checked++
			t.Run(fmt.Sprintf("%s/%s", filepath.Base(dir), filepath.Base(snap)), func(t *testing.T) {
				o := scenarioOptions(t, dir)
				before := bytes.Join(lines[:start], nil)
				after := bytes.Join(lines[end:], nil)
				var written []byte
				if hasChain(run) && end < len(lines) && isFinalReply(lines[end]) {
					// pi-condense compressed at message_end, the final reply
					// threaded in but not yet persisted: pruner flushes the
					// session with the reply, whose line then moves after
					// pruner's entries, where pi wrote it
					written = flushWithClosing(t, before, lines[end], o)
					after = bytes.Join(lines[end+1:], nil)
				} else {
					var leaf string
					written, leaf = flushAndWrite(t, before, o)
					// pi appends its next entry as a child of the leaf: pruner's last
					if len(after) > 0 {
						old, _ := getString(after[:bytes.IndexByte(after, '\n')+1], "parentId")
						after = bytes.Replace(after, []byte(`"parentId":"`+old+`"`), []byte(`"parentId":"`+leaf+`"`), 1)
					}
				}
				rendered := renderOnly(t, append(written, after...), o)
				got, exp := strings.Split(normalize(withoutSystem(rendered)), "\n"), strings.Split(normalize(withoutSystem(want)), "\n")
				for i := range max(len(got), len(exp)) {
					g, w := "(none)", "(none)"
					if i < len(got) {
						g = got[i]
					}
					if i < len(exp) {
						w = exp[i]
					}
					if g != w {
						t.Fatalf("message %d of the render of the pruner-written session differs from what pi-condense sent\n got: %.600s\nwant: %.600s", i+1, g, w)
					}
				}
			})
		}
	}
	if checked < 10 {
		t.Fatalf("only %d flush points checked", checked)
	}
}

// lastRun finds the last run of context-prune-* lines in a session.
func lastRun(lines [][]byte) (int, int) {
	start, end := -1, -1
	for i := 0; i < len(lines); i++ {
		if ct, _ := getString(lines[i], "customType"); strings.HasPrefix(ct, "context-prune-") {
			j := i
			for j < len(lines) {
				if ct, _ := getString(lines[j], "customType"); !strings.HasPrefix(ct, "context-prune-") {
					break
				}
				j++
			}
			start, end, i = i, j, j
		}
	}
	return start, end
}

// skipRun: runs pruner's flush does not reproduce — an eager spill at
// turn_end alone (pruner spills and summarises the turn in one flush), an
// empty flush (pruner writes nothing).
func skipRun(run [][]byte) bool {
	summaries := 0
	for _, l := range run {
		ct, _ := getString(l, "customType")
		switch {
		case ct == index.TypeSummary, ct == index.TypeDedupAlias:
			summaries++
		}
	}
	return summaries == 0
}

func hasChain(run [][]byte) bool {
	for _, l := range run {
		if ct, _ := getString(l, "customType"); ct == index.TypeChain {
			return true
		}
	}
	return false
}

// isFinalReply reports whether a line is an assistant message without a
// toolCall block.
func isFinalReply(l []byte) bool {
	msg, ok := jsval.Get(bytes.TrimSpace(l), "message")
	if !ok {
		return false
	}
	if role, _ := getString(msg, "role"); role != "assistant" {
		return false
	}
	content, _ := jsval.Get(msg, "content")
	return !bytes.Contains(content, []byte(`"type":"toolCall"`))
}

// flushWithClosing is flushAndWrite of before plus the closing reply (its
// parent re-pointed to before's last entry), rearranged as pi would have
// the file: before, pruner's lines, then the reply as a child of pruner's
// last entry.
func flushWithClosing(t *testing.T, before, closing []byte, o Options) []byte {
	t.Helper()
	lastLine := before[bytes.LastIndexByte(before[:len(before)-1], '\n')+1:]
	last, _ := getString(lastLine, "id")
	cid, _ := getString(closing, "id")
	parent, _ := getString(closing, "parentId")
	closing = bytes.Replace(closing, []byte(`"parentId":"`+parent+`"`), []byte(`"parentId":"`+last+`"`), 1)
	in := append(append([]byte(nil), before...), closing...)
	written, leaf := flushAndWrite(t, in, o)
	mine := bytes.Replace(written[len(in):], []byte(`"parentId":"`+cid+`"`), []byte(`"parentId":"`+last+`"`), 1)
	closing = bytes.Replace(closing, []byte(`"parentId":"`+last+`"`), []byte(`"parentId":"`+leaf+`"`), 1)
	out := append(append([]byte(nil), before...), mine...)
	return append(out, closing...)
}

func getString(l []byte, key string) (string, bool) {
	v, ok := jsval.Get(bytes.TrimSpace(l), key)
	if !ok {
		return "", false
	}
	return jsval.String(v)
}

// flushAndWrite is `pruner now --write` with no raw window (pi-condense
// flushes every completed call at the end of a turn) and no masking.
func flushAndWrite(t *testing.T, data []byte, o Options) ([]byte, string) {
	t.Helper()
	o.Prune.RecentTurns, o.Mask = 0, false
	ctx := read(t, data)
	r, err := Run(context.Background(), ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Flushed == nil || !r.Flushed.Changes() {
		t.Fatalf("pruner's flush found nothing (%v)", r.FlushSkipped)
	}
	a, err := r.Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	info, err := r.WriteSession(&out, bytes.NewReader(data), ctx.Bytes, a)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Verify(bytes.NewReader(out.Bytes()), int64(out.Len()), info, a); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), a.IDs[len(a.IDs)-1]
}

// renderOnly is `pruner now --no-flush --no-mask`.
func renderOnly(t *testing.T, data []byte, o Options) []byte {
	t.Helper()
	o.Flush, o.Mask, o.ForceRender = false, false, true
	r, err := Run(context.Background(), read(t, data), o)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := r.writeContext(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// withoutSystem drops pi 1.x system messages (not part of pi's context
// event).
func withoutSystem(b []byte) []byte {
	var out [][]byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if role, _ := getString(l, "role"); role == "system" || len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		out = append(out, l)
	}
	return bytes.Join(out, nil)
}

var summaryContent = regexp.MustCompile(`("customType":"context-prune-summary","content":)"(?:[^"\\]|\\.)*?(\\n\\n---\\n\*\*Summarized tool refs\*\*:[^"]*)"`)

var summaryTime = regexp.MustCompile(`(?m)^(\{"role":"custom","customType":"context-prune-summary",.*,"timestamp":)\d+\}$`)

// normalize replaces every summary's wording (before its refs footer),
// which a model wrote for pi-condense, and its entry time (pi-condense's
// clock; pruner's is the leaf's) by placeholders; so for a compressed
// chain's body (a fused range summary or per-batch summaries, a model's
// words too) and time, but for a deterministic body, which pruner writes
// as pi-condense does.
func normalize(b []byte) string {
	s := summaryContent.ReplaceAllString(string(b), `$1"<summary>$2"`)
	s = summaryTime.ReplaceAllString(s, `${1}T}`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, `{"role":"user","content":[{"type":"text","text":"<compressed-chain`) {
			continue
		}
		var m struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || len(m.Content) != 1 {
			continue
		}
		text := m.Content[0].Text
		nl := strings.IndexByte(text, '\n')
		head, body := text[:nl], text[nl+1:]
		tail := ""
		if j := strings.Index(body, "\n\n<protected-output"); j >= 0 {
			body, tail = body[:j], body[j:]
		} else {
			body, tail = strings.TrimSuffix(body, "\n</compressed-chain>"), "\n</compressed-chain>"
		}
		if !strings.HasPrefix(body, "Deterministic chain compression") {
			body = "<body>"
		}
		lines[i] = fmt.Sprintf("chain %s %q %q timestamp=T", head, body, tail)
	}
	return strings.Join(lines, "\n")
}
