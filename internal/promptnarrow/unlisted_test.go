package promptnarrow

import (
	"slices"
	"testing"
)

func TestUnlisted(t *testing.T) {
	r := Report{ToolsListed: []string{"read", "bash"}, SkillsListed: []string{"pdf"}}
	if got := r.UnlistedTools([]string{"read", " bsh ", "", "bash", "grep"}); !slices.Equal(got, []string{"bsh", "grep"}) {
		t.Errorf("UnlistedTools = %q", got)
	}
	if got := r.UnlistedSkills([]string{"pdf", "pfd"}); !slices.Equal(got, []string{"pfd"}) {
		t.Errorf("UnlistedSkills = %q", got)
	}
	if got := (Report{}).UnlistedTools([]string{"read"}); got != nil {
		t.Errorf("a prompt that lists no tools: UnlistedTools = %q, want none", got)
	}
}
