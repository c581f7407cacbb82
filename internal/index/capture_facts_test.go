package index

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

// captureDiff captures ctx with Capture and with captureOld (every result
// line parsed again) onto fresh states and fails unless the batches are
// equal, field for field; it returns how many calls were captured.
func captureDiff(t *testing.T, name string, ctx *session.Context, st func() *State) int {
	t.Helper()
	got, err := Capture(ctx, st(), CaptureOptions{RawFrom: -1})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want, err := captureOld(ctx, st(), CaptureOptions{RawFrom: -1})
	if err != nil {
		t.Fatalf("%s: old: %v", name, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d batches, old capture %d", name, len(got), len(want))
	}
	n := 0
	for i := range got {
		if len(got[i].Calls) != len(want[i].Calls) {
			t.Fatalf("%s: batch %d: %d calls, old capture %d", name, i, len(got[i].Calls), len(want[i].Calls))
		}
		for j := range got[i].Calls {
			if g, w := got[i].Calls[j], want[i].Calls[j]; !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: batch %d call %d:\n got %+v\nwant %+v", name, i, j, *g, *w)
			}
			n++
		}
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: batch %d:\n got %+v\nwant %+v", name, i, *got[i], *want[i])
		}
	}
	return n
}

// TestCaptureFactsDiffTestdata: on every session of testdata the capture
// from the read's facts is the capture that parses each result line again
// (arguments left in the input, and copied: a state of another context;
// the input streamed, and mapped).
func TestCaptureFactsDiffTestdata(t *testing.T) {
	var files []string
	err := filepath.Walk("../../testdata", func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(bytes.NewReader(data), bytes.NewReader(data), session.ReadOptions{Branch: true})
		if err != nil {
			continue // not a session pruner reads
		}
		calls += captureDiff(t, p, ctx, func() *State { return &State{} })
		other := readCtx(t, data)
		calls += captureDiff(t, p+" (copied)", ctx, func() *State { return &State{src: other} })
		mapped := readSession(t, p) // the lines viewed where they are mapped
		calls += captureDiff(t, p+" (mapped)", mapped, func() *State { return &State{} })
	}
	if calls < 100 {
		t.Fatalf("only %d calls captured from %d files: the test compares next to nothing", calls, len(files))
	}
}

// TestCaptureFactsDiffShapes: results of every shape the facts cover or
// leave to the parse — isError of each kind, timestamps of each kind,
// string, array and absent content, several, non-string, escaped-type and
// repeated text blocks, repeated keys, bad UTF-8, astral and escaped-pair
// texts — capture as the parse of each line captures them.
func TestCaptureFactsDiffShapes(t *testing.T) {
	isErrors := []string{``, `"isError":true,`, `"isError":false,`, `"isError":null,`, `"isError":1,`, `"isError":0,`, `"isError":"",`, `"isError":"no",`, `"isError":{},`, `"isError":true,"isError":false,`}
	stamps := []string{``, `"timestamp":1700000000123,`, `"timestamp":1.5,`, `"timestamp":"1700000000123",`, `"timestamp":0,`, `"timestamp":-3,`, `"timestamp":1e3,`, `"timestamp":null,`, `"timestamp":5,"timestamp":7,`}
	texts := []string{`plain`, `line\nline`, `tab\tend `, "é😀 astral", `\ud83d\ude00 pair`, `\ud800 lone`, "bad \xff\xfe bytes", `quote \" slash \/`, ``, `   `, `crlf\r\nx`, `[pruner: old notice]`}
	contents := []func(r *rand.Rand) string{
		func(r *rand.Rand) string {
			return `"content":[{"type":"text","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string {
			return `"content":[{"type":"text","text":"` + texts[r.IntN(len(texts))] + `"},{"type":"text","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string {
			return `"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string { return `"content":"` + texts[r.IntN(len(texts))] + `"` },
		func(r *rand.Rand) string { return `"content":[{"type":"text","text":42}]` },
		func(r *rand.Rand) string { return `"content":[{"type":"text"}]` },
		func(r *rand.Rand) string {
			return `"content":[{"type":"t\u0065xt","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string {
			return `"content":[{"type":"text","text":"first","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string { return `"content":[{"type":"text","text":"x"}],"content":[]` },
		func(r *rand.Rand) string { return `"content":[]` },
		func(r *rand.Rand) string { return `"content":null` },
		func(r *rand.Rand) string {
			return `"content":[1,"a",null,{"type":"text","text":"` + texts[r.IntN(len(texts))] + `"}]`
		},
		func(r *rand.Rand) string { return `"x":1` },
	}
	rng := rand.New(rand.NewPCG(40, 2))
	for round := range 40 {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
		parent, n := "", 0
		entry := func(msg string) {
			n++
			id := fmt.Sprintf("e%04d", n)
			par := `null`
			if parent != "" {
				par = `"` + parent + `"`
			}
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:%02d.000Z","message":%s}`+"\n", id, par, n%60, msg)
			parent = id
		}
		for turn := range 12 {
			entry(fmt.Sprintf(`{"role":"user","content":"go %d","timestamp":1}`, turn))
			k := 1 + rng.IntN(3)
			var calls []string
			for c := range k {
				calls = append(calls, fmt.Sprintf(`{"type":"toolCall","id":"c%d_%d","name":"read","arguments":{"path":"f%d.go"}}`, turn, c%2, c))
			}
			entry(`{"role":"assistant","content":[{"type":"text","text":"reading"},` + strings.Join(calls, ",") + `],"timestamp":2}`)
			for c := range k {
				entry(fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d_%d","toolName":"read",%s%s%s}`, turn, c%2,
					isErrors[rng.IntN(len(isErrors))], stamps[rng.IntN(len(stamps))], contents[rng.IntN(len(contents))](rng)))
			}
			entry(`{"role":"assistant","content":[{"type":"text","text":"done"}],"timestamp":3}`)
		}
		data := []byte(b.String())
		ctx := readCtx(t, data)
		name := fmt.Sprintf("round %d", round)
		if captureDiff(t, name, ctx, func() *State { return &State{} }) == 0 {
			t.Fatalf("%s: nothing captured:\n%s", name, data)
		}
		other := readCtx(t, data)
		captureDiff(t, name+" (copied)", ctx, func() *State { return &State{src: other} })
	}
}

// TestCaptureTurnFactsDiffShapes: assistant lines of every shape the
// read's turn facts (session.TurnFacts) cover or leave to the parse —
// entry and message timestamps of each kind, no, one, several, escaped,
// bad-UTF-8 and non-string text blocks, arguments as pi writes them, not
// canonical, null, absent, under input or args, ids escaped, of bad UTF-8
// or repeated — capture as the parse of each line captures them, and the
// facts are used for some lines and left for others.
func TestCaptureTurnFactsDiffShapes(t *testing.T) {
	entryTS := []string{`"timestamp":"2026-01-01T00:00:01.250Z",`, `"timestamp":"2026-01-01T00:00:01.250\u005a",`, ``, `"timestamp":17,`,
		`"timestamp":"",`, `"timestamp":"yesterday",`, `"timestamp":"x","timestamp":"2026-01-01T00:00:02Z",`, `"timestamp":"2026-01-01T00:00:03+02:00",`}
	msgTS := []string{`,"timestamp":1700000000123`, `,"timestamp":1.5`, `,"timestamp":"1700000000123"`, ``, `,"timestamp":-4`}
	prose := []string{``, `{"type":"text","text":"reading"},`, `{"type":"text","text":"  two\nlines  "},{"type":"text","text":"more"},`,
		`{"type":"text","text":"esc \u00e9 \"q\""},`, "{\"type\":\"text\",\"text\":\"bad \xff byte\"},", `{"type":"text","text":7},`,
		`{"type":"thinking","thinking":"hmm"},`, `{"type":"t\u0065xt","text":"escaped type"},`, `{"type":"text","text":"   "},`,
		`{"type":"text","text":"a","text":"last"},`}
	args := []string{`"arguments":{"path":"f.go"}`, `"arguments":{ "path" : "f.go" }`, `"arguments":null`, ``, `"input":{"x":1}`,
		`"args":null,"arguments":{"p":1}`, `"arguments":{"n":1.50}`, `"arguments":"str"`, `"arguments":[1,2]`, `"arguments":{"p":"\u00e9"}`,
		`"arguments":{"a":1},"arguments":{"b":2}`, `"arguments":{}`}
	ids := []string{`c%d_%d`, `c%d_%d`, `c%d_%d`, `\u0063%d_%d`}
	rng := rand.New(rand.NewPCG(44, 1))
	known, unknown := 0, 0
	for round := range 60 {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
		parent, n := "", 0
		entry := func(ts, msg string) {
			n++
			id := fmt.Sprintf("e%04d", n)
			par := `null`
			if parent != "" {
				par = `"` + parent + `"`
			}
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,%s"message":%s}`+"\n", id, par, ts, msg)
			parent = id
		}
		for turn := range 10 {
			entry(`"timestamp":"2026-01-01T00:00:00.000Z",`, fmt.Sprintf(`{"role":"user","content":"go %d","timestamp":1}`, turn))
			k := 1 + rng.IntN(3)
			var calls []string
			var callIDs []string
			for c := range k {
				id := fmt.Sprintf(ids[rng.IntN(len(ids))], turn, c%2)
				if rng.IntN(12) == 0 {
					id = fmt.Sprintf("c%d_\xff%d", turn, c)
				}
				a := args[rng.IntN(len(args))]
				if a != "" {
					a = "," + a
				}
				calls = append(calls, `{"type":"toolCall","id":"`+id+`","name":"read"`+a+`}`)
				callIDs = append(callIDs, id)
			}
			if rng.IntN(8) == 0 {
				calls = append(calls, `{"type":"toolC\u0061ll","id":"`+callIDs[0]+`","name":"read","arguments":{"path":"other"}}`)
			}
			entry(entryTS[rng.IntN(len(entryTS))], `{"role":"assistant","content":[`+prose[rng.IntN(len(prose))]+strings.Join(calls, ",")+`]`+msgTS[rng.IntN(len(msgTS))]+`}`)
			for _, id := range callIDs {
				entry(`"timestamp":"2026-01-01T00:00:05.000Z",`, `{"role":"toolResult","toolCallId":"`+id+`","toolName":"read","content":[{"type":"text","text":"some text"}],"timestamp":5}`)
			}
			entry(`"timestamp":"2026-01-01T00:00:06.000Z",`, `{"role":"assistant","content":[{"type":"text","text":"done"}],"timestamp":3}`)
		}
		data := []byte(b.String())
		ctx := readCtx(t, data)
		for i := range ctx.Branch {
			if m := ctx.EntryMessage(&ctx.Branch[i]); m != nil && len(m.ToolCalls()) > 0 {
				if m.TurnFacts().Known {
					known++
				} else {
					unknown++
				}
			}
		}
		name := fmt.Sprintf("round %d", round)
		if captureDiff(t, name, ctx, func() *State { return &State{} }) == 0 {
			t.Fatalf("%s: nothing captured:\n%s", name, data)
		}
		other := readCtx(t, data)
		captureDiff(t, name+" (copied)", ctx, func() *State { return &State{src: other} })
	}
	if known < 50 || unknown < 50 {
		t.Fatalf("facts known for %d assistant lines, not for %d: the test does not exercise both paths", known, unknown)
	}
}
