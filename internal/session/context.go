package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/pruner-dev/pruner/internal/jsonscan"
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
	Code WarnCode
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

// ErrEmpty is kept for callers that name it; Read and Find no longer
// return it (an input with no line is an empty context).
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

	src io.ReaderAt
	win *windowReaderAt
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
// messages from it). Lines pi would skip are skipped with a warning. An
// input with no non-blank line is an empty context. Errors: ErrNotSession
// (wrapped, naming the line) when the first parsed line is neither a session
// header nor a message, or no line parses; I/O errors from r.
func Read(r io.Reader, src io.ReaderAt, opts ReadOptions) (*Context, error) {
	hint := 0
	if opts.SizeHint > 0 {
		hint = int(opts.SizeHint / 1500) // ~1.5–2.5 KB per entry in real sessions
	}
	b := &builder{ctx: &Context{src: src}, opts: opts, byID: make(map[string]int, hint)}
	er := NewEntryReader(r, EntryOptions{OnWarning: b.addWarning})
	b.er = er
	for {
		rl, err := er.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		b.ctx.Lines, b.ctx.Bytes = er.Lines(), er.Bytes()
		if opts.OnProgress != nil && b.ctx.Bytes>>24 != rl.off>>24 {
			opts.OnProgress(b.ctx.Bytes)
		}
		if b.ctx.Kind == 0 {
			b.ctx.Kind, b.ctx.Header = er.Kind(), er.Header()
		}
		if b.ctx.Kind == KindContext {
			b.addContextLine(rl)
		} else {
			b.addEntry(rl)
		}
	}
	b.ctx.Lines, b.ctx.Bytes = er.Lines(), er.Bytes()
	switch {
	case b.ctx.Kind == 0 && er.Kind() == KindSession: // a header and no entry
		b.ctx.Kind, b.ctx.Header = KindSession, er.Header()
	case b.ctx.Kind == 0:
		b.ctx.Kind = KindContext // no line at all: an empty context
	}
	if b.ctx.Kind == KindSession {
		b.build()
	}
	return b.ctx, nil
}

type builder struct {
	slab    []Message // messages are allocated in blocks
	names   map[string]string
	ctx     *Context
	opts    ReadOptions
	er      *EntryReader
	entries entryList
	byID    map[string]int
}

// newMessage returns a zero Message from the current block.
func (b *builder) newMessage() *Message {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Message, 0, 256)
	}
	b.slab = b.slab[:len(b.slab)+1]
	return &b.slab[len(b.slab)-1]
}

// name returns the string node n as a shared string (tool names repeat).
func (b *builder) name(v *lineView, n uint32) string {
	if n == 0 || v.tp.Nodes[n].Kind != jsonscan.String {
		return ""
	}
	if k, ok := v.tp.Key(n); ok {
		if s, ok := b.names[string(k)]; ok {
			return s
		}
		if b.names == nil {
			b.names = map[string]string{}
		}
		if len(b.names) < 4096 {
			s := string(k)
			b.names[s] = s
			return s
		}
	}
	s, _ := v.tp.String(n)
	return s
}

func (b *builder) addWarning(w Warning) {
	b.ctx.Warnings = append(b.ctx.Warnings, w)
	if b.opts.OnWarning != nil {
		b.opts.OnWarning(w)
	}
}

func (b *builder) warn(line int, format string, a ...any) {
	b.addWarning(Warning{Line: line, Code: WarnStructure, Msg: fmt.Sprintf(format, a...)})
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// lineLen checks that a line fits the index (lines are shorter than
// jsonscan.MaxInput, checked by the decoder).
func lineLen(line []byte) int32 { return int32(len(line)) }

// addContextLine adds one message line of a context.
func (b *builder) addContextLine(rl *rawLine) {
	v := &rl.v
	mv := v.message(0)
	m := &Message{Role: v.mstr(&mv, mRole), Line: rl.num, src: srcWholeLine, off: rl.off, n: lineLen(rl.line),
		ToolCallID: v.mstr(&mv, mToolCallID), ToolName: v.mstr(&mv, mToolName),
		IsError: mv.f[mIsError] != 0 && v.tp.Nodes[mv.f[mIsError]].Kind == jsonscan.True}
	if mv.f[mTimestamp] != 0 {
		m.Timestamp = string(v.tp.Raw(mv.f[mTimestamp]))
	}
	b.fill(m, v, mv.f[mContent])
	b.ctx.Messages = append(b.ctx.Messages, m)
}

// fill sets the size and tool-call fields of m from its content value.
func (b *builder) fill(m *Message, v *lineView, content uint32) {
	b.fillInfo(m, v, b.er.dec.analyze(content))
}

func (b *builder) fillInfo(m *Message, v *lineView, ci contentInfo) {
	if m.Role == RoleToolResult {
		m.TextChars = ci.chars
	}
	m.Images, m.HasNotice = ci.images, ci.notice
	if m.Role == RoleUser && ci.hasText {
		m.Synthetic = ci.synthetic
	}
	if len(ci.calls) > 0 {
		m.ToolCalls = make([]ToolCall, len(ci.calls))
		for k, c := range ci.calls {
			tc := ToolCall{ID: nodeString(v.tp, c.id), Name: b.name(v, c.name), from: m}
			if c.path != 0 {
				tc.Path, tc.HasPath = nodeString(v.tp, c.path), true
			}
			m.ToolCalls[k] = tc
		}
	}
}

func (b *builder) addEntry(rl *rawLine) {
	v := &rl.v
	e := entry{typ: rl.typ, id: rl.id, parentID: rl.par, line: int32(rl.num), off: rl.off, n: lineLen(rl.line)}
	idx := b.entries.len()
	if b.er.v1 && e.typ == "compaction" && v.kind(fFirstKeptEntryIndex) == jsonscan.Number {
		f, _ := v.tp.Number(v.f[fFirstKeptEntryIndex])
		if f >= 0 && f < 1<<31 && f == float64(int(f)) {
			e.ext().fkIndex = int(f)
		}
	}
	switch e.typ {
	case "message":
		if v.kind(fMessage) != jsonscan.Object {
			b.warn(rl.num, "message entry without a \"message\" object")
			break
		}
		obj := v.f[fMessage]
		mv := v.message(obj)
		nd := &v.tp.Nodes[obj]
		m := b.newMessage()
		*m = Message{vs: int32(nd.Start), ve: int32(nd.End), Role: v.mstr(&mv, mRole), EntryID: e.id, Line: rl.num,
			src: srcEntryMessage, off: rl.off, n: lineLen(rl.line),
			ToolCallID: v.mstr(&mv, mToolCallID), ToolName: b.name(v, mv.f[mToolName]),
			IsError: mv.f[mIsError] != 0 && v.tp.Nodes[mv.f[mIsError]].Kind == jsonscan.True}
		if m.Role == RoleToolResult && mv.f[mTimestamp] != 0 {
			m.Timestamp = string(v.tp.Raw(mv.f[mTimestamp])) // only results need it (notices for context input)
		}
		if m.Role == "hookMessage" && b.er.v2 {
			m.Role, m.roleFix = RoleCustom, true
		}
		b.fill(m, v, mv.f[mContent])
		if c := mv.f[mContent]; c == 0 || v.tp.Nodes[c].Kind == jsonscan.Null {
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
		if s, ok := v.str(fFirstKeptEntryID); ok {
			e.ext().firstKept = s
		}
		e.ext().hasSysMsg = v.has(fSystemMessage) && v.tp.Truthy(v.f[fSystemMessage])
	case "branch_summary":
		e.ext().summaryOK = v.has(fSummary) && v.tp.Truthy(v.f[fSummary])
	case "custom", "custom_message":
		if s, ok := v.str(fCustomType); ok {
			e.ext().ctype = s
		}
	case "context_edit":
		if s, ok := v.str(fTargetID); ok {
			e.ext().targetID = s
		}
		switch r := v.f[fReplacement]; {
		case r == 0 || v.tp.Nodes[r].Kind == jsonscan.Null:
			e.ext().replNull = true
		case v.tp.Nodes[r].Kind == jsonscan.Object:
			if c, ok := v.tp.Get(r, "content"); ok {
				e.ext().replRaw = bytes.Clone(v.tp.Raw(c))
				e.ext().replStr = v.tp.Nodes[c].Kind == jsonscan.String
			}
		}
	}
	b.entries.add(e)
	if e.id != "" {
		b.byID[e.id] = idx // last wins, as in pi's Map
	}
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
	if b.opts.Branch {
		in := make(map[int]bool, len(ctxEntries))
		for _, ei := range ctxEntries {
			in[ei] = true
		}
		b.ctx.Branch = make([]BranchEntry, 0, len(path))
		for _, ei := range path {
			e := ents.at(ei)
			b.ctx.Branch = append(b.ctx.Branch, BranchEntry{Type: e.typ, CustomType: e.extra().ctype, ID: e.id, ParentID: e.parentID,
				Line: int(e.line), Message: e.msg, InContext: in[ei], off: e.off, n: e.n})
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
		if e.typ == "message" && e.msg != nil && len(edits) == 0 {
			b.ctx.Messages = append(b.ctx.Messages, e.msg) // the common case, without a slice per entry
			continue
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
				buf := []byte(`[{"type":"text","text":`)
				buf = AppendJSString(buf, string(jsonscan.AppendUnquote(nil, edx.replRaw)))
				content = append(buf, "}]"...)
			}
			if content == nil {
				content = []byte{}
			}
			c.setContent(content)
			c.ToolCalls = nil
			c.TextChars, c.Images, c.HasNotice, c.Synthetic = 0, 0, false, false
			fillRaw(&c, content)
			out = append(out, &c)
		default:
			out = append(out, m)
		}
	}
	return out
}

// fillRaw sets the size and tool-call fields of m from a raw content value
// (valid JSON, or empty).
func fillRaw(m *Message, content []byte) {
	if len(content) == 0 {
		return
	}
	b := builder{er: &EntryReader{}}
	if b.er.dec.tp.Parse(content) != nil {
		return
	}
	b.fillInfo(m, &lineView{tp: &b.er.dec.tp}, b.er.dec.analyzeNode(0))
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
