// Package query answers `pruner query`'s lookups: the index `pruner now`
// leaves for a session (State: the session's own context-prune-* entries,
// plus the in-memory flush --write would append), a message by entry id or
// by call id (Messages), and the original of a result an older in-place
// --write replaced, from the FILE.orig-* backups (FromBackups). It does no
// IO: backups are opened through the injected Open.
package query

import (
	"bytes"
	"context"
	"io"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// State is the index `pruner now` leaves for ctx: with po nil, the
// session's own entries rebuilt (index.Rebuild); else the state after the
// in-memory flush with po's settings — what --write would append, rebuilt
// as pi-condense rebuilds it. The summariser is never run (refs do not
// depend on the summaries' wording); po.Spill plans spills as now does.
func State(ctx *session.Context, po *pipeline.Options) (*index.State, error) {
	if po == nil {
		return index.Rebuild(ctx)
	}
	o := *po
	o.Summarizer = summarize.Options{}
	res, err := pipeline.Run(context.Background(), ctx, o)
	if err != nil {
		return nil, err
	}
	return res.IndexState()
}

// Selector picks messages: the entry with ID Entry, or every result of call
// Call (at timestamp TS when set).
type Selector struct {
	Entry, Call, TS string
}

// Match is one message a Selector found.
type Match struct {
	Line                int
	EntryID, CallID, TS string
	Msg                 []byte // as written in the input
}

// Messages lists the messages of ctx (read with AllEntries for a session)
// that sel asks for: the entry with the id (the last one, as pi keeps the
// last of duplicate ids), or every result of the call id (and ts). A
// context has no entry ids: only Call selects there.
func Messages(ctx *session.Context, sel Selector) ([]Match, error) {
	var out []Match
	if ctx.Kind == session.KindContext {
		for _, m := range ctx.Messages {
			if sel.Call == "" || m.ToolCallID() != sel.Call || (sel.TS != "" && m.Timestamp() != sel.TS) {
				continue
			}
			b, err := ctx.AppendMessage(nil, m)
			if err != nil {
				return nil, err
			}
			out = append(out, Match{Line: m.Line(), CallID: m.ToolCallID(), TS: m.Timestamp(), Msg: b})
		}
		return out, nil
	}
	for i := range ctx.Entries {
		e := &ctx.Entries[i]
		em := ctx.EntryMessage(e)
		if em == nil {
			continue
		}
		switch {
		case sel.Entry != "" && ctx.EntryID(e) != sel.Entry:
			continue
		case sel.Call != "" && (em.ToolCallID() != sel.Call || (sel.TS != "" && em.Timestamp() != sel.TS)):
			continue
		}
		line, err := ctx.EntryLine(e)
		if err != nil {
			return nil, err
		}
		s, end, ok := session.ValueRange(line, "message")
		if !ok {
			continue
		}
		m := Match{Line: e.Line(), EntryID: ctx.EntryID(e), CallID: em.ToolCallID(), TS: em.Timestamp(), Msg: bytes.Clone(line[s:end])}
		if sel.Entry != "" {
			out = []Match{m} // last of duplicate ids wins
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// IsNotice reports whether a message's content holds a pruner notice.
func IsNotice(msg []byte) bool {
	return bytes.Contains(msg, []byte(`"text":"`+session.NoticePrefix))
}

// File is an opened backup: read once, then re-read by offset.
type File interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// FromBackups looks for the original of m in backups (the FILE.orig-*
// files an older `now --write` left, oldest first), each opened with open
// and read with the same reader as the session, so v1 entry ids agree. It
// returns the original and the backup it came from, or nil and "".
func FromBackups(backups []string, open func(string) (File, error), m Match) ([]byte, string) {
	for _, b := range backups {
		fh, err := open(b)
		if err != nil {
			continue
		}
		ctx, err := session.Read(fh, fh, session.ReadOptions{AllEntries: true})
		var hit []byte
		if err == nil {
			sel := Selector{Call: m.CallID, TS: m.TS, Entry: m.EntryID}
			if m.EntryID != "" {
				sel.Call, sel.TS = "", ""
			}
			ms, _ := Messages(ctx, sel)
			for _, c := range ms {
				if c.CallID == m.CallID && c.TS == m.TS && !IsNotice(c.Msg) {
					hit = c.Msg
				}
			}
		}
		fh.Close()
		if hit != nil {
			return hit, b
		}
	}
	return nil, ""
}
