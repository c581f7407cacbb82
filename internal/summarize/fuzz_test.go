package summarize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSubstituteLabels: whatever a summariser prints, no well-formed label
// is left outside a code fence, valid UTF-8 stays valid, and a line-leading
// label of a call becomes exactly its ref.
func FuzzSubstituteLabels(f *testing.F) {
	f.Add("- [[1:bash]] ran\n[[2:read]] read\n```\n[[1:bash]]\n```", "bash", "read")
	f.Add("**[[1:bash]]** x [[9:zz]] y", "bash", "")
	f.Fuzz(func(t *testing.T, text, a, b string) {
		names := []string{a, b}
		out := SubstituteLabels(text, []string{"t1", "t2"}, names)
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of valid input")
		}
		inFence := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, isJSSpace), "```") {
				inFence = !inFence
				continue
			}
			if !inFence && anyLabel().MatchString(l) {
				t.Fatalf("a label survived: %q (from %q)", l, text)
			}
		}
	})
}

// FuzzDeterministic: any batch summarises without panicking, to valid
// UTF-8, with exactly one line-leading label per call, in order.
func FuzzDeterministic(f *testing.F) {
	f.Add("bash", `{"command":"ls"}`, "a\nb\nerror: x\nCommand exited with code 1", true)
	f.Add("read", `{"path":"/p/a.go"}`, "package a\nfunc F() {}\n", false)
	f.Fuzz(func(t *testing.T, tool, args, result string, isErr bool) {
		if strings.ContainsAny(tool, "[]\n") || tool == "" {
			return // tool names come from pi; labels cannot hold these
		}
		b := Batch{Calls: []Call{{ToolName: tool, Args: args, Result: result, IsError: isErr}, {ToolName: tool, Args: "{}", Result: result}}, Cwd: "/p"}
		s := Deterministic(b)
		if utf8.ValidString(result) && utf8.ValidString(args) && utf8.ValidString(tool) && !utf8.ValidString(s) {
			t.Fatal("invalid UTF-8")
		}
		if n := ValidLabels(s, []string{tool, tool}); n != 2 {
			t.Fatalf("%d valid labels, want 2:\n%s", n, s)
		}
	})
}
