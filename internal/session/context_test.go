package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
)

// readFile builds the context of a session file in testdata.
func readFile(t testing.TB, path string) *Context {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ctx, err := Read(f, f, ReadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ctx
}

func render(t testing.TB, ctx *Context) []byte {
	t.Helper()
	var out []byte
	var err error
	for _, m := range ctx.Messages {
		out, err = ctx.AppendMessage(out, m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, '\n')
	}
	return out
}

// TestContextMatchesPiOracle checks, for every session shipped in
// testdata/sessions, that the context equals, byte for byte, what pi 1.6.0's
// own buildSessionContext printed (testdata/oracle/1.6.0, made by
// shared/oracle/run-context.sh; its trailing _meta line is dropped).
func TestContextMatchesPiOracle(t *testing.T) {
	sessions, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	if len(sessions) < 10 {
		t.Fatalf("expected the 10 shipped sessions, found %d", len(sessions))
	}
	for _, s := range sessions {
		name := strings.TrimSuffix(filepath.Base(s), ".jsonl")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("../../testdata/oracle/1.6.0", name+".context.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.LastIndex(want[:len(want)-1], []byte("\n"))
			want = want[:i+1] // drop {"_meta":…}
			if i < 0 {
				want = nil
			}
			got := render(t, readFile(t, s))
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				t.Errorf("got %d lines, want %d", len(gl), len(wl))
				for k := 0; k < len(gl) && k < len(wl); k++ {
					if !bytes.Equal(gl[k], wl[k]) {
						t.Errorf("first difference at message %d:\n got: %.300s\nwant: %.300s", k+1, gl[k], wl[k])
						break
					}
				}
			}
		})
	}
}

// TestNumTimestampAndChainCandidate: what the index keeps of a message read
// from the input is what its bytes say (timestamp, compressed-chain first
// text), on sessions and on contexts that hold chain messages.
func TestNumTimestampAndChainCandidate(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/chains/*.jsonl", "../../testdata/golden/flush/*.jsonl", "../../testdata/condense-oracle/f-chain/requests/*.context.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	chains, candidates, counted := 0, 0, 0
	for _, p := range paths {
		ctx := readFile(t, p)
		for i, m := range ctx.Messages {
			b, err := ctx.AppendMessage(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			if n, ok := ctx.ModelChars(m); ok && n != ModelChars(b) {
				t.Errorf("%s message %d: ModelChars from the tape %d, of its bytes %d", p, i, n, ModelChars(b))
			} else if ok {
				counted++
			}
			ts, ok, known := m.NumTimestamp()
			v, has := jsval.Get(b, "timestamp")
			want, wantOK := jsval.Number(v)
			if known && (ok != (has && wantOK) || ok && ts != want) {
				t.Errorf("%s message %d: NumTimestamp %v %v, bytes say %s", p, i, ts, ok, v)
			}
			// render's chain message test and the index's
			content, _ := jsval.Get(b, "content")
			els, _ := jsval.Elements(content)
			isChain := false
			if len(els) > 0 {
				if tv, ok := jsval.Get(els[0], "text"); ok {
					s, _ := jsval.String(tv)
					isChain = strings.HasPrefix(s, ChainMessagePrefix+` id="`)
				}
			}
			text, isStr := jsval.String(content)
			if !isStr && len(els) > 0 {
				tv, _ := jsval.Get(els[0], "text")
				text, _ = jsval.String(tv)
			}
			if strings.HasPrefix(strings.TrimLeft(text, " \t\n\r\u00a0\ufeff\u2028"), ChainMessagePrefix) {
				isChain = true
			}
			if isChain {
				chains++
			}
			if isChain && !m.ChainCandidate() {
				t.Errorf("%s message %d: a chain message, not a ChainCandidate", p, i)
			}
			if known && m.ChainCandidate() {
				candidates++
			}
		}
	}
	if candidates > chains {
		t.Errorf("%d candidates for %d chain messages: the flag should be exact on these inputs", candidates, chains)
	}
	if chains == 0 {
		t.Error("no chain message in the inputs: the test proves nothing")
	}
	if counted == 0 {
		t.Error("no message's ModelChars counted from the tape")
	}
}

// FuzzTapeModelChars: ModelChars counted from a line's tape at read time is
// ModelChars of the message's bytes, for a message line of a context and
// the same message in a session entry.
func FuzzTapeModelChars(f *testing.F) {
	for _, s := range []string{
		`{"role":"toolResult","content":[{"type":"text","text":"é\n"}],"details":{"d":"ü"},"isError":false}`,
		`{"role":"user","content":[{"type":"image","data":"AAAA"},{"type":"im\u0061ge"},{"type":"image","type":"text"}]}`,
		`{"role":"user","content":"\u00e9\ud83d\ude00 \ud800","details":1,"details":[]}`,
		"{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"\xff\xc3\"}]}",
		`{"role":"toolResult", "details" : {}, "content":[ {"type": "image" } ]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if strings.ContainsAny(msg, "\n\r") || !json.Valid([]byte(msg)) {
			return
		}
		for _, in := range []string{msg + "\n", hdr + `{"type":"message","id":"a1b2c3d4","parentId":null,"message":` + msg + "}\n"} {
			ctx, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{})
			if err != nil {
				return
			}
			for i, m := range ctx.Messages {
				b, err := ctx.AppendMessage(nil, m)
				if err != nil {
					t.Fatal(err)
				}
				if n, ok := ctx.ModelChars(m); ok && n != ModelChars(b) {
					t.Fatalf("%q message %d: ModelChars from the tape %d, of its bytes %q %d", in, i, n, b, ModelChars(b))
				}
			}
		}
	})
}

// FuzzMaybeChainText: the read-time chain test has no false negative, and
// no false positive unless the text starts with more white space than it
// decodes.
func FuzzMaybeChainText(f *testing.F) {
	for _, s := range []string{`"<compressed-chain id=\"b1\">"`, `"\n  <compressed-chain"`, `"\u003ccompressed-chain"`, `"\u00a0<compressed-chain x"`,
		`"<compressed-chai"`, `"hello"`, `"\\<compressed-chain"`, `" \t\r<compressed-chainX"`, `"\ufeff<compressed-chain"`, `""`, `"\ud800<"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var tp jsonscan.Tape
		if tp.Parse([]byte(s)) != nil || tp.Nodes[0].Kind != jsonscan.String {
			return
		}
		text, _ := tp.String(0)
		trimmed := strings.TrimLeftFunc(text, isJSSpace)
		want := strings.HasPrefix(trimmed, ChainMessagePrefix)
		got := maybeChainText(&tp, 0)
		if want && !got {
			t.Errorf("%s: a chain text, not found", s)
		}
		if got && !want && len([]rune(text))-len([]rune(trimmed)) <= 64 {
			t.Errorf("%s: found, but not a chain text", s)
		}
	})
}
