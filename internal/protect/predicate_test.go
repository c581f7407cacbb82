package protect

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestPathGlobContract(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		// the default, on the spellings of case 003
		{"**/skills/**/*.md", "/home/user/.pi/agent/skills/sdd/SKILL.md", true},
		{"**/skills/**/*.md", ".pi/skills/review/checklist.md", true},
		{"**/skills/**/*.md", `C:\Users\user\.pi\agent\skills\win-notes\SKILL.md`, true},
		{"**/skills/**/*.md", "skills/a.md", true},
		{"**/skills/**/*.md", "docs/skills.md", false},
		{"**/skills/**/*.md", "/home/user/.pi/agent/skills/sdd/scripts/new-spec.sh", false},
		{"**/skills/**/*.md", "/home/user/.pi/agent/Skills/sdd/SKILL.md", false}, // case-sensitive
		// **/ matches zero directories
		{"**/SKILL.md", "SKILL.md", true},
		{"**/SKILL.md", "a/b/SKILL.md", true},
		// * and ? stay in one segment
		{"docs/*.md", "docs/a.md", true},
		{"docs/*.md", "docs/x/a.md", false},
		{"docs/?.md", "docs/a.md", true},
		{"docs/?.md", "docs/ab.md", false},
		{"docs/?.md", "docs//.md", false},
		// whole-string match, raw (no resolution)
		{"docs/*.md", "./docs/a.md", false},
		{"docs/*.md", "docs/a.md.bak", false},
		// brackets and braces are literal
		{"notes/[draft].md", "notes/[draft].md", true},
		{"notes/[draft].md", "notes/d.md", false},
		{"{a,b}.md", "a.md", false},
		{"{a,b}.md", "{a,b}.md", true},
		// backslashes in the pattern read as /
		{`**\skills\*.md`, "x/skills/a.md", true},
	}
	for _, c := range cases {
		if got := MatchPath(c.glob, c.path); got != c.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

func TestPredicate(t *testing.T) {
	p, err := NewPredicate([]string{"mem_*", "ask_user_*", "todo"}, DefaultProtectedPaths())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, path string
		hasPath    bool
		want       bool
	}{
		{"mem_search", "", false, true},
		{"ask_user_confirm", "", false, true},
		{"todo", "", false, true},
		{"todos", "", false, false},
		{"read", "/x/skills/a/SKILL.md", true, true},
		{"read", "/x/skills/a/SKILL.md", false, false}, // non-string path
		{"bash", "", false, false},
		{"write", "skills/x.md", true, true},
	}
	for _, c := range cases {
		if got := p.Protected(c.tool, c.path, c.hasPath); got != c.want {
			t.Errorf("Protected(%q, %q, %v) = %v, want %v", c.tool, c.path, c.hasPath, got, c.want)
		}
	}
	var nilP *Predicate
	if nilP.Protected("mem_x", "skills/a.md", true) {
		t.Error("nil predicate protects")
	}
	off, _ := NewPredicate(nil, []string{})
	if off.Protected("read", "skills/a.md", true) {
		t.Error("protectedPaths: [] must turn path protection off")
	}
}

func TestPredicateInvalid(t *testing.T) {
	_, err := NewPredicate(nil, []string{"ok/**", ""})
	var pe *PatternError
	if !errors.As(err, &pe) || pe.Index != 1 || pe.Key != "protectedPaths" {
		t.Fatalf("err = %v, want PatternError at protectedPaths[1]", err)
	}
}

func FuzzMatchPath(f *testing.F) {
	for _, s := range []string{"**/skills/**/*.md", "**/SKILL.md", "a/*/b?", `C:\x\**`, "[", "{", "***", "/**/"} {
		f.Add(s, "/home/user/.pi/agent/skills/sdd/SKILL.md")
	}
	// seed with the paths real sessions pass to tools
	files, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	re := regexp.MustCompile(`"path":"([^"\\]{1,200})"`)
	seen := map[string]bool{}
	for _, fn := range files {
		data, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			if p := string(m[1]); !seen[p] && len(seen) < 200 {
				seen[p] = true
				f.Add("**/skills/**/*.md", p)
			}
		}
	}
	f.Fuzz(func(t *testing.T, glob, path string) {
		_ = MatchPath(glob, path) // must never panic
		if p, err := NewPredicate([]string{glob}, []string{glob}); err == nil {
			_ = p.Protected(path, path, true)
		}
	})
}

// TestMemo: a Memo answers as its Predicate does, asked once or again, and
// a nil Predicate's Memo protects nothing.
func TestMemo(t *testing.T) {
	p, err := NewPredicate([]string{"bash", "mcp__*"}, []string{"**/skills/**/*.md", "secrets/*"})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"read", "bash", "mcp__x", "Bash", ""}
	paths := []string{"a/skills/b/c.md", `a\skills\b\c.md`, "secrets/k", "src/a.go", ""}
	for _, pred := range []*Predicate{p, nil} {
		m := NewMemo(pred)
		for range 2 {
			for _, n := range names {
				if got, want := m.ToolProtected(n), pred.ToolProtected(n); got != want {
					t.Errorf("ToolProtected(%q) = %v, want %v", n, got, want)
				}
				for _, path := range paths {
					if got, want := m.PathProtected(path), pred.PathProtected(path); got != want {
						t.Errorf("PathProtected(%q) = %v, want %v", path, got, want)
					}
					for _, has := range []bool{true, false} {
						if got, want := m.Protected(n, path, has), pred.Protected(n, path, has); got != want {
							t.Errorf("Protected(%q, %q, %v) = %v, want %v", n, path, has, got, want)
						}
					}
				}
			}
		}
	}
}
