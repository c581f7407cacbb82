package summarize

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// keyArgMap is keyArg as it was first written, over a decoded map: the
// reference keyArg (which reads the JSON without decoding it) must match.
func keyArgMap(args, cwd string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range keyArgNames {
		s, ok := m[k].(string)
		if !ok || s == "" {
			continue
		}
		s = relative(oneLine(s), cwd)
		out := "`" + clip(s, maxKeyArg) + "`"
		if k == "path" || k == "file_path" || k == "filePath" {
			var extra []string
			for _, x := range []string{"offset", "limit"} {
				if v, ok := m[x].(float64); ok {
					extra = append(extra, x+"="+strconv.FormatFloat(v, 'f', -1, 64))
				}
			}
			if len(extra) > 0 {
				out += " (" + strings.Join(extra, ", ") + ")"
			}
		}
		return out
	}
	if len(m) == 0 {
		return ""
	}
	if JSLen(args) <= 80 {
		return "`" + args + "`"
	}
	return ""
}

// FuzzKeyArg: keyArg agrees with the map-decoding reference on every valid
// JSON input.
func FuzzKeyArg(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `[]`, `"x"`, `3`, `{"command":"ls -la"}`, `{"path":"/w/a.go","offset":10,"limit":2.5}`,
		`{"path":"a","path":"b"}`, `{"path":""}`, `{"command":7,"cmd":"x"}`, `{"pa\u0074h":"esc"}`, `{"path":"\ud800 lone"}`,
		"{\"path\":\"bad \xff utf8\"}", `{"query":"q","offset":1e308}`, `{"x":1}`, `{"pattern":"` + strings.Repeat("a", 300) + `"}`,
		`{"command":"cd /w && make\nand more"}`, `{"file_path":"/w/x","limit":-0}`} {
		f.Add(s, "/w")
	}
	f.Fuzz(func(t *testing.T, args, cwd string) {
		var v any
		if json.Unmarshal([]byte(args), &v) != nil {
			return // keyArg reads JSON.stringify output: valid, numbers in range
		}
		if got, want := keyArg("tool", args, cwd), keyArgMap(args, cwd); got != want {
			t.Errorf("keyArg(%q) = %q, want %q", args, got, want)
		}
	})
}

func TestKeyArgIndex(t *testing.T) {
	for i, k := range keyArgNames {
		if got := keyArgIndex([]byte(`"` + k + `"`)); got != i {
			t.Errorf("keyArgIndex(%q) = %d, want %d", k, got, i)
		}
	}
	for k, want := range map[string]int{`"offset"`: argOffset, `"limit"`: argLimit, `"lim\u0069t"`: argLimit, `"x"`: -1, `""`: -1} {
		if got := keyArgIndex([]byte(k)); got != want {
			t.Errorf("keyArgIndex(%s) = %d, want %d", k, got, want)
		}
	}
}

// FuzzKeyText: keyText, which folds only the head of a long argument, is
// clip(relative(oneLine(s), cwd), maxKeyArg).
func FuzzKeyText(f *testing.F) {
	long := strings.Repeat("echo  \t hello — wörld 😀\n", 40)
	for _, s := range []string{"ls", "a\nb", "cd /w && cat <<'EOF'\n" + long + "EOF", "cd \"/w\" && \n" + long, "/w/" + long,
		strings.Repeat(" \n", 300) + "x", strings.Repeat("\u00a0\u2028", 200) + "\n" + long, "\xff\xfe\n" + strings.Repeat("\xe2\x82", 200)} {
		f.Add(s, "/w")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, s, cwd string) {
		if got, want := keyText(s, cwd), clip(relative(oneLine(s), cwd), maxKeyArg); got != want {
			t.Errorf("keyText(%q, %q) = %q, want %q", s, cwd, got, want)
		}
	})
}

// FuzzJSLenAtMost: jsLenAtMost is JSLen(s) <= n.
func FuzzJSLenAtMost(f *testing.F) {
	f.Add("😀😀a", 4)
	f.Add("\xff\xfeé", 2)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1000 {
			return
		}
		if got, want := jsLenAtMost(s, n), JSLen(s) <= n; got != want {
			t.Fatalf("jsLenAtMost(%q, %d) = %v, want %v", s, n, got, want)
		}
	})
}
