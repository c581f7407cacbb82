package promptnarrow

import (
	"path/filepath"
	"strings"
	"testing"
)

func case009(t *testing.T) string {
	return readFile(t, filepath.Join(testdataDir, "cases", "009-narrow-only-denied-bullets", "prompt.txt"))
}

func case013(t *testing.T) string {
	return readFile(t, filepath.Join(testdataDir, "cases", "013-narrow-idempotent-and-byte-stable", "prompt.txt"))
}

func oraclePrompt(t *testing.T, version, name string) string {
	return readFile(t, filepath.Join(testdataDir, "oracle", version, "prompt-"+name+".txt"))
}

// allSubsets returns every subset of tools (in tools order).
func allSubsets(tools []string) [][]string {
	var out [][]string
	for mask := 0; mask < 1<<len(tools); mask++ {
		s := []string{}
		for i, tl := range tools {
			if mask&(1<<i) != 0 {
				s = append(s, tl)
			}
		}
		out = append(out, s)
	}
	return out
}

// samplePrompts are the full-tool prompts of the three layouts.
func samplePrompts(t *testing.T) map[string]string {
	return map[string]string{
		"0.58":   case013(t),
		"0.79.1": oraclePrompt(t, "0.79.1", "all"),
		"1.6.0":  oraclePrompt(t, "1.6.0", "all"),
	}
}

// TestIdempotent: narrow(narrow(x, A), A) == narrow(x, A) for every subset A
// of the seven built-ins, in all three layouts.
func TestIdempotent(t *testing.T) {
	for v, p := range samplePrompts(t) {
		for _, a := range allSubsets(BuiltinTools()) {
			once, _ := Narrow(p, allow(a...))
			twice, rep := Narrow(once, allow(a...))
			if twice != once || rep.Changed {
				t.Fatalf("%s %v: not idempotent\n%s", v, a, diffLines(once, twice))
			}
			// Composition: narrowing through any intermediate superset gives the same bytes.
			for _, b := range allSubsets(BuiltinTools()) {
				if !subset(a, b) {
					continue
				}
				mid, _ := Narrow(p, allow(b...))
				via, _ := Narrow(mid, allow(a...))
				if via != once {
					t.Fatalf("%s: all->%v->%v != all->%v\n%s", v, b, a, a, diffLines(once, via))
				}
			}
		}
	}
}

// TestAllowOrderIndependent: the order and duplicates of --allow do not matter.
func TestAllowOrderIndependent(t *testing.T) {
	for v, p := range samplePrompts(t) {
		a, _ := Narrow(p, allow("read", "bash", "edit"))
		b, _ := Narrow(p, allow("edit", "bash", "read", "bash"))
		c, _ := Narrow(p, allow(" edit", "read ", "bash"))
		if a != b || a != c {
			t.Fatalf("%s: order changes the result", v)
		}
		// --deny is the complement of --allow.
		d, _ := Narrow(p, Options{Deny: []string{"grep", "find", "ls", "write"}})
		if d != a {
			t.Fatalf("%s: deny != allow complement\n%s", v, diffLines(a, d))
		}
	}
}

// TestNothingOutsideSections: the preamble, docs, project context, date and
// cwd survive byte for byte.
func TestNothingOutsideSections(t *testing.T) {
	type region struct{ from, to string }
	regions := map[string][]region{
		"0.58":   {{"", "Available tools:\n"}, {"\n\nPi documentation", "\n\nThe following skills"}, {"\nCurrent date:", ""}},
		"0.79.1": {{"", "Available tools:\n"}, {"\n\nPi documentation", "\n\nThe following skills"}, {"\nCurrent date:", ""}},
		"1.6.0":  {{"", "<tools>\n"}, {"<docs>", "</project_context>"}, {"<cwd>", ""}},
	}
	cut := func(s string, r region) string {
		i := 0
		if r.from != "" {
			i = strings.Index(s, r.from)
			if i < 0 {
				return "<missing " + r.from + ">"
			}
		}
		rest := s[i:]
		if r.to == "" {
			return rest
		}
		j := strings.Index(rest, r.to)
		if j < 0 && r.to == "\n\nThe following skills" {
			j = strings.Index(rest, "\nCurrent date:")
		}
		if j < 0 {
			return "<missing " + r.to + ">"
		}
		return rest[:j]
	}
	for v, p := range samplePrompts(t) {
		for _, a := range allSubsets(BuiltinTools()) {
			out, _ := Narrow(p, allow(a...))
			for _, r := range regions[v] {
				if cut(p, r) != cut(out, r) {
					t.Fatalf("%s %v: region %q changed\n%s", v, a, r.from, diffLines(cut(p, r), cut(out, r)))
				}
			}
		}
	}
}

// ---- seed-extensions A5: the five holes of pi-permission-system 20.7.2 ----

// Hole 1: edit denied, read allowed. pi writes "Use read to examine files
// before editing…" only with read and edit; it must go.
func TestHole1ReadBeforeEditNeedsEdit(t *testing.T) {
	out, rep := Narrow(case009(t), allow("read", "bash", "write"))
	if strings.Contains(out, "before editing") {
		t.Fatal("read-before-edit guideline kept without edit")
	}
	want := "Guidelines:\n- Use bash for file operations like ls, rg, find\n- Use write only for new files or complete rewrites\n" +
		"- When summarizing your actions, output plain text directly - do NOT use cat or bash to display what you did\n" +
		"- Be concise in your responses\n- Show file paths clearly when working with files\n\n"
	if !strings.Contains(out, want) {
		t.Fatalf("guidelines differ from pi 0.58 for read,bash,write:\n%s", out)
	}
	if again, _ := Narrow(out, allow("read", "bash", "write")); again != out {
		t.Fatal("turn 2 differs from turn 1")
	}
	if len(rep.LinesRemoved) == 0 {
		t.Fatal("report lists no removed lines")
	}
}

// Hole 2: all denied. Turn 1 must already write pi's "(none)" so that turn 2
// (pi's own "(none)" prompt) narrows to the same bytes.
func TestHole2AllDeniedWritesNone(t *testing.T) {
	dir := filepath.Join(testdataDir, "cases", "013-narrow-idempotent-and-byte-stable")
	want := readFile(t, filepath.Join(dir, "expected-2.txt"))
	for _, p := range []string{case013(t), case009(t), want} {
		out, _ := Narrow(p, allow())
		if !strings.Contains(out, "Available tools:\n(none)\n\nIn addition to the tools above") {
			t.Fatalf("no (none) section:\n%s", out)
		}
	}
	turn1, _ := Narrow(case013(t), allow())
	turn2, rep := Narrow(want, allow())
	if turn1 != want || turn2 != want || rep.Changed {
		t.Fatal("all-denied turn 1 / turn 2 differ")
	}
	for _, v := range []string{"0.79.1", "1.6.0"} {
		out, _ := Narrow(oraclePrompt(t, v, "all"), allow())
		if out != oraclePrompt(t, v, "none") {
			t.Fatalf("%s: all-denied != pi's none prompt", v)
		}
	}
}

// Hole 3: no global "\n{3,}" collapse; the AGENTS.md newline run survives.
func TestHole3NoBlankLineCollapse(t *testing.T) {
	p := case013(t)
	run := "- Run `npm test` before committing.\n\n\n\n\nThe following skills"
	if !strings.Contains(p, run) {
		t.Fatal("fixture lost its newline run")
	}
	out, _ := Narrow(p, allow("read", "edit", "write"))
	if !strings.Contains(out, run) {
		t.Fatal("newline run collapsed")
	}
	out2, _ := Narrow(p, allow("bash"))
	if !strings.Contains(out2, "- Run `npm test` before committing.\n\n\n\nCurrent date:") {
		t.Fatalf("skills removal touched the context block:\n%s", out2)
	}
}

// Hole 4: guidelines of extension tools. A known extension guideline (task,
// mcp) goes with its tool; an unknown one is kept and reported.
func TestHole4ExtensionGuidelines(t *testing.T) {
	p := strings.Replace(case009(t), "- write: Create or overwrite files\n",
		"- write: Create or overwrite files\n- mcp: Discover, inspect, and call MCP tools across configured servers\n- lint_fix: Fix lint errors\n", 1)
	p = strings.Replace(p, "- Be concise in your responses\n",
		"- Use mcp for MCP discovery first: search by capability, describe one exact tool name, then call it.\n- Run lint_fix after every edit.\n- Be concise in your responses\n", 1)
	out, rep := Narrow(p, allow("read", "bash", "lint_fix"))
	if strings.Contains(out, "- mcp:") || strings.Contains(out, "Use mcp for MCP discovery") {
		t.Fatal("mcp bullet or guideline kept")
	}
	if !strings.Contains(out, "- lint_fix: Fix lint errors\n") || !strings.Contains(out, "- Run lint_fix after every edit.\n") {
		t.Fatal("extension tool lines lost")
	}
	if !containsStr(rep.Unattributed, "- Run lint_fix after every edit.") {
		t.Fatalf("unattributed not reported: %v", rep.Unattributed)
	}
	keep, _ := Narrow(p, allow("read", "bash", "mcp", "lint_fix"))
	if !strings.Contains(keep, "Use mcp for MCP discovery") {
		t.Fatal("mcp guideline dropped although mcp allowed")
	}
	if again, _ := Narrow(out, allow("read", "bash", "lint_fix")); again != out {
		t.Fatal("not idempotent with extension tools")
	}
}

// Hole 5: with every bullet removed, the prose of the tools section (the
// "In addition…" sentence and user lines) stays; pi writes "(none)".
func TestHole5ProseSurvivesEmptyToolList(t *testing.T) {
	p := strings.Replace(case009(t), "- write: Create or overwrite files\n", "- write: Create or overwrite files\nPrefer small diffs.\n", 1)
	out, rep := Narrow(p, allow())
	if !strings.Contains(out, "Available tools:\n(none)\nPrefer small diffs.\n\nIn addition to the tools above, you may have access to other custom tools depending on the project.\n\nGuidelines:\n") {
		t.Fatalf("tools prose lost:\n%s", out)
	}
	if !containsStr(rep.Unattributed, "Prefer small diffs.") {
		t.Fatal("prose line not reported as unattributed")
	}
	for _, v := range []string{"0.79.1", "1.6.0"} {
		out, _ := Narrow(oraclePrompt(t, v, "read"), allow())
		if out != oraclePrompt(t, v, "none") {
			t.Fatalf("%s read->none mismatch", v)
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCRLFKept(t *testing.T) {
	dir := filepath.Join(testdataDir, "cases", "009-narrow-only-denied-bullets")
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	out, rep := Narrow(crlf(case009(t)), allow("read", "bash"))
	if want := crlf(readFile(t, filepath.Join(dir, "expected.txt"))); out != want {
		t.Fatalf("CRLF mismatch\n%s", diffLines(want, out))
	}
	if !rep.CRLF {
		t.Fatal("CRLF not reported")
	}
	for _, v := range []string{"0.79.1", "1.6.0"} {
		out, _ := Narrow(crlf(oraclePrompt(t, v, "all")), allow("bash"))
		if out != crlf(oraclePrompt(t, v, "bash")) {
			t.Fatalf("%s CRLF all->bash mismatch", v)
		}
	}
}

// TestCustomPromptPassesThrough: a custom prompt (no pi preamble) keeps its
// text, even lines that look like pi's tool list; a prompt with neither pi's
// preamble nor pi's tail is not touched at all.
func TestCustomPromptPassesThrough(t *testing.T) {
	p := "You are a helpful bot.\n\nTools: use them wisely.\n- read: not a tool list\nCurrent date: 2026-03-15\nCurrent working directory: /x"
	out, rep := Narrow(p, allow("bash"))
	if out != p || rep.Changed || rep.Layout != LayoutCustom0 || !rep.Custom || len(rep.Notes) == 0 {
		t.Fatalf("custom prompt changed or not reported: %+v", rep)
	}
	for _, x := range []string{
		"Intro.\n\nAvailable tools:\n- read: Read file contents\n- bash: Run things\n- mytool\n\nMore text.",
		"<tools>\n- read: Read file contents\n- bash: x\n</tools>\n\nno rules here",
		"",
	} {
		out, rep := Narrow(x, allow("bash"))
		if out != x || rep.Layout != LayoutNone || len(rep.Notes) == 0 {
			t.Fatalf("%q: layout %s, %q", x, rep.Layout, out)
		}
	}
}

// TestUnrecognisedLayoutFallsBack: pi's preamble with sections not where
// pi puts them: only tool bullets are dropped, with a note.
func TestUnrecognisedLayoutFallsBack(t *testing.T) {
	p := preamble0 + "\n\nAvailable tools:\n- read: Read file contents\n- bash: Run things\n- mytool\n\nMore text."
	out, rep := Narrow(p, allow("read"))
	if rep.Layout != LayoutPlain || len(rep.Notes) == 0 {
		t.Fatalf("layout %s, notes %v", rep.Layout, rep.Notes)
	}
	if out != preamble0+"\n\nAvailable tools:\n- read: Read file contents\n\nMore text." {
		t.Fatalf("plain narrowing: %q", out)
	}
	x := preamble1 + "\n\n<tools>\n- read: Read file contents\n- bash: x\n</tools>\n\nno rules here"
	out, rep = Narrow(x, allow("bash"))
	if rep.Layout != LayoutPlain || out != preamble1+"\n\n<tools>\n- bash: x\n</tools>\n\nno rules here" {
		t.Fatalf("xml fallback: %s %q", rep.Layout, out)
	}
	// A "Guidelines:" header further away than pi puts it is not pi's.
	g := preamble0 + "\n\nAvailable tools:\n- read: Read file contents\n- bash: x\n\nOne.\n\nTwo.\n\nGuidelines:\n- Use bash for file operations like ls, rg, find"
	if out, rep = Narrow(g, allow("bash")); rep.Layout != LayoutPlain || !strings.HasSuffix(out, "Guidelines:\n- Use bash for file operations like ls, rg, find") {
		t.Fatalf("far Guidelines: %s %q", rep.Layout, out)
	}
}

func TestExtensionToolBullets(t *testing.T) {
	for _, v := range []string{"0.79.1", "1.6.0"} {
		p := strings.Replace(oraclePrompt(t, v, "default"), "- write: Create or overwrite files\n", "- write: Create or overwrite files\n- deploy: Deploy the app\n", 1)
		out, rep := Narrow(p, allow("read", "bash", "edit", "write"))
		if out != oraclePrompt(t, v, "default") {
			t.Fatalf("%s: dropping an extension tool\n%s", v, diffLines(oraclePrompt(t, v, "default"), out))
		}
		if !containsStr(rep.ToolsRemoved, "deploy") {
			t.Fatal("deploy not reported")
		}
		out, _ = Narrow(p, allow("deploy", "read", "bash", "edit", "write", "nonexistent"))
		if out != p {
			t.Fatalf("%s: allowed extension tool changed the prompt", v)
		}
		// Only an extension tool left: pi's tool list has just that bullet.
		out, _ = Narrow(p, allow("deploy"))
		if !strings.Contains(out, "- deploy: Deploy the app\n\n") || strings.Contains(out, "(none)") {
			t.Fatalf("%s: extension-only list wrong", v)
		}
	}
}

func TestDenySkill(t *testing.T) {
	two := func(p string) string {
		entry := "  <skill>\n    <name>demo</name>"
		extra := "  <skill>\n    <name>a&amp;b</name>\n    <description>Second.</description>\n    <location>/s/a/SKILL.md</location>\n  </skill>\n"
		return strings.Replace(p, entry, extra+entry, 1)
	}
	for _, v := range []string{"0.79.1", "1.6.0"} {
		p := two(oraclePrompt(t, v, "all"))
		out, rep := Narrow(p, Options{DenySkills: []string{"a&b"}})
		if out != oraclePrompt(t, v, "all") {
			t.Fatalf("%s: deny one skill\n%s", v, diffLines(oraclePrompt(t, v, "all"), out))
		}
		if !containsStr(rep.SkillsRemoved, "a&b") {
			t.Fatal("skill not reported")
		}
		// Every skill denied: pi writes no skills block at all.
		out, rep = Narrow(p, Options{DenySkills: []string{"a&b", "demo"}})
		if strings.Contains(out, "available_skills") || strings.Contains(out, "The following skills") || !rep.SkillsBlockRemoved {
			t.Fatalf("%s: skills block kept", v)
		}
		if v == "0.79.1" && !strings.Contains(out, "</project_context>\n\nCurrent date:") {
			t.Fatal("0.79: wrong join after skills removal")
		}
		if v == "1.6.0" && !strings.Contains(out, "</project_context>\n\n<cwd>") {
			t.Fatal("1.6: wrong join after skills removal")
		}
	}
}

func TestPolicy(t *testing.T) {
	cfg := `{
	  "permission": {
	    "*": "ask",
	    "read": {"*": "allow", "*.env": "deny"},
	    "bash": {"*": "deny", "git *": "ask"},
	    "write": "deny",
	    "edit": {"*": {"action": "deny", "reason": "read-only agent"}},
	    "grep": {"*.secret": "deny"},
	    "skill": {"*": "allow", "demo": "deny"}
	  }
	}`
	pol, err := ParsePolicy([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"read": false, "bash": false, "write": true, "edit": true, "grep": false, "find": false, "mcp": false}
	for tool, w := range want {
		if got := pol.ToolFullyDenied(tool); got != w {
			t.Errorf("ToolFullyDenied(%s) = %v, want %v", tool, got, w)
		}
	}
	if !pol.SkillDenied("demo") || pol.SkillDenied("other") {
		t.Error("skill evaluation wrong")
	}
	out, rep := Narrow(oraclePrompt(t, "0.79.1", "all"), Options{Policy: pol})
	if containsStr(rep.ToolsKept, "write") || containsStr(rep.ToolsKept, "edit") || !containsStr(rep.ToolsKept, "bash") {
		t.Fatalf("policy tools: %v", rep.ToolsKept)
	}
	if strings.Contains(out, "<available_skills>") {
		t.Fatal("policy-denied skill kept")
	}
	deny, err := ParsePolicy([]byte(`{"permission": {"*": "deny", "read": "allow", "skill": "deny"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !deny.ToolFullyDenied("bash") || deny.ToolFullyDenied("read") || !deny.SkillDenied("x") {
		t.Error("universal deny not applied")
	}
	for _, bad := range []string{`{`, `{"permission": 3}`, `{"permission": {"bash": 3}}`, `{"permission": {"bash": {"x": 4}}}`} {
		if _, err := ParsePolicy([]byte(bad)); err == nil {
			t.Errorf("ParsePolicy(%s): no error", bad)
		}
	}
	if p, err := ParsePolicy([]byte(`{"debugLog": true}`)); err != nil || p.ToolFullyDenied("bash") {
		t.Error("config without permission")
	}
	if !wildcardMatch("git *", "git") || !wildcardMatch("a?c*", "abcdef") || wildcardMatch("a?c", "ac") {
		t.Error("wildcard")
	}
}

func TestDialectDetection(t *testing.T) {
	if _, rep := Narrow(case009(t), allow("read")); rep.Layout != LayoutPi05 {
		t.Fatal("0.58 prompt not detected as 0.5x")
	}
	// Only bash: no distinguishing guideline; the 0.58 context markup decides.
	p, _ := Narrow(case009(t), allow("bash"))
	if _, rep := Narrow(p, allow()); rep.Layout != LayoutPi05 {
		t.Fatal("0.58 bash-only prompt not detected as 0.5x")
	}
	bare := preamble0 + "\n\nAvailable tools:\n- bash: x\n\nGuidelines:\n- Use bash for file operations like ls, rg, find\n- Be concise in your responses\n- Show file paths clearly when working with files"
	out, rep := Narrow(bare, allow())
	if len(rep.Notes) == 0 || !strings.Contains(out, "Available tools:\n(none)\n\nGuidelines:\n- Be concise") {
		t.Fatalf("undetermined dialect: %v %q", rep.Notes, out)
	}
}

func TestReportLists(t *testing.T) {
	_, rep := Narrow(oraclePrompt(t, "1.6.0", "all"), allow("bash"))
	if strings.Join(rep.ToolsListed, ",") != "read,bash,edit,write,grep,find,ls" ||
		strings.Join(rep.ToolsKept, ",") != "bash" || len(rep.ToolsRemoved) != 6 {
		t.Fatalf("report tools: %+v", rep)
	}
	if !containsStr(rep.LinesAdded, "- Use bash for file operations like ls, rg, find") ||
		!containsStr(rep.LinesAdded, skillsBashLine) {
		t.Fatalf("lines added: %v", rep.LinesAdded)
	}
}
