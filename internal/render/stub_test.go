package render

import (
	"testing"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// FuzzStubFields: stubFields finds what jsval.Get finds of each stub key,
// with the value it is told is the content jumped over or not.
func FuzzStubFields(f *testing.F) {
	for _, s := range []string{
		`{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":1700000000000}`,
		`{"toolCallId":"a","toolCallId":"b","content":"","timestamp":1,"timestamp":2.50}`,
		`{ "toolName" : "r\u0065ad" , "content" : {"timestamp":9} , "toolCall\u0049d":7 }`,
		`{"content":[1,2,3]}`, `{}`, `[]`, `{"toolCallId":`, `{"a":1,,"toolName":"x"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		obj := []byte(s)
		cs, ce := -1, -1
		if v, ok := jsval.Get(obj, "content"); ok && jsval.TypeOf(v) != jsval.Invalid {
			cs = cap(obj) - cap(v) // where the value Get found starts (v is obj[cs:ce])
			ce = cs + len(v)
		}
		for _, skip := range [][2]int{{-1, -1}, {cs, ce}} {
			vals, has := stubFields(obj, skip[0], skip[1])
			for k, key := range stubKeys {
				want, ok := jsval.Get(obj, key)
				if has[k] != ok || string(vals[k]) != string(want) {
					t.Fatalf("%q skipping %v: %s = %q %v, jsval.Get %q %v", s, skip, key, vals[k], has[k], want, ok)
				}
			}
		}
	})
}

// FuzzJSText: appendJSText appends jsText, stringView is jsval.String and
// isString its comparison, for any JSON value.
func FuzzJSText(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\u0062c"`, `1700000000000`, `-0`, `0`, `01`, `1.50`, `1e3`, `null`, `true`, `{}`, `[1]`, `"\xff"`, `"context-prune-summary"`, `"context-prune-summar\u0079"`, `-12`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := []byte(s)
		if got, want := string(appendJSText([]byte("x"), v)), "x"+jsText(v); got != want {
			t.Fatalf("%q: appendJSText %q, jsText %q", s, got, want)
		}
		if str, _ := jsval.String(v); stringView(v) != str {
			t.Fatalf("%q: stringView %q, jsval.String %q", s, stringView(v), str)
		}
		for _, want := range []string{"context-prune-summary", "abc", "0"} {
			str, ok := jsval.String(v)
			if got := isString(v, want); got != (ok && str == want) {
				t.Fatalf("%q: isString(%q) %v", s, want, got)
			}
		}
	})
}

// FuzzAppendStringBody: appendStringBody appends jsval.AppendString's
// body (no quotes) after what dst holds, an empty dst included.
func FuzzAppendStringBody(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\u2028\x01", "\xff\xfe", "<compressed-chain id=\""} {
		f.Add("x", s)
		f.Add("", s)
	}
	f.Fuzz(func(t *testing.T, prefix, s string) {
		q := jsval.AppendString(nil, s)
		want := prefix + string(q[1:len(q)-1])
		if got := string(appendStringBody([]byte(prefix), s)); got != want {
			t.Fatalf("%q + %q: %q, want %q", prefix, s, got, want)
		}
	})
}
