// Package summarize writes the summary of a batch of tool calls for the
// batch/index stage: a deterministic summariser (the default; no network, the
// same bytes on every run) and a command summariser that hands pi-condense's
// summariser request to any LLM CLI on stdin and reads the summary from its
// stdout. Either way the text carries pi-condense's `[[N:tool]]` labels,
// which SubstituteLabels turns into `tN` refs once the index has allocated
// them, and Footer closes it as pi-condense closes its summaries.
//
// Process execution and the summary cache are behind interfaces (Runner,
// Cache); the real ones, which run a command and write files, are in
// internal/summarize/host, so this package does no IO.
package summarize

import (
	"strings"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// Call is one tool call of a batch, as the summariser sees it.
type Call struct {
	ToolName string
	// Args is the call's arguments as JSON.stringify writes them (compact).
	Args string
	// ArgsPretty is JSON.stringify(args, null, 2): what the request shows
	// ("": Args indented when the request is made).
	ArgsPretty string
	// Result is the result's text blocks joined with "\n"; Chars its
	// JavaScript length when the caller knows it (0: measured).
	Result  string
	Chars   int
	IsError bool
	// Facts, when set for a call whose summary is its header alone
	// (HeaderOnly), stand for Result, which is then not read: its line
	// count and exit status are all the summary reads of it.
	Facts *TextFacts
}

// TextFacts are what the deterministic summary of a HeaderOnly call reads
// of its result's text.
type TextFacts struct {
	Lines   int    // strings.Count(text, "\n") + 1
	Exit    string // the exit code of its last non-blank line ("": none)
	Aborted bool   // its last non-blank line says the command was aborted
}

// FactsOf is the TextFacts of a result's text.
func FactsOf(text string) TextFacts {
	exit, aborted := exitStatus(text)
	return TextFacts{Lines: strings.Count(text, "\n") + 1, Exit: exit, Aborted: aborted}
}

// HeaderOnly reports whether the deterministic summary of a call whose
// result has chars chars (its JavaScript length) is its header line
// alone, whatever the text: not an error, and too short for any
// sub-bullet to fit its budget.
func HeaderOnly(chars int, isError bool) bool {
	return chars > 0 && !isError && chars/budgetDivide < minBullet
}

// Batch is the calls of one assistant turn (batchingMode "turn") or of one
// user turn (batchingMode "agent-message"), in call order. Labels are
// 1-based positions in Calls.
type Batch struct {
	// AssistantText is the assistant's prose of the batch's turn(s), trimmed.
	AssistantText string
	Calls         []Call
	// Cwd is the session's working directory: the deterministic summary
	// writes paths under it relative to it (the request is not changed).
	Cwd string
}

// RawChars is the batch's size as pi-condense measures it: the UTF-16 length
// of every result text, summed (minBatchChars and the oversized check
// compare against it).
func (b Batch) RawChars() int {
	n := 0
	for _, c := range b.Calls {
		if c.Chars > 0 {
			n += c.Chars
		} else {
			n += JSLen(c.Result)
		}
	}
	return n
}

// JSLen is the length of s as JavaScript's String.prototype.length counts
// it: UTF-16 code units (an astral character counts 2; an invalid byte, which
// JSON decoding turns into U+FFFD, counts 1).
func JSLen(s string) int { return jsval.UTF16Len(s) }

// jsSlice returns the prefix of s holding at most n UTF-16 units, never
// splitting a character (a surrogate pair that would be cut is left out).
func jsPrefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// jsSuffix returns the suffix of s holding at most n UTF-16 units, never
// splitting a character.
func jsSuffix(s string, n int) string {
	units := 0
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			break
		}
		units += w
		i -= size
	}
	return s[i:]
}
