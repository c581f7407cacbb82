package session

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// WarnCode classifies a Warning, for callers that map warnings to their own
// findings (pruner check).
type WarnCode string

// Warning codes.
const (
	WarnBlank       WarnCode = "blank-line"         // a blank line (pi skips it)
	WarnInvalid     WarnCode = "invalid-json"       // not one JSON value (pi skips it)
	WarnJoined      WarnCode = "joined-lines"       // two JSON values on one line (pi skips it)
	WarnBOM         WarnCode = "byte-order-mark"    // a line starting with a UTF-8 BOM (pi skips it)
	WarnTooLong     WarnCode = "line-too-long"      // a line of 2 GiB or more
	WarnNotObject   WarnCode = "not-an-object"      // valid JSON that is not an object
	WarnNoRole      WarnCode = "not-a-message"      // a context line without "role"
	WarnBadUTF8     WarnCode = "invalid-utf8"       // bytes that are not UTF-8 (Node reads them as U+FFFD)
	WarnSurrogate   WarnCode = "lone-surrogate"     // a lone UTF-16 surrogate escape
	WarnUnknownType WarnCode = "unknown-entry-type" // an entry type pi 1.6 does not write (once per type)
	WarnVersion     WarnCode = "header-version"     // an unusual header version (once per file)
	WarnNoHeader    WarnCode = "no-header"          // EntryOptions.Lenient: the first entry is no header
	WarnStructure   WarnCode = "structure"          // tree problems: cycles, unknown parents, empty context
)

// Entry is one session entry (or one message line of a context) as pi reads
// it, streamed by EntryReader. Its slices and Message are valid until the
// next call to Next.
type Entry struct {
	Line   int    // 1-based line number
	Offset int64  // byte offset of the line
	Raw    []byte // the line, without its newline
	// Type is the entry's "type" ("" for a context line, or when absent or
	// not a string).
	Type string
	// ID and ParentID are "" when absent, null or not a string. In a v1
	// file they are the deterministic stand-ins Read assigns (the previous
	// entry is the parent).
	ID, ParentID string
	CustomType   string // custom and custom_message entries
	// Message is the message of a `message` entry (or the line itself for
	// a context); nil when the entry has no message object.
	Message *EntryMessage
}

// EntryMessage is the routing view of one message.
type EntryMessage struct {
	Role string
	// Raw is the message's bytes in the line.
	Raw []byte
	// Timestamp is the message's "timestamp" value as written (raw JSON).
	Timestamp []byte
	// Content is the raw JSON of "content" (nil when absent).
	Content    []byte
	ToolCallID string // toolResult
	ToolName   string // toolResult
	IsError    bool   // toolResult: "isError" is true
	// ToolCalls are the assistant's toolCall blocks, in order.
	ToolCalls []EntryToolCall
	// TextChars is the size of the text blocks (or string content) in code
	// points; Images the number of image blocks.
	TextChars int
	Images    int
	// HasNotice: a text starts with NoticePrefix. Synthetic: a user message
	// whose first text is a subagent completion notice.
	HasNotice, Synthetic bool
}

// EntryToolCall is one toolCall block.
type EntryToolCall struct {
	ID, Name string // "" when absent or not a string
	// Arguments is the raw JSON of "arguments" (nil when absent).
	Arguments []byte
	// Path is arguments.path when it is a string (HasPath).
	Path    string
	HasPath bool
}

// EntryOptions tune an EntryReader.
type EntryOptions struct {
	// OnWarning is called for each skipped line and each problem found.
	OnWarning func(Warning)
	// Lenient reads an input whose first parsed line is neither a session
	// header nor a message as a session without header (warning
	// WarnNoHeader) instead of failing with ErrNotSession: pi reads such a
	// file as empty, but a checker still wants to see its entries.
	Lenient bool
}

// EntryReader streams the entries of a session file (every branch, in file
// order) or the message lines of a context, with the validation, skip rules
// and v1 ids that Read applies.
type EntryReader struct {
	lr   lineSource
	dec  lineDecoder
	opts EntryOptions

	kind      Kind
	header    Header
	v1, v2    bool            // the header asks for pi's v1→v2 and v2→v3 migrations
	parsed    int             // parsed entries so far, header included (pi's array index)
	badBefore int             // unparseable lines before the first parsed one
	prevV1    int             // v1: pi index of the previous entry (-1: none)
	types     map[string]bool // unknown types already warned about

	e   Entry
	msg EntryMessage
	rl  rawLine // the line next returns (its view is of dec's tape: valid until the next call)
}

// NewEntryReader reads entries from r.
func NewEntryReader(r io.Reader, opts EntryOptions) *EntryReader {
	return &EntryReader{lr: NewLineReader(r), opts: opts}
}

// NewEntryReaderLines reads entries from lr, already reset to its input:
// one LineReader (and its buffer) serves many inputs in turn, as pruner
// check's workers do.
func NewEntryReaderLines(lr *LineReader, opts EntryOptions) *EntryReader {
	return &EntryReader{lr: lr, opts: opts}
}

// Kind is the input's kind, known once Next has returned its first entry
// (or io.EOF): 0 for an input with no parseable line.
func (er *EntryReader) Kind() Kind { return er.kind }

// Header is the session header (zero for a context).
func (er *EntryReader) Header() Header { return er.header }

// Lines is the number of lines read so far; Bytes the bytes read so far.
func (er *EntryReader) Lines() int { n, _ := er.lr.pos(); return n }

// Bytes is the number of input bytes read so far.
func (er *EntryReader) Bytes() int64 { _, n := er.lr.pos(); return n }

func (er *EntryReader) warn(line int, code WarnCode, format string, a ...any) {
	if er.opts.OnWarning != nil {
		er.opts.OnWarning(Warning{Line: line, Code: code, Msg: fmt.Sprintf(format, a...)})
	}
}

// rawLine is one line accepted by the reader, before it is turned into an
// Entry (Read works on it directly).
type rawLine struct {
	line []byte
	num  int
	off  int64
	v    lineView
	typ  string
	// v1 files: the pi indexes of the entry and of its parent (the previous
	// entry; -1 for none), from which the stand-in ids are made. -1 in v2+
	// files, whose ids are the "id" and "parentId" strings.
	v1, v1Par int
}

// ids returns the entry's id and parent id as strings.
func (rl *rawLine) ids() (id, parent string) {
	if rl.v1 >= 0 {
		if rl.v1Par >= 0 {
			parent = v1ID(rl.v1Par)
		}
		return v1ID(rl.v1), parent
	}
	id, _ = rl.v.str(fID)
	parent, _ = rl.v.str(fParentID)
	return id, parent
}

// Next returns the next entry. At the end of input it returns io.EOF; an
// input with no parseable line gives ErrNotSession (wrapped) when it had
// non-blank lines and io.EOF with Kind 0 otherwise. The header is not an
// entry (see Header).
func (er *EntryReader) Next() (*Entry, error) {
	rl, err := er.next()
	if err != nil {
		return nil, err
	}
	return er.entry(rl), nil
}

func (er *EntryReader) next() (*rawLine, error) {
	rl := &er.rl
	for {
		line, num, off, err := er.lr.Next()
		if err == io.EOF {
			if er.kind == 0 && er.badBefore > 0 {
				return nil, fmt.Errorf("%w: none of its %d non-blank lines is JSON (is it a JSONL file?)", ErrNotSession, er.badBefore)
			}
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if isBlank(line) {
			er.warn(num, WarnBlank, "blank line skipped")
			continue
		}
		v, err := er.dec.decode(line)
		if err != nil {
			el := err.(*errLine)
			if er.kind == 0 {
				if bytes.IndexByte(line, 0) >= 0 {
					return nil, fmt.Errorf("line %d: %w: binary data (NUL bytes), not JSONL", num, ErrNotSession)
				}
				if el.code == WarnBOM {
					return nil, fmt.Errorf("line %d: %w: %w; pi 1.6 cannot parse that line and reads no session from the file", num, ErrNotSession, ErrBOM)
				}
				er.badBefore++
			}
			er.warn(num, el.code, "%s", el.msg)
			continue
		}
		er.checkText(&v, line, num)
		*rl = rawLine{line: line, num: num, off: off, v: v}
		if er.kind == 0 {
			switch {
			case v.strIs(fType, "session") && v.kind(fID) == jsonscan.String:
				er.startSession(&v, num)
				continue
			case v.kind(fRole) == jsonscan.String && v.typ() == "":
				er.kind = KindContext
			case er.opts.Lenient:
				er.warn(num, WarnNoHeader, "the first entry is not a {\"type\":\"session\"} header: pi reads the file as empty")
				er.kind, er.header = KindSession, Header{Version: 3}
			default:
				return nil, fmt.Errorf("line %d: %w: expected a session header ({\"type\":\"session\",\"id\":…}) or a message ({\"role\":…}) as the first line", num, ErrNotSession)
			}
		}
		if er.kind == KindContext {
			if v.kind(fRole) != jsonscan.String {
				er.warn(num, WarnNoRole, "not a message (no \"role\"); skipped")
				continue
			}
			return rl, nil
		}
		if !v.isObj {
			if !v.tp.Truthy(0) {
				er.warn(num, WarnNotObject, "JSON %s is not an entry (pi skips it)", string(v.tp.Raw(0)))
				continue
			}
			er.warn(num, WarnNotObject, "JSON %s is not an entry object (pi keeps it as an entry without fields)", v.tp.Nodes[0].Kind)
		}
		rl.typ = v.typ()
		rl.v1, rl.v1Par = -1, -1
		if er.v1 {
			rl.v1, rl.v1Par = er.parsed, er.prevV1
			er.prevV1 = er.parsed
		}
		er.parsed++
		if rl.typ != "" {
			if _, ok := knownType([]byte(rl.typ)); !ok && rl.typ != "session" && !er.types[rl.typ] {
				if er.types == nil {
					er.types = map[string]bool{}
				}
				er.types[rl.typ] = true
				er.warn(num, WarnUnknownType, "entry type %q is not one pi 1.6 writes: it links the tree and adds no message (warned once per type)", rl.typ)
			}
		}
		return rl, nil
	}
}

// startSession reads the header line.
func (er *EntryReader) startSession(v *lineView, num int) {
	er.kind = KindSession
	id, _ := v.str(fID)
	ver, note := jsVersion(v)
	h := Header{ID: id, Line: num}
	h.Cwd, _ = v.str(fCwd)
	switch {
	case math.IsNaN(ver):
		h.Version = 3
	case ver >= 3:
		h.Version = int(min(ver, 1<<30))
	case ver >= 2:
		h.Version = 2
	default:
		h.Version = 1
	}
	er.v1 = ver < 2
	er.v2 = ver < 3
	switch {
	case note != "":
		er.warn(num, WarnVersion, "%s", note)
	case v.has(fVersion) && ver != 1 && ver != 2 && ver != 3:
		er.warn(num, WarnVersion, "header version %s is not one pi 1.6 knows (1, 2, 3): read as version %d", strconv.FormatFloat(ver, 'g', -1, 64), h.Version)
	}
	er.header = h
	er.parsed = 1
	er.prevV1 = -1
}

// checkText warns about text pi and strict providers read differently from
// its bytes: invalid UTF-8 and lone UTF-16 surrogate escapes (one warning
// each per line).
func (er *EntryReader) checkText(v *lineView, line []byte, num int) {
	tp := v.tp
	if tp.Flags&(jsonscan.BadUTF8|jsonscan.LoneSurrogate) == 0 {
		return
	}
	bad, lone := false, false
	for i := range tp.Nodes {
		nd := &tp.Nodes[i]
		if nd.Kind != jsonscan.String || nd.Flags&(jsonscan.BadUTF8|jsonscan.LoneSurrogate) == 0 {
			continue
		}
		if nd.Flags&jsonscan.BadUTF8 != 0 && !bad {
			bad = true
			at := int(nd.Start) + badUTF8At(line[nd.Start:nd.End])
			er.warn(num, WarnBadUTF8, "invalid UTF-8 at byte %d (Node, and so pi, reads it as U+FFFD; pruner copies the bytes unchanged)", at+1)
		}
		if nd.Flags&jsonscan.LoneSurrogate != 0 && !lone {
			lone = true
			er.warn(num, WarnSurrogate, "lone UTF-16 surrogate escape %s (invalid Unicode; strict providers reject it)", loneEscape(line[nd.Start:nd.End]))
		}
	}
}

// badUTF8At returns the offset of the first invalid UTF-8 byte in s.
func badUTF8At(s []byte) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return 0
}

// loneEscape returns the first lone surrogate escape (`\udXXX`) of the JSON
// string raw.
func loneEscape(raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++
			continue
		}
		h := s[i+2] | 0x20
		if h != 'd' || i+6 > len(s) {
			i += 5
			continue
		}
		x := s[i+3] | 0x20
		if x >= '8' && x <= '9' || x == 'a' || x == 'b' { // high
			if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' && s[i+8]|0x20 == 'd' {
				if l := s[i+9] | 0x20; l == 'c' || l == 'd' || l == 'e' || l == 'f' {
					i += 11
					continue
				}
			}
			return s[i : i+6]
		}
		if x == 'c' || x == 'd' || x == 'e' || x == 'f' {
			return s[i : i+6]
		}
		i += 5
	}
	return nil
}

// entry turns an accepted line into the public Entry.
func (er *EntryReader) entry(rl *rawLine) *Entry {
	e := &er.e
	*e = Entry{Line: rl.num, Offset: rl.off, Raw: rl.line, Type: rl.typ}
	if er.kind == KindSession {
		e.ID, e.ParentID = rl.ids()
	}
	v := &rl.v
	if er.kind == KindContext {
		e.Type = ""
		er.fillMessage(v, 0, bytes.TrimSpace(rl.line))
		e.Message = &er.msg
		return e
	}
	if e.Type == "custom" || e.Type == "custom_message" {
		e.CustomType, _ = v.str(fCustomType)
	}
	if e.Type == "message" && v.kind(fMessage) == jsonscan.Object {
		er.fillMessage(v, v.f[fMessage], v.tp.Raw(v.f[fMessage]))
		e.Message = &er.msg
	}
	return e
}

// fillMessage fills er.msg from the message object at tape index obj (0:
// the line itself, context input).
func (er *EntryReader) fillMessage(v *lineView, obj uint32, raw []byte) {
	m := &er.msg
	calls := m.ToolCalls[:0]
	*m = EntryMessage{Raw: raw}
	mv := v.message(obj)
	m.Role = v.mstr(&mv, mRole)
	m.ToolCallID = v.mstr(&mv, mToolCallID)
	m.ToolName = v.mstr(&mv, mToolName)
	m.IsError = mv.f[mIsError] != 0 && v.tp.Nodes[mv.f[mIsError]].Kind == jsonscan.True
	if mv.f[mTimestamp] != 0 {
		m.Timestamp = v.tp.Raw(mv.f[mTimestamp])
	}
	if mv.f[mContent] != 0 {
		m.Content = v.tp.Raw(mv.f[mContent])
	}
	ci := er.dec.analyze(mv.f[mContent])
	m.TextChars, m.Images, m.HasNotice = ci.chars, ci.images, ci.notice
	m.Synthetic = m.Role == RoleUser && ci.synthetic
	for _, c := range ci.calls {
		tc := EntryToolCall{ID: nodeString(v.tp, c.id), Name: nodeString(v.tp, c.name)}
		if c.args != 0 {
			tc.Arguments = v.tp.Raw(c.args)
		}
		if c.path != 0 {
			tc.Path, tc.HasPath = nodeString(v.tp, c.path), true
		}
		calls = append(calls, tc)
	}
	m.ToolCalls = calls
}
