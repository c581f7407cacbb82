package index

import (
	"bytes"
	"strings"
	"time"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// This file is the write side's capture: the tool calls a flush may
// summarise, paired with their results and grouped into batches as
// pi-condense's branch rescan (captureUnindexedBatchesFromSession,
// trimBatchToPendingRange, groupBatchesByMode) groups them.

// Call is one captured tool call and its result.
type Call struct {
	ToolCallID string
	ToolName   string
	// Args is the call's arguments as JSON.stringify writes them
	// (`input ?? args ?? arguments ?? {}`).
	Args []byte
	// ResultTimestamp is the toolResult's timestamp when it is a number.
	ResultTimestamp *int64
	IsError         bool
	// Key is the occurrence key (toolCallId@resultTimestamp, or the bare id).
	Key string
	// Result is the toolResult message (ReadText reads its resultText).
	Result *session.Message
	// Chars is resultText's JavaScript length, Bytes its UTF-8 length; Hash
	// its content hash (dedup).
	Chars, Bytes int
	Hash         string
}

// ReadText reads the call's resultText (the result's text blocks joined
// with "\n") from the input.
func (c *Call) ReadText(ctx *session.Context) (string, error) {
	content, err := c.content(ctx)
	if err != nil {
		return "", err
	}
	return resultString(content), nil
}

// ReadTextJSON reads the call's resultText as JSON.stringify writes it (lone
// surrogate escapes kept), for its record.
func (c *Call) ReadTextJSON(ctx *session.Context) ([]byte, error) {
	content, err := c.content(ctx)
	if err != nil {
		return nil, err
	}
	_, js := resultText(content)
	return js, nil
}

// content is the raw content of the call's result, read from the input
// (valid until the next read).
func (c *Call) content(ctx *session.Context) ([]byte, error) {
	line, err := ctx.Raw(c.Result)
	if err != nil {
		return nil, err
	}
	msg, _ := jsval.Get(line, "message")
	content, _ := jsval.Get(msg, "content")
	return content, nil
}

// Batch is one batch of captured calls: one assistant turn, or (batchingMode
// agent-message) every tool turn of one user turn.
type Batch struct {
	// TurnIndex counts every assistant message on the branch before the
	// batch's (last) turn; Timestamp is that assistant entry's time in ms.
	TurnIndex int
	Timestamp int64
	// AssistantText is the turn's prose (text blocks joined, trimmed).
	AssistantText string
	// UserTurnGroup counts the user messages before the batch.
	UserTurnGroup int
	Calls         []*Call
}

// CaptureOptions say which calls a flush may take.
type CaptureOptions struct {
	// Protect keeps protected calls out (never batched, indexed or spilled).
	Protect *protect.Predicate
	// RawFrom is the index in Context.Messages where the raw window starts:
	// a call whose result is at or after it stays raw. Negative: no window.
	RawFrom int
	// Pairing keeps out the results pi-ai would not pair with their call
	// (fail closed); nil keeps none out.
	Pairing *pairing.Report
}

// Capture returns the batches a flush takes from ctx's branch: every
// completed call (its result on the branch, before the next assistant
// message) that is not indexed or aliased in st, not protected, in the
// context (not cut by a compaction), not in the raw window, and past st's
// frontier — one batch per assistant turn (Group merges them for
// batchingMode agent-message). Result texts are read to size and hash them,
// then dropped (Call.ReadText reads them again). Errors are I/O errors
// re-reading the input.
func Capture(ctx *session.Context, st *State, opts CaptureOptions) ([]*Batch, error) {
	// by entry id: a context_edit'ed message is a copy of the branch's
	inCtx := make(map[string]int, len(ctx.Messages))
	for i, m := range ctx.Messages {
		if m.EntryID() != "" {
			inCtx[m.EntryID()] = i
		}
	}
	var msgs []*session.BranchEntry
	for i := range ctx.Branch {
		if be := &ctx.Branch[i]; be.Type == "message" && be.Message != nil {
			msgs = append(msgs, be)
		}
	}
	var batches []*Batch
	turn, group := 0, 0
	for i, be := range msgs {
		m := be.Message
		if m.Role() == session.RoleUser {
			group++
			continue
		}
		if m.Role() != session.RoleAssistant {
			continue
		}
		turnIndex := turn
		turn++
		if len(m.ToolCalls()) == 0 {
			continue
		}
		// results between this assistant message and the next one, first per id
		results := map[string]*session.BranchEntry{}
		for j := i + 1; j < len(msgs); j++ {
			r := msgs[j].Message
			if r.Role() == session.RoleAssistant {
				break
			}
			if r.Role() == session.RoleToolResult && r.ToolCallID() != "" {
				if _, seen := results[r.ToolCallID()]; !seen {
					results[r.ToolCallID()] = msgs[j]
				}
			}
		}
		var ready []*session.ToolCall
		var resEntries []*session.BranchEntry
		for k := range m.ToolCalls() {
			tc := &m.ToolCalls()[k]
			re := results[tc.ID]
			if tc.ID == "" || re == nil {
				continue
			}
			r := re.Message
			if st.IsSummarized(MessageKey(tc.ID, []byte(r.Timestamp()))) {
				continue
			}
			if opts.Protect.Protected(tc.Name, tc.Path, tc.HasPath) || (r.ToolName() != tc.Name && opts.Protect.ToolProtected(r.ToolName())) {
				continue
			}
			ri, in := inCtx[re.ID]
			if !in || !be.InContext || !re.InContext || (opts.RawFrom >= 0 && ri >= opts.RawFrom) {
				continue
			}
			if opts.Pairing.Involves(ri) {
				continue // a result pi-ai would not pair with this call
			}
			ready = append(ready, tc)
			resEntries = append(resEntries, re)
		}
		if len(ready) == 0 {
			continue
		}
		b, err := captureBatch(ctx, be, ready, resEntries)
		if err != nil {
			return nil, err
		}
		b.TurnIndex, b.UserTurnGroup = turnIndex, group
		if b = trimToFrontier(b, st.Frontier); b != nil {
			batches = append(batches, b)
		}
	}
	return batches, nil
}

// captureBatch reads the assistant entry and the results of the ready calls.
func captureBatch(ctx *session.Context, be *session.BranchEntry, ready []*session.ToolCall, res []*session.BranchEntry) (*Batch, error) {
	line, err := ctx.EntryLine(be)
	if err != nil {
		return nil, err
	}
	line = bytes.Clone(line)
	msg, _ := jsval.Get(line, "message")
	b := &Batch{Timestamp: entryMillis(line, msg)}
	content, _ := jsval.Get(msg, "content")
	blocks, _ := jsval.Elements(content)
	var prose []string
	args := map[string][]byte{}
	for _, bl := range blocks {
		typ, _ := rawString(bl, "type")
		switch typ {
		case "text":
			if t, ok := rawString(bl, "text"); ok {
				prose = append(prose, t)
			}
		case "toolCall":
			id, _ := rawString(bl, "id")
			if _, seen := args[id]; seen {
				continue // the first block with an id is the one calls pair with
			}
			args[id] = callArgs(bl)
		}
	}
	b.AssistantText = strings.TrimFunc(strings.Join(prose, "\n"), isJSWhitespace)
	for k, tc := range ready {
		rl, err := ctx.EntryLine(res[k])
		if err != nil {
			return nil, err
		}
		rmsg, _ := jsval.Get(rl, "message")
		c := &Call{ToolCallID: tc.ID, ToolName: tc.Name, Args: args[tc.ID], Result: res[k].Message}
		if c.Args == nil {
			c.Args = []byte("{}")
		}
		if v, ok := jsval.Get(rmsg, "isError"); ok {
			c.IsError = jsval.Truthy(v)
		}
		tsRaw, _ := jsval.Get(rmsg, "timestamp")
		if f, ok := jsval.Number(tsRaw); ok && f == float64(int64(f)) {
			n := int64(f)
			c.ResultTimestamp = &n
		}
		c.Key = MessageKey(tc.ID, tsRaw)
		rc, _ := jsval.Get(rmsg, "content")
		text := resultString(rc)
		c.Chars = jsval.UTF16Len(text)
		c.Bytes = len(text)
		c.Hash = ContentHash(c.ToolName, text)
		b.Calls = append(b.Calls, c)
	}
	return b, nil
}

// callArgs is a toolCall block's `input ?? args ?? arguments ?? {}`, as
// JSON.stringify writes it.
func callArgs(block []byte) []byte {
	for _, k := range []string{"input", "args", "arguments"} {
		if v, ok := jsval.Get(block, k); ok && jsval.TypeOf(v) != jsval.Null {
			return jsval.Canonical(v)
		}
	}
	return []byte("{}")
}

// resultText joins a result content's text blocks with "\n" (pi-condense's
// extractToolResultText; a non-array content has none) and returns the text
// and its JSON.stringify form.
func resultText(content []byte) (string, []byte) {
	els, ok := jsval.Elements(content)
	if !ok {
		return "", []byte(`""`)
	}
	var parts []string
	js := []byte{'"'}
	n := 0
	for _, el := range els {
		if t, _ := rawString(el, "type"); t != "text" {
			continue
		}
		raw, ok := jsval.Get(el, "text")
		s, isStr := jsval.String(raw)
		if !ok || !isStr {
			// `.text` undefined or not a string joins as JavaScript's String(x)
			s = jsString(raw, ok)
			raw = jsval.AppendString(nil, s)
		}
		if n > 0 {
			js = append(js, `\n`...)
		}
		c := jsval.Canonical(raw)
		js = append(js, c[1:len(c)-1]...)
		parts = append(parts, s)
		n++
	}
	return strings.Join(parts, "\n"), append(js, '"')
}

// resultString is resultText without the JSON form (one allocation for
// the common single-block result).
func resultString(content []byte) string {
	els, ok := jsval.Elements(content)
	if !ok {
		return ""
	}
	var b strings.Builder
	n := 0
	for _, el := range els {
		if t, _ := rawString(el, "type"); t != "text" {
			continue
		}
		raw, ok := jsval.Get(el, "text")
		s, isStr := jsval.String(raw)
		if !ok || !isStr {
			s = jsString(raw, ok)
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		if n == 0 && len(els) == 1 {
			return s
		}
		b.WriteString(s)
		n++
	}
	return b.String()
}

// jsString is how Array.prototype.join writes a non-string value.
func jsString(raw []byte, present bool) string {
	if !present {
		return ""
	}
	switch jsval.TypeOf(raw) {
	case jsval.Null:
		return ""
	case jsval.Num:
		f, _ := jsval.Number(raw)
		return jsval.FormatNumber(f)
	case jsval.Bool:
		return string(bytes.TrimSpace(raw))
	case jsval.Arr, jsval.Obj:
		return "[object Object]"
	}
	return ""
}

// entryMillis is the batch time pi-condense takes: the entry's ISO
// timestamp in ms, else the message's numeric timestamp, else 0 (pi-condense
// would take the current time; pruner stays deterministic).
func entryMillis(line, msg []byte) int64 {
	if s, ok := rawString(line, "timestamp"); ok && s != "" {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UnixMilli()
		}
	}
	if n, ok := rawInt(msg, "timestamp"); ok {
		return n
	}
	return 0
}

// trimToFrontier drops what the last flush attempt already covered: turns
// before the frontier's, and in the frontier's turn the calls up to its last
// attempted call.
func trimToFrontier(b *Batch, f *FrontierData) *Batch {
	if f == nil || b.TurnIndex > f.LastAttemptedTurnIndex {
		return b
	}
	if b.TurnIndex < f.LastAttemptedTurnIndex {
		return nil
	}
	for i, c := range b.Calls {
		if c.ToolCallID == f.LastAttemptedToolCallID {
			if i == len(b.Calls)-1 {
				return nil
			}
			b.Calls = b.Calls[i+1:]
			return b
		}
	}
	return b
}

// Group merges consecutive batches of the same user turn (batchingMode
// agent-message):
// prose joined with a blank line, calls in order, the last turn's index and
// time.
func Group(in []*Batch) []*Batch {
	var out []*Batch
	for _, b := range in {
		if n := len(out); n > 0 && out[n-1].UserTurnGroup == b.UserTurnGroup {
			cur := out[n-1]
			var prose []string
			for _, t := range []string{cur.AssistantText, b.AssistantText} {
				if t != "" {
					prose = append(prose, t)
				}
			}
			cur.AssistantText = strings.Join(prose, "\n\n")
			cur.Calls = append(cur.Calls, b.Calls...)
			cur.TurnIndex, cur.Timestamp = b.TurnIndex, b.Timestamp
			continue
		}
		c := *b
		out = append(out, &c)
	}
	return out
}

// rawString is the string value of key in the raw JSON object obj (exact
// key, last duplicate wins).
func rawString(obj []byte, key string) (string, bool) {
	v, ok := jsval.Get(obj, key)
	if !ok {
		return "", false
	}
	return jsval.String(v)
}

// rawInt is the whole-number value of key in the raw JSON object obj.
func rawInt(obj []byte, key string) (int64, bool) {
	v, ok := jsval.Get(obj, key)
	if !ok {
		return 0, false
	}
	f, ok := jsval.Number(v)
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}
