package jsval

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendNumberMatchesJavaScript(t *testing.T) {
	// expected values are what node prints for String(x)
	cases := []struct {
		in   float64
		want string
	}{
		{1796116303987, "1796116303987"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{-5, "-5"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{0.30000000000000004, "0.30000000000000004"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1.2345678901234568e20, "123456789012345680000"},
		{0.000001, "0.000001"},
		{1e-7, "1e-7"},
		{1.23e-18, "1.23e-18"},
		{9007199254740993, "9007199254740992"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{-2.5e-8, "-2.5e-8"},
		{123.456, "123.456"},
		{math.Inf(1), "null"},
		{math.NaN(), "null"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.in); got != c.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"b":1,"a":2}`},
		{`{"b":1,"2":"x","a":2,"1":"y"}`, `{"1":"y","2":"x","b":1,"a":2}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"01":1,"1":2}`, `{"1":2,"01":1}`},
		{` [ 1 , 2.50 , -0 , 1E3 , 1e400 ] `, `[1,2.5,0,1000,null]`},
		{`"a\/b\u0041\u00e9\u001f\u0008\ud83d\ude00\ud83d"`, `"a/bAé\u001f\b😀�"`},
		{`"\udc00 \ud83d\u0041"`, `"� �A"`},
		{`"\"\\\n"`, `"\"\\\n"`},
		{`{"k":{"z":[true,false,null,{}]}}`, `{"k":{"z":[true,false,null,{}]}}`},
		{`{}`, `{}`},
		{`[]`, `[]`},
	}
	for _, c := range cases {
		if got := string(Canonical([]byte(c.in))); got != c.want {
			t.Errorf("Canonical(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestGetIsExactAndLastWins(t *testing.T) {
	obj := []byte(`{"toolCallID":"wrong","toolCallId":"a","x":{"toolCallId":"inner"},"toolCallId":"b"}`)
	v, ok := Get(obj, "toolCallId")
	if !ok || string(v) != `"b"` {
		t.Fatalf("Get = %s %v, want \"b\"", v, ok)
	}
	if _, ok := Get(obj, "toolcallid"); ok {
		t.Fatal("Get matched a key of another case")
	}
	if _, ok := Get([]byte(`[1]`), "a"); ok {
		t.Fatal("Get on an array")
	}
}

func TestTypeAndScalars(t *testing.T) {
	if s, ok := String([]byte(`"x\ty\u00e9"`)); !ok || s != "x\tyé" {
		t.Fatalf("String = %q %v", s, ok)
	}
	if _, ok := String([]byte(`12`)); ok {
		t.Fatal("String accepted a number")
	}
	if f, ok := Number([]byte(` 12.5 `)); !ok || f != 12.5 {
		t.Fatalf("Number = %v %v", f, ok)
	}
	if _, ok := Number([]byte(`"12"`)); ok {
		t.Fatal("Number accepted a string")
	}
	for v, want := range map[string]bool{`0`: false, `""`: false, `null`: false, `false`: false, `"0"`: true, `[]`: true, `{}`: true, `-1`: true, ``: false} {
		if got := Truthy([]byte(v)); got != want {
			t.Errorf("Truthy(%s) = %v", v, got)
		}
	}
	if UTF16Len("a😀é") != 4 {
		t.Fatal("UTF16Len")
	}
	if RawUTF16Len([]byte(`"😀"`)) != 4 {
		t.Fatal("RawUTF16Len")
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c\u0041"}],"1":null}`, `"\ud83d"`, `1e21`, `[-0.0,1E-7]`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		out := Canonical(in)
		if !json.Valid(out) {
			t.Fatalf("Canonical(%q) = %q: not valid JSON", in, out)
		}
		if again := Canonical(out); string(again) != string(out) {
			t.Fatalf("not idempotent: %q → %q → %q", in, out, again)
		}
		var a, b any
		if json.Unmarshal(in, &a) == nil && json.Unmarshal(out, &b) == nil && !reflect.DeepEqual(a, b) && !hasSurrogateEscape(in) && utf8.Valid(in) {
			t.Fatalf("meaning changed: %q → %q", in, out)
		}
	})
}

// hasSurrogateEscape: encoding/json and JSON.parse disagree on lone
// surrogates (U+FFFD vs kept), so such inputs are compared only for validity;
// so are inputs with invalid UTF-8 (encoding/json makes each bad byte a
// U+FFFD, jsval a run of them, as pruner reads a line).
func hasSurrogateEscape(b []byte) bool {
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '\\' && b[i+1] == 'u' && (b[i+2]|0x20) == 'd' {
			return true
		}
	}
	return false
}

func TestAppendIndentMatchesJSONStringify(t *testing.T) {
	// node: JSON.stringify(JSON.parse(in), null, 2)
	in := `{"path":"a.txt","n":[1,{"x":[]},{}],"o":{"k":"v"},"2":true}`
	want := "{\n  \"2\": true,\n  \"path\": \"a.txt\",\n  \"n\": [\n    1,\n    {\n      \"x\": []\n    },\n    {}\n  ],\n  \"o\": {\n    \"k\": \"v\"\n  }\n}"
	if got := string(AppendIndented(nil, []byte(in), "  ")); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(AppendIndented(nil, []byte(`"s"`), "  ")); got != `"s"` {
		t.Fatalf("scalar: %s", got)
	}
}

func TestUTF16LenMatchesRange(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghi", "héllo wörld, and more ascii after it", "😀", "ab😀cdefghijklmn😀", "\xff\xfe abcdefghijk \xc3", strings.Repeat("x", 100) + "€" + strings.Repeat("y", 9)} {
		want := 0
		for _, r := range s {
			want++
			if r >= 0x10000 {
				want++
			}
		}
		if got := UTF16Len(s); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// appendCanonicalStringByByte is appendCanonicalString as first written, a
// byte at a time: the reference for the one that copies runs.
func appendCanonicalStringByByte(dst, v []byte) []byte {
	body := v[1 : len(v)-1]
	dst = append(dst, '"')
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			switch body[i+1] {
			case 'u':
				r, n, ok := unicodeEscape(body[i:])
				if !ok {
					dst = append(dst, body[i:i+2]...)
					i += 2
					continue
				}
				switch {
				case r < utf8.RuneSelf:
					dst = appendEscapedASCII(dst, byte(r))
				case r >= 0xD800 && r <= 0xDFFF: // a lone surrogate
					dst = append(dst, "\uFFFD"...)
				default:
					dst = utf8.AppendRune(dst, r)
				}
				i += n
			case '/':
				dst = append(dst, '/')
				i += 2
			default:
				dst = append(dst, body[i:i+2]...)
				i += 2
			}
		case c < utf8.RuneSelf:
			dst = appendEscapedASCII(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, body[i:i+size]...)
			}
			i += size
		}
	}
	return append(dst, '"')
}

func FuzzCanonicalString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\u0041\/\n\"\\"`, "\"\xff\xfe bad \xe2\x82\"", `"\ud800\udc00\ud83d"`, `"é€😀"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 2 || in[0] != '"' || in[len(in)-1] != '"' {
			return
		}
		if got, want := appendCanonicalString(nil, in), appendCanonicalStringByByte(nil, in); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", in, got, want)
		}
	})
}

func TestGetString(t *testing.T) {
	obj := []byte(`{"a":"x","A":"case","b":1,"a":"last \u00e9","n":null}`)
	for _, c := range []struct {
		key, want string
		ok        bool
	}{{"a", "last é", true}, {"A", "case", true}, {"b", "", false}, {"n", "", false}, {"missing", "", false}} {
		if got, ok := GetString(obj, c.key); got != c.want || ok != c.ok {
			t.Errorf("GetString(%q) = %q, %v; want %q, %v", c.key, got, ok, c.want, c.ok)
		}
	}
}

// appendObjectByMap is AppendObject as first written (every object's
// duplicates found through a map): the reference for the small-object path.
func appendObjectByMap(dst []byte, ms []Member) []byte {
	pos := make(map[string]int, len(ms))
	order := make([]Member, 0, len(ms))
	for _, m := range ms {
		if i, ok := pos[m.Key]; ok {
			order[i].Value = m.Value
			continue
		}
		pos[m.Key] = len(order)
		order = append(order, m)
	}
	var ints, rest []Member
	for _, m := range order {
		if _, ok := arrayIndex(m.Key); ok {
			ints = append(ints, m)
		} else {
			rest = append(rest, m)
		}
	}
	sort.SliceStable(ints, func(a, b int) bool {
		x, _ := arrayIndex(ints[a].Key)
		y, _ := arrayIndex(ints[b].Key)
		return x < y
	})
	dst = append(dst, '{')
	for i, m := range append(ints, rest...) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = AppendCanonical(dst, m.Value)
	}
	return append(dst, '}')
}

func FuzzAppendObject(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":2,"a":3}`, `{"a":1,"b":[{"c":-0.0}],"007":2,"4294967295":3}`, `{"a\u0062":1,"\u00e9":2}`, `{ "a" : 1 , "b":"x\/y" }`, `{"2":1,"b":2,"1":3,"2":4}`, `{"x":{"y":1,"y":2},"z":[{"q":1,"q":{}}]}`, `{}`,
		`{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1,"o":1,"p":1,"q":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ms, ok := Members(in)
		if !ok || !json.Valid(in) {
			return
		}
		before := append([]Member(nil), ms...)
		got, want := AppendObject(nil, ms), appendObjectByMap(nil, ms)
		if string(got) != string(want) {
			t.Fatalf("AppendObject(%q) = %q, want %q", in, got, want)
		}
		if !reflect.DeepEqual(before, ms) {
			t.Fatalf("AppendObject changed its members")
		}
		if got, ok := appendPlainObject([]byte("x"), in); ok && string(got) != "x"+string(want) {
			t.Fatalf("appendPlainObject(%q) = %q, want %q", in, got[1:], want)
		} else if !ok && string(got) != "x" {
			t.Fatalf("appendPlainObject(%q) declined but wrote %q", in, got)
		}
	})
}

func FuzzPlainInteger(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-12", "007", "123456789012345", "1234567890123456", "1.0", "1e3", "-", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !plainInteger([]byte(s)) {
			return
		}
		n, ok := Number([]byte(s))
		if !ok {
			t.Fatalf("plainInteger(%q) but not a number", s)
		}
		if got := string(AppendNumber(nil, n)); got != s {
			t.Fatalf("plainInteger(%q) but JavaScript writes %q", s, got)
		}
	})
}

// AppendStringValue is String appended to a buffer: the same bytes and ok
// for every input, whatever the buffer held before.
func FuzzAppendStringValue(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\u00e9\ud83d\ude00"`, `"lone \ud800 x"`, `"bad \q"`, `"\"`, `"\xff\xfe"`, ` "sp" `, `12`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		want, wok := String(v)
		got, ok := AppendStringValue([]byte("pre"), v)
		if ok != wok || (ok && string(got) != "pre"+want) || (!ok && string(got) != "pre") {
			t.Fatalf("AppendStringValue(%q) = %q, %v; String = %q, %v", v, got, ok, want, wok)
		}
	})
}

// TestPlainWord: plainWord is true exactly when each of the eight bytes is
// printable ASCII other than a quote or a backslash.
func TestPlainWord(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	var w [8]byte
	for i := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0xff, 0x21, 0x5d, 0x5b, 0x23} {
				for k := range w {
					w[k] = fill
				}
				w[i] = byte(c)
				want := true
				for _, b := range w {
					want = want && plain(b)
				}
				if got := plainWord(binary.LittleEndian.Uint64(w[:])); got != want {
					t.Fatalf("%q: got %v", w, got)
				}
			}
		}
	}
}
