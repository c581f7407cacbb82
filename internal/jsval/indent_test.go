package jsval

import (
	"encoding/json"
	"testing"
)

func TestAppendIndented(t *testing.T) {
	// expected values are what node prints for JSON.stringify(JSON.parse(in), null, 2)
	cases := []struct{ in, want string }{
		{`{"command":"seq 1 3000"}`, "{\n  \"command\": \"seq 1 3000\"\n}"},
		{`{}`, `{}`},
		{`[]`, `[]`},
		{`{"a":[1,{"b":[]},{}],"c":{"d":"x,y:{z}"}}`, "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    },\n    {}\n  ],\n  \"c\": {\n    \"d\": \"x,y:{z}\"\n  }\n}"},
		{`"s"`, `"s"`},
		{` {"2":1, "1" : "\u0041"} `, "{\n  \"1\": \"A\",\n  \"2\": 1\n}"},
	}
	for _, c := range cases {
		if got := string(AppendIndented(nil, []byte(c.in), "  ")); got != c.want {
			t.Errorf("AppendIndented(%s) =\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}

// FuzzAppendIndented: the one-pass layout equals the recursive one over
// the parsed value (referenceIndent), for every valid JSON value.
func FuzzAppendIndented(f *testing.F) {
	for _, s := range []string{`{"command":"seq 1 3000"}`, `{}`, `[]`, `[[],[{}],{"a":[1,"]"]}]`,
		`{"a":[1,{"b":[]},{}],"c":{"d":"x,y:{z}"}}`, `"s"`, ` {"2":1, "1" : "\u0041"} `, `{"k":"\"{["}`, `-1.5e3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		want := string(referenceIndent(nil, Canonical([]byte(in)), "  ", 0))
		if got := string(AppendIndented(nil, []byte(in), "  ")); got != want {
			t.Fatalf("AppendIndented(%s) =\n%s\nwant\n%s", in, got, want)
		}
	})
}

// referenceIndent lays out a canonical value recursively, member by member
// (the reference of AppendIndented).
func referenceIndent(dst, v []byte, indent string, level int) []byte {
	nl := func(l int) {
		dst = append(dst, '\n')
		for i := 0; i < l; i++ {
			dst = append(dst, indent...)
		}
	}
	switch TypeOf(v) {
	case Arr:
		els, _ := Elements(v)
		if len(els) == 0 {
			return append(dst, '[', ']')
		}
		dst = append(dst, '[')
		for i, el := range els {
			if i > 0 {
				dst = append(dst, ',')
			}
			nl(level + 1)
			dst = referenceIndent(dst, el, indent, level+1)
		}
		nl(level)
		return append(dst, ']')
	case Obj:
		ms, _ := Members(v)
		if len(ms) == 0 {
			return append(dst, '{', '}')
		}
		dst = append(dst, '{')
		for i, m := range ms {
			if i > 0 {
				dst = append(dst, ',')
			}
			nl(level + 1)
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':', ' ')
			dst = referenceIndent(dst, m.Value, indent, level+1)
		}
		nl(level)
		return append(dst, '}')
	}
	return append(dst, v...)
}
