package summarize

import (
	"strconv"
	"strings"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// Prompt is the instruction that opens every summariser request. It asks
// for what pi-condense's summariser prompt asks for (per call: what it did,
// the outcome with paths, identifiers and errors verbatim, what to
// remember; 1–3 bullets; the first bullet led by the call's exact label;
// never report an elided middle as empty), in pruner's own words.
const Prompt = `Summarize this batch of tool calls made by an AI coding assistant, so the conversation can go on without their full outputs.
For each call, write:
- the tool, and in one sentence what the call did
- its outcome, with file paths, identifiers, signatures and error messages copied exactly as they appear - never paraphrase them
- anything later work must remember

Use 1-3 bullets per call and leave out calls that succeeded with nothing worth keeping. Be brief.

Start the first bullet of every call you keep with that call's [[N:toolname]] label, exactly as it appears in the input (same number, same name), as the very first thing on the line - no bold, backticks or numbering around it. Never change, renumber or invent a label; leave out the label of a call you leave out.
Long results show only their start and their end, with the middle elided: never describe an elided middle as empty.`

// Clip is how a long result is cut for the request.
type Clip int

const (
	// ClipHeadTail is pi-condense 2.11's form: a result over 8,000 chars is
	// sent as its first 4,000 chars, " ...[N chars elided]... ", and its last
	// 4,000.
	ClipHeadTail Clip = iota
	// ClipHead is pi-condense 2.9's form: the first 2,000 chars, then
	// " ...[N chars truncated]".
	ClipHead
)

// clipResult cuts text for the request. Chars are UTF-16 units, as
// pi-condense counts them.
func clipResult(text string, c Clip) string {
	n := JSLen(text)
	switch c {
	case ClipHead:
		if n <= 2000 {
			return text
		}
		head := jsPrefix(text, 2000)
		return head + " ...[" + strconv.Itoa(n-JSLen(head)) + " chars truncated]"
	default:
		if n <= 8000 {
			return text
		}
		head, tail := jsPrefix(text, 4000), jsSuffix(text, 4000)
		return head + " ...[" + strconv.Itoa(n-JSLen(head)-JSLen(tail)) + " chars elided]... " + tail
	}
}

// SerializeBatch is the body of the request's <tool-call-batch> element:
// the assistant's prose when there is any ("Assistant said: …"), then one
// block per call — "[[N:tool]] Tool: tool(<args, 2-space indent>)" and
// "Result (OK|ERROR): <result, clipped>" — joined by "\n---\n".
func SerializeBatch(b Batch, c Clip) string {
	var parts []string
	if b.AssistantText != "" {
		parts = append(parts, "Assistant said: "+b.AssistantText+"\n")
	}
	blocks := make([]string, len(b.Calls))
	for i, call := range b.Calls {
		status := "OK"
		if call.IsError {
			status = "ERROR"
		}
		args := call.ArgsPretty
		if args == "" && call.Args != "" {
			args = string(jsval.AppendIndented(nil, []byte(call.Args), "  "))
		}
		if args == "" {
			args = "{}"
		}
		blocks[i] = Label(i+1, call.ToolName) + " Tool: " + call.ToolName + "(" + args + ")\nResult (" + status + "): " + clipResult(call.Result, c)
	}
	parts = append(parts, strings.Join(blocks, "\n---\n"))
	return strings.Join(parts, "\n")
}

// Request is the whole summariser request for b: the prompt, a blank line,
// and the batch inside <tool-call-batch>…</tool-call-batch>, the single user
// message pi-condense sends to its summariser model.
func Request(b Batch, c Clip) string {
	return Prompt + "\n\n<tool-call-batch>\n" + SerializeBatch(b, c) + "\n</tool-call-batch>"
}
