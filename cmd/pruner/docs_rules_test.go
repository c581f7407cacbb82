package main

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
)

var backticked = regexp.MustCompile("`([^`]+)`")

// between returns the text of file from the first start to the next end
// after it, failing the test when either is missing.
func between(t *testing.T, file, start, end string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "```", "")
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("%s: %q not found: the list of built-in rules moved", file, start)
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		t.Fatalf("%s: %q not found after %q", file, end, start)
	}
	return s[i : i+j]
}

func defaultPaths() []string {
	var out []string
	for _, e := range guard.DefaultRules().Entries {
		out = append(out, e.Path)
	}
	sort.Strings(out)
	return out
}

// TestReadmeListsDefaultRules: README's sentence on the built-in deny rules
// names exactly guard.DefaultRules() (its "not …" part names files that stay
// readable), so adding or removing a default cannot leave it stale.
func TestReadmeListsDefaultRules(t *testing.T) {
	text := between(t, "../../README.md", "built-in defaults protect", "`pruner config` lists them")
	protected, excluded, ok := strings.Cut(text, "; not ")
	if ok {
		var rest string
		excluded, rest, _ = strings.Cut(excluded, " — ")
		protected += rest
		for _, m := range backticked.FindAllStringSubmatch(excluded, -1) {
			for _, p := range defaultPaths() {
				if m[1] == p {
					t.Errorf("README says %s is not protected, but it is a built-in rule", p)
				}
			}
		}
	}
	var got []string
	for _, m := range backticked.FindAllStringSubmatch(protected, -1) {
		got = append(got, m[1])
	}
	sort.Strings(got)
	if want := defaultPaths(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("README lists the built-in rules\n  %v\nguard.DefaultRules() has\n  %v", got, want)
	}
}

// TestProtectedPathsDocListsDefaultRules: docs/protected-paths.md's Rules
// section names every built-in rule.
func TestProtectedPathsDocListsDefaultRules(t *testing.T) {
	text := between(t, "../../docs/protected-paths.md", "## Rules", "A rules list replaces the defaults")
	have := map[string]bool{}
	for _, m := range backticked.FindAllStringSubmatch(text, -1) {
		have[m[1]] = true
	}
	for _, p := range defaultPaths() {
		if !have[p] && !strings.Contains(text, `"path": "`+p+`"`) {
			t.Errorf("docs/protected-paths.md, Rules: built-in rule %s is not listed", p)
		}
	}
}

// tellCall is an extension's tell(ctx, `…`) call: the message it shows the
// user once.
var tellCall = regexp.MustCompile("(?m)tell\\(ctx, `(.*)`\\);?\\s*$")

// jsExpr is a template's innermost ${…} (no nested template inside).
var jsExpr = regexp.MustCompile(`\$\{([^{}` + "`" + `]*)\}`)

// jsTernary is `${cond ? ` X` : ""}` taken when cond is true.
var jsTernary = regexp.MustCompile("\\$\\{r\\.error \\? `([^`]*)` : \"\"\\}")

// TestExtensionMessagesInDocs: the "pruner missing" messages that
// docs/pi-extensions.md quotes are what extensions/*.ts print with pruner
// not on PATH and PRUNER_BIN unset (their first tell(…) template evaluated:
// a message is told once), so the doc cannot drift from the code.
func TestExtensionMessagesInDocs(t *testing.T) {
	doc := between(t, "../../docs/pi-extensions.md", "## What the user sees when pruner is missing", "- protect checks")
	vals := map[string]string{
		"PRUNER":                              "pruner",
		"NAME":                                "",
		"r.error.message":                     "spawn pruner ENOENT",
		"why":                                 "spawn pruner ENOENT",
		"process.env.PRUNER_BIN ?? \"unset\"": "unset",
	}
	n := 0
	for _, line := range strings.Split(doc, "\n") {
		ext, msg, ok := strings.Cut(line, ": ")
		if !ok || !strings.HasPrefix(ext, "pruner-") {
			continue
		}
		n++
		src, err := os.ReadFile("../../extensions/" + strings.TrimPrefix(ext, "pruner-") + ".ts")
		if err != nil {
			t.Fatal(err)
		}
		how := regexp.MustCompile("const how = `(.*)`;").FindSubmatch(src)
		if how == nil {
			t.Fatalf("%s.ts: no const how", ext)
		}
		vals["how"] = jsExpr.ReplaceAllStringFunc(string(how[1]), func(e string) string { return vals[e[2:len(e)-1]] })
		var printed []string
		for _, m := range tellCall.FindAllStringSubmatch(string(src), -1) {
			s := jsTernary.ReplaceAllString(m[1], "$1")
			s = jsExpr.ReplaceAllStringFunc(s, func(e string) string {
				if v, ok := vals[e[2:len(e)-1]]; ok {
					return v
				}
				return e
			})
			s = jsExpr.ReplaceAllStringFunc(s, func(e string) string { return vals[e[2:len(e)-1]] })
			printed = append(printed, s)
		}
		// told once: the first tell in the file (protect's start-up
		// check, prune's failed run) is the one the user sees
		if len(printed) > 0 && printed[0] == msg {
			ok = false
		}
		if ok {
			t.Errorf("docs/pi-extensions.md quotes\n  %s\nbut %s.ts's first message with pruner missing is (then the others)\n  %s", line, ext, strings.Join(printed, "\n  "))
		}
	}
	if n != 2 {
		t.Fatalf("found %d quoted extension messages, want 2 (protect, prune)", n)
	}
}
