package session

import (
	"bytes"
	"io"
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
// message entry (session, every branch) or message line (context), in file
// order, with the message's original bytes. It stops early when fn returns
// false. It reads with EntryReader, so it skips exactly the lines Read skips
// and gives v1 files the same entry ids. Errors: ErrNotSession (wrapped)
// when the first parsed line is neither a header nor a message, or no line
// parses; I/O errors. An input with no line finds nothing.
func Find(r io.Reader, fn func(Found) bool) error {
	er := NewEntryReader(r, EntryOptions{})
	for {
		e, err := er.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if e.Message == nil {
			continue
		}
		f := Found{Line: e.Line, EntryID: e.ID, ToolCallID: e.Message.ToolCallID, Timestamp: string(e.Message.Timestamp),
			Message: bytes.Clone(e.Message.Raw)}
		if er.Kind() == KindContext {
			f.EntryID = ""
		}
		if !fn(f) {
			return nil
		}
	}
}
