package summarize

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// jsSpace is JavaScript's \s (RE2's \s is ASCII only).
const jsSpace = `[\t\n\v\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]`

// The label patterns are compiled on first use (sync.OnceValue), not at
// every pruner start-up (`pruner hook` included).
var (
	// leadingLabel is a label at the start of a line, optionally after a
	// "-" or "*" bullet: the form the summariser is asked to write.
	leadingLabel = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(` + jsSpace + `*(?:[-*]` + jsSpace + `+)?)\[\[(\d+):([^\]\n]+)\]\]` + jsSpace + `*`)
	})
	// anyLabel is any well-formed label left on a line (wrapped in bold or
	// backticks, numbered, quoted, or mid-sentence).
	anyLabel = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[\[\d+:[^\]\n]+\]\]` + jsSpace + `*`)
	})
)

// trimJS trims JavaScript whitespace (String.prototype.trim).
func trimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// SubstituteLabels turns the summariser's `[[N:tool]]` labels into refs, as
// pi-condense does: a label at the start of a line (optionally after a "-"
// or "*" bullet) becomes "`tN` " when N is a call of the batch and the name
// matches that call's tool (trimmed, case-insensitive); otherwise the label
// is dropped and the bullet kept. Every other well-formed label is stripped,
// except inside fenced code blocks (``` lines toggle a fence), so no raw
// label reaches the model. refs[i] and toolNames[i] belong to call i+1.
func SubstituteLabels(text string, refs, toolNames []string) string {
	lines := strings.Split(text, "\n")
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimLeftFunc(line, isJSSpace), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.Contains(line, "[[") {
			continue // (both patterns start a label with "[[")
		}
		if m := leadingLabel().FindStringSubmatchIndex(line); m != nil {
			prefix := line[m[2]:m[3]]
			n, err := strconv.Atoi(line[m[4]:m[5]])
			name := line[m[6]:m[7]]
			repl := prefix
			if err == nil && n >= 1 && n <= len(refs) && n <= len(toolNames) &&
				strings.EqualFold(trimJS(name), trimJS(toolNames[n-1])) {
				repl = prefix + "`" + refs[n-1] + "` "
			}
			line = repl + line[m[1]:]
		}
		if strings.Contains(line, "[[") {
			line = anyLabel().ReplaceAllString(line, "")
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// ValidLabels counts the line-leading labels of text that SubstituteLabels
// would turn into refs for a batch with these tool names.
func ValidLabels(text string, toolNames []string) int {
	n := 0
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, isJSSpace), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		m := leadingLabel().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		k, err := strconv.Atoi(m[2])
		if err == nil && k >= 1 && k <= len(toolNames) && strings.EqualFold(trimJS(m[3]), trimJS(toolNames[k-1])) {
			n++
		}
	}
	return n
}

// Footer is the text pi-condense appends to every summary: the refs it
// covers and how to get the originals back.
func Footer(refs []string) string {
	var b strings.Builder
	b.WriteString("\n\n---\n**Summarized tool refs**: ")
	for i, r := range refs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + r + "`")
	}
	b.WriteString("\nUse `context_tree_query` with these refs to retrieve the original full outputs.")
	return b.String()
}

// Label is the label of call n (1-based) with tool name tool.
func Label(n int, tool string) string {
	return "[[" + strconv.Itoa(n) + ":" + tool + "]]"
}
