package promptnarrow

import (
	"strconv"
	"strings"
)

// skillsRule says how the active tool set governs the skills block.
type skillsRule int

const (
	skillsUntouched  skillsRule = iota // only --deny-skill entries are removed
	skillsNeedRead                     // 0.5x/0.7x: block only when read is active
	skillsReadOrBash                   // 1.x: block when read or bash is active; intro names the tool
)

// filterSkills applies rule and the skill denials to the first skills block
// at or after line from. It mirrors pi's formatSkillsForPrompt: the block is
// "\n\n" + intro lines + <available_skills>…</available_skills> (0.x), or a
// "\n\n<skills>…</skills>" section (1.x); with no visible skill pi writes
// nothing. Entries of kept skills, and XML escaping, are left as they are.
func (d *doc) filterSkills(from int, rule skillsRule) {
	ao, ac := -1, -1
	for i := from; i < len(d.lines); i++ {
		t := trimCR(d.lines[i])
		if ao < 0 && t == availSkillsOpen {
			ao = i
		} else if ao >= 0 && t == availSkillsClose {
			ac = i
			break
		}
	}
	if ao < 0 || ac < 0 {
		return
	}
	// Whole-block extent: [bs, be] inclusive, including the blank separator line.
	bs, be := -1, -1
	introLine := -1 // 1.x: the line naming the tool
	if rule == skillsReadOrBash {
		for i := ao - 1; i >= from; i-- {
			if trimCR(d.lines[i]) == "<skills>" {
				if i > 0 && isBlank(d.lines[i-1]) {
					bs = i - 1
				}
				if i+2 < ao && trimCR(d.lines[i+1]) == skillsIntro0 {
					introLine = i + 2
				}
				break
			}
		}
		if bs >= 0 && ac+1 < len(d.lines) && trimCR(d.lines[ac+1]) == "</skills>" {
			be = ac + 1
		} else {
			bs = -1
		}
	} else {
		for i := ao - 1; i >= from && i >= ao-6; i-- {
			if trimCR(d.lines[i]) == skillsIntro0 {
				if i > 0 && isBlank(d.lines[i-1]) {
					bs, be = i-1, ac
				}
				break
			}
		}
	}

	// Entries: groups <skill>…</skill> inside the block.
	var kept []string
	total, keptN := 0, 0
	for i := ao + 1; i < ac; i++ {
		if trimCR(strings.TrimSpace(d.lines[i])) != "<skill>" {
			kept = append(kept, d.lines[i])
			continue
		}
		j := i
		for j < ac && strings.TrimSpace(trimCR(d.lines[j])) != "</skill>" {
			j++
		}
		if j >= ac { // unterminated entry: keep the rest as is
			kept = append(kept, d.lines[i:ac]...)
			break
		}
		total++
		name := skillName(d.lines[i : j+1])
		if name != "" && d.skillDenied(name) {
			d.rep.SkillsRemoved = append(d.rep.SkillsRemoved, name)
		} else {
			kept = append(kept, d.lines[i:j+1]...)
			keptN++
		}
		i = j
	}

	removeBlock := false
	switch rule {
	case skillsNeedRead:
		removeBlock = !d.has("read")
	case skillsReadOrBash:
		removeBlock = !d.has("read") && !d.has("bash")
	}
	if total > 0 && keptN == 0 {
		removeBlock = true
	}
	if removeBlock {
		if bs < 0 {
			if rule != skillsUntouched || total == 0 {
				d.rep.note("skills block has no recognised intro/section wrapper: left in place")
				if len(d.rep.SkillsRemoved) > 0 {
					d.splice(ao+1, ac, kept)
				}
				return
			}
			// Bare <available_skills> block whose entries are all denied.
			bs, be = ao, ac
		}
		d.rep.SkillsBlockRemoved = true
		d.rep.LinesRemoved = append(d.rep.LinesRemoved, "[skills block: "+strconv.Itoa(be-bs+1)+" lines]")
		d.splice(bs, be+1, nil)
		return
	}
	if len(d.rep.SkillsRemoved) > 0 {
		d.splice(ao+1, ac, kept)
	}
	if rule == skillsReadOrBash && introLine >= 0 {
		cur := trimCR(d.lines[introLine])
		want := skillsReadLine
		if !d.has("read") {
			want = skillsBashLine
		}
		switch cur {
		case skillsReadLine, skillsBashLine:
			if cur != want {
				d.rep.LinesRemoved = append(d.rep.LinesRemoved, cur)
				d.rep.LinesAdded = append(d.rep.LinesAdded, want)
				d.lines[introLine] = want + d.lines[introLine][len(cur):]
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
