package summarize

import (
	"strconv"
	"strings"
	"testing"
)

// deterministicRef is Deterministic as it was before it wrote its summary
// into one buffer (a line per string, joined): the differential tests'
// reference.
func deterministicRef(b Batch) string {
	var out []string
	for i, c := range b.Calls {
		out = append(out, callSummaryRef(i+1, c, b.Cwd)...)
	}
	return strings.Join(out, "\n")
}

func callSummaryRef(n int, c Call, cwd string) []string {
	key := keyArg(c.ToolName, c.Args, cwd)
	text := c.Result
	exit, aborted := exitStatus(text)
	head := "- " + Label(n, c.ToolName) + " " + c.ToolName
	if key != "" {
		head += " " + key
	}
	status := "OK"
	if c.IsError {
		status = "ERROR"
	}
	switch {
	case aborted:
		status += ", aborted"
	case exit != "":
		status += ", exit " + exit
	}
	size := c.Chars
	if size == 0 {
		size = JSLen(text)
	}
	if size == 0 {
		head += " — " + status + "; no text output"
		return []string{head}
	}
	head += " — " + status + "; " + strconv.Itoa(strings.Count(text, "\n")+1) + " lines, " + strconv.Itoa(size) + " chars"
	out := []string{head}

	budget := size / budgetDivide
	add := func(s string) bool {
		if JSLen(s) > budget {
			return false
		}
		out = append(out, s)
		budget -= JSLen(s)
		return true
	}
	first, last, count := meaningful(text)
	shown := map[string]bool{}
	quote := func(kind, line string) {
		if l := clip(line, maxLine); !shown[l] {
			shown[l] = true
			add("  - " + kind + ": " + l)
		}
	}
	file := isFileTool(c.ToolName, c.Args)
	if c.IsError || !file {
		errs := errorLines(text)
		if len(errs) == 0 && c.IsError && count > 0 {
			errs = []string{first}
		}
		for i, e := range errs {
			if i == 0 && c.IsError && JSLen(e) > budget {
				budget = JSLen("  - error: " + clip(e, maxLine)) // an error's first line is always kept
			}
			quote("error", e)
		}
	}
	const enough = 24 // budget under which a list is not worth scanning for
	paths := func() {
		if budget < enough {
			return
		}
		if ps := pathsIn(text, key, cwd); len(ps) > 0 {
			add("  - paths: " + strings.Join(ps, ", "))
		}
	}
	names := func() {
		if budget < enough {
			return
		}
		if ns := namesIn(text); len(ns) > 0 {
			add("  - defines: " + strings.Join(ns, ", "))
		}
	}
	switch {
	case count == 1:
		quote("only", first)
		paths()
	case count > 1 && file:
		// a file: how it starts and ends, what it defines
		quote("first", first)
		quote("last", last)
		names()
		paths()
	case count > 1:
		// a command's output: how it ended matters most (its first line is
		// mostly the command or a banner echoed)
		quote("last", last)
		paths()
		names()
	}
	return out
}

// FuzzDeterministicRef: Deterministic writes what deterministicRef
// joins, byte for byte.
func FuzzDeterministicRef(f *testing.F) {
	long := strings.Repeat("checking module graph — ünused exports\n", 60)
	f.Add("bash", `{"command":"npm run build"}`, "\n> tsc\n"+long+"src/a.ts(1,2): error TS1: x\nFound 1 error.\n\nCommand exited with code 2", true, 0, "/w")
	f.Add("read", `{"path":"/w/cmd/main.go","offset":10,"limit":50}`, "package main\n"+long+"func F() {}\ntype T struct{}\n", false, 0, "/w")
	f.Add("bash", `{"command":"cd /w && cat <<'EOF'\n`+strings.Repeat("x y\\n", 100)+`EOF"}`, "ok\nerror: a\nerror: a\nFAIL b\nE123 c\n"+long, false, 0, "/w")
	f.Add("grep", `{"pattern":"x","path":"/w/src"}`, "/w/src/a.go:1: x\n/w/src/b.go:2: x\nsee https://x.y/z and ./a/b.c\n"+long, false, 7, "/w")
	f.Add("screenshot", `{}`, "", false, 0, "")
	f.Add("bash", `{"command":"true"}`, "only line", true, 0, "")
	f.Fuzz(func(t *testing.T, tool, args, result string, isErr bool, chars int, cwd string) {
		b := Batch{Calls: []Call{{ToolName: tool, Args: args, Result: result, IsError: isErr, Chars: chars}, {ToolName: tool, Args: "{}", Result: result}}, Cwd: cwd}
		if got, want := Deterministic(b), deterministicRef(b); got != want {
			t.Fatalf("Deterministic:\n%s\nthe reference:\n%s", got, want)
		}
	})
}

// FuzzHeaderOnly: a call HeaderOnly says is summarised by its header alone
// is, by the reference (no sub-bullet line), and its summary from
// FactsOf(its text), the text not given, is the one from the text.
func FuzzHeaderOnly(f *testing.F) {
	f.Add("bash", `{"command":"make"}`, "a\nCommand exited with code 2", false, "/w")
	f.Add("bash", `{"command":"sleep 9"}`, "\n\nCommand aborted\n\n", false, "/w")
	f.Add("bash", `{"command":"x"}`, strings.Repeat("é", 219)+"\n\nexit code: -1.", false, "")
	f.Add("bash", `{"command":"x"}`, "é\n"+strings.Repeat(" ", 218), false, "")
	f.Add("read", `{"path":"/w/a"}`, strings.Repeat("ab\n", 73)+"c", false, "/w")
	f.Add("bash", `{"command":"x"}`, "error: x", true, "")
	f.Fuzz(func(t *testing.T, tool, args, result string, isErr bool, cwd string) {
		chars := JSLen(result)
		c := Call{ToolName: tool, Args: args, Result: result, IsError: isErr, Chars: chars}
		if !HeaderOnly(chars, isErr) {
			return
		}
		ref := deterministicRef(Batch{Calls: []Call{c}, Cwd: cwd})
		if strings.Contains(ref, "\n  - ") {
			t.Fatalf("HeaderOnly, but the reference has sub-bullets:\n%s", ref)
		}
		facts := FactsOf(result)
		byFacts := c
		byFacts.Result, byFacts.Facts = "", &facts
		if got := Deterministic(Batch{Calls: []Call{byFacts, c}, Cwd: cwd}); got != Deterministic(Batch{Calls: []Call{c, c}, Cwd: cwd}) {
			t.Fatalf("from its facts:\n%s\nfrom its text:\n%s", got, Deterministic(Batch{Calls: []Call{c, c}, Cwd: cwd}))
		}
	})
}

// BenchmarkDeterministic: the shipped sessions' result texts summarised
// as a command's output and as a file read, one call a batch, their
// lengths known (as the flush knows them from the read): MB/s of text, and
// µs a text.
func BenchmarkDeterministic(b *testing.B) {
	texts := resultTexts(b)
	n := 0
	chars := make([]int, len(texts))
	for i, t := range texts {
		n += len(t)
		chars[i] = JSLen(t)
	}
	for _, tool := range []string{"bash", "read"} {
		b.Run(tool, func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				for i, t := range texts {
					Deterministic(Batch{Calls: []Call{{ToolName: tool, Args: `{"command":"make","path":"/w/a.go"}`, Result: t, Chars: chars[i]}}, Cwd: "/w"})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(texts)), "µs/text")
		})
	}
}
