// Package promptnarrow narrows a pi system prompt to an allowed tool set so
// that the result equals, byte for byte, the prompt pi itself builds for that
// set (pi's buildSystemPrompt in 0.58, 0.79 and 1.6). It is pure: a string
// in, a string and a Report out; no I/O.
//
// pi's default prompt is recognised by pi's preamble on the first line, in
// three layouts:
//   - pi 0.5x: "Available tools:" / "Guidelines:" headers, fixed guideline
//     rules, "# Project Context";
//   - pi 0.7x: the same headers, per-tool promptGuidelines,
//     "<project_context>" tags;
//   - pi 1.x: XML sections <tools>, <rules>, <skills>, no date.
//
// Any other prompt is a custom prompt (a user's SYSTEM.md): pi writes no
// tool list or guidelines for it, so only the skills block pi appends
// follows the tool set (LayoutCustom0, LayoutCustom1), and the user's text
// stays byte for byte even where it looks like pi's sections. The sections
// pi appends are found by their position before pi's tail (the date/cwd
// lines, the <cwd> section), never by searching. A default prompt whose
// sections are not where pi puts them is narrowed line by line (bullets of
// denied tools dropped, everything else kept) and reported as LayoutPlain;
// a prompt with neither pi's preamble nor pi's tail passes through
// unchanged (LayoutNone).
package promptnarrow

import "strings"

// Layout names the prompt layout Narrow detected.
type Layout string

const (
	LayoutPi05  Layout = "pi-0.5x" // "Available tools:"/"Guidelines:", fixed rules (pi 0.58)
	LayoutPi07  Layout = "pi-0.7x" // same headers, per-tool guidelines (pi 0.79)
	LayoutPi1   Layout = "pi-1.x"  // XML sections <tools>/<rules>/<skills> (pi 1.6)
	LayoutPlain Layout = "plain"   // pi's preamble, sections not where pi puts them: bullet-only narrowing
	LayoutNone  Layout = "none"    // neither pi's preamble nor pi's tail: passed through

	LayoutCustom0 Layout = "custom-0.x" // custom prompt (SYSTEM.md) with pi 0.x's date/cwd tail
	LayoutCustom1 Layout = "custom-1.x" // custom prompt (SYSTEM.md) with pi 1.x's <cwd> section
)

// Options selects the allowed tool set A and the denied skills.
//
// A tool listed in the prompt is kept when all of these hold: AllowSet is
// false or the tool is in Allow; the tool is not in Deny; Policy is nil or
// does not fully deny it. Tools are never added: A is always a subset of
// the tools the prompt lists. Names outside pi's built-ins are extension
// tools, never an error. Order and duplicates in Allow/Deny do not matter.
//
// A custom prompt lists no tools, so there the tools pi had are known only
// from its skills block (0.x: read; 1.x: the tool the intro names) and Allow
// is taken as the allowed set as given.
type Options struct {
	Allow      []string     // allowed tool names (used only when AllowSet)
	AllowSet   bool         // Allow is authoritative, even when empty ("no tools")
	Deny       []string     // denied tool names
	DenySkills []string     // skill names whose <available_skills> entries are removed
	Policy     *Policy      // optional pi-permission-system policy (tools fully denied, skills denied)
	Source     PromptSource // which branch of buildSystemPrompt made the prompt (default: detect)
}

// Report describes what Narrow did. Line slices hold line text without the
// line ending.
type Report struct {
	Layout             Layout   `json:"layout"`
	Custom             bool     `json:"custom"` // the prompt was built from a custom prompt (SYSTEM.md)
	Notes              []string `json:"notes,omitempty"`
	Warnings           []string `json:"warnings,omitempty"` // the result may differ from pi's; say so to the user
	Changed            bool     `json:"changed"`
	CRLF               bool     `json:"crlf,omitempty"`
	ToolsListed        []string `json:"toolsListed"`
	ToolsKept          []string `json:"toolsKept"`
	ToolsRemoved       []string `json:"toolsRemoved"` // listed tools outside A (what --check reports)
	LinesRemoved       []string `json:"linesRemoved"`
	LinesAdded         []string `json:"linesAdded"`
	Unattributed       []string `json:"unattributed"` // kept lines pruner cannot attribute to a tool
	SkillsListed       []string `json:"skillsListed"` // skills in pi's <available_skills> block
	SkillsRemoved      []string `json:"skillsRemoved"`
	SkillsBlockRemoved bool     `json:"skillsBlockRemoved,omitempty"`
}

func (r *Report) note(s string) { r.Notes = append(r.Notes, s) }

func (r *Report) warn(s string) { r.Warnings = append(r.Warnings, s) }

// Narrow returns prompt narrowed per opts, and a report. It never panics on
// arbitrary input. For pi's built-in tools, Narrow(piPrompt(B), A) ==
// piPrompt(A) for every A ⊆ B (0.58, 0.79.1 and 1.6.0 layouts), which makes
// it idempotent and cache-stable across turns. CRLF input (every line end
// CRLF) keeps CRLF; bytes outside the tools, guidelines/rules and skills
// sections are untouched.
func Narrow(prompt string, opts Options) (string, Report) {
	rep := Report{ToolsListed: []string{}, ToolsKept: []string{}, ToolsRemoved: []string{},
		LinesRemoved: []string{}, LinesAdded: []string{}, Unattributed: []string{}, SkillsListed: []string{}, SkillsRemoved: []string{}}
	text := prompt
	crlf := strings.Contains(text, "\r\n") && strings.Count(text, "\r\n") == strings.Count(text, "\n")
	if crlf {
		rep.CRLF = true
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	d := &doc{lines: strings.Split(text, "\n"), opts: &opts, rep: &rep}
	d.run()
	out := strings.Join(d.lines, "\n")
	if crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	if out == prompt {
		out = prompt // same bytes; return the input itself
	}
	rep.Changed = out != prompt
	return out, rep
}

// doc is the working state of one Narrow call.
type doc struct {
	lines []string
	opts  *Options
	rep   *Report

	layout  Layout
	br      branch          // which branch of buildSystemPrompt, where pi's tail is
	keptSet map[string]bool // A ∩ B
	dropped map[string]bool // B \ A
}

// allowed reports whether tool name is in A (before intersecting with B).
func (d *doc) allowed(name string) bool {
	o := d.opts
	if o.AllowSet && !contains(o.Allow, name) {
		return false
	}
	if contains(o.Deny, name) {
		return false
	}
	if o.Policy != nil && o.Policy.ToolFullyDenied(name) {
		return false
	}
	return true
}

func (d *doc) has(name string) bool { return d.keptSet[name] }

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func (d *doc) run() {
	d.br = d.detectBranch()
	if d.br.custom {
		d.runCustom()
		return
	}
	ti, kind := -1, ""
	switch {
	case d.br.head >= 0 && d.br.hfam == fam1:
		ti, kind = d.br.head+2, "xml"
	case d.br.head >= 0:
		ti, kind = d.br.head+2, "hdr"
	default: // Source default without pi's preamble
		ti, kind = d.findToolsHeader()
	}
	if ti < 0 {
		d.layout = LayoutNone
		d.rep.Layout = LayoutNone
		d.rep.note("no pi preamble or tools section found: prompt left unchanged")
		return
	}
	switch kind {
	case "xml":
		d.runXML(ti)
	default:
		d.runHeaders(ti)
	}
}

// runCustom narrows a prompt of pi's custom-prompt branch: the user's text
// and everything else stay; pi's skills block follows pi's rule for the
// allowed set (0.x: only with read; 1.x: with read or bash, the intro
// naming read, else bash).
func (d *doc) runCustom() {
	d.rep.Custom = true
	switch d.br.tfam {
	case fam0:
		d.layout = LayoutCustom0
	case fam1:
		d.layout = LayoutCustom1
	default:
		d.layout = LayoutNone
		d.rep.Layout = LayoutNone
		d.rep.note("custom system prompt without pi's date/cwd lines or <cwd> section (not built by pi, or forced): left unchanged")
		return
	}
	d.rep.Layout = d.layout
	d.rep.note("custom system prompt (SYSTEM.md): pi writes no tool list or guidelines for it; only its skills block follows the tool set")
	// The tools pi had (B) are known only from its skills block; A is
	// Allow (when given) minus Deny and the policy, within what B shows.
	d.keptSet = map[string]bool{}
	d.dropped = map[string]bool{}
	b := d.findSkills()
	if b == nil {
		d.filterSkills(skillsUntouched) // only reports a lookalike block
		return
	}
	if d.br.tfam == fam0 {
		// pi 0.x writes the block only when read is active.
		if d.allowed("read") {
			d.keptSet["read"] = true
		} else {
			d.dropped["read"] = true
		}
		d.filterSkills(skillsNeedRead)
		return
	}
	intro := ""
	if b.intro >= 0 {
		intro = trimCR(d.lines[b.intro])
	}
	switch intro {
	case skillsReadLine: // read was active; bash is not known
		if d.allowed("read") {
			d.keptSet["read"] = true
		} else {
			d.dropped["read"] = true
			switch {
			case d.opts.AllowSet && d.allowed("bash"):
				d.keptSet["bash"] = true
			case !d.opts.AllowSet && d.allowed("bash"):
				d.rep.warn("custom prompt lists no tools: whether bash is active is unknown, so the skills block goes with read; give --allow with the allowed tools to keep it for bash")
			}
		}
	case skillsBashLine: // bash was active, read was not
		if d.allowed("bash") {
			d.keptSet["bash"] = true
		} else {
			d.dropped["bash"] = true
		}
	}
	d.filterSkills(skillsReadOrBash)
}

// findToolsHeader returns the index of the first tools header line and its
// kind ("xml" for <tools>, "hdr" for "Available tools:"), or -1.
func (d *doc) findToolsHeader() (int, string) {
	for i, l := range d.lines {
		switch trimCR(l) {
		case "<tools>":
			return i, "xml"
		case "Available tools:":
			return i, "hdr"
		}
	}
	return -1, ""
}

func trimCR(s string) string { return strings.TrimSuffix(s, "\r") }

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// bulletName parses a tool bullet "- name: snippet" (colon optional when
// lenient) and returns the name.
func bulletName(line string, lenient bool) (string, bool) {
	l := trimCR(line)
	if !strings.HasPrefix(l, "- ") {
		return "", false
	}
	rest := l[2:]
	n := 0
	for n < len(rest) {
		c := rest[n]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' {
			n++
			continue
		}
		break
	}
	if n == 0 {
		return "", false
	}
	if n < len(rest) && rest[n] == ':' {
		return rest[:n], true
	}
	if lenient && (n == len(rest) || rest[n] == ' ') {
		return rest[:n], true
	}
	return "", false
}

// narrowToolList narrows the tool list lines [from, to): bullets of tools
// outside A are dropped; other lines stay. If no bullet survives and
// writeNone, a "(none)" line takes the first bullet's place. It records B
// and A in d and returns the new lines.
func (d *doc) narrowToolList(from, to int, writeNone, lenient bool) []string {
	d.keptSet = map[string]bool{}
	d.dropped = map[string]bool{}
	var out []string
	firstBullet := -1
	kept := 0
	hadNone := false
	for i := from; i < to; i++ {
		l := d.lines[i]
		name, ok := bulletName(l, lenient)
		if !ok {
			t := trimCR(l)
			if t == noneLine {
				if !hadNone && firstBullet < 0 {
					firstBullet = len(out)
				}
				hadNone = true
				continue // re-added below if still no bullets
			}
			if t != toolsAdditional05 && t != toolsAdditional1 && !isBlank(t) {
				d.rep.Unattributed = append(d.rep.Unattributed, t)
			}
			out = append(out, l)
			continue
		}
		d.rep.ToolsListed = append(d.rep.ToolsListed, name)
		if firstBullet < 0 {
			firstBullet = len(out)
		}
		if d.allowed(name) {
			d.keptSet[name] = true
			d.rep.ToolsKept = append(d.rep.ToolsKept, name)
			out = append(out, l)
			kept++
		} else {
			d.dropped[name] = true
			d.rep.ToolsRemoved = append(d.rep.ToolsRemoved, name)
			d.rep.LinesRemoved = append(d.rep.LinesRemoved, trimCR(l))
		}
	}
	if kept == 0 && (hadNone || (writeNone && firstBullet >= 0)) {
		pos := firstBullet
		if pos < 0 {
			pos = 0
		}
		out = append(out[:pos], append([]string{noneLine}, out[pos:]...)...)
		if !hadNone {
			d.rep.LinesAdded = append(d.rep.LinesAdded, noneLine)
		}
	}
	return out
}

// splice replaces lines [from, to) with repl.
func (d *doc) splice(from, to int, repl []string) {
	n := make([]string, 0, len(d.lines)-(to-from)+len(repl))
	n = append(n, d.lines[:from]...)
	n = append(n, repl...)
	n = append(n, d.lines[to:]...)
	d.lines = n
}

// ---- guidelines / rules ----

// ruleSet is one layout's built-in guideline model.
type ruleSet struct {
	known  func(line string) bool       // a built-in line of this layout
	target func(d *doc) map[string]bool // built-in lines pi writes for A
	top    func(d *doc) []string        // lines pi puts first that pruner may add
}

func normGuideline(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-*")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// narrowGuidelines rewrites the guideline bullets in lines [from, to) per rs
// and returns the new lines.
func (d *doc) narrowGuidelines(from, to int, rs ruleSet) []string {
	target := rs.target(d)
	var out []string
	present := map[string]bool{}
	for i := from; i < to; i++ {
		l := d.lines[i]
		t := trimCR(l)
		if !strings.HasPrefix(t, "- ") {
			if !isBlank(t) {
				d.rep.Unattributed = append(d.rep.Unattributed, t)
			}
			out = append(out, l)
			continue
		}
		g := t[2:]
		if rs.known(g) {
			if target[g] {
				out = append(out, l)
				present[g] = true
			} else {
				d.rep.LinesRemoved = append(d.rep.LinesRemoved, t)
			}
			continue
		}
		if eg, ok := extGuidelines()[normGuideline(g)]; ok {
			droppedTool := false
			for _, tool := range eg.tools {
				if d.dropped[tool] {
					droppedTool = true
				}
			}
			if droppedTool && !eg.keep(d.has) {
				d.rep.LinesRemoved = append(d.rep.LinesRemoved, t)
				continue
			}
		}
		d.rep.Unattributed = append(d.rep.Unattributed, t)
		out = append(out, l)
	}
	var add []string
	for _, g := range rs.top(d) {
		if target[g] && !present[g] {
			add = append(add, "- "+g)
			d.rep.LinesAdded = append(d.rep.LinesAdded, "- "+g)
		}
	}
	if len(add) > 0 {
		out = append(add, out...)
	}
	return out
}
