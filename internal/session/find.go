package session

import (
	"bytes"
	"fmt"
	"io"

	json "github.com/goccy/go-json"
)

// Found is one message located by Find.
type Found struct {
	Line       int
	EntryID    string // "" for context input
	ToolCallID string
	Timestamp  string // raw JSON of the message timestamp
	Message    []byte // the message's original bytes (copied)
}

// Find streams r (a session file or a context) and calls fn for every
// message entry (session) or message line (context), in file order, with
// the message's original bytes. It stops early when fn returns false. Lines
// that do not parse are skipped. Errors: ErrEmpty when no line parses,
// ErrNotSession when the first parsed line is neither a header nor a message. Entry ids of v1 files are the same
// deterministic stand-ins Read assigns.
func Find(r io.Reader, fn func(Found) bool) error {
	lr := NewLineReader(r)
	kind := Kind(0)
	v1 := false
	parsed := 0
	bad := 0 // unparseable lines before the first parsed one
	for {
		line, num, _, err := lr.Next()
		if err == io.EOF {
			if kind == 0 {
				if bad > 0 {
					return fmt.Errorf("%w: none of its %d non-blank lines is JSON (is it a JSONL file?)", ErrNotSession, bad)
				}
				return ErrEmpty
			}
			return nil
		}
		if err != nil {
			return err
		}
		if isBlank(line) {
			continue
		}
		var d struct {
			Type    string   `json:"type"`
			ID      string   `json:"id"`
			Version *float64 `json:"version"`
			Role    *string  `json:"role"`
			Message *struct {
				ToolCallID string          `json:"toolCallId"`
				Timestamp  json.RawMessage `json:"timestamp"`
			} `json:"message"`
			ToolCallID string          `json:"toolCallId"`
			Timestamp  json.RawMessage `json:"timestamp"`
		}
		if json.Unmarshal(line, &d) != nil {
			if kind == 0 {
				if bytes.IndexByte(line, 0) >= 0 {
					return fmt.Errorf("line %d: %w: binary data (NUL bytes), not JSONL", num, ErrNotSession)
				}
				if json.Valid(line) {
					return fmt.Errorf("line %d: %w: expected a session header ({\"type\":\"session\",\"id\":…}) or a message ({\"role\":…}) as the first line", num, ErrNotSession)
				}
				bad++
			}
			continue
		}
		if kind == 0 {
			switch {
			case d.Type == "session":
				kind, v1, parsed = KindSession, d.Version == nil || *d.Version < 2, 1
				continue
			case d.Role != nil:
				kind = KindContext
			default:
				return fmt.Errorf("line %d: %w: expected a session header ({\"type\":\"session\",\"id\":…}) or a message ({\"role\":…}) as the first line", num, ErrNotSession)
			}
		}
		f := Found{Line: num}
		if kind == KindSession {
			id := d.ID
			if v1 {
				id = v1ID(parsed)
			}
			parsed++
			if d.Type != "message" || d.Message == nil {
				continue
			}
			s, e, ok := valueRange(line, "message")
			if !ok {
				continue
			}
			f.EntryID, f.ToolCallID, f.Timestamp = id, d.Message.ToolCallID, string(d.Message.Timestamp)
			f.Message = bytes.Clone(line[s:e])
		} else {
			if d.Role == nil {
				continue
			}
			f.ToolCallID, f.Timestamp = d.ToolCallID, string(d.Timestamp)
			f.Message = bytes.Clone(bytes.TrimSpace(line))
		}
		if !fn(f) {
			return nil
		}
	}
}
