package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"unicode/utf8"

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

// ErrBOM is wrapped, with ErrNotSession, when the header line starts with a
// UTF-8 byte order mark (pi cannot parse that line).
var ErrBOM = errors.New("the line starts with a UTF-8 byte order mark (bytes EF BB BF)")

// ErrEmpty is kept for callers that name it; Read and Find no longer
// return it (an input with no line is an empty context).
var ErrEmpty = errors.New("empty input")

// Header is the session header (line 1 of a session file).
type Header struct {
	ID      string
	Version int // 1 when absent (legacy v1)
	Cwd     string
	Line    int
	// BOM is set when the header line starts with a UTF-8 byte order mark
	// (read only with EntryOptions.Lenient): pi reads no session from such a
	// file.
	BOM bool
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
	// KeptCompactions is the number of compaction entries on the leaf's
	// path, before the last one, that lie in its kept range: pi 1.6 leaves
	// them out of the context (as Messages does); pairing.Find warns about
	// the pairs they break in other pi versions when Branch is read.
	KeptCompactions int

	src      io.ReaderAt
	win      *windowReaderAt
	arena    arena    // the strings of Messages and ToolCalls
	ids      ids      // entry ids that are not 8 hex digits
	types    []string // entry types by index (BranchEntry.typ; Branch or Entries read)
	ctypes   []string // custom types (BranchEntry.ctype)
	roles    []string
	infos    chunked[msgInfo]
	callSets chunked[callSet]
	calls    [][]ToolCall        // the tool calls, in chunks callSets index
	turns    chunked[turnFacts]  // each callSets entry's TurnFacts (same index)
	argLocs  [][]argLoc          // each call's arguments (CallArgsAt), in the chunks of calls
	names    []aref              // tool names (ToolCall.name, msgInfo.toolName)
	patches  map[*Message][]byte // content replacements (rare)
	blocks   []*msgBlock         // the messages
	nblk     int                 // messages used in the last block
	m        *mapping            // the input, memory-mapped (file inputs)
	rawBuf   []byte              // Raw's buffer for a mapped input
	viewBuf  []byte              // ViewMessage's buffer
	entryBuf []byte              // ViewEntryBytes's buffer
	readBuf  []byte              // ReadMessage's buffer
	hintBuf  []byte              // CallHint's line and tape, reused
	hintTape jsonscan.Tape
	hintFrom msgRef // the message hintTape holds the line of (0: none)
}

// roleIndex returns the index of role r in c.roles, adding it.
func (c *Context) roleIndex(r string) uint8 {
	for i, x := range c.roles {
		if x == r {
			return uint8(i)
		}
	}
	if len(c.roles) == 255 {
		return 0 // more than 254 distinct roles: the rest read as "" (none is routed)
	}
	c.roles = append(c.roles, r)
	return uint8(len(c.roles) - 1)
}

// newContext returns an empty context reading from src.
func newContext(src io.ReaderAt) *Context {
	return &Context{src: src, roles: append([]string(nil), knownRoles[:]...)}
}

// ReadOptions tune Read.
type ReadOptions struct {
	// OnWarning, when set, is called for each warning as it is found (for
	// streaming to stderr); warnings are also collected in Context.Warnings.
	OnWarning func(Warning)
	// OnProgress, when set, is called with the bytes read so far, about every
	// 16 MiB (for a progress display on long inputs).
	OnProgress func(bytesRead int64)
	// SizeHint is the input size in bytes when known (0 if not). Read sizes
	// nothing from it now (its index grows in fixed-size chunks and finds
	// repeated ids by sorting them); callers that know the size pass it.
	SizeHint int64
	// Branch asks for Context.Branch (session input only).
	Branch bool
	// AllEntries asks for Context.Entries (session input only).
	AllEntries bool
}

// BranchEntry is one entry of the leaf's branch: its routing fields and
// where its line is in the input (EntryLine reads it). It holds no string
// and no pointer (24 bytes: the collector does not scan a branch); its
// context gives its strings and its message (EntryType, EntryCustomType,
// EntryID, EntryParentID, EntryMessage).
type BranchEntry struct {
	id, parent uint32 // the ids' keys (idKey) without their tags
	line       int32
	loc        msgRef // the Message holding the entry's line (its place in the input)
	ctype      uint32 // index+1 in Context.ctypes of the custom type (0: none)
	typ        uint8  // index in Context.types
	flags      uint8  // the ids' tags (beIDTag, beParentTag shifts), beMsg, beInContext
}

const (
	beIDShift     = 0 // the id's tag (idKey >> 32), two bits
	beParentShift = 2 // the parent's tag, two bits
	beMsg         = 1 << 4
	beInContext   = 1 << 5
)

// Line is the entry's input line (1-based).
func (be *BranchEntry) Line() int { return int(be.line) }

// InContext reports that the entry contributes to the context (it is not
// before the last compaction's first kept entry).
func (be *BranchEntry) InContext() bool { return be.flags&beInContext != 0 }

func (be *BranchEntry) idKey() idKey {
	return idKey(be.flags>>beIDShift&3)<<32 | idKey(be.id)
}

func (be *BranchEntry) parentKey() idKey {
	return idKey(be.flags>>beParentShift&3)<<32 | idKey(be.parent)
}

// EntryType is branch entry be's type ("message", "compaction", ...).
func (c *Context) EntryType(be *BranchEntry) string {
	if int(be.typ) < len(c.types) {
		return c.types[be.typ]
	}
	return ""
}

// EntryCustomType is the customType of branch entry be (custom and
// custom_message entries; "" otherwise).
func (c *Context) EntryCustomType(be *BranchEntry) string {
	if be.ctype == 0 || int(be.ctype) > len(c.ctypes) {
		return ""
	}
	return c.ctypes[be.ctype-1]
}

// EntryID is the id of branch entry be ("": none).
func (c *Context) EntryID(be *BranchEntry) string { return c.ids.string(be.idKey()) }

// EntryParentID is the parentId of branch entry be ("": none).
func (c *Context) EntryParentID(be *BranchEntry) string { return c.ids.string(be.parentKey()) }

// EntryMessage is branch entry be's message (type message), the same value
// as in Context.Messages when the entry is in the context; nil otherwise.
func (c *Context) EntryMessage(be *BranchEntry) *Message {
	if be.flags&beMsg == 0 {
		return nil
	}
	return c.msg(be.loc)
}

// EntryKey is the id of branch entry be as an integer, as Message.EntryKey
// gives it for the entry's messages (0: no id).
func (c *Context) EntryKey(be *BranchEntry) uint64 { return uint64(be.idKey()) }

// entryPlace returns where branch entry be's line is in the input (0, 0
// for an entry read by no context). An entry of another context is an
// error when c's record at its reference is not on its line (an entry
// of another context must not be passed: its line is read from c).
func (c *Context) entryPlace(be *BranchEntry) (off int64, n int32, err error) {
	if be.loc == 0 {
		return 0, 0, nil
	}
	if m := c.msg(be.loc); m == nil || m.line != be.line {
		return 0, 0, fmt.Errorf("line %d: the branch entry is not one of this context's", be.line)
	} else {
		return m.off, m.n, nil
	}
}

// EntryLine returns the input line of a branch entry of c (Branch or
// Entries; without the newline).
// The slice is valid until the next call that reads the input.
func (c *Context) EntryLine(be *BranchEntry) ([]byte, error) {
	off, n, err := c.entryPlace(be)
	if err != nil {
		return nil, err
	}
	return c.rawLine(be.line, off, n)
}

// ViewEntryLine calls fn with branch entry be's input line as EntryLine
// returns it: for a mapped input where it is mapped (no copy; a truncated
// input is an error, fn's reading stopped by it), else in EntryLine's
// buffer. fn must not keep line; what it reads of the input through c
// does not move it.
func (c *Context) ViewEntryLine(be *BranchEntry, fn func(line []byte) error) error {
	off, n, err := c.entryPlace(be)
	if err != nil {
		return err
	}
	if c.m == nil || off < 0 || n < 0 || off+int64(n) > int64(len(c.m.data)) {
		line, err := c.rawLine(be.line, off, n)
		if err != nil {
			return err
		}
		return fn(line)
	}
	var ferr error
	if err := guard(func() error { ferr = fn(c.m.data[off : off+int64(n)]); return nil }); err != nil {
		return fmt.Errorf("line %d: re-reading input: %w", be.line, err)
	}
	c.m.advance(off) // the pages behind the reads are given back, as Raw gives them
	return ferr
}

// AppendEntryBytes appends the n bytes at offset off of branch entry be's
// line to dst. It does not use the buffer EntryLine and Raw reuse: a line
// they returned stays valid. Errors: a range outside the line, I/O errors
// re-reading the input.
func (c *Context) AppendEntryBytes(dst []byte, be *BranchEntry, off, n int) ([]byte, error) {
	beOff, beN, err := c.entryPlace(be)
	if err != nil {
		return dst, err
	}
	if off < 0 || n < 0 || int64(off)+int64(n) > int64(beN) {
		return dst, fmt.Errorf("line %d: bytes %d..%d are outside the line", be.line, off, off+n)
	}
	at := beOff + int64(off)
	l := len(dst)
	dst = slices.Grow(dst, n)[:l+n]
	if c.m != nil {
		err = guard(func() error {
			if at+int64(n) > int64(len(c.m.data)) {
				return io.ErrUnexpectedEOF
			}
			copy(dst[l:], c.m.data[at:])
			return nil
		})
		c.m.advance(at) // the pages behind the reads are given back, as Raw gives them
	} else if k, rerr := c.src.ReadAt(dst[l:], at); k < n {
		err = rerr
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}
	if err != nil {
		return dst[:l], fmt.Errorf("line %d: re-reading input: %w", be.line, err)
	}
	return dst, nil
}

// ViewEntryBytes calls fn with the n bytes at offset off of branch entry
// be's line, as AppendEntryBytes would append them. For a mapped input
// they are passed where they are mapped (no copy; a truncated input is an
// error): up to readCopyMax bytes with their pages mapped a window ahead
// in one call (mapping.view; the flush and the render read every indexed
// call's arguments and texts, mostly in file order, and faulting their
// pages in one at a time cost more than a copy), else as they fault in;
// where pages cannot be mapped ahead, a small read is read from the file
// into a buffer the next ViewEntryBytes reuses, as is every read of a
// streamed input. fn must not keep b nor call ViewEntryBytes; it does not
// use the buffer EntryLine and Raw reuse.
func (c *Context) ViewEntryBytes(be *BranchEntry, off, n int, fn func(b []byte) error) error {
	if c.m == nil {
		b, err := c.AppendEntryBytes(c.entryBuf[:0], be, off, n)
		if err != nil {
			return err
		}
		if cap(b) <= 1<<20 {
			c.entryBuf = b[:0] // a rare huge one is not kept
		}
		return fn(b)
	}
	beOff, beN, err := c.entryPlace(be)
	if err != nil {
		return err
	}
	if off < 0 || n < 0 || int64(off)+int64(n) > int64(beN) {
		return fmt.Errorf("line %d: bytes %d..%d are outside the line", be.line, off, off+n)
	}
	at := beOff + int64(off)
	if at+int64(n) > int64(len(c.m.data)) {
		return fmt.Errorf("line %d: re-reading input: %w", be.line, io.ErrUnexpectedEOF)
	}
	if n <= readCopyMax {
		if b, ok := c.m.view(at, n); ok {
			// where it is mapped, its pages mapped ahead (no fault a page)
			var ferr error
			if err := guard(func() error { ferr = fn(b); return nil }); err != nil {
				return fmt.Errorf("line %d: re-reading input: %w", be.line, err)
			}
			c.m.advance(at)
			return ferr
		}
		// read from the file, not faulted in from the mapping (ReadMessage)
		b, err := c.readCopy(&c.entryBuf, at, n)
		if err != nil {
			return fmt.Errorf("line %d: re-reading input: %w", be.line, err)
		}
		return fn(b)
	}
	var ferr error
	if err := guard(func() error { ferr = fn(c.m.data[at : at+int64(n)]); return nil }); err != nil {
		return fmt.Errorf("line %d: re-reading input: %w", be.line, err)
	}
	c.m.advance(at) // the pages behind the reads are given back, as Raw gives them
	return ferr
}

// Read decodes a session file or a context from r (streamed; no line-length
// limit) and builds the context pi would send for the leaf. src must give
// random access to the same bytes r yields (the render pass copies untouched
// messages from it). Lines pi would skip are skipped with a warning. An
// input with no non-blank line is an empty context. Errors: ErrNotSession
// (wrapped, naming the line) when the first parsed line is neither a session
// header nor a message, or no line parses; I/O errors from r.
func Read(r io.Reader, src io.ReaderAt, opts ReadOptions) (*Context, error) {
	b := &builder{ctx: newContext(src), opts: opts, types: []string{""}}
	var lines lineSource
	if f, ok := src.(*os.File); ok && r == io.Reader(f) {
		if m, ok := mapFile(f); ok {
			b.ctx.m = m
			runtime.AddCleanup(b.ctx, func(m *mapping) { m.unmap() }, m)
			lines = &mappedLines{m: m}
		}
	}
	if lines == nil {
		lines = NewLineReader(r)
	}
	er := &EntryReader{lr: lines, opts: EntryOptions{OnWarning: b.addWarning}}
	b.er = er
	if err := guard(func() error { return b.read() }); err != nil {
		return nil, err
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

// read adds every entry (or context line) of the input.
func (b *builder) read() error {
	er, opts := b.er, b.opts
	for {
		rl, err := er.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
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
}

type builder struct {
	calls    []ToolCall // and so are tool calls
	argLocs  []argLoc   // and the calls' arguments (the same chunk as calls)
	lastRefs []aref     // the ids of the latest message's tool calls in the arena (callID)
	names    map[string]uint32
	ctx      *Context
	opts     ReadOptions
	er       *EntryReader
	entries  entryList
	extras   []entryExtra
	nonLocal []idKey  // ids the walk must look up: parents that are not the previous entry's id
	types    []string // entry types by index (0: "")
}

// typeIndex returns the index of entry type t in b.types.
func (b *builder) typeIndex(t string) uint8 {
	for i, x := range b.types {
		if x == t {
			return uint8(i)
		}
	}
	if len(b.types) == 255 {
		return 254 // more than 254 distinct types: the rest share one (none is routed)
	}
	b.types = append(b.types, t)
	return uint8(len(b.types) - 1)
}

// ext returns e's extra fields, allocating them on first write.
func (b *builder) ext(e *entry) *entryExtra {
	if e.x < 0 {
		e.x = int32(len(b.extras))
		b.extras = append(b.extras, entryExtra{fkIndex: -1})
	}
	return &b.extras[e.x]
}

// extra returns e's extra fields (zero values, fkIndex -1, when none).
func (b *builder) extra(e *entry) entryExtra {
	if e.x < 0 {
		return entryExtra{fkIndex: -1}
	}
	return b.extras[e.x]
}

// keyOf returns the id key of the string node n (0 when n is 0 or not a
// string).
func (b *builder) keyOf(v *lineView, n uint32) idKey {
	if n == 0 || v.tp.Nodes[n].Kind != jsonscan.String {
		return 0
	}
	if k, ok := v.tp.Key(n); ok {
		return b.ctx.ids.key(k, &b.ctx.arena)
	}
	s, _ := v.tp.String(n)
	return b.ctx.ids.key([]byte(s), &b.ctx.arena)
}

// idString returns the id of key k as a string.
func (b *builder) idString(k idKey) string { return b.ctx.ids.string(k) }

// newMessage returns a zero Message from the current block.
func (b *builder) newMessage() *Message { return b.ctx.newMessage() }

// loc returns the Message holding e's line (its message for a message
// entry).
func (b *builder) loc(e *entry) *Message { return b.ctx.msg(e.loc) }

// info returns m's optional fields, allocating them on first use.
func (b *builder) info(m *Message) *msgInfo {
	if m.info == 0 {
		b.ctx.infos.add()
		m.info = uint32(b.ctx.infos.len())
	}
	return b.ctx.infos.at(int(m.info - 1))
}

// setStrings sets a message's tool result fields (when present).
func (b *builder) setStrings(m *Message, v *lineView, mv *msgView, withTimestamp bool) {
	id, name := b.callID(v, mv.f[mToolCallID]), b.name(v, mv.f[mToolName])
	ts := aref(0)
	if withTimestamp && mv.f[mTimestamp] != 0 {
		ts = b.ctx.arena.add(v.tp.Raw(mv.f[mTimestamp]))
	}
	if id != 0 || name != 0 || ts != 0 {
		in := b.info(m)
		in.toolCallID, in.toolName, in.timestamp = id, name, ts
		if c := mv.f[mContent]; c != 0 {
			// where the content is in the message's bytes (masking rewrites
			// it without reading the rest again)
			base := v.tp.Nodes[mv.obj].Start
			if n, ok := tapeContentChars(v.tp, mv); ok {
				in.cs, in.ce, in.cchars = int32(v.tp.Nodes[c].Start-base), int32(v.tp.Nodes[c].End-base), n
			}
		}
	}
	m.setFlag(flagIsError, mv.f[mIsError] != 0 && v.tp.Nodes[mv.f[mIsError]].Kind == jsonscan.True)
}

// resultFacts records the ResultFacts of tool result m, message mv of
// line v (its info allocated, its content's range recorded), in the
// padding of its msgInfo: bits, and the text's flags.
func (b *builder) resultFacts(m *Message, v *lineView, mv *msgView) {
	tp := v.tp
	in := b.info(m)
	in.rf, in.tflags = rfKnown, 0
	if e := mv.f[mIsError]; e != 0 {
		if tp.Truthy(e) {
			in.rf |= rfErrorTruthy
		}
		if tp.Nodes[e].Kind == jsonscan.True {
			in.rf |= rfErrorTrue
		}
	}
	c := mv.f[mContent]
	if c == 0 || tp.Nodes[c].Kind != jsonscan.Array {
		return
	}
	in.rf |= rfArray
	// the joined text's JavaScript length is its code points (chars, as
	// analyze counts them) when every text is a string of valid UTF-8
	// without astral characters; texts counts the text blocks
	texts, len16 := 0, true
	tp.Elems(c, func(el uint32) bool {
		if tv, ok := tp.Get(el, "type"); !ok || tp.Nodes[tv].Kind != jsonscan.String || !tp.KeyIs(tv, "text") {
			return true
		}
		texts++
		t, ok := tp.Get(el, "text")
		if !ok || tp.Nodes[t].Kind != jsonscan.String {
			len16 = false
			return true
		}
		nd := &tp.Nodes[t]
		if nd.Flags&(jsonscan.BadUTF8|jsonscan.EscapedPair) != 0 || nd.Flags&jsonscan.NonASCII != 0 && jsonscan.Astral(tp.Raw(t)) > 0 {
			len16 = false
		}
		return true
	})
	if len16 && texts <= 1 {
		in.rf |= rfLen16
	}
	// the single text's place, from the content's (as pi writes it)
	nd := &tp.Nodes[c]
	if vs, _, ok := m.valueRange(); ok && in.ce > 0 && texts == 1 && vs == int(tp.Nodes[mv.obj].Start) &&
		int(nd.Start)-vs == int(in.cs) && int(nd.End)-vs == int(in.ce) &&
		bytes.HasPrefix(tp.Src[nd.Start:nd.End], []byte(textPrefix)) && nd.Chars == 1 {
		if t, ok := tp.Get(c+1, "text"); ok && tp.Nodes[t].Kind == jsonscan.String &&
			int(tp.Nodes[t].Start) == int(nd.Start)+len(textPrefix) && tp.Nodes[t].End+2 == nd.End {
			in.rf |= rfText
			in.tflags = tp.Nodes[t].Flags
		}
	}
}

// strRef puts the string node n ("" for 0 or a non-string) in the arena.
func (b *builder) strRef(v *lineView, n uint32) aref {
	if n == 0 || v.tp.Nodes[n].Kind != jsonscan.String {
		return 0
	}
	if k, ok := v.tp.Key(n); ok && v.tp.Nodes[n].Flags&jsonscan.BadUTF8 == 0 {
		return b.ctx.arena.add(k)
	}
	s, _ := v.tp.String(n)
	return b.ctx.arena.add([]byte(s))
}

// callID returns a result's toolCallId (string node n) as strRef does,
// sharing the string of the call it answers when that call is one of the
// latest assistant message's (the usual order): the id is kept once, not
// twice.
func (b *builder) callID(v *lineView, n uint32) aref {
	if n != 0 && v.tp.Nodes[n].Kind == jsonscan.String && v.tp.Nodes[n].Flags&jsonscan.BadUTF8 == 0 {
		if k, ok := v.tp.Key(n); ok {
			for _, r := range b.lastRefs {
				if b.ctx.arena.get(r) == string(k) {
					return r
				}
			}
		}
	}
	return b.strRef(v, n)
}

// name returns the string node n as a tool name's index+1 in c.names (0
// for 0, a non-string or ""), shared by every call and result with that
// name (tool names repeat).
func (b *builder) name(v *lineView, n uint32) uint32 {
	if n == 0 || v.tp.Nodes[n].Kind != jsonscan.String {
		return 0
	}
	if k, ok := v.tp.Key(n); ok {
		if len(k) == 0 {
			return 0
		}
		if i, ok := b.names[string(k)]; ok {
			return i
		}
		if b.names == nil {
			b.names = map[string]uint32{}
		}
		if len(b.names) < 4096 {
			r := b.ctx.arena.add(k)
			i := b.ctx.addName(r)
			b.names[b.ctx.arena.get(r)] = i
			return i
		}
	}
	s, _ := v.tp.String(n)
	if s == "" {
		return 0
	}
	return b.ctx.addName(b.ctx.arena.add([]byte(s)))
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
	m := b.newMessage()
	m.role, m.line, m.off, m.n = b.ctx.roleIndex(v.mstr(&mv, mRole)), int32(rl.num), rl.off, lineLen(rl.line)
	m.setSource(srcWholeLine)
	b.setStrings(m, v, &mv, true)
	ci := b.fill(m, v, mv.f[mContent])
	b.fillRead(m, v, &mv, ci.firstText)
	b.countModelChars(m, v, &mv)
	b.ctx.Messages = append(b.ctx.Messages, m)
}

// fill sets the size and tool-call fields of m from its content value, and
// returns what analyze found of it (its calls valid until the next analyze).
func (b *builder) fill(m *Message, v *lineView, content uint32) contentInfo {
	ci := b.er.dec.analyze(content)
	b.fillInfo(m, v, ci)
	return ci
}

// fillRead sets what only a message rendered from its input bytes has:
// its numeric timestamp, and whether it may be a compressed-chain message.
// first is the "text" member of the content's first block (fill).
func (b *builder) fillRead(m *Message, v *lineView, mv *msgView, first uint32) {
	tp := v.tp
	if t := mv.f[mTimestamp]; t != 0 && tp.Nodes[t].Kind == jsonscan.Number {
		m.ts, _ = tp.Number(t)
		m.flags |= flagNumTS
	}
	text := uint32(0) // the string content, or the first block's "text"
	switch c := mv.f[mContent]; {
	case c == 0:
	case tp.Nodes[c].Kind == jsonscan.String:
		text = c
	case tp.Nodes[c].Kind == jsonscan.Array && tp.Nodes[c].Chars > 0 && tp.Nodes[c+1].Kind == jsonscan.Object:
		text = first
	}
	if text != 0 && maybeChainText(tp, text) {
		m.flags |= flagChainFirst
	}
}

// countModelChars keeps ModelChars of the message value mv indexes,
// counted from the tape.
func (b *builder) countModelChars(m *Message, v *lineView, mv *msgView) {
	if n, ok := tapeModelChars(v.tp, mv); ok {
		m.mchars = n
		m.flags |= flagModelChars
	}
}

// maybeChainText reports whether the string node n may start with
// ChainMessagePrefix after white space (JavaScript's trimStart): its first
// characters are decoded until one is not white space, then the prefix's
// length of them compared.
func maybeChainText(tp *jsonscan.Tape, n uint32) bool {
	nd := &tp.Nodes[n]
	if nd.Kind != jsonscan.String {
		return false
	}
	raw := tp.Src[nd.Start+1 : nd.End-1]
	if len(raw) > 0 && raw[0] > ' ' && raw[0] < utf8.RuneSelf && raw[0] != '<' && raw[0] != '\\' {
		return false // the common case: printable ASCII, neither '<' nor white space
	}
	matched, spaces := 0, 0
	for len(raw) > 0 && matched < len(ChainMessagePrefix) {
		r, size := decodeJSONChar(raw)
		if size == 0 {
			return true // undecidable here: let the caller read the text
		}
		raw = raw[size:]
		if matched == 0 && isJSSpace(r) {
			if spaces++; spaces > 64 {
				return true
			}
			continue
		}
		if r != rune(ChainMessagePrefix[matched]) {
			return false
		}
		matched++
	}
	return matched == len(ChainMessagePrefix)
}

// decodeJSONChar decodes the first character of the inside of a JSON
// string (an escape or a UTF-8 sequence); size 0 when it cannot.
func decodeJSONChar(raw []byte) (rune, int) {
	c := raw[0]
	if c >= utf8.RuneSelf {
		return utf8.DecodeRune(raw)
	}
	if c != '\\' {
		return rune(c), 1
	}
	if len(raw) < 2 {
		return 0, 0
	}
	switch raw[1] {
	case 't':
		return '\t', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 'f':
		return '\f', 2
	case 'b':
		return '\b', 2
	case 'u':
		if len(raw) < 6 {
			return 0, 0
		}
		v, err := strconv.ParseUint(string(raw[2:6]), 16, 32)
		if err != nil {
			return 0, 0
		}
		return rune(v), 6
	}
	return rune(raw[1]), 2 // " \ /
}

// isJSSpace is the white space JavaScript's trim removes.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func (b *builder) fillInfo(m *Message, v *lineView, ci contentInfo) {
	role := m.Role()
	if role == RoleToolResult && ci.chars > 0 {
		b.info(m).chars = int32(min(ci.chars, 1<<31-1))
	}
	if ci.images > 0 {
		b.info(m).images = uint16(min(ci.images, 1<<16-1))
	}
	m.setFlag(flagHasNotice, ci.notice)
	if role == RoleUser && ci.hasText {
		m.setFlag(flagSynthetic, ci.synthetic)
	}
	if n := len(ci.calls); n > 0 {
		if len(b.calls)+n > cap(b.calls) {
			b.calls = make([]ToolCall, 0, max(1024, n))
			b.ctx.calls = append(b.ctx.calls, b.calls)
			b.argLocs = make([]argLoc, 0, cap(b.calls))
			b.ctx.argLocs = append(b.ctx.argLocs, b.argLocs)
		}
		start := len(b.calls)
		b.lastRefs = b.lastRefs[:0]
		for _, c := range ci.calls {
			id := b.strRef(v, c.id)
			b.lastRefs = append(b.lastRefs, id)
			tc := ToolCall{c: b.ctx, id: id, name: b.name(v, c.name), from: m.ref()}
			if c.path != 0 {
				tc.path = b.strRef(v, c.path)
				tc.name |= callHasPath
			}
			if c.alt {
				tc.name |= callAltArgs
			}
			b.calls = append(b.calls, tc)
			b.argLocs = append(b.argLocs, argLoc{})
		}
		if m.calls == 0 {
			b.ctx.callSets.add()
			b.ctx.turns.add()
			m.calls = uint32(b.ctx.callSets.len())
		} else {
			*b.ctx.turns.at(int(m.calls - 1)) = turnFacts{} // (the calls' facts are not known)
		}
		*b.ctx.callSets.at(int(m.calls - 1)) = callSet{chunk: uint32(len(b.ctx.calls) - 1), start: uint32(start), n: uint32(n)}
	}
}

func (b *builder) addEntry(rl *rawLine) {
	v := &rl.v
	e := entry{typ: b.typeIndex(rl.typ), x: -1}
	var id, par idKey
	if rl.v1 >= 0 {
		id = keyHex | idKey(rl.v1)
		if rl.v1Par >= 0 {
			par = keyHex | idKey(rl.v1Par)
		}
	} else {
		id, par = b.keyOf(v, v.f[fID]), b.keyOf(v, v.f[fParentID])
	}
	e.setKeys(id, par)
	idx := b.entries.len()
	if rl.v1 >= 0 && rl.typ == "compaction" && v.kind(fFirstKeptEntryIndex) == jsonscan.Number {
		f, _ := v.tp.Number(v.f[fFirstKeptEntryIndex])
		if f >= 0 && f < 1<<31 && f == float64(int(f)) {
			b.ext(&e).fkIndex = int(f)
		}
	}
	switch rl.typ {
	case "message":
		if v.kind(fMessage) != jsonscan.Object {
			b.warn(rl.num, "message entry without a \"message\" object")
			break
		}
		obj := v.f[fMessage]
		mv := v.message(obj)
		nd := &v.tp.Nodes[obj]
		m := b.newMessage()
		role := v.mstr(&mv, mRole)
		m.role, m.line = b.ctx.roleIndex(role), int32(rl.num)
		m.off, m.n = rl.off, lineLen(rl.line)
		m.setSource(srcEntryMessage)
		m.setEntry(id)
		m.setValueRange(int(nd.Start), int(nd.End))
		b.setStrings(m, v, &mv, role == RoleToolResult) // only results need the timestamp
		if role == RoleToolResult && m.info != 0 {
			b.resultFacts(m, v, &mv)
		}
		if role == "hookMessage" && b.er.v2 {
			m.role = b.ctx.roleIndex(RoleCustom)
			m.flags |= flagRoleFix
		}
		ci := b.fill(m, v, mv.f[mContent])
		b.fillRead(m, v, &mv, ci.firstText)
		b.countModelChars(m, v, &mv)
		if m.calls != 0 && role == RoleAssistant {
			b.turnFacts(m, v, &ci)
		}
		if c := mv.f[mContent]; c == 0 || v.tp.Nodes[c].Kind == jsonscan.Null {
			switch m.Role() {
			case RoleSystem:
				m.setContent([]byte(`""`))
			case RoleUser, RoleAssistant, RoleToolResult:
				m.setContent([]byte(`[]`))
			}
		}
		e.sysRole = m.Role() == RoleSystem
		e.loc, e.isMsg = m.ref(), true
	case "compaction":
		if v.kind(fFirstKeptEntryID) == jsonscan.String {
			s, _ := v.str(fFirstKeptEntryID)
			b.ext(&e).firstKept = b.ctx.ids.key([]byte(s), &b.ctx.arena)
		}
		b.ext(&e).hasSysMsg = v.has(fSystemMessage) && v.tp.Truthy(v.f[fSystemMessage])
	case "branch_summary":
		b.ext(&e).summaryOK = v.has(fSummary) && v.tp.Truthy(v.f[fSummary])
	case "custom", "custom_message":
		if s, ok := v.str(fCustomType); ok {
			b.ext(&e).ctype = s
		}
	case "context_edit":
		x := b.ext(&e)
		if v.kind(fTargetID) == jsonscan.String {
			s, _ := v.str(fTargetID)
			x.targetID = b.ctx.ids.key([]byte(s), &b.ctx.arena)
		}
		switch r := v.f[fReplacement]; {
		case r == 0 || v.tp.Nodes[r].Kind == jsonscan.Null:
			x.replNull = true
		case v.tp.Nodes[r].Kind == jsonscan.Object:
			if c, ok := v.tp.Get(r, "content"); ok {
				x.replRaw = bytes.Clone(v.tp.Raw(c))
				x.replStr = v.tp.Nodes[c].Kind == jsonscan.String
			}
		}
	}
	if e.loc == 0 {
		m := b.newMessage()
		m.line, m.off, m.n = int32(rl.num), rl.off, lineLen(rl.line)
		m.setSource(srcNone)
		m.setEntry(id)
		e.loc = m.ref()
	}
	if par != 0 {
		if idx > 0 && b.entries.at(idx-1).key() == par {
			e.local = true
		} else {
			b.nonLocal = append(b.nonLocal, par)
		}
	}
	b.entries.add(e)
}

// parentIndex maps the ids the walk to the root cannot resolve by position
// to the index of the last entry with that id (pi's Map: the last one
// wins): parents that are not the previous entry, and ids that repeat.
// Most entries' parent is the entry before them, so this map stays small.
func (b *builder) parentIndex() map[idKey]int32 {
	ents := &b.entries
	dups := b.repeatedIDs()
	want := make(map[idKey]int32, len(b.nonLocal)+len(dups))
	for _, k := range b.nonLocal {
		want[k] = -1
	}
	for _, k := range dups {
		want[k] = -1
	}
	b.nonLocal = nil
	for i := 0; i < ents.len(); i++ {
		if k := ents.at(i).key(); k != 0 {
			if _, ok := want[k]; ok {
				want[k] = int32(i)
			}
		}
	}
	for k, v := range want {
		if v < 0 {
			delete(want, k) // no entry has it
		}
	}
	return want
}

// repeatedIDs returns the ids more than one entry has: the entries' ids
// sorted (pi's 8-hex ids as 32-bit values), equal neighbours. One sort at
// the end instead of a lookup per entry in a table of every id read (a
// cache miss per entry on large sessions).
func (b *builder) repeatedIDs() []idKey {
	ents := &b.entries
	hex := make([]uint32, 0, ents.len())
	var other []idKey
	for i := 0; i < ents.len(); i++ {
		switch e := ents.at(i); idKey(e.idTag) << 32 {
		case keyHex:
			hex = append(hex, e.id)
		case 0:
		default:
			other = append(other, e.key())
		}
	}
	slices.Sort(hex)
	slices.Sort(other)
	var dups []idKey
	for i := 1; i < len(hex); i++ {
		if hex[i] == hex[i-1] && (i == 1 || hex[i-1] != hex[i-2]) {
			dups = append(dups, keyHex|idKey(hex[i]))
		}
	}
	for i := 1; i < len(other); i++ {
		if other[i] == other[i-1] && (i == 1 || other[i-1] != other[i-2]) {
			dups = append(dups, other[i])
		}
	}
	return dups
}

// build computes the leaf path and the context messages (pi's
// buildSessionContext → buildContextEntries → projectContextEntry).
func (b *builder) build() {
	ents := &b.entries
	if ents.len() == 0 {
		return
	}
	typ := func(e *entry) string { return b.types[e.typ] }
	// v1 compactions: firstKeptEntryIndex indexes pi's parsed-entries array,
	// where the header is index 0.
	for i := range b.extras {
		if x := &b.extras[i]; x.fkIndex >= 1 && x.fkIndex-1 < ents.len() {
			x.firstKept = ents.at(x.fkIndex - 1).key()
		}
	}
	leaf := ents.len() - 1
	b.ctx.LeafID = b.idString(ents.at(leaf).key())
	byID := b.parentIndex()
	// the path is every entry in the common case (one chain, no branches):
	// sized once, not doubled as it grows (the index is at its largest here)
	path := make([]int32, 0, ents.len())
	seen := make([]bool, ents.len())
	for cur := int32(leaf); ; {
		e := ents.at(int(cur))
		if seen[cur] {
			b.warn(int(b.loc(e).line), "parent cycle at entry %q; path cut here", b.idString(e.key()))
			break
		}
		seen[cur] = true
		path = append(path, cur)
		if e.parent() == 0 {
			break
		}
		next, ok := byID[e.parent()]
		if !ok && e.local {
			next, ok = cur-1, true
		}
		if !ok {
			b.warn(int(b.loc(e).line), "entry %q has unknown parent %q; path starts here", b.idString(e.key()), b.idString(e.parent()))
			break
		}
		cur = next
	}
	seen = nil
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}

	// buildContextEntries: the last compaction on the path.
	comp := -1
	for pi, ei := range path {
		if typ(ents.at(int(ei))) == "compaction" {
			comp = pi
		}
	}
	ctxEntries := path
	if comp >= 0 {
		c := ents.at(int(path[comp]))
		firstKept := b.extra(c).firstKept
		ctxEntries = make([]int32, 0, len(path)-comp)
		ctxEntries = append(ctxEntries, path[comp])
		found := false
		for i := 0; i < comp; i++ {
			e := ents.at(int(path[i]))
			if e.key() != 0 && e.key() == firstKept {
				found = true
			}
			if found && !e.sysRole {
				ctxEntries = append(ctxEntries, path[i])
			}
		}
		ctxEntries = append(ctxEntries, path[comp+1:]...)
	}
	edits := map[idKey]int32{}
	for _, ei := range ctxEntries {
		if e := ents.at(int(ei)); typ(e) == "context_edit" {
			edits[b.extra(e).targetID] = ei
		}
	}
	b.ctx.Messages = make([]*Message, 0, len(ctxEntries)+1)
	for k, ei := range ctxEntries {
		e := ents.at(int(ei))
		t := typ(e)
		if t == "compaction" && k > 0 {
			b.ctx.KeptCompactions++
			continue // an older compaction kept in range: no checkpoint, no summary
		}
		if e.isMsg && len(edits) == 0 {
			b.ctx.Messages = append(b.ctx.Messages, b.loc(e)) // the common case, without a slice per entry
			continue
		}
		msgs := b.project(e)
		if ed, ok := edits[e.key()]; ok && e.key() != 0 {
			msgs = b.applyEdit(msgs, b.extra(ents.at(int(ed))))
		}
		b.ctx.Messages = append(b.ctx.Messages, msgs...)
	}
	if len(b.ctx.Messages) == 0 {
		l := ents.at(leaf)
		why := ""
		if l.key() == 0 {
			why = " and no id"
		}
		b.warn(int(b.loc(l).line), "the context is empty: the leaf (the last entry, type %q%s) has no message on its path to the root", typ(l), why)
	}
	if b.opts.Branch || b.opts.AllEntries {
		b.branch(path, ctxEntries, comp >= 0)
	}
	b.entries = entryList{}
}

// branch builds Context.Branch (the entries of path) and Context.Entries,
// as the options ask: the last use of the entries, so a branch built in
// path order gives back each chunk of them once it is past it (the branch
// and the entries are the same size: a session's index is at its largest
// here). ctxEntries are the context's entries; cut reports that they are
// not the whole path (a compaction).
func (b *builder) branch(path, ctxEntries []int32, cut bool) {
	ents := &b.entries
	var in []bool
	if cut = cut || b.opts.AllEntries; cut { // Entries holds entries off the path too
		in = make([]bool, ents.len())
		for _, ei := range ctxEntries {
			in[ei] = true
		}
	}
	b.ctx.types = b.types
	ctypes := map[string]uint32{}
	be := func(ei int32) BranchEntry {
		e := ents.at(int(ei))
		id, parent := e.key(), e.parent()
		r := BranchEntry{id: uint32(id), parent: uint32(parent), line: b.loc(e).line, loc: e.loc, typ: e.typ,
			flags: uint8(id>>32)<<beIDShift | uint8(parent>>32)<<beParentShift}
		if e.isMsg {
			r.flags |= beMsg
		}
		if !cut || in[ei] {
			r.flags |= beInContext
		}
		if ct := b.extra(e).ctype; ct != "" {
			if r.ctype = ctypes[ct]; r.ctype == 0 {
				b.ctx.ctypes = append(b.ctx.ctypes, ct)
				r.ctype = uint32(len(b.ctx.ctypes))
				ctypes[ct] = r.ctype
			}
		}
		return r
	}
	inOrder := true // the path is in file order (one chain: the common case)
	for k := 1; k < len(path) && inOrder; k++ {
		inOrder = path[k] > path[k-1]
	}
	// the path is every entry: the branch is Entries (the same records, not
	// a second copy)
	same := b.opts.AllEntries && b.opts.Branch && inOrder && len(path) == ents.len()
	// drop gives back the chunk of the entries before entry ei once a
	// list built in file order is past it, when it is their last reader
	drop := func(ei int32) {
		if c := int(ei) / entryChunk; c > 0 && ents.chunks[c-1] != nil {
			ents.chunks[c-1] = nil
		}
	}
	if b.opts.AllEntries {
		last := same || !b.opts.Branch
		b.ctx.Entries = make([]BranchEntry, 0, ents.len())
		for ei := 0; ei < ents.len(); ei++ {
			if last {
				drop(int32(ei))
			}
			b.ctx.Entries = append(b.ctx.Entries, be(int32(ei)))
		}
	}
	switch {
	case !b.opts.Branch:
	case same:
		b.ctx.Branch = b.ctx.Entries[:len(path):len(path)]
	default:
		b.ctx.Branch = make([]BranchEntry, 0, len(path))
		for _, ei := range path {
			if inOrder && !b.opts.AllEntries {
				drop(ei)
			}
			b.ctx.Branch = append(b.ctx.Branch, be(ei))
		}
	}
}

// project is pi's sessionEntryToContextMessages for one entry.
func (b *builder) project(e *entry) []*Message {
	synth := func(role string, src source) *Message {
		m := b.newMessage()
		loc := b.loc(e)
		m.role, m.line, m.off, m.n = b.ctx.roleIndex(role), loc.line, loc.off, loc.n
		m.setSource(src)
		m.setEntry(e.key())
		return m
	}
	switch b.types[e.typ] {
	case "message":
		if !e.isMsg {
			return nil
		}
		return []*Message{b.loc(e)}
	case "custom_message":
		return []*Message{synth(RoleCustom, srcSynth)}
	case "branch_summary":
		if !b.extra(e).summaryOK {
			return nil
		}
		return []*Message{synth(RoleBranchSummary, srcSynth)}
	case "compaction":
		sum := synth(RoleCompactionSummary, srcSynth)
		if b.extra(e).hasSysMsg {
			return []*Message{synth(RoleSystem, srcSystemMessage), sum}
		}
		return []*Message{sum}
	}
	return nil
}

// applyEdit is pi 1.6's projectContextEntry with a context_edit.
func (b *builder) applyEdit(msgs []*Message, edx entryExtra) []*Message {
	if edx.replNull {
		return nil
	}
	out := make([]*Message, 0, len(msgs))
	for _, m := range msgs {
		switch role := m.Role(); role {
		case RoleUser, RoleAssistant, RoleToolResult, RoleCustom:
			c := b.newMessage()
			bi := c.bi
			*c = *m
			c.bi = bi
			content := edx.replRaw // nil: replacement.content undefined, key dropped
			if (role == RoleAssistant || role == RoleToolResult) && edx.replStr {
				buf := []byte(`[{"type":"text","text":`)
				buf = AppendJSString(buf, string(jsonscan.AppendUnquote(nil, edx.replRaw)))
				content = append(buf, "}]"...)
			}
			if content == nil {
				content = []byte{}
			}
			c.setContent(content)
			c.calls = 0      // the calls go with the old content
			if c.info != 0 { // its own fields, without the old content's sizes
				in := *b.ctx.infos.at(int(c.info - 1))
				in.chars, in.images = 0, 0
				c.info = 0
				*b.info(c) = in
			}
			c.flags &^= flagSynthetic | flagHasNotice
			b.fillRaw(c, content)
			out = append(out, c)
		default:
			out = append(out, m)
		}
	}
	return out
}

// fillRaw sets the size and tool-call fields of m from a raw content value
// (valid JSON, or empty).
func (b *builder) fillRaw(m *Message, content []byte) {
	if len(content) == 0 {
		return
	}
	var d lineDecoder
	if d.tp.Parse(content) != nil {
		return
	}
	b.fillInfo(m, &lineView{tp: &d.tp}, d.analyzeNode(0))
}

// v1ID is the deterministic id given to the entry at index i of pi's parsed
// entries array (header = 0) of a v1 file; pi itself uses random ids.
func v1ID(i int) string { return fmt.Sprintf("%08x", i) }

// Source returns the random-access input the context was read from.
func (c *Context) Source() io.ReaderAt { return c.src }
