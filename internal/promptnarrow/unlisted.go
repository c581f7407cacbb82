package promptnarrow

import "strings"

// UnlistedSkills returns the names of names that are no skill of the
// prompt's <available_skills> block (most likely a typo in --deny-skill),
// in their order.
func (r Report) UnlistedSkills(names []string) []string {
	listed := map[string]bool{}
	for _, k := range r.SkillsListed {
		listed[k] = true
	}
	var out []string
	for _, k := range names {
		if !listed[k] {
			out = append(out, k)
		}
	}
	return out
}

// UnlistedTools returns the names of names (white space trimmed, empty ones
// dropped) that are no tool the prompt lists (most likely a typo in
// --allow or --deny), in their order; none when the prompt lists no tools.
func (r Report) UnlistedTools(names []string) []string {
	if len(r.ToolsListed) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, t := range r.ToolsListed {
		listed[t] = true
	}
	var out []string
	for _, t := range names {
		if t = strings.TrimSpace(t); t != "" && !listed[t] {
			out = append(out, t)
		}
	}
	return out
}
