package session

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// lineDoc holds the fields pruner routes on. Everything else in a line is
// skipped by the decoder and kept as raw bytes.
type lineDoc struct {
	Type                string          `json:"type"`
	ID                  *string         `json:"id"`
	ParentID            *string         `json:"parentId"`
	Version             *float64        `json:"version"`
	Cwd                 *string         `json:"cwd"`
	Timestamp           json.RawMessage `json:"timestamp"`
	Role                *string         `json:"role"` // context input: the line is a message
	Message             *msgDoc         `json:"message"`
	Summary             json.RawMessage `json:"summary"`
	FirstKeptEntryID    *string         `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *float64        `json:"firstKeptEntryIndex"`
	SystemMessage       json.RawMessage `json:"systemMessage"`
	TargetID            *string         `json:"targetId"`
	Replacement         json.RawMessage `json:"replacement"`
	Content             json.RawMessage `json:"content"`
	CustomType          *string         `json:"customType"`

	// context input: message fields at top level
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	IsError    bool   `json:"isError"`

	msgS, msgE int   // fast path: range of the "message" value (msgE 0: unknown)
	tape       *tape // fast path: container ends of the line
}

type msgDoc struct {
	Role       string          `json:"role"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	IsError    bool            `json:"isError"`
	Content    json.RawMessage `json:"-"` // found by range (set by looseDecode only)
	Timestamp  json.RawMessage `json:"timestamp"`
}

type blockDoc struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type argsDoc struct {
	Path     any `json:"path"`
	FilePath any `json:"file_path"`
	Command  any `json:"command"`
}

// decodeLine decodes the routing fields of one line. It returns errSkip-kind
// errors for lines pi's JSON.parse would reject.
func decodeLine(line []byte) (*lineDoc, error) {
	if keyClash(line) && json.Valid(line) {
		return looseDecode(line)
	}
	var d lineDoc
	if err := json.Unmarshal(line, &d); err != nil {
		if !json.Valid(line) {
			return nil, describeInvalid(line)
		}
		// Valid JSON with unexpected field types: pi accepts it; decode loosely.
		return looseDecode(line)
	}
	return &d, nil
}

// describeInvalid explains why a line is not one JSON value, naming the
// joined-objects case that pi's historical write race produced.
func describeInvalid(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	var v json.RawMessage
	if err := dec.Decode(&v); err == nil {
		if dec.More() {
			return fmt.Errorf("two JSON values joined on one line (pi skips the whole line)")
		}
	}
	return fmt.Errorf("not valid JSON (pi skips it)")
}

// looseDecode handles valid JSON whose fields have unexpected types.
func looseDecode(line []byte) (*lineDoc, error) {
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON (pi skips it)")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return &lineDoc{}, nil
	}
	str := func(k string) *string {
		if s, ok := m[k].(string); ok {
			return &s
		}
		return nil
	}
	d := &lineDoc{ID: str("id"), ParentID: str("parentId"), Cwd: str("cwd"), Role: str("role"),
		FirstKeptEntryID: str("firstKeptEntryId"), TargetID: str("targetId"), CustomType: str("customType")}
	if s := str("type"); s != nil {
		d.Type = *s
	}
	if f, ok := m["version"].(float64); ok {
		d.Version = &f
	}
	if f, ok := m["firstKeptEntryIndex"].(float64); ok {
		d.FirstKeptEntryIndex = &f
	}
	raw := func(k string) json.RawMessage {
		if x, ok := m[k]; ok {
			b, _ := json.Marshal(x)
			return b
		}
		return nil
	}
	d.Summary, d.SystemMessage, d.Replacement, d.Content, d.Timestamp = raw("summary"), raw("systemMessage"), raw("replacement"), raw("content"), raw("timestamp")
	if mm, ok := m["message"].(map[string]any); ok {
		md := &msgDoc{}
		if s, ok := mm["role"].(string); ok {
			md.Role = s
		}
		if s, ok := mm["toolCallId"].(string); ok {
			md.ToolCallID = s
		}
		if s, ok := mm["toolName"].(string); ok {
			md.ToolName = s
		}
		md.IsError, _ = mm["isError"].(bool)
		if c, ok := mm["content"]; ok {
			md.Content, _ = json.Marshal(c)
		}
		if t, ok := mm["timestamp"]; ok {
			md.Timestamp, _ = json.Marshal(t)
		}
		d.Message = md
	}
	if s, ok := m["toolCallId"].(string); ok {
		d.ToolCallID = s
	}
	if s, ok := m["toolName"].(string); ok {
		d.ToolName = s
	}
	d.IsError, _ = m["isError"].(bool)
	return d, nil
}

// fillContent sets the size and tool-call fields of msg from a raw content
// value (string, or an array of text/image/thinking/toolCall blocks).
func fillContent(msg *Message, content []byte) { fillContentT(msg, content, nil) }

// fillContentT is fillContent with the container ends of the line (or nil).
func fillContentT(msg *Message, content []byte, tp *tape) {
	content = bytes.TrimSpace(content)
	if len(content) == 0 {
		return
	}
	switch content[0] {
	case '"':
		if msg.Role != RoleUser {
			if msg.Role == RoleToolResult {
				msg.TextChars = jsonStringChars(content)
			}
			msg.HasNotice = rawIsNotice(content)
			return
		}
		var s string
		if json.Unmarshal(content, &s) == nil {
			if msg.Role == RoleToolResult {
				msg.TextChars = utf8.RuneCountInString(s)
			}
			msg.HasNotice = IsNotice(s)
			msg.Synthetic = IsSubagentNotice(s)
		}
	case '[':
		if fastBlocks(msg, content, tp) {
			return
		}
		var blocks []blockDoc
		if keyClash(content) || json.Unmarshal(content, &blocks) != nil {
			blocks = nil
			var loose []any
			if json.Unmarshal(content, &loose) != nil {
				return
			}
			for _, b := range loose {
				bm, _ := b.(map[string]any)
				t, _ := bm["type"].(string)
				blk := blockDoc{Type: t}
				if s, ok := bm["text"].(string); ok {
					blk.Text = &s
				}
				blk.ID, _ = bm["id"].(string)
				blk.Name, _ = bm["name"].(string)
				if a, ok := bm["arguments"]; ok {
					blk.Arguments, _ = json.Marshal(a)
				}
				blocks = append(blocks, blk)
			}
		}
		firstText := true
		for i := range blocks {
			b := &blocks[i]
			switch b.Type {
			case "text":
				if b.Text != nil {
					if msg.Role == RoleToolResult {
						msg.TextChars += utf8.RuneCountInString(*b.Text)
					}
					if IsNotice(*b.Text) {
						msg.HasNotice = true
					}
					if firstText && msg.Role == RoleUser {
						msg.Synthetic = IsSubagentNotice(*b.Text)
					}
					firstText = false
				}
			case "image":
				msg.Images++
			case "toolCall":
				tc := toolCallOf(b)
				tc.from = msg
				msg.ToolCalls = append(msg.ToolCalls, tc)
			}
		}
	}
}

func toolCallOf(b *blockDoc) ToolCall {
	tc := ToolCall{ID: b.ID, Name: b.Name}
	if len(b.Arguments) > 0 && b.Arguments[0] == '{' {
		var a argsDoc
		if unmarshalExact(b.Arguments, &a) == nil {
			if p, ok := a.Path.(string); ok {
				tc.Path, tc.HasPath = p, true
			}
		}
	}
	return tc
}

// oneLine collapses whitespace runs to one space and cuts s to at most max
// code points, on a code-point boundary, adding "…" when cut.
func oneLine(s string, max int) string {
	var b []byte
	space := false
	n := 0
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' || r == ' ' {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
			n++
		}
		space = false
		if n >= max {
			return string(b) + "…"
		}
		b = utf8.AppendRune(b, r)
		n++
	}
	return string(b)
}

// hintOf is a short, single-line description of a call for notices: the
// path, else file_path, else the bash command, cut to 120 chars on a
// code-point boundary.
func hintOf(args []byte) string {
	var a argsDoc
	if len(args) == 0 || args[0] != '{' || unmarshalExact(args, &a) != nil {
		return ""
	}
	h := ""
	if p, ok := a.Path.(string); ok {
		h = p
	} else if p, ok := a.FilePath.(string); ok {
		h = p
	} else if c, ok := a.Command.(string); ok {
		h = c
	}
	return oneLine(h, 120)
}

// CallHint returns a short description of call tc (its path or command) for
// notices, re-reading the assistant message that holds it. "" when unknown.
func (c *Context) CallHint(tc ToolCall) string {
	if tc.from == nil {
		return ""
	}
	// a direct read: the render window moves forward and must not be sent back
	msg := make([]byte, tc.from.n)
	if _, err := c.src.ReadAt(msg, tc.from.off); err != nil {
		return ""
	}
	if tc.from.src == srcEntryMessage {
		s, e, ok := valueRange(msg, "message")
		if !ok {
			return ""
		}
		msg = msg[s:e]
	}
	s, e, ok := valueRange(msg, "content")
	if !ok {
		return ""
	}
	var blocks []blockDoc
	if json.Unmarshal(msg[s:e], &blocks) != nil {
		return ""
	}
	for i := range blocks {
		if blocks[i].Type == "toolCall" && blocks[i].ID == tc.ID {
			return hintOf(blocks[i].Arguments)
		}
	}
	return ""
}
