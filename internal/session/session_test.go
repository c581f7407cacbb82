package session

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

func readString(t testing.TB, s string) (*Context, string) {
	t.Helper()
	ctx, err := Read(strings.NewReader(s), strings.NewReader(s), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, ctx)
	return ctx, string(out)
}

const hdr = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n"

func msgLine(id, parent, role, content string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"` + role + `","content":` + content + `,"timestamp":1}}` + "\n"
}

func TestLineReaderNoLengthLimit(t *testing.T) {
	big := strings.Repeat("x", 5<<20) // 5 MiB, far past bufio.Scanner's 64 KiB
	in := "a\n" + big + "\n\nlast"
	lr := NewLineReader(iotest.HalfReader(strings.NewReader(in)))
	var got []string
	var offs []int64
	for {
		l, _, off, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l))
		offs = append(offs, off)
	}
	if len(got) != 4 || got[1] != big || got[2] != "" || got[3] != "last" {
		t.Fatalf("lines = %d", len(got))
	}
	if offs[1] != 2 || offs[3] != int64(2+len(big)+2) {
		t.Errorf("offsets = %v", offs)
	}
}

func TestLeafIsLastEntryAndBranches(t *testing.T) {
	in := hdr +
		msgLine("a", "", "user", `"q1"`) +
		msgLine("b", "a", "assistant", `[{"type":"text","text":"A1"}]`) +
		msgLine("c", "a", "assistant", `[{"type":"text","text":"other branch"}]`) +
		`{"type":"label","id":"d","parentId":"b","timestamp":"2026-01-01T00:00:02.000Z","targetId":"a","label":"x"}` + "\n"
	ctx, out := readString(t, in)
	if ctx.LeafID != "d" || len(ctx.Messages) != 2 || strings.Contains(out, "other branch") {
		t.Fatalf("leaf %q, %d messages:\n%s", ctx.LeafID, len(ctx.Messages), out)
	}
}

func TestCycleAndUnknownParentNeverHang(t *testing.T) {
	in := hdr + msgLine("a", "c", "user", `"q"`) + msgLine("b", "a", "assistant", `[]`) + msgLine("c", "b", "user", `"again"`)
	ctx, _ := readString(t, in)
	if len(ctx.Messages) != 3 || !strings.Contains(ctx.Warnings[0].Msg, "cycle") {
		t.Fatalf("messages %d, warnings %v", len(ctx.Messages), ctx.Warnings)
	}
	ctx, _ = readString(t, hdr+msgLine("a", "zz", "user", `"q"`)+msgLine("b", "a", "assistant", `[]`))
	if len(ctx.Messages) != 2 || !strings.Contains(ctx.Warnings[0].Msg, "unknown parent") {
		t.Fatalf("messages %d, warnings %v", len(ctx.Messages), ctx.Warnings)
	}
}

func TestCompactionKeepsFromFirstKeptAndDropsOlderSystem(t *testing.T) {
	in := hdr +
		msgLine("s0", "", "system", `""`) +
		msgLine("a", "s0", "user", `"old"`) +
		msgLine("b", "a", "user", `"kept"`) +
		msgLine("s1", "b", "system", `""`) +
		`{"type":"compaction","id":"c","parentId":"s1","timestamp":"2026-01-01T00:00:03.000Z","summary":"S","firstKeptEntryId":"b","tokensBefore":7,"systemMessage":{"role":"system","content":"","sections":{}}}` + "\n" +
		msgLine("d", "c", "user", `"after"`)
	_, out := readString(t, in)
	want := `{"role":"system","content":"","sections":{}}
{"role":"compactionSummary","summary":"S","tokensBefore":7,"timestamp":1767225603000}
{"role":"user","content":"kept","timestamp":1}
{"role":"user","content":"after","timestamp":1}
`
	if out != want {
		t.Fatalf("got\n%swant\n%s", out, want)
	}
}

func TestContextEditAndNullContent(t *testing.T) {
	in := hdr +
		msgLine("a", "", "user", `"q"`) +
		msgLine("b", "a", "toolResult", `[{"type":"text","text":"big"}]`) +
		msgLine("n", "b", "assistant", `null`) +
		`{"type":"context_edit","id":"e1","parentId":"n","timestamp":"2026-01-01T00:00:02.000Z","targetId":"b","replacement":{"content":"small"}}` + "\n" +
		`{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-01-01T00:00:02.000Z","targetId":"a","replacement":null}` + "\n"
	_, out := readString(t, in)
	want := `{"role":"toolResult","content":[{"type":"text","text":"small"}],"timestamp":1}
{"role":"assistant","content":[],"timestamp":1}
`
	if out != want {
		t.Fatalf("got\n%swant\n%s", out, want)
	}
}

func TestV2HookMessageBecomesCustom(t *testing.T) {
	in := `{"type":"session","version":2,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n" +
		msgLine("a", "", "hookMessage", `"note"`)
	_, out := readString(t, in)
	if out != `{"role":"custom","content":"note","timestamp":1}`+"\n" {
		t.Fatalf("got %s", out)
	}
}

func TestCustomMessageAndBranchSummary(t *testing.T) {
	in := hdr + msgLine("a", "", "user", `"q"`) +
		`{"type":"custom_message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","customType":"note","content":"hi","display":true}` + "\n" +
		`{"type":"branch_summary","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:03.000Z","fromId":"b","summary":""}` + "\n" +
		`{"type":"branch_summary","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:04.000Z","fromId":"x","summary":"went elsewhere"}` + "\n" +
		`{"type":"custom","id":"e","parentId":"d","timestamp":"2026-01-01T00:00:05.000Z","customType":"state","data":{}}` + "\n"
	_, out := readString(t, in)
	want := `{"role":"user","content":"q","timestamp":1}
{"role":"custom","customType":"note","content":"hi","display":true,"timestamp":1767225602000}
{"role":"branchSummary","summary":"went elsewhere","fromId":"x","timestamp":1767225604000}
`
	if out != want {
		t.Fatalf("got\n%swant\n%s", out, want)
	}
}

func TestContextInputAndErrors(t *testing.T) {
	in := `{"role":"user","content":"q","timestamp":1}` + "\r\n" + `{"_meta":{}}` + "\n" + `{"role":"assistant","content":[],"timestamp":2}`
	ctx, out := readString(t, in)
	if ctx.Kind != KindContext || len(ctx.Messages) != 2 || out != `{"role":"user","content":"q","timestamp":1}`+"\n"+`{"role":"assistant","content":[],"timestamp":2}`+"\n" {
		t.Fatalf("kind %v, out %q", ctx.Kind, out)
	}
	// an empty input is an empty context (pruner's own output for one)
	for _, in := range []string{"", "\n \n"} {
		ctx, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{})
		if err != nil || ctx.Kind != KindContext || len(ctx.Messages) != 0 {
			t.Errorf("empty %q: %v, %+v", in, err, ctx)
		}
	}
	if _, err := Read(strings.NewReader(`{"x":1}`), nil, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("not a session: %v", err)
	}
}

func TestAppendJSStringMatchesJSONStringify(t *testing.T) {
	cases := map[string]string{
		"plain":              `"plain"`,
		"q\"b\\s/":           `"q\"b\\s/"`,
		"\n\r\t\b\f\x01\x1f": `"\n\r\t\b\f\u0001\u001f"`,
		"é📁<>&\u2028":        "\"é📁<>&\u2028\"",
		"bad\xffutf8":        "\"bad\uFFFDutf8\"",
	}
	for in, want := range cases {
		if got := string(AppendJSString(nil, in)); got != want {
			t.Errorf("AppendJSString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestValueRangeLastKeyWins(t *testing.T) {
	obj := []byte(`{"a":{"message":1},"message":"x\"}","message":[1,{"b":"]"}]}`)
	s, e, ok := ValueRange(obj, "message")
	if !ok || string(obj[s:e]) != `[1,{"b":"]"}]` {
		t.Fatalf("got %q", obj[s:e])
	}
}

// FuzzRead feeds arbitrary bytes (seeded with real session lines) to the
// line decoder and context builder: never a panic, and every message renders
// to valid JSON when the input lines were valid.
func FuzzRead(f *testing.F) {
	f.Add([]byte(hdr + msgLine("a", "", "user", `"q"`)))
	f.Add([]byte(`{"role":"user","content":null}` + "\n" + `{"role":"toolResult","content":[{"type":"image"}]}`))
	f.Add([]byte(hdr + `{"type":"compaction","id":"c","parentId":"c","firstKeptEntryIndex":0}` + "\n"))
	f.Add([]byte(`{"type":"session","id":"x"}` + "\n" + `{"type":"message","message":{"role":"hookMessage","content":"\ud83d"}}{"type":"x"}`))
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		var seed []byte
		for _, l := range lines {
			if len(seed)+len(l) > 16<<10 {
				break
			}
			seed = append(seed, l...)
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{})
		if err != nil {
			return
		}
		for _, m := range ctx.Messages {
			if _, err := ctx.AppendMessage(nil, m); err != nil {
				t.Fatalf("render: %v", err)
			}
			// the index's references: a message finds its context, a
			// call its message
			if m.ctx() != ctx {
				t.Fatalf("line %d: a message that does not find its context", m.Line())
			}
			for _, tc := range m.ToolCalls() {
				if ctx.msg(tc.from) != m {
					t.Fatalf("line %d: call %q refers to another message", m.Line(), tc.ID())
				}
			}
		}
	})
}

func TestSurrogateWarnings(t *testing.T) {
	cases := []struct {
		json string
		want bool
	}{
		{`"\ud83d"`, true},        // lone high surrogate
		{`"\udcc1"`, true},        // lone low surrogate
		{`"\ud83d\udcc1"`, false}, // a pair (📁)
		{`"\\ud83d"`, false},      // an escaped backslash, then the text ud83d
		{`"\\\ud83d"`, true},      // a backslash, then a lone surrogate
		{`"\\\\ud83d x"`, false},  // two backslashes, then text
	}
	for _, c := range cases {
		ctx, _ := readString(t, hdr+msgLine("a", "", "user", c.json))
		got := false
		for _, w := range ctx.Warnings {
			got = got || strings.Contains(w.Msg, "surrogate")
		}
		if got != c.want {
			t.Errorf("%s: warned %v, want %v", c.json, got, c.want)
		}
	}
}

// JSON.parse matches keys exactly: "Type" is not "type", "Role" not "role".
func TestKeysAreCaseSensitive(t *testing.T) {
	in := `{"Type":"session","id":"s"}` + "\n"
	if _, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{}); err == nil {
		t.Error(`{"Type":"session"} accepted as a header`)
	}
	in = hdr + msgLine("a", "", "user", `"q"`) +
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","Message":{"role":"user","content":"shadow"},"message":{"Role":"x","role":"assistant","content":[{"type":"text","text":"A"}],"timestamp":2}}` + "\n"
	ctx, out := readString(t, in)
	if len(ctx.Messages) != 2 || ctx.Messages[1].Role() != RoleAssistant || strings.Contains(out, "shadow") {
		t.Fatalf("messages %d, out:\n%s", len(ctx.Messages), out)
	}
}

// Duplicate ids: pi's Map keeps the last entry with an id, so a parent
// resolves to the last one even when an earlier one sits right before the
// child.
func TestDuplicateIDLastWins(t *testing.T) {
	in := hdr +
		msgLine("x", "", "user", `"first x"`) +
		msgLine("y", "x", "user", `"y"`) +
		msgLine("x", "", "user", `"second x"`) +
		msgLine("z", "y", "user", `"leaf"`)
	_, out := readString(t, in)
	want := `{"role":"user","content":"second x","timestamp":1}
{"role":"user","content":"y","timestamp":1}
{"role":"user","content":"leaf","timestamp":1}
`
	if out != want {
		t.Fatalf("got\n%swant\n%s", out, want)
	}
}

// TestDescribeCutLine: a line that stops inside its object (a truncated
// session, or one pi is writing) says so; other invalid lines do not.
func TestDescribeCutLine(t *testing.T) {
	for _, c := range []struct {
		line string
		cut  bool
	}{
		{`{"type":"message","id":"a","message":{"role":"user","content":"hel`, true},
		{`{"type":"message","id":"a",`, true},
		{`{"type":"message","message":{"content":[1,2`, true},
		{`{"type":"x" bad}`, false},
		{`not json`, false},
		{`{"a":1}}`, false},
	} {
		var tp jsonscan.Tape
		err := tp.Parse([]byte(c.line))
		if err == nil {
			t.Fatalf("%q parsed", c.line)
		}
		el := describeInvalid([]byte(c.line), err)
		if got := strings.Contains(el.msg, "truncated"); got != c.cut {
			t.Errorf("%q: %q", c.line, el.msg)
		}
	}
}
