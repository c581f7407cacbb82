package summarize

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
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
	return substituteLabels(text, refs, toolNames, false)
}

// SubstituteLabelsFooter is SubstituteLabels(text, refs, toolNames) +
// Footer(refs), written into one buffer.
func SubstituteLabelsFooter(text string, refs, toolNames []string) string {
	return substituteLabels(text, refs, toolNames, true)
}

// substituteLabels is SubstituteLabels, followed by Footer(refs) when
// footer is set.
func substituteLabels(text string, refs, toolNames []string, footer bool) string {
	n := 0
	if footer {
		n = footerLen(refs)
	}
	if !strings.Contains(text, "[[") { // (both patterns start a label with "[[")
		if !footer {
			return text
		}
		b := appendFooter(append(make([]byte, 0, len(text)+n), text...), refs)
		return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	}
	b := make([]byte, 0, len(text)+8*len(refs)+n)
	inFence := false
	for start := 0; ; {
		end := len(text)
		if j := strings.IndexByte(text[start:], '\n'); j >= 0 {
			end = start + j
		}
		line := text[start:end]
		switch {
		case strings.HasPrefix(strings.TrimLeftFunc(line, isJSSpace), "```"):
			inFence = !inFence
			b = append(b, line...)
		case inFence || !strings.Contains(line, "[["):
			b = append(b, line...)
		default:
			b = appendSubstituted(b, line, refs, toolNames)
		}
		if end == len(text) {
			if footer {
				b = appendFooter(b, refs)
			}
			return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
		}
		b = append(b, '\n')
		start = end + 1
	}
}

// appendSubstituted appends a line holding "[[" (outside a fence) with its
// labels substituted (SubstituteLabels).
func appendSubstituted(b []byte, line string, refs, toolNames []string) []byte {
	if m, ok := leadingLabelAt(line); ok {
		prefix, rest := line[:m.prefix], line[m.end:]
		n, err := strconv.Atoi(line[m.num : m.name-1])
		ref := ""
		if err == nil && n >= 1 && n <= len(refs) && n <= len(toolNames) &&
			strings.EqualFold(trimJS(line[m.name:m.name+m.nameLen]), trimJS(toolNames[n-1])) {
			ref = refs[n-1]
		}
		if !strings.Contains(rest, "[[") && !strings.Contains(ref, "[[") {
			b = append(b, prefix...)
			if ref != "" {
				b = append(append(append(append(b, '`'), ref...), '`'), ' ')
			}
			return append(b, rest...)
		}
		if ref != "" {
			prefix += "`" + ref + "` "
		}
		line = prefix + rest
	}
	if strings.Contains(line, "[[") {
		line = anyLabel().ReplaceAllString(line, "")
	}
	return append(b, line...)
}

// labelMatch is where leadingLabel matches a line: the prefix (group 1)
// is line[:prefix], the number (group 2) line[num:name-1], the name
// (group 3) line[name:name+nameLen], and the match ends at end.
type labelMatch struct{ prefix, num, name, nameLen, end int }

// leadingLabelAt is leadingLabel's match of line, found without the
// regular expression: its parts never overlap (a space, a bullet, "[[",
// digits, ":", a name up to the first "]" or line break), so the match is
// each part taken as far as it goes.
func leadingLabelAt(line string) (labelMatch, bool) {
	var m labelMatch
	i := skipJSSpace(line, 0)
	if i < len(line) && (line[i] == '-' || line[i] == '*') {
		if j := skipJSSpace(line, i+1); j > i+1 {
			i = j // a bullet and its space
		}
	}
	m.prefix = i
	if !strings.HasPrefix(line[i:], "[[") {
		return m, false
	}
	i += 2
	m.num = i
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == m.num || i >= len(line) || line[i] != ':' {
		return m, false
	}
	i++
	m.name = i
	for i < len(line) && line[i] != ']' && line[i] != '\n' {
		i++
	}
	if i == m.name || !strings.HasPrefix(line[i:], "]]") {
		return m, false
	}
	m.nameLen = i - m.name
	m.end = skipJSSpace(line, i+2)
	return m, true
}

// skipJSSpace is the index of the first rune of s at or after i that is
// not JavaScript white space (jsSpace).
func skipJSSpace(s string, i int) int {
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !isJSSpace(r) {
			return i
		}
		i += size
	}
	return i
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
	b := appendFooter(make([]byte, 0, footerLen(refs)), refs)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}

// footerLen is the length of Footer(refs).
func footerLen(refs []string) int {
	n := len(footerRule) + len(footerLabel) + len(footerTail)
	for i, r := range refs {
		if i > 0 {
			n += len(", ")
		}
		n += len(r) + 2
	}
	return n
}

// appendFooter appends Footer(refs) to b.
func appendFooter(b []byte, refs []string) []byte {
	b = append(append(b, footerRule...), footerLabel...)
	for i, r := range refs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(append(append(b, '`'), r...), '`')
	}
	return append(b, footerTail...)
}

// Label is the label of call n (1-based) with tool name tool.
func Label(n int, tool string) string {
	return "[[" + strconv.Itoa(n) + ":" + tool + "]]"
}
