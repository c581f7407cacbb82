package promptnarrow

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// customOracle is testdata/narrow/custom/prompts.json.gz, made by
// scripts/narrow-oracle/custom-prompts.mjs with pi's own buildSystemPrompt
// (0.58.3, 0.79.1, 1.6.0) for prompts from a custom SYSTEM.md and for
// default prompts with lookalike context files: every subset of the seven
// built-in tools per fixture.
type customOracle struct {
	Fixtures       map[string]json.RawMessage   `json:"fixtures"`
	Prompts        map[string]map[string]string `json:"prompts"`
	RuntimeChecked []string                     `json:"runtimeChecked"`
}

func loadCustomOracle(t testing.TB) customOracle {
	t.Helper()
	f, err := os.Open(filepath.Join(testdataDir, "custom", "prompts.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var o customOracle
	if err := json.NewDecoder(zr).Decode(&o); err != nil {
		t.Fatal(err)
	}
	if len(o.RuntimeChecked) < 18 {
		t.Fatalf("oracle: only %d runtime cross-checks", len(o.RuntimeChecked))
	}
	return o
}

var piVersions = []string{"0.58.3", "0.79.1", "1.6.0"}

func complement(b, a []string) []string {
	var out []string
	for _, x := range b {
		if !subset([]string{x}, a) {
			out = append(out, x)
		}
	}
	return out
}

// wantCustomLayout is the layout Narrow must report for a fixture.
func wantCustomLayout(v, fixture string) Layout {
	switch {
	case strings.HasPrefix(fixture, "default-"):
		return map[string]Layout{"0.58.3": LayoutPi05, "0.79.1": LayoutPi07, "1.6.0": LayoutPi1}[v]
	case v == "1.6.0":
		return LayoutCustom1
	}
	return LayoutCustom0
}

// TestCustomPromptOracle: for every pi version, fixture and pair B ⊇ A of
// built-in tool sets (2187 pairs), narrow(pi(B), A) == pi(A) byte for byte,
// with A given as --allow, as --deny of B \ A (where the prompt tells
// enough), and with --deny-skill second. The fixtures are custom SYSTEM.md
// prompts whose text looks like pi's sections of every layout, an empty
// SYSTEM.md (pi's default branch), a SYSTEM.md saved from another version's
// default prompt, and default prompts whose context files and append text
// look like pi's sections.
func TestCustomPromptOracle(t *testing.T) {
	o := loadCustomOracle(t)
	var fixtures []string
	for name := range o.Fixtures {
		if name != "custom-copied-same-version" { // ambiguous by text: TestCustomPromptSource
			fixtures = append(fixtures, name)
		}
	}
	sort.Strings(fixtures)
	for _, v := range piVersions {
		for _, fx := range fixtures {
			full := o.Prompts[v+"/"+fx]
			one := o.Prompts[v+"/"+fx+"/without-second"]
			if len(full) != 128 {
				t.Fatalf("%s/%s: %d prompts", v, fx, len(full))
			}
			wantLayout := wantCustomLayout(v, fx)
			pairs, fails := 0, 0
			fail := func(format string, args ...any) {
				if fails++; fails <= 3 {
					t.Errorf("%s/%s: "+format, append([]any{v, fx}, args...)...)
				}
			}
			for bk, bp := range full {
				b := splitKey(bk)
				for ak, ap := range full {
					a := splitKey(ak)
					if !subset(a, b) {
						continue
					}
					pairs++
					got, rep := Narrow(bp, allow(a...))
					if got != ap {
						fail("allow [%s] -> [%s] (layout %s)\n%s", bk, ak, rep.Layout, diffLines(ap, got))
						continue
					}
					if rep.Layout != wantLayout || rep.Custom != strings.HasPrefix(fx, "custom-") {
						fail("[%s]: layout %s custom %v, want %s", bk, rep.Layout, rep.Custom, wantLayout)
					}
					if rep.Custom && len(rep.ToolsListed)+len(rep.ToolsRemoved)+len(rep.Unattributed) > 0 {
						fail("[%s]: custom prompt reported tools %v/%v or lines %v", bk, rep.ToolsListed, rep.ToolsRemoved, rep.Unattributed)
					}
					// --deny B\A: the prompt of a custom 1.x prompt does not tell
					// whether bash is active when read goes; Narrow says so.
					got, rep = Narrow(bp, Options{Deny: complement(b, a)})
					unknownBash := rep.Custom && v == "1.6.0" && len(rep.SkillsListed) > 0 && subset([]string{"read"}, b) && !subset([]string{"read"}, a) && subset([]string{"bash"}, a)
					switch {
					case unknownBash:
						if len(rep.Warnings) == 0 || !hasNote(rep, "whether bash is active is unknown") {
							fail("deny [%s] -> [%s]: no note about bash", bk, ak)
						}
					case got != ap:
						fail("deny [%s] -> [%s]\n%s", bk, ak, diffLines(ap, got))
					}
					if one != nil {
						got, _ = Narrow(bp, Options{Allow: a, AllowSet: true, DenySkills: []string{"second"}})
						if got != one[ak] {
							fail("deny-skill second [%s] -> [%s]\n%s", bk, ak, diffLines(one[ak], got))
						}
					}
				}
			}
			if pairs != 2187 {
				t.Errorf("%s/%s: %d pairs", v, fx, pairs)
			}
		}
	}
}

func hasNote(rep Report, sub string) bool {
	for _, n := range append(append([]string{}, rep.Notes...), rep.Warnings...) {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

// TestCustomPromptSource: a SYSTEM.md saved from the same pi version's
// default prompt is indistinguishable from pi's own prompt by its text;
// auto detection takes it for pi's (and says which), Source custom narrows
// it as pi does.
func TestCustomPromptSource(t *testing.T) {
	o := loadCustomOracle(t)
	for _, v := range piVersions {
		full := o.Prompts[v+"/custom-copied-same-version"]
		for bk, bp := range full {
			for ak, ap := range full {
				a := splitKey(ak)
				if !subset(a, splitKey(bk)) {
					continue
				}
				got, rep := Narrow(bp, Options{Allow: a, AllowSet: true, Source: SourceCustom})
				if got != ap || !rep.Custom {
					t.Fatalf("%s source custom [%s] -> [%s]\n%s", v, bk, ak, diffLines(ap, got))
				}
			}
		}
		_, rep := Narrow(full["read,bash,edit,write"], allow("read"))
		if rep.Custom {
			t.Errorf("%s: auto took pi's own preamble for a custom prompt", v)
		}
	}
	for _, s := range []string{"", "auto", "default", "custom"} {
		if _, ok := ParsePromptSource(s); !ok {
			t.Errorf("ParsePromptSource(%q) failed", s)
		}
	}
	if _, ok := ParsePromptSource("yes"); ok {
		t.Error("ParsePromptSource accepted yes")
	}
}

// TestSourceDefaultFindsPreambleAfterText: with Source default, text an
// extension put before pi's preamble does not stop narrowing.
func TestSourceDefaultFindsPreambleAfterText(t *testing.T) {
	for _, v := range []string{"0.79.1", "1.6.0"} {
		all, bash := oraclePrompt(t, v, "all"), oraclePrompt(t, v, "bash")
		pre := "Extension banner.\n\n"
		out, rep := Narrow(pre+all, Options{Allow: []string{"bash"}, AllowSet: true, Source: SourceDefault})
		if out != pre+bash || rep.Custom || !hasNote(rep, "text before pi's preamble") {
			t.Fatalf("%s: source default with a banner\n%s", v, diffLines(pre+bash, out))
		}
		// Auto detection reads the same text as a custom prompt: unchanged
		// but for pi's skills block.
		out, rep = Narrow(pre+all, allow("read", "bash", "edit", "write", "grep", "find", "ls"))
		if out != pre+all || !rep.Custom {
			t.Fatalf("%s: auto on a banner prompt changed it (layout %s)", v, rep.Layout)
		}
	}
}

// TestCustomLookalikeLinesKept: the example. A SYSTEM.md with a
// literal "Available tools:" line and "- name: …" bullets keeps them byte
// for byte; pi's skills block goes when read does (0.x), and a lookalike
// skills block in the user's text stays.
func TestCustomLookalikeLinesKept(t *testing.T) {
	user := "My rules.\n\nAvailable tools:\n- read: Read file contents\n- bash: Execute bash commands\n\nGuidelines:\n- Be concise in your responses\n" +
		"\n<available_skills>\n  <skill>\n    <name>demo</name>\n  </skill>\n</available_skills>"
	skills := "\n\nThe following skills provide specialized instructions for specific tasks.\n" + skillsReadLine + "\n" +
		"When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n" +
		"<available_skills>\n  <skill>\n    <name>demo</name>\n    <description>d</description>\n    <location>/s/SKILL.md</location>\n  </skill>\n</available_skills>"
	tail := "\nCurrent date: 2026-03-15\nCurrent working directory: /repo"
	in := user + skills + tail
	out, rep := Narrow(in, allow("bash"))
	if out != user+tail || rep.Layout != LayoutCustom0 || !rep.SkillsBlockRemoved {
		t.Fatalf("layout %s\n%s", rep.Layout, diffLines(user+tail, out))
	}
	out, rep = Narrow(in, allow("read"))
	if out != in || rep.Changed {
		t.Fatalf("read kept: changed\n%s", diffLines(in, out))
	}
	// --deny-skill touches pi's block only.
	out, _ = Narrow(in, Options{DenySkills: []string{"demo"}})
	if out != user+tail {
		t.Fatalf("deny-skill demo\n%s", diffLines(user+tail, out))
	}
	// Without pi's block nothing changes, and the lookalike block is named.
	out, rep = Narrow(user+tail, allow())
	if out != user+tail || !hasNote(rep, "no skills block where pi appends it") {
		t.Fatalf("lookalike block: %q %v", out, rep.Notes)
	}
}
