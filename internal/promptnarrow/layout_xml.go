package promptnarrow

import "sync"

// pi 1.x: XML-tagged sections joined by blank lines (preamble, <tools>,
// <rules>, <docs>, <addendum>, <project_context>, <skills>, <cwd>).
//
// Mirrors pi 1.6.0 buildSystemPromptSections/buildRules: the tool list is
// "- name: snippet" lines or "(none)", then "Additional tools may be
// available."; rules are the file-exploration line, each active tool's
// guidelines in tool order, extension guidelines, then the two fixed lines;
// skills are listed when read or bash is active and the intro names the
// tool ("Use the read tool to load…" / "Use bash to load…").

// known1 is built on first use, not at every pruner start-up.
var known1 = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{gBashFileOps: true, g1BashOrPS: true, g1PS: true, gConcise: true, gFilePaths: true}
	for _, gs := range guidelines1 {
		for _, g := range gs {
			m[g] = true
		}
	}
	return m
})

var rules1 = ruleSet{
	known: func(g string) bool { return known1()[g] },
	target: func(d *doc) map[string]bool {
		t := map[string]bool{gConcise: true, gFilePaths: true}
		bash, ps := d.has("bash"), d.has("powershell")
		if (bash || ps) && !d.has("grep") && !d.has("find") && !d.has("ls") {
			switch {
			case bash && ps:
				t[g1BashOrPS] = true
			case ps:
				t[g1PS] = true
			default:
				t[gBashFileOps] = true
			}
		}
		for tool, gs := range guidelines1 {
			if d.has(tool) {
				for _, g := range gs {
					t[g] = true
				}
			}
		}
		return t
	},
	top: func(d *doc) []string { return []string{gBashFileOps, g1BashOrPS, g1PS} },
}

// findClose returns the index of the first line equal to tag at or after
// from, or -1.
func (d *doc) findClose(from int, tag string) int {
	for i := from; i < len(d.lines); i++ {
		if trimCR(d.lines[i]) == tag {
			return i
		}
	}
	return -1
}

// runXML handles a prompt whose tools header is "<tools>" at line ti.
func (d *doc) runXML(ti int) {
	tc := d.findClose(ti+1, "</tools>")
	if tc < 0 {
		te := ti + 1
		for te < len(d.lines) && !isBlank(d.lines[te]) {
			te++
		}
		d.runPlain(ti, te, "<tools> without </tools>")
		return
	}
	// pi joins its sections with one blank line: <rules> follows </tools>.
	ri := -1
	if tc+2 < len(d.lines) && isBlank(d.lines[tc+1]) && trimCR(d.lines[tc+2]) == "<rules>" {
		ri = tc + 2
	}
	rc := -1
	if ri >= 0 {
		rc = d.findClose(ri+1, "</rules>")
	}
	if ri < 0 || rc < 0 {
		d.runPlain(ti, tc, "<tools> without a <rules> section")
		return
	}
	d.layout = LayoutPi1
	d.rep.Layout = LayoutPi1
	newTools := d.narrowToolList(ti+1, tc, true, false)
	newRules := d.narrowGuidelines(ri+1, rc, rules1)
	d.filterSkills(skillsReadOrBash)
	d.splice(ri+1, rc, newRules)
	d.splice(ti+1, tc, newTools)
}
