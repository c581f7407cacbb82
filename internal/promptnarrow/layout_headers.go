package promptnarrow

import "sync"

// pi 0.5x and 0.7x: "Available tools:" / "Guidelines:" headers.
//
// Mirrors pi's buildSystemPrompt 0.58.3 (fixed guideline rules) and 0.79.1
// (per-tool promptGuidelines in tool order, "(none)" with no tool, skills
// only when read is active).

// rules05 mirrors buildSystemPrompt 0.58.3 rules (a)–(e) and (g).
var rules05 = ruleSet{
	known: func(g string) bool {
		switch g {
		case gBashFileOps, g05PreferGrep, g05ReadEdit, g05Edit, g05Write, g05Summarizing, gConcise, gFilePaths:
			return true
		}
		return false
	},
	target: func(d *doc) map[string]bool {
		t := map[string]bool{gConcise: true, gFilePaths: true}
		explore := d.has("grep") || d.has("find") || d.has("ls")
		if d.has("bash") && !explore {
			t[gBashFileOps] = true
		}
		if d.has("bash") && explore {
			t[g05PreferGrep] = true
		}
		if d.has("read") && d.has("edit") {
			t[g05ReadEdit] = true
		}
		if d.has("edit") {
			t[g05Edit] = true
		}
		if d.has("write") {
			t[g05Write] = true
		}
		if d.has("edit") || d.has("write") {
			t[g05Summarizing] = true
		}
		return t
	},
	top: func(d *doc) []string { return []string{gBashFileOps} },
}

// known07 is built on first use, not at every pruner start-up.
var known07 = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{gBashFileOps: true, gConcise: true, gFilePaths: true}
	for _, gs := range guidelines07 {
		for _, g := range gs {
			m[g] = true
		}
	}
	return m
})

// rules07 mirrors buildSystemPrompt 0.79.1: the bash file-ops line, then each
// active tool's promptGuidelines, then the two fixed lines.
var rules07 = ruleSet{
	known: func(g string) bool { return known07()[g] },
	target: func(d *doc) map[string]bool {
		t := map[string]bool{gConcise: true, gFilePaths: true}
		if d.has("bash") && !d.has("grep") && !d.has("find") && !d.has("ls") {
			t[gBashFileOps] = true
		}
		for tool, gs := range guidelines07 {
			if d.has(tool) {
				for _, g := range gs {
					t[g] = true
				}
			}
		}
		return t
	},
	top: func(d *doc) []string { return []string{gBashFileOps} },
}

// runHeaders handles a prompt whose tools header is "Available tools:" (at
// line ti).
func (d *doc) runHeaders(ti int) {
	// Tool list: the lines after the header up to the first blank line.
	te := ti + 1
	for te < len(d.lines) && !isBlank(d.lines[te]) {
		te++
	}
	// pi puts "Guidelines:" after at most one paragraph (the "In addition
	// to the tools above…" line); a later one is not pi's.
	gi := -1
	paras := 0
	for i := te; i < len(d.lines); i++ {
		if trimCR(d.lines[i]) == "Guidelines:" {
			gi = i
			break
		}
		if isBlank(d.lines[i]) {
			continue
		}
		if paras++; paras > 1 {
			break
		}
		for i+1 < len(d.lines) && !isBlank(d.lines[i+1]) {
			i++
		}
	}
	if gi < 0 {
		d.runPlain(ti, te, "\"Available tools:\" without a \"Guidelines:\" section")
		return
	}
	ge := gi + 1
	for ge < len(d.lines) && !isBlank(d.lines[ge]) {
		ge++
	}
	d.layout = d.detectDialect(gi+1, ge)
	d.rep.Layout = d.layout
	rs := rules07
	if d.layout == LayoutPi05 {
		rs = rules05
	}
	// The tool list decides A; compute it first, then edit bottom-up so that
	// indexes stay valid.
	newTools := d.narrowToolList(ti+1, te, true, false)
	newGuide := d.narrowGuidelines(gi+1, ge, rs)
	d.filterSkills(skillsNeedRead)
	d.splice(gi+1, ge, newGuide)
	d.splice(ti+1, te, newTools)
}

// detectDialect tells 0.5x from 0.7x. The guideline lines decide; the edit
// snippet, the project-context markup and the docs block break ties. With
// no signal at all both dialects give the same result for every subset of
// the listed tools, and 0.7x is reported as undetermined.
func (d *doc) detectDialect(gFrom, gTo int) Layout {
	v05, v07 := 0, 0
	for i := gFrom; i < gTo; i++ {
		t := trimCR(d.lines[i])
		if len(t) < 2 {
			continue
		}
		g := t[2:]
		switch g {
		case g05PreferGrep, g05ReadEdit, g05Edit, g05Write, g05Summarizing:
			v05 += 10
		}
		if known07()[g] && g != gBashFileOps && g != gConcise && g != gFilePaths {
			v07 += 10
		}
	}
	for _, l := range d.lines {
		switch trimCR(l) {
		case "- edit: " + snippet05Edit, "# Project Context":
			v05++
		case "- edit: " + snippet07Edit, "<project_context>", docs07ResolveLn:
			v07++
		}
	}
	switch {
	case v05 > v07:
		if v07 > 0 {
			d.rep.note("mixed 0.5x/0.7x signals; using 0.5x rules")
		}
		return LayoutPi05
	case v07 > v05:
		if v05 > 0 {
			d.rep.note("mixed 0.5x/0.7x signals; using 0.7x rules")
		}
		return LayoutPi07
	}
	d.rep.note("0.5x/0.7x dialect undetermined (no distinguishing line); both give the same result for this tool set")
	return LayoutPi07
}

// runPlain is the fallback for an unrecognised layout: bullets of tools
// outside A in lines [from, to) are dropped, everything else is kept.
func (d *doc) runPlain(hdr, to int, why string) {
	d.layout = LayoutPlain
	d.rep.Layout = LayoutPlain
	d.rep.note("unrecognised layout (" + why + "): plain line narrowing, only tool bullets removed")
	newTools := d.narrowToolList(hdr+1, to, false, true)
	d.filterSkills(skillsUntouched)
	d.splice(hdr+1, to, newTools)
}
