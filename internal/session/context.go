package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	json "github.com/goccy/go-json"
)

// Kind is the shape of an input.
type Kind int

const (
	// KindSession is a pi session file: a `session` header, then entries.
	KindSession Kind = iota + 1
	// KindContext is a context: one message object per line, as `pruner
	// context` prints it and as pi's `context` event hands it to extensions.
	KindContext
)

func (k Kind) String() string {
	switch k {
	case KindSession:
		return "session"
	case KindContext:
		return "context"
	}
	return "unknown"
}

// Warning is a problem in one input line that did not stop the run.
type Warning struct {
	Line int // 1-based; 0 when not tied to a line
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("line %d: %s", w.Line, w.Msg)
	}
	return w.Msg
}

// ErrNotSession is returned (wrapped) when the input is neither a session nor
// a context.
var ErrNotSession = errors.New("not a pi session or context")

// ErrEmpty is returned when the input holds no parseable line.
var ErrEmpty = errors.New("empty input")

// Header is the session header (line 1 of a session file).
type Header struct {
	ID      string
	Version int // 1 when absent (legacy v1)
	Cwd     string
	Line    int
}

// entry is the index record of one session entry (everything pi keeps in its
// entries array except the header).
type entry struct {
	typ      string
	id       string
	parentID string
	off      int64
	msg      *Message    // type message
	x        *entryExtra // fields of rare entry types; nil for most entries
	line     int32
	n        int32
	sysRole  bool // message entry with role "system"
}

// entryExtra holds what compaction, branch_summary and context_edit entries
// add (kept out of entry so the per-line index stays small).
type entryExtra struct {
	firstKept string // compaction
	fkIndex   int    // v1 compaction firstKeptEntryIndex, -1 when absent
	hasSysMsg bool   // compaction with a systemMessage checkpoint
	summaryOK bool   // branch_summary with a truthy summary
	targetID  string // context_edit
	replNull  bool   // context_edit replacement null
	replRaw   []byte // context_edit replacement.content raw
	replStr   bool   // replacement.content is a string
	ctype     string // custom, custom_message: customType
}

// ext returns e's extra fields, allocating them on first write.
func (e *entry) ext() *entryExtra {
	if e.x == nil {
		e.x = &entryExtra{fkIndex: -1}
	}
	return e.x
}

// extra returns a copy of e's extra fields (zero values, fkIndex -1, when none).
func (e *entry) extra() entryExtra {
	if e.x == nil {
		return entryExtra{fkIndex: -1}
	}
	return *e.x
}

// Context is the list of messages pi would hold for the session's leaf
// (mirrors pi 1.6's buildSessionContext), with enough information to render
// each message's bytes from the input.
type Context struct {
	Kind     Kind
	Header   Header // zero for KindContext
	Messages []*Message
	Warnings []Warning
	// LeafID is the id of the leaf entry ("" for context input or an id-less leaf).
	LeafID string
	// Lines is the number of input lines read; Bytes the input size in bytes.
	Lines int
	Bytes int64
	// Branch is every entry on the leaf's path, root first — including those
	// before the last compaction, which the context leaves out (pi's
	// getBranch) — when ReadOptions.Branch is set; nil otherwise.
	Branch []BranchEntry
	// Entries is every entry of the file in file order (on the leaf's path
	// or not; duplicate ids included) when ReadOptions.AllEntries is set, nil
	// otherwise. Ids of v1 files are the same stand-ins as everywhere else.
	Entries []BranchEntry

	src     io.ReaderAt
	scratch []byte
	win     *windowReaderAt
}

// ReadOptions tune Read.
type ReadOptions struct {
	// OnWarning, when set, is called for each warning as it is found (for
	// streaming to stderr); warnings are also collected in Context.Warnings.
	OnWarning func(Warning)
	// OnProgress, when set, is called with the bytes read so far, about every
	// 16 MiB (for a progress display on long inputs).
	OnProgress func(bytesRead int64)
	// SizeHint is the input size in bytes when known (0 if not), used to
	// size the index up front.
	SizeHint int64
	// Branch asks for Context.Branch (session input only).
	Branch bool
	// AllEntries asks for Context.Entries (session input only).
	AllEntries bool
}

// BranchEntry is one entry of the leaf's branch: its routing fields and
// where its line is in the input (EntryLine reads it).
type BranchEntry struct {
	Type       string
	CustomType string // custom and custom_message entries
	ID         string
	ParentID   string
	Line       int
	// Message is the entry's message (type message), the same value as in
	// Context.Messages when the entry is in the context; nil otherwise.
	Message *Message
	// InContext reports that the entry contributes to the context (it is
	// not before the last compaction's first kept entry).
	InContext bool

	off int64
	n   int32
}

// EntryLine returns the input line of a branch entry (without the newline).
// The slice is valid until the next call that reads the input.
func (c *Context) EntryLine(be *BranchEntry) ([]byte, error) {
	return c.Raw(&Message{Line: be.Line, off: be.off, n: be.n})
}

// Read decodes a session file or a context from r (streamed; no line-length
// limit) and builds the context pi would send for the leaf. src must give
// random access to the same bytes r yields (the render pass copies untouched
// messages from it). Lines pi would skip are skipped with a warning. Errors:
// ErrEmpty when no line parses; ErrNotSession (wrapped, naming the line) when
// the first parsed line is neither a session header nor a message; I/O errors
// from r.
func Read(r io.Reader, src io.ReaderAt, opts ReadOptions) (*Context, error) {
	hint := 0
	if opts.SizeHint > 0 {
		hint = int(opts.SizeHint / 1500) // ~1.5–2.5 KB per entry in real sessions
	}
	b := &builder{ctx: &Context{src: src}, opts: opts, byID: make(map[string]int, hint)}
	lr := NewLineReader(r)
	for {
		line, num, off, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		b.ctx.Lines = num
		b.ctx.Bytes = off + int64(len(line)) + 1
		if opts.OnProgress != nil && b.ctx.Bytes>>24 != off>>24 {
			opts.OnProgress(b.ctx.Bytes)
		}
		if err := b.add(line, num, off); err != nil {
			return nil, err
		}
	}
	b.ctx.Bytes = lr.off // exact: a last line without a final newline adds no byte
	if b.ctx.Kind == 0 {
		if b.badBefore > 0 {
			return nil, fmt.Errorf("%w: none of its %d non-blank lines is JSON (is it a JSONL file?)", ErrNotSession, b.badBefore)
		}
		return nil, ErrEmpty
	}
	if b.ctx.Kind == KindSession {
		b.build()
	}
	return b.ctx, nil
}

type builder struct {
	badBefore int     // unparseable lines before the first parsed one
	doc       lineDoc // reused by the fast path
	mdoc      msgDoc
	ctx       *Context
	opts      ReadOptions
	entries   entryList
	byID      map[string]int
	parsed    int // parsed entries including the header (pi's array index)
	tape      tape
}

func (b *builder) warn(line int, format string, a ...any) {
	w := Warning{Line: line, Msg: fmt.Sprintf(format, a...)}
	b.ctx.Warnings = append(b.ctx.Warnings, w)
	if b.opts.OnWarning != nil {
		b.opts.OnWarning(w)
	}
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

func (b *builder) add(line []byte, num int, off int64) error {
	if isBlank(line) {
		b.warn(num, "blank line skipped")
		return nil
	}
	if b.ctx.Kind == KindSession {
		if fastMessageLine(line, &b.tape, &b.doc, &b.mdoc) {
			if b.tape.ud {
				checkSurrogates(line, num, b)
			}
			b.addEntry(&b.doc, line, num, off)
			return nil
		}
	}
	d, err := decodeLine(line)
	if err != nil {
		if b.ctx.Kind == 0 {
			if bytes.IndexByte(line, 0) >= 0 {
				return fmt.Errorf("line %d: %w: binary data (NUL bytes), not JSONL", num, ErrNotSession)
			}
			b.badBefore++
		}
		b.warn(num, "%v", err)
		return nil
	}
	checkSurrogates(line, num, b)
	switch b.ctx.Kind {
	case 0:
		switch {
		case d.Type == "session" && d.ID != nil:
			b.ctx.Kind = KindSession
			h := Header{ID: *d.ID, Version: 1, Line: num}
			if d.Version != nil {
				h.Version = int(*d.Version)
			}
			if d.Cwd != nil {
				h.Cwd = *d.Cwd
			}
			b.ctx.Header = h
			b.parsed = 1
			return nil
		case d.Role != nil && d.Type == "":
			b.ctx.Kind = KindContext
		default:
			return fmt.Errorf("line %d: %w: expected a session header ({\"type\":\"session\",\"id\":…}) or a message ({\"role\":…}) as the first line", num, ErrNotSession)
		}
	case KindSession:
		b.addEntry(d, line, num, off)
		return nil
	}
	// KindContext
	if d.Role == nil {
		b.warn(num, "not a message (no \"role\"); skipped")
		return nil
	}
	m := &Message{Role: strings.Clone(*d.Role), Line: num, src: srcWholeLine, off: off, n: int32(len(line)),
		ToolCallID: strings.Clone(d.ToolCallID), ToolName: strings.Clone(d.ToolName), IsError: d.IsError,
		Timestamp: string(d.Timestamp)}
	fillContent(m, d.Content)
	b.ctx.Messages = append(b.ctx.Messages, m)
	return nil
}

// checkSurrogates warns about lone UTF-16 surrogate escapes (`\ud83d` without
// its pair), which JavaScript writes but strict JSON parsers reject.
func checkSurrogates(line []byte, num int, b *builder) {
	i := 0
	for {
		j := indexSurrogateEscape(line[i:])
		if j < 0 {
			return
		}
		i += j
		if i+6 > len(line) {
			return
		}
		if escapedBackslash(line, i) { // `\\ud83d` is a backslash, then text "ud83d"
			i += 2
			continue
		}
		h := line[i+3] | 0x20
		if h >= '8' && h <= '9' || h == 'a' || h == 'b' { // high surrogate
			if i+12 <= len(line) && line[i+6] == '\\' && line[i+7] == 'u' && (line[i+8]|0x20) == 'd' {
				l := line[i+9] | 0x20
				if l == 'c' || l == 'd' || l == 'e' || l == 'f' {
					i += 12
					continue
				}
			}
			b.warn(num, "lone UTF-16 surrogate escape %s (invalid Unicode; strict providers reject it)", line[i:i+6])
			return
		}
		if h == 'c' || h == 'd' || h == 'e' || h == 'f' {
			b.warn(num, "lone UTF-16 surrogate escape %s (invalid Unicode; strict providers reject it)", line[i:i+6])
			return
		}
		i += 3
	}
}

// escapedBackslash reports whether the backslash at line[i] is itself
// escaped (preceded by an odd run of backslashes).
func escapedBackslash(line []byte, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && line[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// indexSurrogateEscape returns the index of the first `\ud` or `\uD` in b
// (a possible UTF-16 surrogate escape), or -1.
func indexSurrogateEscape(b []byte) int {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(`\u`))
		if j < 0 {
			return -1
		}
		i += j
		if i+2 < len(b) && b[i+2]|0x20 == 'd' {
			return i
		}
		i += 2
	}
}

// intern returns the constant for common type and role names (no allocation).
func intern(s string) string {
	switch s {
	case "message":
		return "message"
	case RoleUser:
		return RoleUser
	case RoleAssistant:
		return RoleAssistant
	case RoleToolResult:
		return RoleToolResult
	case "model_change":
		return "model_change"
	case "thinking_level_change":
		return "thinking_level_change"
	}
	return strings.Clone(s)
}

func (b *builder) addEntry(d *lineDoc, line []byte, num int, off int64) {
	e := entry{typ: intern(d.Type), line: int32(num), off: off, n: int32(len(line))}
	idx := b.entries.len()
	if b.ctx.Header.Version < 2 {
		// v1: ids in file order (deterministic stand-ins for pi's random ids).
		e.id = v1ID(b.parsed)
		if idx > 0 {
			e.parentID = b.entries.at(idx - 1).id
		}
		if d.Type == "compaction" && d.FirstKeptEntryIndex != nil {
			e.ext().fkIndex = int(*d.FirstKeptEntryIndex)
		}
	} else {
		if d.ID != nil {
			e.id = strings.Clone(*d.ID)
		}
		if d.ParentID != nil {
			e.parentID = strings.Clone(*d.ParentID)
		}
	}
	b.parsed++
	switch e.typ {
	case "message":
		if d.Message == nil {
			b.warn(num, "message entry without a \"message\" object")
			break
		}
		md := d.Message
		content := md.Content
		vs, ve := d.msgS, d.msgE
		if ve == 0 {
			vs, ve, _ = valueRange(line, "message")
		}
		if md.Content == nil {
			if cs, ce, ok := valueRange(line[vs:ve], "content"); ok {
				content = line[vs+cs : vs+ce]
			}
		}
		m := &Message{vs: int32(vs), ve: int32(ve), Role: intern(md.Role), EntryID: e.id, Line: num, src: srcEntryMessage, off: off, n: int32(len(line)),
			ToolCallID: strings.Clone(md.ToolCallID), ToolName: strings.Clone(md.ToolName), IsError: md.IsError}
		if m.Role == RoleToolResult {
			m.Timestamp = string(md.Timestamp) // only results need it (notices for context input)
		}
		if m.Role == "hookMessage" && b.ctx.Header.Version < 3 {
			m.Role, m.roleFix = RoleCustom, true
		}
		fillContentT(m, content, d.tape)
		if isNullOrAbsent(content) {
			switch m.Role {
			case RoleSystem:
				m.setContent([]byte(`""`))
			case RoleUser, RoleAssistant, RoleToolResult:
				m.setContent([]byte(`[]`))
			}
		}
		e.sysRole = m.Role == RoleSystem
		e.msg = m
	case "compaction":
		if d.FirstKeptEntryID != nil {
			e.ext().firstKept = strings.Clone(*d.FirstKeptEntryID)
		}
		e.ext().hasSysMsg = len(d.SystemMessage) > 0 && truthy(d.SystemMessage)
	case "branch_summary":
		e.ext().summaryOK = truthy(d.Summary)
	case "custom", "custom_message":
		if d.CustomType != nil {
			e.ext().ctype = strings.Clone(*d.CustomType)
		}
	case "context_edit":
		if d.TargetID != nil {
			e.ext().targetID = strings.Clone(*d.TargetID)
		}
		r := d.Replacement
		if len(r) == 0 || string(r) == "null" {
			e.ext().replNull = true
		} else {
			var rd struct {
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(r, &rd) == nil {
				e.ext().replRaw = append([]byte(nil), rd.Content...)
				e.ext().replStr = len(rd.Content) > 0 && rd.Content[0] == '"'
			}
		}
	}
	b.entries.add(e)
	if e.id != "" {
		b.byID[e.id] = idx // last wins, as in pi's Map
	}
}

func isNullOrAbsent(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// truthy reports JavaScript truthiness of a raw JSON value.
func truthy(raw []byte) bool {
	switch string(raw) {
	case "", "null", "false", "0", `""`, "-0":
		return false
	}
	return true
}

// build computes the leaf path and the context messages (pi's
// buildSessionContext → buildContextEntries → projectContextEntry).
func (b *builder) build() {
	ents := &b.entries
	if ents.len() == 0 {
		return
	}
	// v1 compactions: firstKeptEntryIndex indexes pi's parsed-entries array,
	// where the header is index 0.
	for i := 0; i < ents.len(); i++ {
		if e := ents.at(i); e.x != nil && e.x.fkIndex >= 1 && e.x.fkIndex-1 < ents.len() {
			e.x.firstKept = ents.at(e.x.fkIndex - 1).id
		}
	}
	leaf := ents.len() - 1
	b.ctx.LeafID = ents.at(leaf).id
	var path []int
	seen := make([]bool, ents.len())
	for cur := leaf; ; {
		if seen[cur] {
			b.warn(int(ents.at(cur).line), "parent cycle at entry %q; path cut here", ents.at(cur).id)
			break
		}
		seen[cur] = true
		path = append(path, cur)
		p := ents.at(cur).parentID
		if p == "" {
			break
		}
		next, ok := b.byID[p]
		if !ok {
			b.warn(int(ents.at(cur).line), "entry %q has unknown parent %q; path starts here", ents.at(cur).id, p)
			break
		}
		cur = next
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}

	// buildContextEntries: the last compaction on the path.
	comp := -1
	for pi, ei := range path {
		if ents.at(ei).typ == "compaction" {
			comp = pi
		}
	}
	ctxEntries := path
	if comp >= 0 {
		c := ents.at(path[comp])
		ctxEntries = []int{path[comp]}
		found := false
		for i := 0; i < comp; i++ {
			e := ents.at(path[i])
			if e.id != "" && e.id == c.extra().firstKept {
				found = true
			}
			if found && !e.sysRole {
				ctxEntries = append(ctxEntries, path[i])
			}
		}
		ctxEntries = append(ctxEntries, path[comp+1:]...)
	}
	if b.opts.Branch || b.opts.AllEntries {
		in := make(map[int]bool, len(ctxEntries))
		for _, ei := range ctxEntries {
			in[ei] = true
		}
		be := func(ei int) BranchEntry {
			e := ents.at(ei)
			return BranchEntry{Type: e.typ, CustomType: e.extra().ctype, ID: e.id, ParentID: e.parentID,
				Line: int(e.line), Message: e.msg, InContext: in[ei], off: e.off, n: e.n}
		}
		if b.opts.Branch {
			b.ctx.Branch = make([]BranchEntry, 0, len(path))
			for _, ei := range path {
				b.ctx.Branch = append(b.ctx.Branch, be(ei))
			}
		}
		if b.opts.AllEntries {
			b.ctx.Entries = make([]BranchEntry, 0, ents.len())
			for ei := 0; ei < ents.len(); ei++ {
				b.ctx.Entries = append(b.ctx.Entries, be(ei))
			}
		}
	}
	edits := map[string]int{}
	for _, ei := range ctxEntries {
		if ents.at(ei).typ == "context_edit" {
			edits[ents.at(ei).extra().targetID] = ei
		}
	}
	for k, ei := range ctxEntries {
		e := ents.at(ei)
		if e.typ == "compaction" && k > 0 {
			continue // an older compaction kept in range: no checkpoint, no summary
		}
		msgs := b.project(e)
		if ed, ok := edits[e.id]; ok && e.id != "" {
			msgs = applyEdit(msgs, ents.at(ed))
		}
		b.ctx.Messages = append(b.ctx.Messages, msgs...)
	}
	if len(b.ctx.Messages) == 0 {
		l := ents.at(leaf)
		why := ""
		if l.id == "" {
			why = " and no id"
		}
		b.warn(int(l.line), "the context is empty: the leaf (the last entry, type %q%s) has no message on its path to the root", l.typ, why)
	}
	b.entries = entryList{}
	b.byID = nil
}

// project is pi's sessionEntryToContextMessages for one entry.
func (b *builder) project(e *entry) []*Message {
	switch e.typ {
	case "message":
		if e.msg == nil {
			return nil
		}
		return []*Message{e.msg}
	case "custom_message":
		return []*Message{{Role: RoleCustom, EntryID: e.id, Line: int(e.line), src: srcSynth, off: e.off, n: e.n}}
	case "branch_summary":
		if !e.extra().summaryOK {
			return nil
		}
		return []*Message{{Role: RoleBranchSummary, EntryID: e.id, Line: int(e.line), src: srcSynth, off: e.off, n: e.n}}
	case "compaction":
		sum := &Message{Role: RoleCompactionSummary, EntryID: e.id, Line: int(e.line), src: srcSynth, off: e.off, n: e.n}
		if e.extra().hasSysMsg {
			sys := &Message{Role: RoleSystem, EntryID: e.id, Line: int(e.line), src: srcSystemMessage, off: e.off, n: e.n}
			return []*Message{sys, sum}
		}
		return []*Message{sum}
	}
	return nil
}

// applyEdit is pi 1.6's projectContextEntry with a context_edit.
func applyEdit(msgs []*Message, ed *entry) []*Message {
	edx := ed.extra()
	if edx.replNull {
		return nil
	}
	out := make([]*Message, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case RoleUser, RoleAssistant, RoleToolResult, RoleCustom:
			c := *m
			content := edx.replRaw // nil: replacement.content undefined, key dropped
			if (m.Role == RoleAssistant || m.Role == RoleToolResult) && edx.replStr {
				var s string
				_ = json.Unmarshal(edx.replRaw, &s)
				buf := []byte(`[{"type":"text","text":`)
				buf = AppendJSString(buf, s)
				content = append(buf, "}]"...)
			}
			if content == nil {
				content = []byte{}
			}
			c.setContent(content)
			c.ToolCalls = nil
			c.TextChars, c.Images = 0, 0
			fillContent(&c, content)
			out = append(out, &c)
		default:
			out = append(out, m)
		}
	}
	return out
}

// v1ID is the deterministic id given to the entry at index i of pi's parsed
// entries array (header = 0) of a v1 file; pi itself uses random ids.
func v1ID(i int) string { return fmt.Sprintf("%08x", i) }

// Source returns the random-access input the context was read from.
func (c *Context) Source() io.ReaderAt { return c.src }

// entryList stores the index in fixed-size chunks: appending never copies
// what is stored (no doubling peaks on large sessions).
type entryList struct {
	chunks [][]entry
	n      int
}

const entryChunk = 4096

func (l *entryList) len() int { return l.n }

func (l *entryList) at(i int) *entry { return &l.chunks[i/entryChunk][i%entryChunk] }

func (l *entryList) add(e entry) {
	if l.n%entryChunk == 0 {
		l.chunks = append(l.chunks, make([]entry, 0, entryChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, e)
	l.n++
}
