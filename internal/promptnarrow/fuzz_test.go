package promptnarrow

import (
	"strings"
	"testing"
)

// FuzzNarrow: Narrow never panics on arbitrary text, is idempotent, never
// adds a tool bullet, and changes a custom prompt only in pi's skills block.
func FuzzNarrow(f *testing.F) {
	f.Add(readFile(f, testdataDir+"/cases/013-narrow-idempotent-and-byte-stable/prompt.txt"), uint8(0x0d), "")
	f.Add(readFile(f, testdataDir+"/oracle/0.79.1/prompt-all.txt"), uint8(0x02), "demo")
	f.Add(readFile(f, testdataDir+"/oracle/1.6.0/prompt-all.txt"), uint8(0x01), "demo")
	f.Add(readFile(f, testdataDir+"/oracle/1.6.0/prompt-none.txt"), uint8(0xff), "")
	f.Add("Available tools:\n- read: x\r\n(none)\n\nGuidelines:\n- Be concise in your responses", uint8(0), "")
	f.Add("<tools>\n(none)\n</tools>\n<rules>\n</rules>\n<skills>\n<available_skills>\n  <skill>\n</available_skills>", uint8(3), "x")
	f.Add("", uint8(0), "")
	o := loadCustomOracle(f)
	f.Add(o.Prompts["0.79.1/custom-lookalike-0x"]["read,bash,edit,write,grep,find,ls"], uint8(0x06), "second")
	f.Add(o.Prompts["1.6.0/custom-lookalike-1x"]["read,bash"], uint8(0x81), "demo")
	f.Add(o.Prompts["1.6.0/default-lookalike"]["read,bash,edit,write,grep,find,ls"], uint8(0x02), "")
	f.Fuzz(func(t *testing.T, prompt string, mask uint8, skill string) {
		var a []string
		for i, tl := range append(BuiltinTools(), "mcp") {
			if mask&(1<<i) != 0 {
				a = append(a, tl)
			}
		}
		opts := Options{Allow: a, AllowSet: mask&0x80 == 0, DenySkills: []string{skill}}
		once, rep := Narrow(prompt, opts)
		twice, _ := Narrow(once, opts)
		if twice != once {
			t.Fatalf("not idempotent (layout %s)\ninput %q\nonce  %q\ntwice %q", rep.Layout, prompt, once, twice)
		}
		if rep.Changed != (once != prompt) {
			t.Fatal("Changed flag wrong")
		}
		if strings.Count(once, "\n- ") > strings.Count(prompt, "\n- ")+len(rep.LinesAdded) {
			t.Fatal("bullets appeared from nowhere")
		}
		// A custom prompt changes only in pi's skills block.
		if rep.Custom && len(rep.SkillsRemoved) == 0 && !rep.SkillsBlockRemoved && len(rep.LinesAdded) == 0 && once != prompt {
			t.Fatalf("custom prompt changed outside pi's skills block\ninput %q\nout   %q", prompt, once)
		}
		if rep.Custom && len(rep.ToolsListed) > 0 {
			t.Fatal("custom prompt reported listed tools")
		}
	})
}
