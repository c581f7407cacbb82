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
