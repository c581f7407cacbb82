package summarize

import (
	"strings"
	"testing"
)

func TestDeterministicBash(t *testing.T) {
	out := "\n> pkg@1.0.0 build\n> tsc -p .\n" + strings.Repeat("checking module graph for cycles and unused exports\n", 200) + "\nsrc/core/index.ts(12,5): error TS2304: Cannot find name 'x'.\nsrc/util.ts(3,1): error TS1005: ';' expected.\nFound 2 errors.\n\n\nCommand exited with code 2"
	b := Batch{Calls: []Call{{ToolName: "bash", Args: `{"command":"npm run build 2>&1 | tail -n 80"}`, Result: out, IsError: true}}}
	got := Deterministic(b)
	for _, want := range []string{
		"- [[1:bash]] bash `npm run build 2>&1 | tail -n 80` — ERROR, exit 2; ",
		"  - error: src/core/index.ts(12,5): error TS2304: Cannot find name 'x'.",
		"  - error: src/util.ts(3,1): error TS1005: ';' expected.",
		"  - error: Found 2 errors.",
		"src/core/index.ts",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if Deterministic(b) != got {
		t.Fatal("not deterministic")
	}
}

func TestDeterministicRead(t *testing.T) {
	src := "package main\n\nimport \"fmt\"\n\n" + strings.Repeat("// errors are fine here, and so are failures in comments\n", 80) + "func parseArgs(args []string) error {\n\treturn fmt.Errorf(\"error\")\n}\n\ntype Options struct{}\n\nfunc (o *Options) Validate() error { return nil }\n"
	b := Batch{Calls: []Call{{ToolName: "read", Args: `{"path":"cmd/main.go","offset":10,"limit":50}`, Result: src}}}
	got := Deterministic(b)
	if !strings.HasPrefix(got, "- [[1:read]] read `cmd/main.go` (offset=10, limit=50) — OK; 92 lines, ") {
		t.Errorf("header: %s", got)
	}
	if strings.Contains(got, "error:") {
		t.Errorf("a read's code is not an error report:\n%s", got)
	}
	if !strings.Contains(got, "defines: parseArgs, Options, Validate") {
		t.Errorf("identifiers missing:\n%s", got)
	}
}

func TestDeterministicEmptyAndLabels(t *testing.T) {
	b := Batch{Calls: []Call{{ToolName: "screenshot", Args: `{}`, Result: ""}, {ToolName: "bash", Args: `{"command":"true"}`, Result: "ok"}}}
	got := Deterministic(b)
	if !strings.Contains(got, "- [[1:screenshot]] screenshot — OK; no text output") {
		t.Errorf("empty result: %s", got)
	}
	if n := ValidLabels(got, []string{"screenshot", "bash"}); n != 2 {
		t.Errorf("deterministic summary has %d valid labels, want 2", n)
	}
	sub := SubstituteLabels(got, []string{"t1", "t2"}, []string{"screenshot", "bash"})
	if strings.Contains(sub, "[[") || !strings.Contains(sub, "- `t2` bash `true`") {
		t.Errorf("substituted: %s", sub)
	}
}

func TestDeterministicStaysSmall(t *testing.T) {
	// a 50 KB read: the summary stays a small fraction of it
	var b strings.Builder
	for i := 0; b.Len() < 50000; i++ {
		b.WriteString("export function handler")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("(req: Request): Response { return new Response('src/lib/file.ts') }\n")
	}
	s := Deterministic(Batch{Calls: []Call{{ToolName: "read", Args: `{"path":"src/x.ts"}`, Result: b.String()}}})
	if len(s) > 2500 {
		t.Fatalf("summary of a 50 KB read is %d chars:\n%s", len(s), s)
	}
}

// TestDefinitionWordLengths: definedName stops at a word outside 2 to 9
// letters, the lengths of every keyword and prefix.
func TestDefinitionWordLengths(t *testing.T) {
	for _, w := range append(append([]string(nil), defKeywords...), defPrefixes...) {
		if len(w) < 2 || len(w) > 9 {
			t.Errorf("%q: definedName skips words of %d letters", w, len(w))
		}
		if !strings.Contains(defFirst, w[:1]) || !mayDefine(" \t"+w+" x") {
			t.Errorf("%q: mayDefine skips the lines it starts", w)
		}
	}
}

// FuzzNamesIn: namesIn, which passes over the lines mayDefine rules out,
// finds what definedName finds on every trimmed line.
func FuzzNamesIn(f *testing.F) {
	f.Add("func main() {\n  export default class Foo\n\u00a0def bar(x):\n\tpub(crate) fn baz\nx func y\n")
	f.Fuzz(func(t *testing.T, text string) {
		var want []string
		seen := map[string]bool{}
		lines(text, false, func(l string) bool {
			if n := definedName(l); len(n) >= 3 && !seen[n] {
				seen[n] = true
				want = append(want, n)
			}
			return len(want) < maxNames
		})
		if got := namesIn(text); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("%q: got %q, want %q", text, got, want)
		}
	})
}

func TestDefWords(t *testing.T) {
	for _, w := range defKeywords {
		if !isDefKeyword(w) || isDefPrefix(w) {
			t.Errorf("%q: a keyword", w)
		}
	}
	for _, w := range defPrefixes {
		if !isDefPrefix(w) || isDefKeyword(w) {
			t.Errorf("%q: a prefix", w)
		}
	}
}

// TestMayDefineFirstBytes: mayDefine takes a line by its first byte as
// defFirst (or a byte >= 0x80) says.
func TestMayDefineFirstBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		if strings.ContainsRune(" \t\v\f\r", rune(c)) {
			continue
		}
		want := c >= 0x80 || strings.IndexByte(defFirst, byte(c)) >= 0
		if got := mayDefine(" " + string([]byte{byte(c)}) + "x"); got != want {
			t.Errorf("%#x: mayDefine %v, want %v", c, got, want)
		}
	}
}

// TestMayDefineWord: mayDefineWord takes a line by its first two bytes
// after white space as the keywords and prefixes start (or a first byte
// >= 0x80), and defSecond holds exactly their second letters.
func TestMayDefineWord(t *testing.T) {
	var want [256]uint32
	for _, w := range append(append([]string(nil), defKeywords...), defPrefixes...) {
		want[w[0]] |= 1 << (w[1] - 'a')
	}
	if want != defSecond {
		t.Fatalf("defSecond %v, want %v", defSecond, want)
	}
	starts := map[string]bool{}
	for _, w := range append(append([]string(nil), defKeywords...), defPrefixes...) {
		starts[w[:2]] = true
	}
	for c := 0; c < 256; c++ {
		if strings.ContainsRune(" \t\v\f\r", rune(c)) {
			continue
		}
		for d := 0; d < 256; d++ {
			pair := string([]byte{byte(c), byte(d)})
			if got, want := mayDefineWord(" \t"+pair+"x"), c >= 0x80 || starts[pair]; got != want {
				t.Fatalf("%q: mayDefineWord %v, want %v", pair, got, want)
			}
		}
		if got := mayDefineWord(" " + string([]byte{byte(c)})); got != (c >= 0x80) {
			t.Fatalf("%#x alone: mayDefineWord %v", c, got)
		}
	}
}

// TestExitCodeFirstBytes: exitCode's first-byte test lets through every
// line an exit-status prefix starts.
func TestExitCodeFirstBytes(t *testing.T) {
	for _, p := range []string{"Command exited with code ", "exited with code ", "Exit code: ", "exit code: ", "Exit code ", "exit code ", "Exit status: ", "exit status: ", "Exit status ", "exit status "} {
		if code, ok := exitCode(p + "-3."); !ok || code != "-3" {
			t.Errorf("%q: exitCode %q %v", p+"-3.", code, ok)
		}
	}
}

// mayDefine is the first-byte test mayDefineWord refines (the reference
// the tests check defFirst against).
func mayDefine(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\v', '\f', '\r':
			continue
		default:
			switch c {
			case 'f', 'd', 'c', 'i', 't', 's', 'e', 'a', 'p': // defFirst
				return true
			}
			return c >= 0x80
		}
	}
	return false
}

// defFirst are the first letters of defKeywords and defPrefixes.
const defFirst = "fdcitseap"
