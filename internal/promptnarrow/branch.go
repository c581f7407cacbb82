package promptnarrow

import "strings"

// Which branch of pi's buildSystemPrompt made the prompt.
//
// pi builds its own default prompt (preamble, tool list, guidelines or
// rules, docs) unless it has a custom prompt: a non-empty SYSTEM.md (the
// project's .pi/SYSTEM.md when the project is trusted, else
// ~/.pi/agent/SYSTEM.md) or --system-prompt. With a custom prompt pi writes
// the user's text as it is and appends only its context: the APPEND_SYSTEM.md
// text, the project context files, the skills block (0.x: only with read;
// 1.x: with read or bash) and the date/cwd lines (0.x) or the <cwd> section
// (1.x). pi's default prompt always starts with pi's preamble line directly
// followed by its tools section; a custom prompt is whatever the user typed,
// which may include lines that look like pi's sections.
//
// So the text tells the branches apart the way pi chooses them: the default
// branch is recognised only by pi's preamble on the first line, followed
// by pi's tools header, with the tail (date/cwd or <cwd>) of the same pi
// family; everything pi appends is found by its position at the end of the
// prompt, never by searching the text.

// PromptSource says which branch of pi's buildSystemPrompt made a prompt.
type PromptSource string

const (
	// SourceAuto detects the branch from the text (the default).
	SourceAuto PromptSource = ""
	// SourceDefault: pi's own default prompt, possibly with text an
	// extension put before pi's preamble.
	SourceDefault PromptSource = "default"
	// SourceCustom: a custom prompt (SYSTEM.md, --system-prompt), even when
	// it starts like pi's default prompt (a SYSTEM.md saved from it).
	SourceCustom PromptSource = "custom"
)

// PromptSources are the names ParsePromptSource takes (--prompt-source's
// values: validation and shell completion).
func PromptSources() []string { return []string{"auto", "default", "custom"} }

// ParsePromptSource parses "auto", "default" or "custom".
func ParsePromptSource(s string) (PromptSource, bool) {
	switch s {
	case "", "auto":
		return SourceAuto, true
	case "default":
		return SourceDefault, true
	case "custom":
		return SourceCustom, true
	}
	return "", false
}

// pi's default preambles (the first line of the default prompt).
const (
	preamble0 = "You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files."
	preamble1 = "You are a coding assistant running inside pi, a coding agent harness. Help users inspect files, run commands, and modify code."
)

// family is a pi version family as far as the prompt frame goes.
type family int

const (
	famNone family = iota
	fam0           // 0.x: "Available tools:" headers, date/cwd lines last
	fam1           // 1.x: XML sections, <cwd> section last (extension sections may follow)
)

// head returns the family of pi's default preamble and tools header at
// line i, or famNone.
func (d *doc) head(i int) family {
	if i+2 >= len(d.lines) || !isBlank(d.lines[i+1]) {
		return famNone
	}
	switch {
	case trimCR(d.lines[i]) == preamble0 && trimCR(d.lines[i+2]) == "Available tools:":
		return fam0
	case trimCR(d.lines[i]) == preamble1 && trimCR(d.lines[i+2]) == "<tools>":
		return fam1
	}
	return famNone
}

// tail finds what pi writes last: the "Current date:"/"Current working
// directory:" line pair (0.x) or the <cwd> section (1.x). It returns the
// family and the index of the date line or the "<cwd>" line; the later one
// wins when both occur (the other is then user text). -1 when neither.
func (d *doc) tail() (family, int) {
	for i := len(d.lines) - 1; i >= 0; i-- {
		t := trimCR(d.lines[i])
		if strings.HasPrefix(t, "Current date: ") && i+1 < len(d.lines) &&
			strings.HasPrefix(trimCR(d.lines[i+1]), "Current working directory: ") {
			return fam0, i
		}
		if t == "<cwd>" && i+2 < len(d.lines) && trimCR(d.lines[i+2]) == "</cwd>" && (i == 0 || isBlank(d.lines[i-1])) {
			return fam1, i
		}
	}
	return famNone, -1
}

// branch is the outcome of branch detection.
type branch struct {
	custom bool
	head   int    // default branch: the preamble line, or -1 (Source default without pi's preamble)
	hfam   family // default branch: the preamble's family (famNone: a tools header found by search)
	tfam   family // pi's tail family
	tail   int    // index of pi's tail line, or -1
}

// detectBranch decides which branch of buildSystemPrompt made the text.
func (d *doc) detectBranch() branch {
	tfam, ti := d.tail()
	b := branch{head: -1, tfam: tfam, tail: ti}
	switch d.opts.Source {
	case SourceCustom:
		b.custom = true
		return b
	case SourceDefault:
		// pi's preamble wherever it is (an extension may have put text
		// before it), else the first tools header as before.
		for i := range d.lines {
			if f := d.head(i); f != famNone && (ti < 0 || i < ti) {
				b.head, b.hfam = i, f
				if i > 0 {
					d.rep.note("text before pi's preamble (prompt-source default)")
				}
				return b
			}
		}
		b.head = -1
		return b
	}
	f := d.head(0)
	switch {
	case f == famNone:
		b.custom = true
	case tfam != famNone && tfam != f:
		// pi's default preamble of one family and the tail of the other: a
		// SYSTEM.md saved from another pi version's default prompt.
		b.custom = true
		d.rep.note("starts like another pi version's default prompt, but pi's appended sections are of the other layout: a custom SYSTEM.md")
	default:
		b.head, b.hfam = 0, f
	}
	return b
}
