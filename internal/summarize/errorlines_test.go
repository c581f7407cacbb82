package summarize

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// errorLinesPerWord is errorLines as it was before the one-pass scan: a
// search of the lower-cased text per error word (its first maxErrLines
// whole-word occurrences mark their lines), then the lines in order. The
// differential test and fuzz target hold errorLines to it.
func errorLinesPerWord(text string) []string {
	lower := asciiLower(text)
	starts := map[int]bool{}
	for _, w := range errorWords {
		found := 0
		for off := 0; found < maxErrLines; {
			i := strings.Index(lower[off:], w)
			if i < 0 {
				break
			}
			i += off
			off = i + len(w)
			if (i > 0 && isWordByte(lower[i-1])) || (off < len(lower) && isWordByte(lower[off]) && isWordByte(w[len(w)-1])) {
				continue
			}
			starts[strings.LastIndexByte(text[:i], '\n')+1] = true
			found++
		}
	}
	var out []string
	seen := map[string]bool{}
	off := 0
	lines(text, false, func(t string) bool {
		start := off
		if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
			off += i + 1
		} else {
			off = len(text)
		}
		if t == "" || seen[t] {
			return true
		}
		_, exit := exitCode(t)
		if exit || !(starts[start] || failStart(t)) {
			return true
		}
		seen[t] = true
		out = append(out, t)
		return len(out) < maxErrLines
	})
	return out
}

// asciiLower lowercases ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// resultTexts are the text blocks of every toolResult in the shipped
// sessions (testdata/**/*.jsonl), joined per result as resultText joins
// them.
func resultTexts(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var e struct {
				Message struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Message.Role != "toolResult" {
				continue
			}
			var blocks []struct{ Type, Text string }
			if json.Unmarshal(e.Message.Content, &blocks) != nil {
				continue
			}
			var texts []string
			for _, b := range blocks {
				if b.Type == "text" {
					texts = append(texts, b.Text)
				}
			}
			if s := strings.Join(texts, "\n"); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		f.Close()
	}
	return out
}

// TestErrorLinesIsThePerWordSearch: over every distinct result text of the
// shipped sessions (and each with its case swapped, and cut into its last
// lines, where the per-word caps fall differently), the one-pass scan finds
// the same lines as the per-word search.
func TestErrorLinesIsThePerWordSearch(t *testing.T) {
	texts := resultTexts(t)
	if len(texts) < 500 {
		t.Fatalf("only %d result texts in testdata", len(texts))
	}
	hits := 0
	for _, text := range texts {
		variants := []string{text, strings.ToUpper(text), swapCase(text)}
		if i := strings.Index(text, "\n"); i >= 0 {
			variants = append(variants, text[i+1:])
		}
		for _, v := range variants {
			got, want := errorLines(v), errorLinesPerWord(v)
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
				t.Fatalf("errorLines(%.200q) = %q, the per-word search %q", v, got, want)
			}
			if len(got) > 0 {
				hits++
			}
		}
	}
	if hits < 100 {
		t.Fatalf("only %d texts with error lines: the test does not reach the words", hits)
	}
}

// TestErrorWordsStarting: the first-letter table lists each error word
// under its first letter, once.
func TestErrorWordsStarting(t *testing.T) {
	n := 0
	for c := byte('a'); c <= 'z'; c++ {
		ks := errorWordsStarting(c)
		for j := 0; j < len(ks); j++ {
			if w := errorWords[ks[j]]; w[0] != c {
				t.Errorf("%q listed under %q", w, c)
			}
			n++
		}
	}
	if n != len(errorWords) {
		t.Errorf("%d words listed, %d error words", n, len(errorWords))
	}
}

func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

// FuzzErrorLines: the one-pass scan and the per-word search agree on any
// text (seeded with error lines at the caps' edges).
func FuzzErrorLines(f *testing.F) {
	f.Add("error: a\nerror: a\nerror: a\nERROR: b\nfailed\n")
	f.Add("xerror\nerrors:\nerr!x\ncould not, couldn't\nnot found\n\nno such file\nE123 x\nFAIL y\nexit code: 1\n")
	f.Add("panic: x\r\n  Traceback\ttimed out\nsegmentation fault_\nundefined-refused denied")
	f.Fuzz(func(t *testing.T, text string) {
		got, want := errorLines(text), errorLinesPerWord(text)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("errorLines(%q) = %q, the per-word search %q", text, got, want)
		}
	})
}

// BenchmarkErrorLines: the one-pass scan over the shipped sessions' result
// texts (…/perword: the per-word search it replaced).
func BenchmarkErrorLines(b *testing.B) {
	texts := resultTexts(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	for _, bc := range []struct {
		name string
		fn   func(string) []string
	}{{"onepass", errorLines}, {"perword", errorLinesPerWord}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range texts {
					bc.fn(t)
				}
			}
		})
	}
}

// TestWordBytes: the table is [A-Za-z0-9_].
func TestWordBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
		if isWordByte(b) != want {
			t.Errorf("isWordByte(%q) = %v", b, !want)
		}
	}
}

// TestWordMask: wordMask flags exactly the bytes isWordByte takes, each
// byte value at each position beside every other.
func TestWordMask(t *testing.T) {
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			for k := 0; k < 8; k++ {
				var b [8]byte
				for j := range b {
					b[j] = byte(d)
				}
				b[k] = byte(c)
				var want uint64
				for j, x := range b {
					if isWordByte(x) {
						want |= 0x80 << (8 * j)
					}
				}
				if got := wordMask(binary.LittleEndian.Uint64(b[:])); got != want {
					t.Fatalf("% x: wordMask %#x, want %#x", b, got, want)
				}
			}
		}
	}
}

// TestErrorSecond: the table holds exactly the first two letters of the
// error words.
func TestErrorSecond(t *testing.T) {
	var want [256]uint32
	for _, w := range errorWords {
		if w[0] < 'a' || w[0] > 'z' || w[1] < 'a' || w[1] > 'z' {
			t.Fatalf("%q does not start with two lower-case letters", w)
		}
		want[w[0]] |= 1 << (w[1] - 'a')
	}
	if want != errorSecond {
		t.Fatalf("errorSecond %v, want %v", errorSecond, want)
	}
}

// BenchmarkNamesIn: the definitions found in the shipped sessions' result
// texts.
func BenchmarkNamesIn(b *testing.B) {
	texts := resultTexts(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			namesIn(t)
		}
	}
}

// namesEveryLine is namesIn's simple definition: definedName of every
// trimmed line, the first maxNames distinct names of three bytes or more.
func namesEveryLine(text string) []string {
	var out []string
	lines(text, false, func(l string) bool {
		if n := definedName(l); len(n) >= 3 && !slicesContains(out, n) {
			out = append(out, n)
		}
		return len(out) < maxNames
	})
	return out
}

// checkScanLines fails t unless the one pass over text finds what the
// per-word search and namesEveryLine find, with names and without; it
// reports whether the pass left names to defines.
func checkScanLines(t testing.TB, text string) bool {
	t.Helper()
	wantErrs, wantNames := errorLinesPerWord(text), namesEveryLine(text)
	sc := scanLines(text, true)
	left := sc.namesFrom >= 0
	if got := sc.errs; strings.Join(got, "\x00") != strings.Join(wantErrs, "\x00") || len(got) != len(wantErrs) {
		t.Fatalf("scanLines(%.200q).errs = %q, the per-word search %q", text, got, wantErrs)
	}
	if got := sc.defines(text); strings.Join(got, "\x00") != strings.Join(wantNames, "\x00") || len(got) != len(wantNames) {
		t.Fatalf("scanLines(%.200q).defines = %q, every line's %q", text, got, wantNames)
	}
	if got := sc.defines(text); strings.Join(got, "\x00") != strings.Join(wantNames, "\x00") {
		t.Fatalf("scanLines(%.200q).defines a second time = %q, want %q", text, got, wantNames)
	}
	if sc := scanLines(text, false); len(sc.names) > 0 || sc.namesFrom >= 0 || strings.Join(sc.errs, "\x00") != strings.Join(wantErrs, "\x00") {
		t.Fatalf("scanLines(%.200q, false) = %q, names %q from %d", text, sc.errs, sc.names, sc.namesFrom)
	}
	return left
}

// TestScanLinesIsErrorLinesAndNamesIn: over every distinct result text of
// the shipped sessions, each also cut at its first eight bytes (every
// alignment of its lines to the pass's words), its case swapped, and with
// definitions after error lines (names found in the pass, and after it by
// defines), the fused pass finds the error lines and the names the simple
// definitions find.
func TestScanLinesIsErrorLinesAndNamesIn(t *testing.T) {
	texts := resultTexts(t)
	defs := "\nfunc alpha() {}\nerror: one\n  type Beta struct{}\nFAIL two\nexport default class Gamma\nE123 three\ndef delta(x):\nfn epsilon\n"
	resumed, named := 0, 0
	for _, text := range texts {
		variants := []string{text, swapCase(text), defs + text, text + defs + defs}
		for k := 1; k < 8 && k < len(text); k++ {
			variants = append(variants, text[k:])
		}
		for _, v := range variants {
			if checkScanLines(t, v) {
				resumed++
			}
			if len(namesIn(v)) > 0 {
				named++
			}
		}
	}
	if resumed < 50 || named < 100 {
		t.Fatalf("%d texts left names to defines, %d define names: the test does not reach them", resumed, named)
	}
}

// FuzzScanLines: the fused pass and the simple definitions agree on any
// text.
func FuzzScanLines(f *testing.F) {
	f.Add("func a() {}\nerror: x\nerror: x\nerror: y\nFAIL z\ntype Bee struct\n")
	f.Add("xerror\nerrors:\nerr!x\ncould not, couldn't\nnot found\n\nno such file\nE123 x\nFAIL y\nexit code: 1\n")
	f.Add("panic: x\r\n  Traceback\ttimed out\nsegmentation fault_\nundefined-refused denied\n\u00a0def foo(x):")
	f.Fuzz(func(t *testing.T, text string) {
		checkScanLines(t, text)
	})
}
