package render

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// TestFirstCovering: the one-pass marking finds, for every slot, the first
// range (in order) holding it strictly inside — what comparing every pair
// finds — on random ranges, nested, overlapping and repeated ones included.
func TestFirstCovering(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 2 + rng.IntN(40)
		ranges := make([]chainRange, rng.IntN(8))
		for k := range ranges {
			a, b := rng.IntN(n), rng.IntN(n)
			if a > b {
				a, b = b, a
			}
			if a == b {
				b = min(a+1, n-1)
				if a == b {
					a--
				}
			}
			ranges[k] = chainRange{start: a, end: b}
		}
		got := firstCovering(n, ranges)
		for i := range n {
			want := int32(0)
			for k, rg := range ranges {
				if rg.start < i && i < rg.end {
					want = int32(k + 1)
					break
				}
			}
			if got[i] != want {
				t.Fatalf("trial %d: n=%d ranges %v: slot %d: got %d, want %d", trial, n, ranges, i, got[i], want)
			}
		}
	}
}

// TestPlainIntegerKey: a timestamp used as written in an occurrence key
// is one index.MessageKey's float round trip writes back the same, over
// integers around every digit count and spellings that are not plain.
func TestPlainIntegerKey(t *testing.T) {
	cases := []string{"0", "-0", "00", "01", "-01", "1", "-1", "9", "1767608641500", "-1767608641500",
		"999999999999999", "1000000000000000", "9007199254740993", "1e3", "1.5", "1.0", "", "-", "+1", " 1", "\"1\"", "null"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		d := 1 + rng.IntN(18)
		b := make([]byte, d)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if rng.IntN(3) == 0 {
			b = append([]byte{'-'}, b...)
		}
		cases = append(cases, string(b))
	}
	for _, ts := range cases {
		want := index.MessageKey("id", []byte(ts))
		if plainInteger(ts) && "id@"+ts != want {
			t.Fatalf("timestamp %q: as written %q, MessageKey %q", ts, "id@"+ts, want)
		}
	}
}

// TestAppendInt: an integer is spelt as jsval.AppendNumber spells its
// float64.
func TestAppendInt(t *testing.T) {
	vals := []int64{0, 1, -1, 1767608652000, 1<<53 - 1, 1 << 53, -1 << 53, 1<<53 + 1, -1<<53 - 1, 1 << 62, -1 << 63, 1<<63 - 1}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		vals = append(vals, rng.Int64()>>rng.IntN(63))
	}
	for _, v := range vals {
		if got, want := string(appendInt(nil, v)), jsval.FormatNumber(float64(v)); got != want {
			t.Fatalf("%d: %s, want %s", v, got, want)
		}
	}
}

// TestStripThinking: the reused-buffer fast path decides and writes what
// withoutThinking does (changed when its result differs from a source
// message), on every assistant message of the test sessions and on
// respelt copies of them: white space, escaped type names, a thinking
// block added, duplicate content keys, a built (not source) message.
func TestStripThinking(t *testing.T) {
	var msgs [][]byte
	for _, m := range testMessages(t) {
		if role, _ := jsval.GetString(m, "role"); role == "assistant" {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) < 50 {
		t.Fatalf("only %d assistant messages", len(msgs))
	}
	if stride := len(msgs) / 400; stride > 1 { // fast: 400 of them, spread over the files
		var some [][]byte
		for i := 0; i < len(msgs); i += stride {
			some = append(some, msgs[i])
		}
		msgs = some
	}
	variants := func(m []byte) [][]byte {
		out := [][]byte{m,
			bytes.Replace(m, []byte(`,"content":`), []byte(`, "content" : `), 1),
			bytes.Replace(m, []byte(`"type":"text"`), []byte(`"type":"te\u0078t"`), 1),
			bytes.Replace(m, []byte(`"type":"toolCall"`), []byte(`"type":"thinkin\u0067"`), 1),
			bytes.Replace(m, []byte(`"content":[`), []byte(`"content":[{"type":"thinking","thinking":"hm"},`), 1),
			bytes.Replace(m, []byte(`{"role"`), []byte(`{"content":[],"role"`), 1),
			bytes.Replace(m, []byte(`"content":[`), []byte(`"content":"x","content":[`), 1),
			bytes.Replace(m, []byte(`"content":[`), []byte(`"content":"no array","x":[`), 1),
		}
		return out
	}
	r := &renderer{}
	changed, same := 0, 0
	for _, m := range msgs {
		for _, v := range variants(m) {
			for _, kept := range []bool{true, false} {
				want, ok := withoutThinking(v)
				wantChanged := ok && !(kept && bytes.Equal(want, v))
				got, gotChanged := r.stripThinking(v, kept)
				if gotChanged != wantChanged || wantChanged && !bytes.Equal(got, want) {
					t.Fatalf("%.300s (kept %v): changed %v %.200s, want %v %.200s", v, kept, gotChanged, got, wantChanged, want)
				}
				if gotChanged {
					changed++
				} else {
					same++
				}
			}
		}
	}
	if changed == 0 || same == 0 {
		t.Fatalf("%d changed, %d unchanged: the cases do not cover both", changed, same)
	}
}

// TestOpenCalls: the set answers as a map of the latest assistant's call
// ids does, with repeated ids and past the slice's size.
func TestOpenCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var o openCalls
	var model map[string]bool
	for step := range 20000 {
		switch rng.IntN(6) {
		case 0:
			n := rng.IntN(2 * smallOpen)
			calls := make([]session.ToolCall, n)
			model = map[string]bool{}
			for i := range calls {
				calls[i] = session.NewToolCall(string(rune('a'+rng.IntN(40))), "", "", false)
				model[calls[i].ID()] = true
			}
			o.open(calls)
		case 1:
			o.close()
			model = nil
		default:
			id := string(rune('a' + rng.IntN(40)))
			want := model[id]
			delete(model, id)
			if got := o.answer(id); got != want {
				t.Fatalf("step %d: answer(%s) = %v, want %v", step, id, got, want)
			}
		}
	}
}

// TestCustomOf: the bytes the chain phase reads a custom message's
// customType and details from hold the values the message's JSON holds,
// on every custom message of the oracle and test sessions.
func TestCustomOf(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/condense-oracle/*/final/*.jsonl")
	more, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	n, fromLine := 0, 0
	for _, f := range append(files, more...) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := session.Read(fh, fh, session.ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		r := &renderer{ctx: ctx}
		for i, m := range ctx.Messages {
			if m.Role() != session.RoleCustom {
				continue
			}
			s := &slot{src: int32(i)}
			got, err := r.customOf(s)
			if err != nil {
				t.Fatal(err)
			}
			got = bytes.Clone(got)
			want, err := ctx.AppendMessage(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"customType", "details"} {
				g, gok := jsval.Get(got, k)
				w, wok := jsval.Get(want, k)
				if gok != wok || !bytes.Equal(g, w) {
					t.Fatalf("%s: message %d: %s %q (%v), the message's %q (%v)", f, i, k, g, gok, w, wok)
				}
			}
			if !bytes.Equal(got, want) {
				fromLine++
			}
			n++
		}
		fh.Close()
	}
	if n < 20 || fromLine == 0 {
		t.Fatalf("%d custom messages, %d read from their line: the sessions do not cover the case", n, fromLine)
	}
}

// TestReadGroups: the one-pass grouping answers for each call what a
// scan of the content per call finds (the first toolCall block with the
// id), on the test sessions' assistant messages with their read calls,
// duplicates and ids no block has included.
func TestReadGroups(t *testing.T) {
	perCall := func(raw []byte, id string) readCallOld {
		content, _ := jsval.Get(raw, "content")
		els, _ := jsval.Elements(content)
		for _, el := range els {
			if ty, _ := jsval.GetString(el, "type"); ty != "toolCall" {
				continue
			}
			if bid, _ := jsval.GetString(el, "id"); bid != id {
				continue
			}
			var rc readCallOld
			rc.group, rc.path, rc.ok = callGroup(el)
			return rc
		}
		return readCallOld{}
	}
	calls, grouped := 0, 0
	// Windows paths, escaped keys and strings, a path repeated, a path
	// that is no string after one that is
	extra := [][]byte{
		[]byte(`{"role":"assistant","content":[{"type":"toolCall","id":"w1","name":"read","arguments":{"path":"C:\\a\\b.txt","offset":1}},{"type":"text","text":"x"}]}`),
		[]byte(`{"role":"assistant","content":[{"type":"toolCall","id":"w2","name":"read","arguments":{"limit":2,"p\u0061th":"a\u005cb","path":"c/d","z":[1,{"b":1,"a":2}]}}]}`),
		[]byte(`{"role":"assistant","content":[{"type":"toolCall","id":"w3","name":"read","arguments":{"path":"a","path":7}}, {"type":"toolCall","id":"w4","arguments":{"path":1}}]}`),
	}
	for _, m := range append(testMessages(t), extra...) {
		content, _ := jsval.Get(m, "content")
		els, _ := jsval.Elements(content)
		var ids []string
		for _, el := range els {
			if id, ok := jsval.GetString(el, "id"); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		ids = append(ids, ids[0], "no-such-id")
		many := append([]string(nil), ids...) // past the few compared: the map
		for len(many) <= 8 {
			many = append(many, ids...)
		}
		// the same message with its last block repeated first: the
		// first block with an id answers
		dup := bytes.Replace(m, []byte(`"content":[`), append(append([]byte(`"content":[`), els[len(els)-1]...), ','), 1)
		for _, raw := range [][]byte{m, dup} {
			for _, set := range [][]string{ids, many} {
				got, buf := readGroups(nil, []byte("x"), raw, set)
				old := readGroupsOld(nil, raw, set)
				for k, id := range set {
					g := readCallOld{ok: got[k].ok}
					if g.ok {
						g.group = string(buf[got[k].start:got[k].end])
						g.path = g.group[:got[k].pathLen]
					}
					if want := perCall(raw, id); g != want || old[k] != want {
						t.Fatalf("%.80s: call %s of %d: %+v (old %+v), want %+v", raw, id, len(set), g, old[k], want)
					}
					calls++
					if got[k].ok {
						grouped++
					}
				}
			}
		}
	}
	if calls < 100 || grouped < 10 {
		t.Fatalf("%d calls, %d with a group: the sessions do not cover the case", calls, grouped)
	}
}

// TestChainMessageEscapes: the chain message escaped piece by piece is the
// message of its whole text escaped at once (JSON.stringify of the
// joined text), with quotes, backslashes, control characters, non-ASCII
// and invalid UTF-8 at the pieces' edges.
func TestChainMessageEscapes(t *testing.T) {
	atoms := []string{"", "a", `"`, `\`, "\n", "\t", "\x01", "\x1f", "é", "😀", "\u2028", "\xe2\x82", "\x82", "\xff", "<b>", "{x}", "tool"}
	rng := rand.New(rand.NewPCG(9, 10))
	piece := func() string {
		var b []byte
		for range rng.IntN(5) {
			b = append(b, atoms[rng.IntN(len(atoms))]...)
		}
		return string(b)
	}
	r := &renderer{}
	for range 3000 {
		body := piece()
		c := &index.ChainData{BlockID: piece(), RangeSummaryText: &body, CompressedAt: rng.Int64N(1 << 45)}
		for range rng.IntN(4) {
			c.ToolRefs = append(c.ToolRefs, piece())
		}
		var outputs []protectedOutput
		for range rng.IntN(3) {
			outputs = append(outputs, protectedOutput{piece(), piece()})
		}
		text := `<compressed-chain id="` + c.BlockID + `" tools="` + strings.Join(c.ToolRefs, ",") + "\">\n" + body
		for _, p := range outputs {
			text += "\n\n<protected-output tool=\"" + p.tool + "\">\n" + p.text + "\n</protected-output>"
		}
		text += "\n</compressed-chain>"
		want := append([]byte(`{"role":"user","content":`), textContent(text)...)
		want = append(want, `,"timestamp":`...)
		want = append(jsval.AppendNumber(want, float64(c.CompressedAt)), '}')
		if got := r.chainMessage(c, outputs); !bytes.Equal(got, want) {
			t.Fatalf("chain %q:\n got %s\nwant %s", c.BlockID, got, want)
		}
	}
}

// testMessages is every entry's message in the test sessions
// (testdata/sessions), as its line spells it.
func testMessages(t *testing.T) [][]byte {
	t.Helper()
	files, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	var msgs [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if m, ok := jsval.Get(line, "message"); ok {
				msgs = append(msgs, m)
			}
		}
	}
	return msgs
}

// callGroup is the group key of the toolCall block el (ok false: its
// arguments are no object, or hold no string path).
func callGroup(el []byte) (group, path string, ok bool) {
	args, _ := jsval.Get(el, "arguments")
	return callGroupArgsOld(args)
}
