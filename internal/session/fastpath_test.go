package session

import (
	"strings"
	"testing"
	"unicode/utf8"

	stdjson "encoding/json"

	json "github.com/goccy/go-json"
)

func FuzzJSONStringChars(f *testing.F) {
	for _, s := range []string{`""`, `"abc"`, `"a\nb"`, `"\\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\udc00x"`, "\"a\xffb\"", "\"é\\\"\"", `"[pruner: x"`, `"\u005bpruner: x"`, `"\\\\ud83d"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var s string
		if len(raw) < 2 || raw[0] != '"' || skipString([]byte(raw), 0) != len(raw) || json.Unmarshal([]byte(raw), &s) != nil {
			return
		}
		if got, want := jsonStringChars([]byte(raw)), utf8.RuneCountInString(s); got != want {
			t.Errorf("jsonStringChars(%q) = %d, want %d", raw, got, want)
		}
		for _, p := range []string{NoticePrefix, "Subagent "} {
			if got, want := rawHasPrefix([]byte(raw), p), strings.HasPrefix(s, p); got != want {
				t.Errorf("rawHasPrefix(%q, %q) = %v, want %v", raw, p, got, want)
			}
		}
		if got, want := RuneCount([]byte(raw)), utf8.RuneCountInString(raw); got != want {
			t.Errorf("RuneCount(%q) = %d, want %d", raw, got, want)
		}
	})
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5e-3,-0,true,false,null,"x\u00e9\n"]}`, `[`, `{"a":1,}`, `{"a" 1}`, `01`, `"\x01"`, `{"a":"\ud83d"} `, `{} {}`, `[[[]]]`, `1.`, `-`, `"\q"`, `["\\ud83d", {"a\uD800":[]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var tp tape
		tp.reset([]byte(s))
		got := validJSON(tp.line, &tp)
		if got {
			for k, st := range tp.starts {
				if e := skipValue(tp.line, int(st)); e != int(tp.ends[k]) {
					t.Errorf("validJSON(%q): container at %d ends at %d, skipValue says %d", s, st, tp.ends[k], e)
				}
			}
			if ud := indexSurrogateEscape(tp.line) >= 0; ud != tp.ud {
				t.Errorf("validJSON(%q): ud = %v, indexSurrogateEscape says %v", s, tp.ud, ud)
			}
		}
		if want := stdjson.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json says %v", s, got, want)
		}
		if got && !json.Valid([]byte(s)) {
			t.Errorf("validJSON(%q) = true, goccy says invalid", s)
		}
	})
}
