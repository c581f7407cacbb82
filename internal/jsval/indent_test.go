package jsval

import "testing"

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
