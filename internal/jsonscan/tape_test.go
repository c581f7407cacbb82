package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// fromTape rebuilds the Go value of node n the way encoding/json decodes
// into any with UseNumber (objects last key wins, strings decoded).
func fromTape(t *Tape, n uint32) any {
	switch t.Nodes[n].Kind {
	case Null:
		return nil
	case True:
		return true
	case False:
		return false
	case Number:
		return json.Number(t.Raw(n))
	case String:
		s, _ := t.String(n)
		return s
	case Array:
		out := []any{}
		t.Elems(n, func(e uint32) bool { out = append(out, fromTape(t, e)); return true })
		return out
	case Object:
		out := map[string]any{}
		t.Members(n, func(k, v uint32) bool {
			ks, _ := t.String(k)
			out[ks] = fromTape(t, v)
			return true
		})
		return out
	}
	panic("bad kind")
}

func stdDecode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(b[d.InputOffset():], " \t\r\n")) > 0 {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func depth(b []byte) int {
	d, max := 0, 0
	for _, c := range b {
		switch c {
		case '[', '{':
			d++
			if d > max {
				max = d
			}
		case ']', '}':
			d--
		}
	}
	return max
}

// checkTape verifies every node of a parsed tape against the obvious
// definitions: ranges re-parse, Next skips exactly the value, string flags
// and code-point counts match slow reference computations.
func checkTape(t *testing.T, tp *Tape) {
	t.Helper()
	var all uint8
	for i := range tp.Nodes {
		if tp.Nodes[i].Kind == String {
			all |= tp.Nodes[i].Flags
		}
	}
	if all != tp.Flags {
		t.Fatalf("tape Flags %b, OR of the strings' flags %b", tp.Flags, all)
	}
	for i := range tp.Nodes {
		nd := &tp.Nodes[i]
		raw := tp.Src[nd.Start:nd.End]
		if got, want := tp.RawChars(uint32(i)), utf8.RuneCount(raw); got != want {
			t.Fatalf("node %d (%s %q): RawChars %d, utf8.RuneCount %d", i, nd.Kind, raw, got, want)
		}
		if e := SkipValue(tp.Src, int(nd.Start)); e != int(nd.End) {
			t.Fatalf("node %d (%s %q): SkipValue ends at %d, tape at %d", i, nd.Kind, raw, e, nd.End)
		}
		if nd.Kind == Object || nd.Kind == Array {
			var sub Tape
			if err := sub.Parse(raw); err != nil || uint32(len(sub.Nodes)) != nd.Next-uint32(i) {
				t.Fatalf("node %d %q: sub-parse %v, %d nodes, Next-i = %d", i, raw, err, len(sub.Nodes), nd.Next-uint32(i))
			}
			continue
		}
		if nd.Next != uint32(i+1) {
			t.Fatalf("scalar node %d: Next %d", i, nd.Next)
		}
		if nd.Kind == Number {
			got, _ := tp.Number(uint32(i))
			want, _ := strconv.ParseFloat(string(raw), 64)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("number %q: Number %v, strconv.ParseFloat %v", raw, got, want)
			}
		}
		if nd.Kind != String {
			continue
		}
		s, _ := tp.String(uint32(i))
		body := raw[1 : len(raw)-1]
		if got, want := int(nd.Chars), utf8.RuneCountInString(s); got != want {
			t.Fatalf("string %q: Chars %d, decoded has %d code points", raw, got, want)
		}
		if got, want := int(nd.Chars), CountChars(raw); got != want {
			t.Fatalf("string %q: Chars %d, CountChars %d", raw, got, want)
		}
		var std string
		if err := json.Unmarshal(raw, &std); err != nil || std != s {
			t.Fatalf("string %q: String() = %q, encoding/json %q (%v)", raw, s, std, err)
		}
		if got, want := nd.Flags&Escaped != 0, bytes.IndexByte(body, '\\') >= 0; got != want {
			t.Fatalf("string %q: Escaped %v", raw, got)
		}
		nonASCII := false
		for _, c := range body {
			nonASCII = nonASCII || c >= 0x80
		}
		if got := nd.Flags&NonASCII != 0; got != nonASCII {
			t.Fatalf("string %q: NonASCII %v", raw, got)
		}
		if got, want := nd.Flags&BadUTF8 != 0, !utf8.Valid(body); got != want {
			t.Fatalf("string %q: BadUTF8 %v", raw, got)
		}
		if got, want := nd.Flags&LoneSurrogate != 0, hasLoneSurrogate(body); got != want {
			t.Fatalf("string %q: LoneSurrogate %v", raw, got)
		}
		if got, want := nd.Flags&UEscaped != 0, hasUEscape(body); got != want {
			t.Fatalf("string %q: UEscaped %v", raw, got)
		}
		if got, want := nd.Flags&EscapedPair != 0, EscapedPairs(raw) > 0; got != want {
			t.Fatalf("string %q: EscapedPair %v", raw, got)
		}
		if nd.Flags&BadUTF8 == 0 {
			astral := 0 // code points beyond U+FFFF written as they are
			for _, r := range string(body) {
				if r > 0xFFFF {
					astral++
				}
			}
			if got := Astral(body); got != astral {
				t.Fatalf("string %q: Astral %d, want %d", raw, got, astral)
			}
		}
		for _, p := range []string{"[pruner: ", "Subagent ", "a"} {
			if got, want := tp.HasPrefix(uint32(i), p), strings.HasPrefix(s, p) && !strings.HasPrefix(s, string(utf8.RuneError)); got != want && p != "a" {
				t.Fatalf("string %q: HasPrefix(%q) %v", raw, p, got)
			}
		}
	}
}

// hasLoneSurrogate is the reference: decode escapes one by one.
func hasLoneSurrogate(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++
			continue
		}
		r := hex4(s[i+2:])
		if r >= 0xD800 && r < 0xDC00 {
			if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
					i += 11
					continue
				}
			}
			return true
		}
		if r >= 0xDC00 && r < 0xE000 {
			return true
		}
		i += 5
	}
	return false
}

var seeds = []string{
	`{}`, `[]`, `{"a":[1,2.5e-3,-0,true,false,null,"x\u00e9\n"]}`, `[`, `{"a":1,}`, `{"a" 1}`, `01`, `"\x01"`,
	`{"a":"\ud83d"} `, `{} {}`, `[[[]]]`, `1.`, `-`, `"\q"`, `["\\ud83d", {"a\uD800":[]}]`, " \t\r\n{\"k\":\"v\"}\n",
	`"\ud83d\ude00"`, `"\udc00\ud800"`, "\"a\xffb\"", "\"é\\\"\"", `"\u005bpruner: x"`, `{"a":{"b":{"c":[{"d":"e"}]}}}`,
	`{"type":"message","id":"a1","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}{"x":1}`,
	`[1,2,]`, `{"a":1}}`, `]`, `"unterminated`, `1e`, `-01`, `1E+5`, `true1`, `nul`, "\ufeff{}", `"\u00"`,
	`{"a":1,"a":2}`, "\"12345678\\\"abcdefgh\"", "\"\xe2\x82\xac1234567\\n\xf0\x9f\x98\x80\"",
}

// FuzzParse: the scanner accepts exactly what encoding/json accepts (which
// matches JSON.parse on decoded text), and its tape decodes to the same
// value; every node checks out against the slow definitions.
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for k, l := range bytes.Split(data, []byte("\n")) {
			if k%50 == 1 && len(l) < 8<<10 {
				f.Add(l)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var tp Tape
		err := tp.Parse(b)
		want, stdErr := stdDecode(b)
		if stdErr != nil && strings.Contains(stdErr.Error(), "exceeded max depth") {
			if err != nil && depth(b) < 10000 {
				t.Fatalf("deep input rejected: %v", err)
			}
			return
		}
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("Parse(%q) = %v, encoding/json: %v", b, err, stdErr)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(b) {
				t.Fatalf("Parse(%q): bad error %#v", b, err)
			}
			if se.Trailing {
				var first Tape
				if first.Parse(b[:se.Offset]) != nil {
					t.Fatalf("Parse(%q): Trailing at %d, but the part before does not parse", b, se.Offset)
				}
			}
			return
		}
		if got := fromTape(&tp, 0); !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(%q): tape decodes to %#v, encoding/json to %#v", b, got, want)
		}
		checkTape(t, &tp)
	})
}

func TestDeepNestingIsValid(t *testing.T) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		for _, open := range []string{"[", `{"a":`} {
			close := "]"
			if open != "[" {
				close = "}"
			}
			src := []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
			var tp Tape
			if err := tp.Parse(src); err != nil {
				t.Fatalf("depth %d %s: %v", n, open, err)
			}
			if tp.Nodes[0].End != uint32(len(src)) || int(tp.Nodes[0].Next) != len(tp.Nodes) {
				t.Fatalf("depth %d: top node %+v", n, tp.Nodes[0])
			}
			if err := tp.Parse(src[:len(src)-1]); err == nil {
				t.Fatalf("depth %d: unclosed accepted", n)
			}
		}
	}
}

func TestGetLastKeyWinsAndExactCase(t *testing.T) {
	var tp Tape
	src := `{"a":{"message":1},"message":"x\"}","Message":0,"mess\u0061ge":[1,{"b":"]"}]}`
	if err := tp.Parse([]byte(src)); err != nil {
		t.Fatal(err)
	}
	v, ok := tp.Get(0, "message")
	if !ok || string(tp.Raw(v)) != `[1,{"b":"]"}]` {
		t.Fatalf("Get = %q, %v", tp.Raw(v), ok)
	}
	s, e, ok := ValueRange([]byte(src), "message")
	if !ok || src[s:e] != `[1,{"b":"]"}]` {
		t.Fatalf("ValueRange = %q", src[s:e])
	}
	if _, ok := tp.Get(0, "MESSAGE"); ok {
		t.Fatal("case-insensitive match")
	}
}

func TestErrors(t *testing.T) {
	for src, want := range map[string]string{
		`{"a":1}{"b":2}`: "extra data after the JSON value at byte 7",
		"\ufeff{}":       `unexpected byte 0xef at byte 0`,
		`{"a":"b`:        "unterminated string at byte 5",
		"":               "no JSON value at byte 0",
		`{"a":1,}`:       "expected a string key at byte 7",
	} {
		var tp Tape
		err := tp.Parse([]byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %s", src, err, want)
		}
	}
}

// skipDigits finds the first non-digit as a byte-by-byte loop does, for
// every byte value at every position of a word and across word ends.
func TestSkipDigits(t *testing.T) {
	slow := func(b []byte, i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	for n := 0; n <= 20; n++ {
		for c := 0; c < 256; c++ {
			for _, fill := range []byte{'0', '9', '5'} {
				b := bytes.Repeat([]byte{fill}, 24)
				if n < len(b) {
					b[n] = byte(c)
				}
				for start := 0; start < 3; start++ {
					if got, want := skipDigits(b, start), slow(b, start); got != want {
						t.Fatalf("skipDigits(%q, %d) = %d, want %d", b, start, got, want)
					}
					if got, want := skipDigits(b[:n], start), slow(b[:n], start); n >= start && got != want {
						t.Fatalf("skipDigits(%q, %d) = %d, want %d", b[:n], start, got, want)
					}
				}
			}
		}
	}
}

// hasUEscape is the reference of UEscaped: the escapes read one by one.
func hasUEscape(s []byte) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			if s[i+1] == 'u' {
				return true
			}
			i++
		}
	}
	return false
}

// TestSlashEscaped: a string with a \/ escape is flagged SlashEscaped,
// short or long (past the AVX2 scanner's windows), and one without is not.
func TestSlashEscaped(t *testing.T) {
	x := strings.Repeat("x", 70)
	for _, c := range []struct {
		s    string
		want bool
	}{
		{`"\/"`, true}, {`"a\/b"`, true}, {`"` + x + `\/"`, true}, {`"` + x + `\n` + x + `\/` + x + `"`, true},
		{`"` + x + x + `\\\/` + x + `"`, true}, {`"` + x + `\\/` + x + `"`, false}, {`"/` + x + `/"`, false},
		{`"` + x + `\n\t\"` + x + `"`, false}, {`"\\/"`, false},
	} {
		var tp Tape
		if err := tp.Parse([]byte(c.s)); err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		if got := tp.Nodes[0].Flags&SlashEscaped != 0; got != c.want || got != (tp.Flags&SlashEscaped != 0) {
			t.Errorf("%s: SlashEscaped %v, want %v", c.s, got, c.want)
		}
	}
}
