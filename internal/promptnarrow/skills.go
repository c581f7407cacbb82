package promptnarrow

import (
	"strconv"
	"strings"
)

// skillsRule says how the active tool set governs the skills block.
type skillsRule int

const (
	skillsUntouched  skillsRule = iota // only --deny-skill entries are removed
	skillsNeedRead                     // 0.x: block only when read is active
	skillsReadOrBash                   // 1.x: block when read or bash is active; intro names the tool
)

// skillsBlock is pi's skills block: the one pi appends right before its
// tail (the date line in 0.x, the <cwd> section in 1.x). A block anywhere
// else is user text (SYSTEM.md, APPEND_SYSTEM.md, a context file) and is
// never touched.
type skillsBlock struct {
	ao, ac int // the <available_skills> and </available_skills> lines
	bs, be int // the whole block with the blank line before it, inclusive
	intro  int // 1.x: the intro line that names the tool, or -1
}

// findSkills returns pi's skills block, or nil when pi wrote none (or the
// tail it is anchored to is missing). It mirrors formatSkillsForPrompt:
// "\n\n" + intro lines + <available_skills>…</available_skills> (0.x,
// followed by "\nCurrent date:"), or a "<skills>…</skills>" section joined
// by "\n\n" before "<cwd>" (1.x).
func (d *doc) findSkills() *skillsBlock {
	back := func(from int, want string) int {
		for i := from; i >= 0; i-- {
			if trimCR(d.lines[i]) == want {
				return i
			}
		}
		return -1
	}
	b := &skillsBlock{bs: -1, be: -1, intro: -1}
	switch d.br.tfam {
	case fam0:
		b.ac = d.br.tail - 1
		if b.ac < 0 || trimCR(d.lines[b.ac]) != availSkillsClose {
			return nil
		}
		if b.ao = back(b.ac-1, availSkillsOpen); b.ao < 0 {
			return nil
		}
		for i := b.ao - 1; i >= 1 && i >= b.ao-6; i-- {
			if trimCR(d.lines[i]) == skillsIntro0 {
				if isBlank(d.lines[i-1]) {
					b.bs, b.be = i-1, b.ac
				}
				break
			}
		}
	case fam1:
		ci := d.br.tail
		if ci < 3 || !isBlank(d.lines[ci-1]) || trimCR(d.lines[ci-2]) != "</skills>" || trimCR(d.lines[ci-3]) != availSkillsClose {
			return nil
		}
		b.ac = ci - 3
		if b.ao = back(b.ac-1, availSkillsOpen); b.ao < 0 {
			return nil
		}
		so := back(b.ao-1, "<skills>")
		if so < 0 {
			return nil
		}
		if so+2 < b.ao && trimCR(d.lines[so+1]) == skillsIntro0 {
			b.intro = so + 2
		}
		if so >= 1 && isBlank(d.lines[so-1]) {
			b.bs, b.be = so-1, ci-2
		}
	default:
		return nil
	}
	if b.bs < 0 {
		return nil // not pi's wrapper: user text that ends where pi's block would
	}
	return b
}

// filterSkills applies rule and the skill denials to pi's skills block. With
// no visible skill left pi writes no block at all. Entries of kept skills,
// and XML escaping, are left as they are.
func (d *doc) filterSkills(rule skillsRule) {
	b := d.findSkills()
	if b == nil {
		if strings.Contains(strings.Join(d.lines, "\n"), availSkillsOpen) {
			d.rep.note("no skills block where pi appends it (before the date/cwd lines or the <cwd> section): <available_skills> text left as is")
		}
		return
	}
	// Entries: groups <skill>…</skill> inside the block.
	var kept []string
	total, keptN := 0, 0
	for i := b.ao + 1; i < b.ac; i++ {
		if strings.TrimSpace(trimCR(d.lines[i])) != "<skill>" {
			kept = append(kept, d.lines[i])
			continue
		}
		j := i
		for j < b.ac && strings.TrimSpace(trimCR(d.lines[j])) != "</skill>" {
			j++
		}
		if j >= b.ac { // unterminated entry: keep the rest as is
			kept = append(kept, d.lines[i:b.ac]...)
			break
		}
		total++
		name := skillName(d.lines[i : j+1])
		d.rep.SkillsListed = append(d.rep.SkillsListed, name)
		if name != "" && d.skillDenied(name) {
			d.rep.SkillsRemoved = append(d.rep.SkillsRemoved, name)
		} else {
			kept = append(kept, d.lines[i:j+1]...)
			keptN++
		}
		i = j
	}

	intro := ""
	if b.intro >= 0 {
		intro = trimCR(d.lines[b.intro])
	}
	removeBlock := false
	switch rule {
	case skillsNeedRead:
		removeBlock = !d.has("read")
	case skillsReadOrBash:
		if intro == skillsIndirectLn {
			// pi hid the reader tool: it names none; the block goes only
			// when neither reader may be used at all.
			removeBlock = !d.allowed("read") && !d.allowed("bash")
		} else {
			removeBlock = !d.has("read") && !d.has("bash")
		}
	}
	if total > 0 && keptN == 0 {
		removeBlock = true
	}
	if removeBlock {
		d.rep.SkillsBlockRemoved = true
		d.rep.LinesRemoved = append(d.rep.LinesRemoved, "[skills block: "+strconv.Itoa(b.be-b.bs+1)+" lines]")
		d.splice(b.bs, b.be+1, nil)
		return
	}
	if len(d.rep.SkillsRemoved) > 0 {
		d.splice(b.ao+1, b.ac, kept)
	}
	if rule == skillsReadOrBash && b.intro >= 0 {
		want := skillsReadLine
		if !d.has("read") {
			want = skillsBashLine
		}
		switch intro {
		case skillsReadLine, skillsBashLine:
			if intro != want {
				d.rep.LinesRemoved = append(d.rep.LinesRemoved, intro)
				d.rep.LinesAdded = append(d.rep.LinesAdded, want)
				d.lines[b.intro] = want + d.lines[b.intro][len(intro):]
			}
		case skillsIndirectLn:
			d.rep.note("skills intro names no tool (pi hid the reader tool): left as is")
		}
	}
}

func (d *doc) skillDenied(name string) bool {
	if contains(d.opts.DenySkills, name) {
		return true
	}
	return d.opts.Policy != nil && d.opts.Policy.SkillDenied(name)
}

// skillName returns the XML-decoded <name> of one <skill> entry.
func skillName(entry []string) string {
	for _, l := range entry {
		t := strings.TrimSpace(trimCR(l))
		if strings.HasPrefix(t, "<name>") && strings.HasSuffix(t, "</name>") {
			return xmlUnescape(t[len("<name>") : len(t)-len("</name>")])
		}
	}
	return ""
}

var xmlUnescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", "\"", "&apos;", "'", "&amp;", "&")

func xmlUnescape(s string) string { return xmlUnescaper.Replace(s) }
