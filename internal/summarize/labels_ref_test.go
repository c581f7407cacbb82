package summarize

import (
	"strconv"
	"strings"
	"testing"
)

// substituteLabelsRef is SubstituteLabels as it was first written, by
// line, with the regular expressions: the differential tests' reference.
func substituteLabelsRef(text string, refs, toolNames []string) string {
	lines := strings.Split(text, "\n")
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimLeftFunc(line, isJSSpace), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.Contains(line, "[[") {
			continue // (both patterns start a label with "[[")
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
		if strings.Contains(line, "[[") {
			line = anyLabel().ReplaceAllString(line, "")
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// FuzzSubstituteLabelsRef: SubstituteLabels (labels found without the
// regular expression, lines not split) writes what the reference writes,
// and leadingLabelAt finds leadingLabel's match.
func FuzzSubstituteLabelsRef(f *testing.F) {
	for _, s := range []string{"- [[1:bash]] ran\n[[2:read]] read\n```\n[[1:bash]]\n```", "**[[1:bash]]** x [[9:zz]] y", "  *\u00a0[[2: Read ]]\u3000x [[1:bash]]",
		"-[[1:bash]]", "- [[12345678901234567890:bash]] x", "[[1:]] [[:x]] [[1:a]b]] [[1:a\xff]]\t", "\n\n- [[1:bash]]\n", "[[0:bash]] [[3:bash]]", "\u2028- [[1:BASH]]  \t"} {
		f.Add(s, "bash", "read")
	}
	f.Fuzz(func(t *testing.T, text, a, b string) {
		names, refs := []string{a, b}, []string{"t1", "t2"}
		want := substituteLabelsRef(text, refs, names)
		if got := SubstituteLabels(text, refs, names); got != want {
			t.Fatalf("%q: got %q, want %q", text, got, want)
		}
		if got, want := SubstituteLabelsFooter(text, refs, names), want+Footer(refs); got != want {
			t.Fatalf("%q: with the footer, got %q, want %q", text, got, want)
		}
		for _, line := range strings.Split(text, "\n") {
			m, ok := leadingLabelAt(line)
			r := leadingLabel().FindStringSubmatchIndex(line)
			if ok != (r != nil) {
				t.Fatalf("%q: leadingLabelAt %v, the expression %v", line, ok, r)
			}
			if ok && (r[3] != m.prefix || r[4] != m.num || r[5] != m.name-1 || r[6] != m.name || r[7] != m.name+m.nameLen || r[1] != m.end) {
				t.Fatalf("%q: leadingLabelAt %+v, the expression %v", line, m, r)
			}
		}
	})
}
