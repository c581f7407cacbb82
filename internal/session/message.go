package session

import (
	"regexp"
	"strings"
)

// Role names of pi's AgentMessage (and the runtime-only summary roles).
const (
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleSystem            = "system"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
)

// ToolCall is the routing view of an assistant `toolCall` content block.
type ToolCall struct {
	ID   string
	Name string
	// Path is arguments.path when it is a JSON string (HasPath true).
	Path    string
	HasPath bool
	// from is the assistant message holding the call (for CallHint).
	from *Message
}

// source says where a context message's bytes come from.
type source uint8

const (
	srcEntryMessage  source = iota // value of the entry's "message" key
	srcWholeLine                   // the line itself (context input)
	srcSystemMessage               // value of a compaction's "systemMessage" key
	srcSynth                       // built by pruner (summaries, custom_message)
)

// Message is one message of a built context: routing fields decoded from the
// input plus the location of its original bytes. Untouched messages are
// rendered by copying those bytes (byte-identical to the input).
type Message struct {
	Role    string
	EntryID string // id of the session entry it comes from ("" for context input)
	Line    int    // 1-based input line number

	ToolCallID string // toolResult
	ToolName   string // toolResult
	IsError    bool   // toolResult

	// TextChars is the size of a tool result's text blocks (or string
	// content) in Unicode code points — not bytes, not UTF-16 units. It is
	// counted for toolResult messages only (0 for other roles).
	TextChars int
	// Images is the number of image blocks in the content.
	Images int
	// ToolCalls are the assistant's toolCall blocks, in order.
	ToolCalls []ToolCall
	// Synthetic marks a user message that is a machine notice, not a person
	// typing: `Subagent <agent> (task <id>, …) finished.`.
	Synthetic bool
	// HasNotice reports that a text block already holds a pruner notice or
	// a pi-condense stub (IsNotice): the message was pruned before.
	HasNotice bool
	// Timestamp is the message's "timestamp" value as written (raw JSON), used
	// to tell apart occurrences of a reused tool call id.
	Timestamp string

	src     source
	off     int64
	n       int32
	vs, ve  int32   // srcEntryMessage: range of the message value in the line (ve 0: unknown)
	roleFix bool    // v2 hookMessage: write role "custom"
	patch   *[]byte // non-nil: raw JSON to write as "content" (context_edit, null content)
}

// NoticePrefix starts every text pruner writes in place of pruned content.
const NoticePrefix = "[pruner: "

// pi-condense's stubs (pruner's batch/index stage writes them too).
const (
	condenseStubPrefix  = "[Summarized in pruner summary, ref `"
	condenseSpillPrefix = "[Oversized output spilled to file — "
)

// IsNotice reports whether a text is a replacement pruner or pi-condense
// wrote for pruned content (a masking notice, a summary stub, a spill
// stub): such a result is never pruned again.
func IsNotice(text string) bool {
	return strings.HasPrefix(text, NoticePrefix) || strings.HasPrefix(text, condenseStubPrefix) || strings.HasPrefix(text, condenseSpillPrefix)
}

// rawIsNotice is IsNotice on a raw JSON string.
func rawIsNotice(raw []byte) bool {
	return rawHasPrefix(raw, NoticePrefix) || rawHasPrefix(raw, condenseStubPrefix) || rawHasPrefix(raw, condenseSpillPrefix)
}

var subagentNotice = regexp.MustCompile(`^Subagent \S+ \(task [^,)]+,[^)]*\) finished\.`)

// IsSubagentNotice reports whether text is a synthetic subagent completion
// notice (`Subagent <agent> (task <id>, …) finished.`), which does not start
// a user turn.
func IsSubagentNotice(text string) bool {
	return len(text) > 9 && text[:9] == "Subagent " && subagentNotice.MatchString(text)
}

// InEntry reports whether the message is the "message" value of a session
// entry (so a session rewrite can splice it), with the line's byte offset.
// Messages pruner synthesises, checkpoints and context-edited messages are
// not.
func (m *Message) InEntry() (off int64, ok bool) {
	return m.off, m.src == srcEntryMessage && m.patch == nil && !m.roleFix
}

// setContent makes the message render with content c (raw JSON; empty drops
// the key, as JSON.stringify drops undefined).
func (m *Message) setContent(c []byte) {
	if c == nil {
		c = []byte{}
	}
	m.patch = &c
}

// contentPatch returns the replacement content, or nil.
func (m *Message) contentPatch() []byte {
	if m.patch == nil {
		return nil
	}
	return *m.patch
}
