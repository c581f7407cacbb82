package index

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
)

// resultStringJSVal is resultString as first written, over jsval: the
// reference the tape reader must match.
func resultStringJSVal(content []byte) string {
	els, ok := jsval.Elements(content)
	if !ok {
		return ""
	}
	var parts []string
	for _, el := range els {
		if t, _ := jsval.GetString(el, "type"); t != "text" {
			continue
		}
		raw, ok := jsval.Get(el, "text")
		s, isStr := jsval.String(raw)
		if !ok || !isStr {
			s = jsString(raw, ok)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n")
}

// FuzzLineTape: the tape reader finds what jsval finds in a message line
// (content's text, isError, timestamp, a toolCall's id and arguments).
func FuzzLineTape(f *testing.F) {
	for _, s := range []string{
		`{"message":{"content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b\u00e9\n"}],"isError":1,"timestamp":17}}`,
		`{"message":{"content":[{"type":"text","text":7},{"type":"text"},{"type":"text","text":null},{"type":"text","text":[1]},{"type":"t\u0065xt","text":"esc","text":"last"}]}}`,
		"{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"bad \xff\xfe utf8 \\ud800 lone\"}],\"timestamp\":1.5}}",
		`{"message":{"content":"a string","timestamp":"2026"},"message":{"content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"b":1,"a":[2]}}]}}`,
		`{"timestamp":"2026-01-05T09:00:00.000Z","message":{"content":[{"type":"toolCall","id":"c2","input":null,"args":{"x":"y"}}],"timestamp":3}}`,
		`{"message":[]}`, `[]`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var lt lineTape
		if !lt.parse([]byte(line)) {
			return
		}
		msg, ok := lt.get(0, true, "message")
		rmsg, _ := jsval.Get([]byte(line), "message")
		content, hasC := lt.get(msg, ok, "content")
		rc, _ := jsval.Get(rmsg, "content")
		if got, want := lt.resultString(content, hasC), resultStringJSVal(rc); got != want {
			t.Errorf("resultString %q, want %q", got, want)
		}
		want := resultStringJSVal(rc)
		if got := lt.resultBytes(content, hasC); string(got) != want {
			t.Errorf("resultBytes %q, want %q", got, want)
		} else if h := lt.contentHash("bash", got, 0, false); h != ContentHash("bash", want) || textChars(got) != jsval.UTF16Len(want) {
			t.Errorf("contentHash %s or chars %d of the reused buffer differ from ContentHash %s, UTF16Len %d", h, textChars(got), ContentHash("bash", want), jsval.UTF16Len(want))
		}
		if v, ok := lt.get(msg, ok, "isError"); ok {
			rv, _ := jsval.Get(rmsg, "isError")
			if lt.tp.Truthy(v) != jsval.Truthy(rv) {
				t.Errorf("isError truthy %v, jsval %v", lt.tp.Truthy(v), jsval.Truthy(rv))
			}
		}
		ts, hasTS := lt.get(msg, ok, "timestamp")
		rts, _ := jsval.Get(rmsg, "timestamp")
		if got, want := MessageKey("id", lt.raw(ts, hasTS)), MessageKey("id", rts); got != want {
			t.Errorf("key %q, want %q", got, want)
		}
		var ids, args []string
		lt.elems(content, hasC, func(bl uint32) {
			if typ, _ := lt.getStr(bl, true, "type"); typ == "toolCall" {
				id, _ := lt.getStr(bl, true, "id")
				ids = append(ids, id)
				args = append(args, string(lt.callArgs(bl)))
			}
		})
		els, _ := jsval.Elements(rc)
		k := 0
		for _, bl := range els {
			if typ, _ := jsval.GetString(bl, "type"); typ != "toolCall" {
				continue
			}
			id, _ := jsval.GetString(bl, "id")
			want := "{}"
			for _, key := range []string{"input", "args", "arguments"} {
				if v, ok := jsval.Get(bl, key); ok && jsval.TypeOf(v) != jsval.Null {
					want = string(jsval.Canonical(v))
					break
				}
			}
			if k >= len(ids) || ids[k] != id || args[k] != want {
				t.Errorf("toolCall %d: tape %v %v, jsval %q %s", k, ids, args, id, want)
			}
			k++
		}
		if k != len(ids) {
			t.Errorf("%d toolCalls on the tape, %d by jsval", len(ids), k)
		}
	})
}

// normalizeForHash is ContentHash's normalisation as first written (split,
// trim, join): the reference for appendNormalized.
func normalizeForHash(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimFunc(strings.Join(lines, "\n"), isJSWhitespace)
}

func FuzzNormalizeForHash(f *testing.F) {
	for _, s := range []string{"", "a", "a \t\r\nb\r\n", "\r\n\r\n", "a\r\r\nb\r", " \u00a0x\u2028 \n", "\xff\r\n \t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendNormalized([]byte("pre"), s)), "pre"+normalizeForHash(s); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	})
}

// TestAppendUnquoteValid: appendUnquoteValid decodes every valid JSON
// string of valid UTF-8 as jsonscan.AppendUnquote does.
func TestAppendUnquoteValid(t *testing.T) {
	for _, s := range []string{
		``, `plain`, `a\nb`, `\\`, `\"q\"`, `\/`, `\b\f\n\r\t`, `\u0041\u00e9\u20ac`, `\ud83d\ude00`, `\ud83d`, `\ude00x`,
		`\ud83dx`, `\ud83d\u0041`, `é€😀 and \n more`, `tail\\`, `\u0000`, `x\uD83D\uDE00y`,
	} {
		raw := []byte(`"` + s + `"`)
		want := jsonscan.AppendUnquote([]byte("pre"), raw)
		if got := jsonscan.AppendUnquoteValid([]byte("pre"), raw); string(got) != string(want) {
			t.Errorf("%s: got %q, want %q", raw, got, want)
		}
	}
}

// FuzzAppendUnquoteValid is TestAppendUnquoteValid on any string body the
// tape reads as a valid string of valid UTF-8.
func FuzzAppendUnquoteValid(f *testing.F) {
	f.Add(`a\nb\"c\\d\u2028\ud83d\ude00\ud800`)
	f.Fuzz(func(t *testing.T, s string) {
		raw := []byte(`"` + s + `"`)
		var tp jsonscan.Tape
		if tp.Parse(raw) != nil || len(tp.Nodes) != 1 || tp.Nodes[0].Kind != jsonscan.String || tp.Nodes[0].Flags&jsonscan.BadUTF8 != 0 {
			return
		}
		if want, got := jsonscan.AppendUnquote(nil, raw), jsonscan.AppendUnquoteValid(nil, raw); string(got) != string(want) {
			t.Fatalf("%q: got %q, want %q", raw, got, want)
		}
	})
}

// FuzzStringChars: stringChars of a valid JSON string of valid UTF-8 (the
// tape's counts) is the JavaScript length of its decoded text.
func FuzzStringChars(f *testing.F) {
	f.Add(`a\nb\"c\\d\u2028\ud83d\ude00\ud800é😀\\u`)
	f.Fuzz(func(t *testing.T, s string) {
		raw := []byte(`"` + s + `"`)
		var tp jsonscan.Tape
		if tp.Parse(raw) != nil || len(tp.Nodes) != 1 || tp.Nodes[0].Kind != jsonscan.String || tp.Nodes[0].Flags&jsonscan.BadUTF8 != 0 {
			return
		}
		text := jsonscan.AppendUnquote(nil, raw)
		if chars := stringChars(&tp.Nodes[0], raw); chars != textChars(text) {
			t.Fatalf("%q: stringChars %d, want %d", raw, chars, textChars(text))
		}
	})
}

// FuzzContentHash: the tape's contentHash (its fast path for a text
// without CRLF or trailing blanks included) is ContentHash.
func FuzzContentHash(f *testing.F) {
	for _, s := range []string{"", " ", "a\r\nb", "a \nb", "a\t\nb", " x\n", "\u00a0x\u3000", "x\t", "plain\ntext\n\n"} {
		f.Add("bash", s)
	}
	var lt lineTape
	f.Fuzz(func(t *testing.T, name, text string) {
		if got, want := lt.contentHash(name, []byte(text), 0, false), ContentHash(name, text); got != want {
			t.Fatalf("%q %q: got %s, want %s", name, text, got, want)
		}
		// decoded from its JSON as appendTextAt decodes it, the hash taken
		// with the flags the decoding saw
		raw, _ := json.Marshal(text)
		var tp jsonscan.Tape
		if !utf8.ValidString(text) || tp.Parse(raw) != nil {
			return
		}
		dec, flags := jsonscan.AppendUnquoteText([]byte("pre"), raw)
		if string(dec[3:]) != text {
			t.Fatalf("%q: decoded %q", text, dec[3:])
		}
		if got, want := lt.contentHash(name, dec[3:], flags, true), ContentHash(name, text); got != want {
			t.Fatalf("%q %q (flags %b): got %s, want %s", name, text, flags, got, want)
		}
	})
}

// TestResultChars: resultChars counts what resultBytes decodes.
func TestResultChars(t *testing.T) {
	for _, content := range []string{
		`[]`, `"text"`, `[{"type":"text","text":"a\nb"}]`, `[{"type":"text","text":"😀\ud83d\ude00\ud800"},{"type":"image"},{"type":"text","text":"x"}]`,
		`[{"type":"text","text":5},{"type":"text","text":"y"}]`, `[{"type":"text"}]`, `[{"type":"text","text":"a\u00e9\\"},{"type":"text","text":"\u0000"}]`,
	} {
		var lt lineTape
		if !lt.parse([]byte(`{"content":` + content + `}`)) {
			t.Fatalf("%s: not JSON", content)
		}
		c, ok := lt.get(0, true, "content")
		text := lt.resultBytes(c, ok)
		if chars := lt.resultChars(c, ok); chars != textChars(text) {
			t.Errorf("%s: got %d, want %d", content, chars, textChars(text))
		}
	}
}

// FuzzCanonicalOnTape: a value the tape finds canonical is one
// jsval.AppendCanonical copies as it is.
func FuzzCanonicalOnTape(f *testing.F) {
	for _, s := range []string{`{"path":"a.go","limit":20}`, `{"a":1,"a":2}`, `{"1":1,"b":2}`, `{ "a":1}`, `{"a" :1}`, `[1,2 ,3]`, `{"a":[],"b":{},"c":[ ]}`,
		`{"command":"echo \"hi\"\n\tls"}`, `"\/"`, `"\u0041"`, `1.50`, `-0`, `1e3`, `{"é":1}`, `{"a":{"b":[true,false,null,"x"]}}`, `"é😀"`, `{"k":"\ud83d\ude00"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var lt lineTape
		if !lt.parse([]byte(s)) {
			return
		}
		for n := uint32(0); n < uint32(len(lt.tp.Nodes)); n++ {
			if raw := lt.tp.Raw(n); lt.canonical(n) && string(jsval.AppendCanonical(nil, raw)) != string(raw) {
				t.Fatalf("%s: canonical on the tape, not for jsval: %s", raw, jsval.AppendCanonical(nil, raw))
			}
		}
	})
}

// TestCanonicalOnTape: arguments as pi writes them are canonical on the
// tape (no canonical form made to compare).
func TestCanonicalOnTape(t *testing.T) {
	for _, s := range []string{`{"path":"a.go","limit":20}`, `{"command":"echo \"hi\" | tr -d '\\n'\n\tls -la"}`, `{}`, `[]`, `{"a":{"b":[true,false,null,"é😀",-3]}}`} {
		var lt lineTape
		if !lt.parse([]byte(s)) || !lt.canonical(0) {
			t.Errorf("%s: not canonical on the tape", s)
		}
	}
	x := strings.Repeat("x", 70)
	for _, s := range []string{`{"a":1,"a":2}`, `{"1":1}`, `{ "a":1}`, `[1 ]`, `"\/"`, `"\u0041"`, `1.5`, `-0`,
		`{"command":"` + x + `\n` + x + `\/` + x + `"}`, `"` + x + `\/"`, `"` + x + x + `\\\/` + x + `"`} {
		var lt lineTape
		if !lt.parse([]byte(s)) || lt.canonical(0) {
			t.Errorf("%s: canonical on the tape", s)
		}
	}
}
