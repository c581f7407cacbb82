package session

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
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

// knownRoles are the roles with a fixed index in Context.roles.
var knownRoles = [...]string{"", RoleUser, RoleAssistant, RoleToolResult, RoleBashExecution, RoleCustom, RoleSystem,
	RoleBranchSummary, RoleCompactionSummary}

// ToolCall is the routing view of an assistant `toolCall` content block.
// It is 32 bytes with one pointer, its context, whose arena holds its
// strings: read them through the methods (a context holds one ToolCall per
// call of its messages; three strings made it 56 bytes the collector
// scanned).
type ToolCall struct {
	c        *Context
	id, path aref
	// from is the assistant message holding the call (for CallHint).
	from msgRef
	// name is the index+1 of the tool name in c.names (0: ""; below 2^30:
	// at most one name a call or result, each tens of bytes of a line),
	// with callHasPath and callAltArgs.
	name uint32
}

// callHasPath is the ToolCall.name bit of a call whose arguments.path is
// a JSON string.
const callHasPath = 1 << 31

// callAltArgs is the ToolCall.name bit of a call whose block has an
// "input" or "args" key (ArgumentsOnly).
const callAltArgs = 1 << 30

// ID is the call's "id".
func (tc ToolCall) ID() string {
	if tc.c == nil {
		return ""
	}
	return tc.c.arena.get(tc.id)
}

// Name is the call's "name" (the tool).
func (tc ToolCall) Name() string {
	if tc.c == nil {
		return ""
	}
	return tc.c.name(tc.name &^ (callHasPath | callAltArgs))
}

// Path is arguments.path when it is a JSON string (HasPath).
func (tc ToolCall) Path() string {
	if tc.c == nil {
		return ""
	}
	return tc.c.arena.get(tc.path)
}

// HasPath reports whether arguments.path is a JSON string.
func (tc ToolCall) HasPath() bool { return tc.name&callHasPath != 0 }

// ArgumentsOnly reports whether the call's block has no "input" and no
// "args" key: `input ?? args ?? arguments` (pi-condense's reading of a
// call's arguments) is then its "arguments", the value Path reads.
func (tc ToolCall) ArgumentsOnly() bool { return tc.name&callAltArgs == 0 }

// NewToolCall returns a call with these fields that no message of a
// context holds (CallHint gives it no hint): for tests, and for callers
// that stand a call in for one they cannot find. Each holds a context of
// its own: the calls of a read context are not made this way.
func NewToolCall(id, name, path string, hasPath bool) ToolCall {
	c := &Context{}
	tc := ToolCall{c: c, id: c.arena.addWhole([]byte(id)), path: c.arena.addWhole([]byte(path))}
	if name != "" {
		tc.name = c.addName(c.arena.addWhole([]byte(name)))
	}
	if hasPath {
		tc.name |= callHasPath
	}
	return tc
}

// name returns the tool name at index+1 i of c.names ("" for 0).
func (c *Context) name(i uint32) string {
	if i == 0 || int(i) > len(c.names) {
		return ""
	}
	return c.arena.get(c.names[i-1])
}

// addName adds the tool name at r to c.names and returns its index+1.
func (c *Context) addName(r aref) uint32 {
	c.names = append(c.names, r)
	return uint32(len(c.names))
}

// callSet is where a message's tool calls are: n calls from start in
// chunk chunk of Context.calls (no pointer).
type callSet struct{ chunk, start, n uint32 }

// source says where a context message's bytes come from.
type source uint8

const (
	srcEntryMessage  source = iota // value of the entry's "message" key
	srcWholeLine                   // the line itself (context input)
	srcSystemMessage               // value of a compaction's "systemMessage" key
	srcSynth                       // built by pruner (summaries, custom_message)
	srcNone                        // not a message: the location of an entry's line
)

// Message flags.
const (
	flagIsError uint8 = 1 << iota
	flagSynthetic
	flagHasNotice
	flagRoleFix // v2 hookMessage: write role "custom"
	flagPatched // the content is replaced (Context.patches)
	flagNumTS   // ts holds the message's own "timestamp", a JSON number
	flagChainFirst
	flagModelChars // mchars holds ModelChars of the message's bytes as read
)

// Message is one message of a built context: routing fields decoded from the
// input plus the location of its original bytes. Untouched messages are
// rendered by copying those bytes (byte-identical to the input).
//
// A Message is 48 bytes and holds no pointer: its strings (tool call id,
// tool name, timestamp), sizes and tool calls are kept by its Context, only
// for the messages that have them, and it finds its Context through the
// block it is allocated in (msgBlock), so memory stays small on sessions of
// a million lines and the collector has one pointer per block to scan.
// Read the fields through the methods. A Message is never copied: a copy
// outside its block has no Context.
type Message struct {
	off    int64
	ts     float64 // the "timestamp" member when it is a number (flagNumTS)
	entry  uint32  // id of the session entry: the low bits of its idKey (the tag is in sk; 0: none)
	line   int32   // 1-based input line
	mchars int32   // ModelChars of the bytes as read (flagModelChars)
	n      int32   // line length
	info   uint32  // index+1 of the message's tool result fields in c.infos (0: none)
	calls  uint32  // index+1 of the message's tool calls in c.callSets (0: none)
	// srcEntryMessage: the message value is line[vs:n-vt] (vs 0: unknown,
	// found again in the line)
	vs, vt uint16
	role   uint8 // index into c.roles
	flags  uint8
	sk     uint8 // the source (low 4 bits) and the entry id's idKey tag (high 4 bits)
	bi     uint8 // index in its msgBlock
}

// msgBlock is a block of messages and the context they belong to.
type msgBlock struct {
	c    *Context
	idx  uint32 // index in c.blocks
	msgs [msgBlockLen]Message
}

const msgBlockLen = 256

// newMessage returns a zero Message of c, from its last block.
func (c *Context) newMessage() *Message {
	if c.nblk == msgBlockLen || len(c.blocks) == 0 {
		blk := &msgBlock{c: c, idx: uint32(len(c.blocks))}
		for i := range blk.msgs {
			blk.msgs[i].bi = uint8(i)
		}
		c.blocks, c.nblk = append(c.blocks, blk), 0
	}
	c.nblk++
	return &c.blocks[len(c.blocks)-1].msgs[c.nblk-1]
}

// block returns the block m is in (m points into a msgBlock's msgs: the
// address of the block is m's minus its offset in the block).
func (m *Message) block() *msgBlock {
	off := uintptr(m.bi)*unsafe.Sizeof(Message{}) + unsafe.Offsetof(msgBlock{}.msgs)
	return (*msgBlock)(unsafe.Add(unsafe.Pointer(m), -int(off)))
}

// ctx returns the context of m.
func (m *Message) ctx() *Context { return m.block().c }

// msgRef is a message of a context by its index+1 in the context's blocks
// (0: none).
type msgRef uint32

// ref returns m's msgRef.
func (m *Message) ref() msgRef { return msgRef(m.block().idx*msgBlockLen + uint32(m.bi) + 1) }

// msg returns the message r refers to (nil for 0, or a ref c has no
// message for).
func (c *Context) msg(r msgRef) *Message {
	i := uint32(r - 1)
	if r == 0 || int(i/msgBlockLen) >= len(c.blocks) {
		return nil
	}
	return &c.blocks[i/msgBlockLen].msgs[i%msgBlockLen]
}

// source is where the message's bytes come from.
func (m *Message) source() source { return source(m.sk & 15) }

// setSource sets the message's source.
func (m *Message) setSource(s source) { m.sk = m.sk&^15 | uint8(s) }

// entryKey is the idKey of the message's entry.
func (m *Message) entryKey() idKey { return idKey(m.sk>>4)<<32 | idKey(m.entry) }

// setEntry sets the message's entry id.
func (m *Message) setEntry(k idKey) { m.entry, m.sk = uint32(k), m.sk&15|uint8(k>>32)<<4 }

// setValueRange records that the message value is line[s:e] (a line of
// m.n bytes); a range the record cannot hold is left unknown.
func (m *Message) setValueRange(s, e int) {
	m.vs, m.vt = 0, 0
	if t := int(m.n) - e; s > 0 && s <= 0xffff && t >= 0 && t <= 0xffff && s <= e {
		m.vs, m.vt = uint16(s), uint16(t)
	}
}

// valueRange returns the range setValueRange recorded (ok false: unknown).
func (m *Message) valueRange() (s, e int, ok bool) {
	if m.vs == 0 {
		return 0, 0, false
	}
	return int(m.vs), int(m.n) - int(m.vt), true
}

// msgInfo holds the fields only tool results (mostly) have: no pointer
// (strings are arefs into the context's arena).
type msgInfo struct {
	toolCallID, timestamp aref
	toolName              uint32 // index+1 in c.names (0: none)
	// cs, ce are the range of the "content" value in the message's bytes
	// as read (ce 0: not recorded); cchars is its ContentChars.
	cs, ce, cchars int32
	chars          int32 // TextChars
	images         uint16
	// rf are a tool result's facts as its line was read (ResultFacts), and
	// tflags the jsonscan flags of its text (rfText): in the padding
	rf, tflags uint8
}

// msgInfo.rf bits.
const (
	rfKnown       uint8 = 1 << iota
	rfErrorTruthy       // "isError" is truthy (JavaScript)
	rfErrorTrue         // "isError" is the literal true
	rfArray             // the content is an array
	// rfText: the content is `[{"type":"text","text":` STRING `}]` as
	// JSON.stringify writes it (pi writes every result so), at cs..ce
	rfText
	// rfLen16: every text block's "text" is a string of valid UTF-8, with
	// no code point of two UTF-16 units: the joined text's JavaScript
	// length is chars (a single text's, or none)
	rfLen16
)

// textPrefix is what a content of rfText holds before its string.
const textPrefix = `[{"type":"text","text":`

// ResultFacts are what the read saw of a tool result entry's line, so a
// flush need not parse it again: each field is what a parse of the line
// (its last "message" object) finds. Known is false when the read did not
// record them (not a tool result entry of a session file, or one with no
// toolCallId, toolName nor timestamp): parse the line.
type ResultFacts struct {
	Known bool
	// ErrorTruthy: "isError" is truthy (JavaScript); ErrorTrue: it is the
	// literal true.
	ErrorTruthy, ErrorTrue bool
	// NumTS: the message's "timestamp" is a JSON number, TS its value.
	NumTS bool
	TS    float64
	// Array: the "content" is an array. Single: it is one text block,
	// whose "text" is a string: its raw JSON (quotes included) is TextN
	// bytes at TextOff in the line, with jsonscan flags TextFlags.
	Array, Single  bool
	TextOff, TextN int
	TextFlags      uint8
	// Plain: every text block's "text" is a string of valid UTF-8 and
	// Chars is the JavaScript length of the texts joined with "\n" (false:
	// not known).
	Plain bool
	Chars int
}

// ResultFacts returns the facts the read recorded of a tool result
// entry's line (Known false: none recorded).
func (m *Message) ResultFacts() ResultFacts {
	if m.info == 0 {
		return ResultFacts{}
	}
	in := m.ctx().infos.at(int(m.info - 1))
	if in.rf&rfKnown == 0 {
		return ResultFacts{}
	}
	rf := ResultFacts{Known: true, ErrorTruthy: in.rf&rfErrorTruthy != 0, ErrorTrue: in.rf&rfErrorTrue != 0,
		NumTS: m.flags&flagNumTS != 0, TS: m.ts, Array: in.rf&rfArray != 0,
		Plain: in.rf&rfLen16 != 0, Chars: int(in.chars)}
	if vs, _, ok := m.valueRange(); ok && in.rf&rfText != 0 {
		rf.Single, rf.TextFlags = true, in.tflags
		rf.TextOff = vs + int(in.cs) + len(textPrefix)
		rf.TextN = int(in.ce-in.cs) - len(textPrefix) - 2
	}
	return rf
}

func (m *Message) inf() msgInfo {
	if m.info == 0 {
		return msgInfo{}
	}
	return *m.ctx().infos.at(int(m.info - 1))
}

// Role is the message's role (user, assistant, toolResult, …).
func (m *Message) Role() string { return m.ctx().roles[m.role] }

// EntryID is the id of the session entry the message comes from ("" for
// context input or an entry without id).
func (m *Message) EntryID() string { return m.ctx().ids.string(m.entryKey()) }

// EntryKey is the message's entry id as an integer: within one Context,
// equal keys are equal ids (0: no id), as Context.EntryKey gives them for
// branch entries.
// It is what a table of entries can be keyed by without a string per id.
func (m *Message) EntryKey() uint64 { return uint64(m.entryKey()) }

// Line is the 1-based input line number.
func (m *Message) Line() int { return int(m.line) }

// ToolCallID is a tool result's "toolCallId" ("" when absent or not a string).
func (m *Message) ToolCallID() string { return m.str(m.inf().toolCallID) }

// ToolName is a tool result's "toolName".
func (m *Message) ToolName() string { return m.ctx().name(m.inf().toolName) }

// ResultCall is the stand-in call of a tool result whose call is not
// found: its toolCallId and toolName, no path, in no message (CallHint
// gives it no hint). Its strings are the result's: nothing is copied.
func (m *Message) ResultCall() ToolCall {
	in := m.inf()
	return ToolCall{c: m.ctx(), id: in.toolCallID, name: in.toolName}
}

// Timestamp is a tool result's "timestamp" value as written (raw JSON), used
// to tell apart occurrences of a reused tool call id ("" for other roles of
// session messages).
func (m *Message) Timestamp() string { return m.str(m.inf().timestamp) }

// str returns the string at r in m's context.
func (m *Message) str(r aref) string {
	if r == 0 {
		return ""
	}
	return m.ctx().arena.get(r)
}

// TextChars is the size of a tool result's text blocks (or string content)
// in Unicode code points — not bytes, not UTF-16 units. It is counted for
// toolResult messages only (0 for other roles).
func (m *Message) TextChars() int { return int(m.inf().chars) }

// ContentRange returns the byte range of the message's "content" value
// (the last "content" member, as JSON.parse keeps it) in the message's
// bytes as AppendMessage writes them, when the decoder recorded it (ok): a
// tool result rendered as the input's bytes. ok is false for any other
// message: find the value in its bytes.
func (m *Message) ContentRange() (start, end int, ok bool) {
	if m.info == 0 || !m.bytesAsRead() {
		return 0, 0, false
	}
	in := m.ctx().infos.at(int(m.info - 1))
	return int(in.cs), int(in.ce), in.ce > 0
}

// ContentChars returns ContentChars of the message's "content" value (the
// one ContentRange locates) as the decoder counted it, when it recorded
// the range (ok): ModelChars of the message with its content replaced by c
// is ModelChars − this + ContentChars(c).
func (m *Message) ContentChars() (n int, ok bool) {
	if _, _, ok := m.ContentRange(); !ok {
		return 0, false
	}
	return int(m.ctx().infos.at(int(m.info - 1)).cchars), true
}

// Images is the number of image blocks in the content.
func (m *Message) Images() int { return int(m.inf().images) }

// ToolCalls are the assistant's toolCall blocks, in order.
func (m *Message) ToolCalls() []ToolCall {
	if m.calls == 0 {
		return nil
	}
	c := m.ctx()
	cs := c.callSets.at(int(m.calls - 1))
	return c.calls[cs.chunk][cs.start : cs.start+cs.n : cs.start+cs.n]
}

// NumTimestamp returns the message's own top-level "timestamp" when it is a
// JSON number (ok), as the message's bytes hold it. known is false when
// the bytes are not the input's (a message pruner builds: a summary, a
// checkpoint; a context edit's copy): read them (Context.AppendMessage).
func (m *Message) NumTimestamp() (ts float64, ok, known bool) {
	if !m.bytesAsRead() {
		return 0, false, false
	}
	return m.ts, m.flags&flagNumTS != 0, true
}

// ChainCandidate reports whether the message may be pi-condense's
// compressed-chain message: its text (a string content, or its first
// content block's "text") starts with ChainMessagePrefix, perhaps after
// white space. It is true for every message whose bytes are not the
// input's (see NumTimestamp): only a false answer is certain.
func (m *Message) ChainCandidate() bool {
	return !m.bytesAsRead() || m.flags&flagChainFirst != 0
}

// bytesAsRead reports whether the message renders as the input's bytes.
func (m *Message) bytesAsRead() bool {
	return (m.source() == srcEntryMessage || m.source() == srcWholeLine) && m.flags&(flagRoleFix|flagPatched) == 0
}

// ChainMessagePrefix starts the text of pi-condense's compressed-chain
// message (ChainCandidate).
const ChainMessagePrefix = "<compressed-chain"

// IsError is a tool result's "isError" (true only when it is JSON true).
func (m *Message) IsError() bool { return m.flags&flagIsError != 0 }

// Synthetic marks a user message that is a machine notice, not a person
// typing: `Subagent <agent> (task <id>, …) finished.`.
func (m *Message) Synthetic() bool { return m.flags&flagSynthetic != 0 }

// HasNotice reports that a text block already holds a pruner notice or a
// pi-condense stub (IsNotice): the message was pruned before.
func (m *Message) HasNotice() bool { return m.flags&flagHasNotice != 0 }

func (m *Message) setFlag(f uint8, on bool) {
	if on {
		m.flags |= f
	} else {
		m.flags &^= f
	}
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

// isNoticeNode is IsNotice on the string node n of a tape.
func isNoticeNode(tp *jsonscan.Tape, n uint32) bool {
	return tp.HasPrefix(n, NoticePrefix) || tp.HasPrefix(n, condenseStubPrefix) || tp.HasPrefix(n, condenseSpillPrefix)
}

// subagentNotice is compiled on first use, not at every pruner start-up.
var subagentNotice = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Subagent \S+ \(task [^,)]+,[^)]*\) finished\.`)
})

// IsSubagentNotice reports whether text is a synthetic subagent completion
// notice (`Subagent <agent> (task <id>, …) finished.`), which does not start
// a user turn.
func IsSubagentNotice(text string) bool {
	return len(text) > 9 && text[:9] == "Subagent " && subagentNotice().MatchString(text)
}

// InEntry reports whether the message is the "message" value of a session
// entry (so a session rewrite can splice it), with the line's byte offset.
// Messages pruner synthesises, checkpoints and context-edited messages are
// not.
func (m *Message) InEntry() (off int64, ok bool) {
	return m.off, m.source() == srcEntryMessage && m.flags&(flagRoleFix|flagPatched) == 0
}

// setContent makes the message render with content c (raw JSON; empty drops
// the key, as JSON.stringify drops undefined).
func (m *Message) setContent(c []byte) {
	if c == nil {
		c = []byte{}
	}
	if m.ctx().patches == nil {
		m.ctx().patches = map[*Message][]byte{}
	}
	m.ctx().patches[m] = c
	m.flags |= flagPatched
}

// contentPatch returns the replacement content, or nil.
func (m *Message) contentPatch() []byte {
	if m.flags&flagPatched == 0 {
		return nil
	}
	return m.ctx().patches[m]
}

// chunked is a list stored in fixed-size chunks: appending never moves what
// is stored (pointers into it stay valid; no doubling peaks).
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkSize = 4096

func (l *chunked[T]) len() int { return l.n }

func (l *chunked[T]) at(i int) *T { return &l.chunks[i/chunkSize][i%chunkSize] }

// add appends a zero T and returns it.
func (l *chunked[T]) add() *T {
	if l.n%chunkSize == 0 {
		l.chunks = append(l.chunks, make([]T, chunkSize))
	}
	l.n++
	return l.at(l.n - 1)
}

// turnFacts are the TurnFacts of an assistant message with tool calls
// (zero: not known), in Context.turns.
type turnFacts struct {
	tsOff, proseOff, proseN uint32
	tsLen, proseFlags       uint8
	flags                   uint8 // tf bits
}

// turnFacts.flags bits.
const (
	tfKnown uint8 = 1 << iota
	tfTS          // the entry's "timestamp" is a string (tsOff, tsLen)
	tfProse       // one text block's "text" is a string (proseOff, proseN, proseFlags)
)

// argLoc is where a call's arguments are in its line (n 0: none).
type argLoc struct{ off, n uint32 }

// TurnFacts are what the read saw of an assistant entry's line, so that a
// flush need not parse it again: each field is what a parse of the line
// finds. Known is false when the read did not record them (not an entry's
// line as read, a call whose arguments are not `arguments` as
// JSON.stringify writes them, an id of invalid UTF-8, more than one text
// block, a timestamp with escapes): parse the line.
type TurnFacts struct {
	Known bool
	// TS: the entry's "timestamp" is a JSON string without escapes or
	// invalid UTF-8, its text the TSLen bytes at TSOff in the line.
	TS           bool
	TSOff, TSLen int
	// Prose: the content has one text block whose "text" is a string (no
	// other text block has one); its raw JSON (quotes included) is ProseN
	// bytes at ProseOff in the line, with jsonscan flags ProseFlags. False:
	// none.
	Prose            bool
	ProseOff, ProseN int
	ProseFlags       uint8
}

// TurnFacts returns the facts the read recorded of an assistant entry's
// line (Known false: none recorded). CallArgsAt has its calls'.
func (m *Message) TurnFacts() TurnFacts {
	if m.calls == 0 {
		return TurnFacts{}
	}
	tf := m.ctx().turns.at(int(m.calls - 1))
	if tf.flags&tfKnown == 0 {
		return TurnFacts{}
	}
	return TurnFacts{Known: true, TS: tf.flags&tfTS != 0, TSOff: int(tf.tsOff), TSLen: int(tf.tsLen),
		Prose: tf.flags&tfProse != 0, ProseOff: int(tf.proseOff), ProseN: int(tf.proseN), ProseFlags: tf.proseFlags}
}

// CallArgsAt is where the arguments of call k (in ToolCalls) are in the
// message's line when its TurnFacts are Known: `input ?? args ??
// arguments`, written as JSON.stringify writes them, n bytes at off (n 0:
// none or null, which pi-condense reads as {}).
func (m *Message) CallArgsAt(k int) (off, n int) {
	if m.calls == 0 {
		return 0, 0
	}
	c := m.ctx()
	cs := c.callSets.at(int(m.calls - 1))
	if k < 0 || uint32(k) >= cs.n {
		return 0, 0
	}
	a := c.argLocs[cs.chunk][cs.start+uint32(k) : cs.start+uint32(k)+1][0]
	return int(a.off), int(a.n)
}

// turnFacts records the TurnFacts of assistant message m (its calls
// filled from ci) of line v, when every one of them can be.
func (b *builder) turnFacts(m *Message, v *lineView, ci *contentInfo) {
	tp := v.tp
	var tf turnFacts
	if t := v.f[fTimestamp]; t != 0 && tp.Nodes[t].Kind == jsonscan.String {
		nd := &tp.Nodes[t]
		if nd.Flags&(jsonscan.Escaped|jsonscan.BadUTF8) != 0 || nd.End-nd.Start-2 > 255 {
			return
		}
		tf.tsOff, tf.tsLen, tf.flags = nd.Start+1, uint8(nd.End-nd.Start-2), tf.flags|tfTS
	}
	switch {
	case ci.texts == 1:
		nd := &tp.Nodes[ci.prose]
		if nd.End > math.MaxInt32 {
			return
		}
		tf.proseOff, tf.proseN, tf.proseFlags, tf.flags = nd.Start, nd.End-nd.Start, nd.Flags, tf.flags|tfProse
	case ci.texts > 1:
		return
	}
	c := b.ctx
	cs := c.callSets.at(int(m.calls - 1))
	if int(cs.n) != len(ci.calls) {
		return
	}
	locs := c.argLocs[cs.chunk][cs.start : cs.start+cs.n]
	for i, cn := range ci.calls {
		if cn.alt || cn.id != 0 && tp.Nodes[cn.id].Flags&jsonscan.BadUTF8 != 0 {
			return
		}
		a := cn.args
		if a == 0 || tp.Nodes[a].Kind == jsonscan.Null {
			locs[i] = argLoc{}
			continue
		}
		nd := &tp.Nodes[a]
		if nd.End > math.MaxInt32 || !jsval.TapeCanonical(tp, a) {
			return
		}
		locs[i] = argLoc{off: nd.Start, n: nd.End - nd.Start}
	}
	tf.flags |= tfKnown
	*c.turns.at(int(m.calls - 1)) = tf
}
