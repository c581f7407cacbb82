package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/cli"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"
)

// example is one shell statement from README.md or a command's --help that
// runs pruner.
type example struct {
	origin string // "README.md:41" or "pruner now --help"
	text   string // the statement as written (continuation lines included)
	want   int    // expected exit status
	output string // expected stdout (trimmed), "" when not stated
}

// exitMarker is how an example states a non-zero exit status: a comment on
// its line or on the comment lines right below it that starts with
// "exit N", or has "; exit N" (e.g. "# stderr: …; exit 2").
var exitMarker = regexp.MustCompile(`(?:^#|;)\s*exit (\d+)\b`)

// outputMarker states an example's whole output: "# → false".
var outputMarker = regexp.MustCompile(`^#\s*→\s*(.+?)\s*$`)

// TestExamples runs every example of README.md and docs/*.md (```sh blocks
// and the run: lines of ```yaml blocks) and of every command's --help
// Examples, as
// written, with bash and `set -o pipefail`, in a work dir holding the files
// they name (testdata/examples/fixture.txtar). An example added later is
// tested without touching this test. Each must exit 0 unless a comment says
// "# exit N"; a comment "# → TEXT" states its output; an example that pipes
// into jq must not print a bare null (a path that names nothing). Statements that do not call pruner
// (make test, go install …) are not run; `go run ./cmd/pruner` runs as
// `pruner`, with testdata/ beside it.
func TestExamples(t *testing.T) {
	var all []example
	readme, err := readmeExamples("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, readme...)
	// the docs' examples are pasted as much as the README's
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		exs, err := readmeExamples(d)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, exs...)
	}
	help, err := helpExamples(t)
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, help...)
	if len(readme) < 8 || len(help) < 15 {
		t.Fatalf("found %d README and %d --help examples: the extraction is broken", len(readme), len(help))
	}

	requireTools(t, all)

	fixture, err := txtar.ParseFile("../../testdata/examples/fixture.txtar")
	if err != nil {
		t.Fatal(err)
	}
	copies := fixtureCopies(t, string(fixture.Comment))
	dir := t.TempDir()
	var files []string
	for i, ex := range all {
		name := fmt.Sprintf("%02d-%s.txtar", i, slug(ex.origin))
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, txtar.Format(exampleScript(ex, fixture.Files, copies)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	td, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Files:               files,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/home/.cache")
			env.Setenv("TESTDATA", td)
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
	})
}

// exampleTools are the programs besides pruner that examples run; bash runs
// every example.
var exampleTools = []string{"jq", "cmp", "sort", "uniq", "wc"}

// toolsUsed are the exampleTools the examples call, each with the first
// example that does, and bash.
func toolsUsed(all []example) map[string]string {
	used := map[string]string{}
	for _, ex := range all {
		used["bash"] = firstOf(used["bash"], ex.origin)
		for _, tool := range exampleTools {
			if regexp.MustCompile(`\b` + tool + `\b`).MatchString(ex.text) {
				used[tool] = firstOf(used[tool], ex.origin)
			}
		}
	}
	return used
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// missingTools are the programs the examples need that are not on PATH,
// each with an example that needs it.
func missingTools(all []example) []string {
	var missing []string
	for tool, origin := range toolsUsed(all) {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, fmt.Sprintf("%s (used by %s)", tool, origin))
		}
	}
	sort.Strings(missing)
	return missing
}

// requireTools fails, naming what to install, when a program the examples
// need is missing: an example that cannot run is a failure, not a silent
// skip (.ci/run installs them).
func requireTools(t *testing.T, all []example) {
	t.Helper()
	if missing := missingTools(all); len(missing) > 0 {
		t.Fatalf("TestExamples cannot run every README and --help example: not on PATH: %s; install them (Debian/Ubuntu: apt-get install jq diffutils coreutils bash; .ci/run does)", strings.Join(missing, ", "))
	}
}

// exampleScript is the testscript of one example: the fixture files it
// names, then bash running it and checking its exit status.
func exampleScript(ex example, inline []txtar.File, copies [][2]string) *txtar.Archive {
	text := strings.ReplaceAll(ex.text, "go run ./cmd/pruner", "pruner")
	names := pathTokens(text)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n#   %s\n", ex.origin, strings.ReplaceAll(ex.text, "\n", "\n#   "))
	if strings.Contains(text, "testdata/") {
		b.WriteString("symlink testdata -> $TESTDATA\n")
	}
	for _, c := range copies {
		if named(c[0], names) {
			if d := filepath.Dir(c[0]); d != "." {
				fmt.Fprintf(&b, "mkdir %s\n", d)
			}
			fmt.Fprintf(&b, "cp $TESTDATA/%s %s\n", c[1], c[0])
			// a saved session, not one pi is writing (now --write refuses
			// files modified moments ago)
			fmt.Fprintf(&b, "[exec:touch] exec touch -d 2020-01-01T00:00:00 %s\n", c[0])
		}
	}
	b.WriteString("exec bash run.sh\n")
	if ex.output != "" {
		fmt.Fprintf(&b, "stdout '^\\s*%s\\s*$'\n", strings.ReplaceAll(regexp.QuoteMeta(ex.output), "'", "''"))
	}
	if strings.Contains(text, "jq") {
		b.WriteString("! stdout '^null$'\n")
	}
	ar := &txtar.Archive{Comment: []byte(b.String())}
	for _, f := range inline {
		if named(f.Name, names) {
			ar.Files = append(ar.Files, f)
		}
	}
	run := fmt.Sprintf("set -o pipefail\n%s\nstatus=$?\nif [ \"$status\" -ne %d ]; then echo \"example exited $status, want %d\" >&2; exit 1; fi\n", text, ex.want, ex.want)
	ar.Files = append(ar.Files, txtar.File{Name: "run.sh", Data: []byte(run)})
	return ar
}

var pathToken = regexp.MustCompile(`[A-Za-z0-9_.~/@%+-]+`)

// pathTokens are the words of text that may name a file, with ~/ as home/
// and without a trailing slash.
func pathTokens(text string) []string {
	var out []string
	for _, t := range pathToken.FindAllString(text, -1) {
		if rest, ok := strings.CutPrefix(t, "~/"); ok {
			t = "home/" + rest
		}
		if t = strings.TrimRight(t, "/"); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// named reports whether a fixture file is named by the example: the file
// itself or a directory above it.
func named(file string, tokens []string) bool {
	for _, t := range tokens {
		if file == t || strings.HasPrefix(file, t+"/") {
			return true
		}
	}
	return false
}

// fixtureCopies reads the "copy NAME FROM" lines of the fixture's comment.
func fixtureCopies(t *testing.T, comment string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(comment, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "copy" {
			if _, err := os.Stat(filepath.Join("../../testdata", f[2])); err != nil {
				t.Fatalf("fixture: %v", err)
			}
			out = append(out, [2]string{f[1], f[2]})
		}
	}
	return out
}

var fence = regexp.MustCompile("^\\s*```\\s*(\\w*)")
var yamlRun = regexp.MustCompile(`^\s*(?:-\s+)?run:\s*(.+)$`)

// readmeExamples extracts the pruner statements of a Markdown file's ```sh
// blocks and the run: lines of its ```yaml blocks (```text blocks, e.g. a
// synopsis, are not run).
func readmeExamples(path string) ([]example, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	label := filepath.ToSlash(strings.TrimPrefix(filepath.Clean(path), filepath.Clean("../..")+string(filepath.Separator)))
	var out []example
	var block []string
	lang, start, in := "", 0, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		m := fence.FindStringSubmatch(line)
		switch {
		case m != nil && !in:
			in, lang, start, block = true, m[1], n+1, nil
		case m != nil && in:
			in = false
			switch lang {
			case "sh", "bash", "shell":
				exs, err := shellExamples(strings.Join(block, "\n"), func(line int) string { return fmt.Sprintf("%s:%d", label, start+line-1) })
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", label, start, err)
				}
				out = append(out, exs...)
			case "yaml", "yml":
				for i, l := range block {
					if r := yamlRun.FindStringSubmatch(l); r != nil {
						exs, err := shellExamples(r[1], func(int) string { return fmt.Sprintf("%s:%d", label, start+i) })
						if err != nil {
							return nil, fmt.Errorf("%s:%d: %w", label, start+i, err)
						}
						out = append(out, exs...)
					}
				}
			}
		case in:
			block = append(block, line)
		}
	}
	return out, sc.Err()
}

// helpExamples extracts the pruner statements of every command's Examples.
func helpExamples(t *testing.T) ([]example, error) {
	root := cli.NewCmdRoot(&cli.IOStreams{}, cli.BuildInfo{})
	var out []example
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if c != root && !c.IsAvailableCommand() {
			return nil
		}
		if c.Example == "" && c != root {
			t.Errorf("%s --help has no example", c.CommandPath())
		}
		exs, err := shellExamples(c.Example, func(line int) string { return fmt.Sprintf("%s --help:%d", c.CommandPath(), line) })
		if err != nil {
			return fmt.Errorf("%s --help examples: %w", c.CommandPath(), err)
		}
		out = append(out, exs...)
		subs := c.Commands()
		sort.Slice(subs, func(i, j int) bool { return subs[i].Name() < subs[j].Name() })
		for _, s := range subs {
			if err := walk(s); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(root)
}

// shellExamples parses src as shell (mvdan.cc/sh) and returns each top-level
// statement that calls pruner, with the exit status its comments state.
func shellExamples(src string, origin func(line int) string) ([]example, error) {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(src, "\n")
	var out []example
	for _, st := range f.Stmts {
		if !callsPruner(st) {
			continue
		}
		ex := example{origin: origin(int(st.Pos().Line())), text: src[st.Pos().Offset():st.End().Offset()]}
		// comments: the rest of the statement's last line, then comment
		// lines right below it
		end := int(st.End().Line()) - 1
		var comments []string
		if rest := strings.TrimSpace(lines[end][min(int(st.End().Col())-1, len(lines[end])):]); strings.HasPrefix(rest, "#") {
			comments = append(comments, rest)
		}
		for i := end + 1; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "#"); i++ {
			comments = append(comments, strings.TrimSpace(lines[i]))
		}
		for _, c := range comments {
			if m := exitMarker.FindStringSubmatch(c); m != nil {
				ex.want, _ = strconv.Atoi(m[1])
			}
			if m := outputMarker.FindStringSubmatch(c); m != nil {
				ex.output = m[1]
			}
		}
		out = append(out, ex)
	}
	return out, nil
}

// callsPruner reports whether a statement runs pruner anywhere (a pipeline
// stage, a process substitution, `go run ./cmd/pruner`).
func callsPruner(st *syntax.Stmt) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			switch ce.Args[0].Lit() {
			case "pruner":
				found = true
			case "go":
				found = found || len(ce.Args) > 2 && ce.Args[1].Lit() == "run" && ce.Args[2].Lit() == "./cmd/pruner"
			}
		}
		return !found
	})
	return found
}

var nonSlug = regexp.MustCompile(`[^A-Za-z0-9]+`)

func slug(s string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

var codeSpan = regexp.MustCompile("`(pruner [^`]+)`")

// TestReadmeCommandsExist checks every `pruner …` that README.md's prose and
// tables name in inline code: the command exists and has every flag given
// (so a table cannot list a flag under a command that lacks it).
func TestReadmeCommandsExist(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	root := cli.NewCmdRoot(&cli.IOStreams{}, cli.BuildInfo{})
	n := 0
	for _, m := range codeSpan.FindAllStringSubmatch(string(b), -1) {
		n++
		args := strings.Fields(m[1])[1:]
		cmd, rest, err := root.Find(args)
		if err != nil || cmd == root && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			t.Errorf("README: `%s`: no such command", m[1])
			continue
		}
		for _, a := range rest {
			name, short := "", ""
			switch {
			case strings.HasPrefix(a, "--"):
				name, _, _ = strings.Cut(a[2:], "=")
			case strings.HasPrefix(a, "-") && len(a) == 2:
				short = a[1:]
			default:
				continue
			}
			if name == "help" || short == "h" {
				continue
			}
			ok := name != "" && (cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil) ||
				short != "" && cmd.Flags().ShorthandLookup(short) != nil
			if !ok {
				t.Errorf("README: `%s`: %s has no flag %s", m[1], cmd.CommandPath(), a)
			}
		}
	}
	if n < 10 {
		t.Fatalf("found %d `pruner …` spans in README.md: the extraction is broken", n)
	}
}

// TestMissingToolsAreNamed: a missing tool is named with the example that
// needs it, so TestExamples fails loudly (jq and cmp used to skip examples
// silently).
func TestMissingToolsAreNamed(t *testing.T) {
	exs := []example{{origin: "README.md:1", text: "pruner config --json | jq .x"}, {origin: "x --help", text: "pruner now s | cmp - a"}}
	used := toolsUsed(exs)
	if used["jq"] != "README.md:1" || used["cmp"] != "x --help" || used["bash"] != "README.md:1" || used["wc"] != "" {
		t.Fatalf("tools used: %v", used)
	}
	t.Setenv("PATH", t.TempDir())
	got := strings.Join(missingTools(exs), "; ")
	for _, want := range []string{"bash (used by README.md:1)", "cmp (used by x --help)", "jq (used by README.md:1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing tools %q lack %q", got, want)
		}
	}
}
