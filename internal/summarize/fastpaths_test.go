package summarize

import (
	"strconv"
	"strings"
	"testing"
)

// relativeConcat is relative as it was: each prefix built and tried in
// turn (the differential tests hold relative to it).
func relativeConcat(s, cwd string) string {
	cwd = strings.TrimRight(cwd, "/")
	if cwd == "" {
		return s
	}
	for _, p := range []string{"cd " + cwd + " && ", "cd " + cwd + "; ", `cd "` + cwd + `" && `} {
		if strings.HasPrefix(s, p) {
			return s[len(p):]
		}
	}
	if strings.HasPrefix(s, cwd+"/") && len(s) > len(cwd)+1 {
		return s[len(cwd)+1:]
	}
	return s
}

// substituteLabelsEveryLine is SubstituteLabels with both patterns run on
// every line outside a fence (no "[[" test first).
func substituteLabelsEveryLine(text string, refs, toolNames []string) string {
	lines := strings.Split(text, "\n")
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimLeftFunc(line, isJSSpace), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := leadingLabel().FindStringSubmatchIndex(line); m != nil {
			prefix := line[m[2]:m[3]]
			n, err := strconv.Atoi(line[m[4]:m[5]])
			name := line[m[6]:m[7]]
			repl := prefix
			if err == nil && n >= 1 && n <= len(refs) && n <= len(toolNames) &&
				strings.EqualFold(trimJS(name), trimJS(toolNames[n-1])) {
				repl = prefix + "`" + refs[n-1] + "` "
			}
			line = repl + line[m[1]:]
		}
		lines[i] = anyLabel().ReplaceAllString(line, "")
	}
	return strings.Join(lines, "\n")
}

// TestRelativeIsThePrefixSearch: every key argument and path of the shipped
// sessions' summaries (and the prefixes' edge cases) shortens as it did.
func TestRelativeIsThePrefixSearch(t *testing.T) {
	cwds := []string{"", "/", "/p", "/p/", "/home/u/proj", `/a "b"`, `"q`}
	inputs := []string{"", "cd", "cd ", "cd /p", "cd /p && ls", "cd /p; ls", `cd "/p" && ls`, `cd "/p"; ls`, "cd /pq && ls",
		"/p", "/p/", "/p/a", "/pa/b", "cd /home/u/proj && make", "/home/u/proj/x.go", `cd "/a "b"" && x`, `cd ""q" && x`, `cd "q && x`}
	for _, text := range resultTexts(t)[:400] {
		for _, l := range strings.SplitN(text, "\n", 8) {
			inputs = append(inputs, l, "cd /p && "+l, "/p/"+l)
		}
	}
	for _, cwd := range cwds {
		for _, s := range inputs {
			if got, want := relative(s, cwd), relativeConcat(s, cwd); got != want {
				t.Fatalf("relative(%q, %q) = %q, was %q", s, cwd, got, want)
			}
		}
	}
}

func FuzzRelative(f *testing.F) {
	f.Add("cd /p && ls", "/p")
	f.Add(`cd "/p" && ls`, "/p/")
	f.Add("/p/a", "/p")
	f.Fuzz(func(t *testing.T, s, cwd string) {
		if got, want := relative(s, cwd), relativeConcat(s, cwd); got != want {
			t.Fatalf("relative(%q, %q) = %q, was %q", s, cwd, got, want)
		}
	})
}

// TestSubstituteLabelsSkipsLinesWithoutLabels: over the deterministic
// summaries of the shipped sessions' results and labelled variants, the
// "[[" test changes nothing.
func TestSubstituteLabelsSkipsLinesWithoutLabels(t *testing.T) {
	refs, names := []string{"t1", "t2"}, []string{"bash", "read"}
	var texts []string
	for i, r := range resultTexts(t) {
		if i >= 300 {
			break
		}
		s := Deterministic(Batch{Calls: []Call{{ToolName: "bash", Args: `{"command":"ls"}`, Result: r}, {ToolName: "read", Args: `{"path":"/p/a"}`, Result: r}}, Cwd: "/p"})
		texts = append(texts, s, strings.ReplaceAll(s, "- ", "- [[2:read]] x [[1:bash]]"), "```\n"+s+"\n```\n[[1:bash]] "+s)
	}
	for _, s := range texts {
		if got, want := SubstituteLabels(s, refs, names), substituteLabelsEveryLine(s, refs, names); got != want {
			t.Fatalf("SubstituteLabels(%.300q) = %.300q, every line: %.300q", s, got, want)
		}
	}
}

func FuzzSubstituteLabelsEveryLine(f *testing.F) {
	f.Add("- [[1:bash]] ran\n[[2:read]] read\n```\n[[1:bash]]\n```")
	f.Add("x [[\n[[3:x]]\n  * [[1:BASH ]] y")
	f.Fuzz(func(t *testing.T, text string) {
		refs, names := []string{"t1", "t2"}, []string{"bash", "read"}
		if got, want := SubstituteLabels(text, refs, names), substituteLabelsEveryLine(text, refs, names); got != want {
			t.Fatalf("SubstituteLabels(%q) = %q, every line: %q", text, got, want)
		}
	})
}
