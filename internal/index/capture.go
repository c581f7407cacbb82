package index

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pruner-dev/pruner/internal/jsonscan"
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
	// (`input ?? args ?? arguments ?? {}`), nil when argsAt locates them in
	// the input (AppendArgs reads them).
	Args   []byte
	argsAt textRef
	// ResultTimestamp is the toolResult's timestamp when it is a number.
	ResultTimestamp *int64
	IsError         bool
	// errorTrue: the result's isError is the literal true (what a chain's
	// backfill reads, where IsError is JavaScript's truthiness)
	errorTrue bool
	// turn is the assistant entry's index in the context's Branch (-1: no
	// toolCall block with the id on its line), call the call's index in
	// its ToolCalls, res the result entry's index in the Branch (a chain's
	// backfill finds a trivial batch's calls by them)
	turn, call, res int32
	// Key is the occurrence key (toolCallId@resultTimestamp, or the bare id).
	Key string
	// Result is the toolResult message (ReadText reads its resultText).
	Result *session.Message
	// Chars is resultText's JavaScript length (Capture counts it without
	// decoding the text); Hash its content hash (dedup), set by the flush
	// when it reads the text.
	Chars int
	Hash  string
	// text locates resultText in the input when the result has one text
	// block (read again without parsing the line).
	text textLoc
	// span is where the flush decoded resultText in its chunk's buffer
	// (hashText), with the text flags the decoding saw (flagsKnown: it
	// saw them), for its hash (hashCall)
	span       [2]int
	textFlags  uint8
	flagsKnown bool
}

// AppendArgs appends the call's arguments (Args, or read from the input)
// to dst.
func (c *Call) AppendArgs(dst []byte, ctx *session.Context) ([]byte, error) {
	return appendArgs(dst, ctx, c.Args, c.argsAt)
}

// ReadText reads the call's resultText (the result's text blocks joined
// with "\n") from the input.
func (c *Call) ReadText(ctx *session.Context) (string, error) {
	var lt lineTape
	return c.readText(ctx, &lt)
}

func (c *Call) readText(ctx *session.Context, lt *lineTape) (string, error) {
	content, ok, err := c.content(ctx, lt)
	if err != nil {
		return "", err
	}
	return lt.resultString(content, ok), nil
}

// appendText appends the call's resultText to dst: decoded from where text
// locates it, or from its result's line parsed onto lt.
func (c *Call) appendText(dst []byte, ctx *session.Context, lt *lineTape) ([]byte, error) {
	if c.text.at.entry != 0 {
		return lt.appendTextAt(dst, ctx, c.text)
	}
	content, ok, err := c.content(ctx, lt)
	if err != nil {
		return dst, err
	}
	return lt.appendResultText(dst, content, ok), nil
}

// ReadTextJSON reads the call's resultText as JSON.stringify writes it (lone
// surrogate escapes kept), for its record.
func (c *Call) ReadTextJSON(ctx *session.Context) ([]byte, error) {
	var lt lineTape
	return c.appendTextJSON(nil, ctx, &lt)
}

// appendTextJSON is ReadTextJSON appended to dst, the line read onto lt.
func (c *Call) appendTextJSON(dst []byte, ctx *session.Context, lt *lineTape) ([]byte, error) {
	return appendResultJSON(dst, ctx, c.text, func(lt *lineTape) (uint32, bool, error) { return c.content(ctx, lt) })
}

// appendResultJSON appends the JSON form of a result's text to dst: the
// canonical form of its one text block's string when x locates it (what
// appendTextJSON makes of one block), else appendTextJSON of the content
// content finds, parsed onto a tape of its own.
func appendResultJSON(dst []byte, ctx *session.Context, x textLoc, content func(lt *lineTape) (uint32, bool, error)) ([]byte, error) {
	var lt lineTape
	if x.at.entry != 0 {
		raw, err := appendArgs(nil, ctx, nil, x.at)
		if err != nil {
			return dst, err
		}
		return jsval.AppendCanonical(dst, raw), nil
	}
	n, ok, err := content(&lt)
	if err != nil {
		return dst, err
	}
	return appendTextJSON(dst, lt.raw(n, ok)), nil
}

// content finds the content of the call's result, read from the input onto
// lt (valid until the next read).
func (c *Call) content(ctx *session.Context, lt *lineTape) (uint32, bool, error) {
	msg, ok, err := lt.message(ctx, c.Result)
	if err != nil {
		return 0, false, err
	}
	content, ok := lt.get(msg, ok, "content")
	return content, ok, nil
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
	// noProse leaves Batch.AssistantText empty: only the summariser's
	// request reads it, and a flush whose summaries are all
	// deterministic makes none (1 GB: ~15 MB held by the captured
	// batches).
	noProse bool
}

// Capture returns the batches a flush takes from ctx's branch: every
// completed call (its result on the branch, before the next assistant
// message) that is not indexed or aliased in st, not protected, in the
// context (not cut by a compaction), not in the raw window, and past st's
// frontier — one batch per assistant turn (Group merges them for
// batchingMode agent-message). Result texts are measured on their raw
// strings, not decoded (Call.ReadText reads them; the flush hashes them as
// it reads them for the summariser). Errors are I/O errors re-reading the
// input.
func Capture(ctx *session.Context, st *State, opts CaptureOptions) ([]*Batch, error) {
	// by entry id: a context_edit'ed message is a copy of the branch's (by
	// entry key: no id strings made; in a table of message indexes, not a
	// map: 1 GB, ~17 MB less allocated)
	inCtx := newMessageIndex(ctx)
	// the message entries, by their indexes in ctx.Branch (msg(i) is the
	// i-th)
	at := make([]int32, 0, len(ctx.Branch))
	msg := func(i int) *session.BranchEntry { return &ctx.Branch[at[i]] }
	results := map[string]int{} // an assistant message's results (reused)
	var key []byte              // an occurrence key (reused)
	prot := protect.NewMemo(opts.Protect)
	for i := range ctx.Branch {
		if be := &ctx.Branch[i]; ctx.EntryType(be) == "message" && ctx.EntryMessage(be) != nil {
			at = append(at, int32(i))
		}
	}
	var batches []*Batch
	lt := lineTape{copyArgs: !argsInContext(st, ctx)}
	// an assistant message's ready calls (reused: captureBatch keeps none
	// of these slices)
	var ready []*session.ToolCall
	var readyAt []int // ready's indexes in m.ToolCalls()
	var resEntries []*session.BranchEntry
	var resAt []int   // resEntries' indexes in ctx.Branch
	var keys []string // the ready calls' occurrence keys
	turn, group := 0, 0
	for i := range at {
		be := msg(i)
		m := ctx.EntryMessage(be)
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
		clear(results) // index in at
		for j := i + 1; j < len(at); j++ {
			r := ctx.EntryMessage(msg(j))
			if r.Role() == session.RoleAssistant {
				break
			}
			if r.Role() == session.RoleToolResult && r.ToolCallID() != "" {
				if _, seen := results[r.ToolCallID()]; !seen {
					results[r.ToolCallID()] = j
				}
			}
		}
		ready, readyAt, resEntries, resAt, keys = ready[:0], readyAt[:0], resEntries[:0], resAt[:0], keys[:0]
		for k := range m.ToolCalls() {
			tc := &m.ToolCalls()[k]
			j, found := results[tc.ID()]
			if tc.ID() == "" || !found {
				continue
			}
			re := msg(j)
			r := ctx.EntryMessage(re)
			if key = appendMessageKey(key[:0], tc.ID(), r.Timestamp()); st.isSummarizedBytes(key) {
				continue
			}
			if prot.Protected(tc.Name(), tc.Path(), tc.HasPath()) || (r.ToolName() != tc.Name() && prot.ToolProtected(r.ToolName())) {
				continue
			}
			v := inCtx.get(ctx.EntryKey(re))
			ri, in := int(v-1), v != 0
			if !in || !be.InContext() || !re.InContext() || (opts.RawFrom >= 0 && ri >= opts.RawFrom) {
				continue
			}
			if opts.Pairing.Involves(ri) {
				continue // a result pi-ai would not pair with this call
			}
			ready = append(ready, tc)
			readyAt = append(readyAt, k)
			resEntries = append(resEntries, re)
			resAt = append(resAt, int(at[j]))
			keys = append(keys, string(key))
		}
		if len(ready) == 0 {
			continue
		}
		b, err := captureBatch(ctx, &lt, be, int(at[i]), ready, readyAt, resEntries, resAt, keys, !opts.noProse)
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

// argsInContext reports whether the records the flush adds to st can leave
// their arguments in ctx's lines: st reads its records' texts from ctx (or
// from no session).
func argsInContext(st *State, ctx *session.Context) bool { return st.src == nil || st.src == ctx }

// captureBatch reads the assistant entry (ctx.Branch[entry]) and the
// results of the ready calls (m.ToolCalls()[readyAt[k]]; res,
// ctx.Branch[resAt[k]]; keys[k], their occurrence keys as Capture made
// them of the results' raw timestamps).
func captureBatch(ctx *session.Context, lt *lineTape, be *session.BranchEntry, entry int, ready []*session.ToolCall, readyAt []int, res []*session.BranchEntry, resAt []int, keys []string, withProse bool) (*Batch, error) {
	// the ready calls' arguments: each from the first toolCall block with
	// its id (the one calls pair with); the prose, text blocks joined with
	// "\n", in the tape's reused buffer
	args := make([]callArgs, len(ready))
	// the batch's calls and their timestamps, allocated together
	calls := make([]Call, len(ready))
	stamps := make([]int64, len(ready))
	b := &Batch{Calls: make([]*Call, 0, len(ready))}
	// the assistant line is parsed where the input holds it (no copy):
	// what the batch keeps of it is copied out before the view ends; or,
	// when the read recorded what the batch takes of it, read from there
	m, fromFacts := ctx.EntryMessage(be), false
	if tf := m.TurnFacts(); tf.Known && !lt.copyArgs && entry >= 0 && entry < math.MaxInt32 {
		err := ctx.ViewEntryLine(be, func(line []byte) error {
			fromFacts = turnFromFacts(b, lt, m, tf, line, entry, ready, readyAt, args, withProse)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if !fromFacts {
		clear(args)
		if err := ctx.ViewEntryLine(be, func(line []byte) error {
			msg, hasMsg, _ := lt.lineMessage(line)
			b.Timestamp = lt.entryMillis(msg, hasMsg)
			content, ok := lt.get(msg, hasMsg, "content")
			prose, blocks := lt.prose[:0], 0
			lt.elems(content, ok, func(bl uint32) {
				tv, hasType := lt.get(bl, true, "type")
				switch {
				case lt.strIs(tv, hasType, "text"):
					if v, ok := lt.get(bl, true, "text"); ok && lt.tp.Nodes[v].Kind == jsonscan.String {
						if blocks > 0 {
							prose = append(prose, '\n')
						}
						prose = lt.appendStr(prose, v)
						blocks++
					}
				case lt.strIs(tv, hasType, "toolCall"):
					iv, hasID := lt.get(bl, true, "id")
					id, _ := lt.strView(iv, hasID)
					var a callArgs
					for k, tc := range ready {
						if args[k].found || tc.ID() != id {
							continue
						}
						if !a.found {
							a.args, a.at = lt.callArgsAt(bl, entry)
							a.found = true
						}
						args[k] = a
					}
				}
			})
			lt.prose = prose
			if withProse {
				b.AssistantText = strings.Clone(strings.TrimFunc(bufString(prose), isJSWhitespace))
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for k, tc := range ready {
		a := args[k]
		c := &calls[k]
		*c = Call{ToolCallID: tc.ID(), ToolName: tc.Name(), Args: a.args, argsAt: a.at, Result: ctx.EntryMessage(res[k]),
			turn: int32(min(entry, math.MaxInt32)), call: int32(min(readyAt[k], math.MaxInt32)), res: int32(min(resAt[k], math.MaxInt32))}
		if !a.found {
			c.Args = []byte("{}")
			c.turn = -1 // no block on the line: a chain's backfill parses it
		}
		b.Calls = append(b.Calls, c)
		if rf := c.Result.ResultFacts(); rf.Known && (!rf.Array || rf.Single && rf.Plain) {
			// what the read saw of the result's line: not parsed again
			resultFromFacts(c, lt, rf, keys[k], resAt[k], &stamps[k])
			continue
		}
		rmsg, ok, err := lt.entryMessage(ctx, res[k])
		if err != nil {
			return nil, err
		}
		if v, ok := lt.get(rmsg, ok, "isError"); ok {
			c.IsError = lt.tp.Truthy(v)
			c.errorTrue = lt.tp.Nodes[v].Kind == jsonscan.True
		}
		tsNode, hasTS := lt.get(rmsg, ok, "timestamp")
		if f, ok := numberAt(lt, tsNode, hasTS); ok && f == float64(int64(f)) {
			stamps[k] = int64(f)
			c.ResultTimestamp = &stamps[k]
		}
		c.Key = MessageKey(tc.ID(), lt.raw(tsNode, hasTS))
		rc, hasRC := lt.get(rmsg, ok, "content")
		c.text = lt.singleText(rc, hasRC, resAt[k])
		c.Chars = lt.resultChars(rc, hasRC)
	}
	return b, nil
}

// callArgs are a ready call's arguments as captureBatch finds them: from
// the first toolCall block with its id (found), left in the line (at) or
// copied (args).
type callArgs struct {
	args  []byte
	at    textRef
	found bool
}

// turnFromFacts sets what captureBatch reads of an assistant entry's line
// (branch entry entry, line, its message m) from the facts the read
// recorded of it (tf, Known; m.CallArgsAt), as a parse of the line finds
// them: the batch's time and prose, and the ready calls' arguments
// (args[k] for ready[k], m.ToolCalls()[readyAt[k]]). It reports false
// when a fact does not fit the line (the file changed): parse it.
func turnFromFacts(b *Batch, lt *lineTape, m *session.Message, tf session.TurnFacts, line []byte, entry int, ready []*session.ToolCall, readyAt []int, args []callArgs, withProse bool) bool {
	in := func(off, n int) bool { return off >= 0 && n >= 0 && off <= len(line) && n <= len(line)-off }
	if !in(tf.TSOff, tf.TSLen) || !in(tf.ProseOff, tf.ProseN) {
		return false
	}
	// entryMillis's: the entry's ISO time, else the message's number
	b.Timestamp = 0
	parsed := false
	if tf.TS && tf.TSLen > 0 {
		if tm, err := time.Parse(time.RFC3339Nano, bufString(line[tf.TSOff:tf.TSOff+tf.TSLen])); err == nil {
			b.Timestamp, parsed = tm.UnixMilli(), true
		}
	}
	if ts, ok, known := m.NumTimestamp(); !parsed && known && ok && ts == float64(int64(ts)) {
		b.Timestamp = int64(ts)
	}
	prose := lt.prose[:0]
	if tf.Prose {
		raw := line[tf.ProseOff : tf.ProseOff+tf.ProseN]
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
			return false
		}
		prose = appendStrRaw(prose, raw, tf.ProseFlags)
	}
	lt.prose = prose
	if withProse {
		b.AssistantText = strings.Clone(strings.TrimFunc(bufString(prose), isJSWhitespace))
	}
	calls := m.ToolCalls()
	for k, tc := range ready {
		j := 0 // the first call with the id (its block is the first with it)
		for j < readyAt[k] && calls[j].ID() != tc.ID() {
			j++
		}
		off, n := m.CallArgsAt(j)
		switch {
		case n == 0:
			args[k] = callArgs{args: []byte("{}"), found: true}
		case !in(off, n):
			return false
		default:
			args[k] = callArgs{at: textRef{entry: int32(entry + 1), off: int32(off), n: int32(n)}, found: true}
		}
	}
	return true
}

// resultFromFacts sets what captureBatch reads of a result's line (branch
// entry entry) from the facts the session's read recorded of it (rf:
// Known, and Single and Plain when its content is an array), as a parse of the line
// finds them: isError, the timestamp, the occurrence key (key, as
// Capture made it of the raw timestamp), the single text's location and
// the text's length.
func resultFromFacts(c *Call, lt *lineTape, rf session.ResultFacts, key string, entry int, stamp *int64) {
	c.IsError, c.errorTrue = rf.ErrorTruthy, rf.ErrorTrue
	if rf.NumTS && rf.TS == float64(int64(rf.TS)) {
		*stamp = int64(rf.TS)
		c.ResultTimestamp = stamp
	}
	c.Key = key
	if rf.Single && !lt.copyArgs && entry >= 0 && entry < math.MaxInt32 {
		c.text = textLoc{at: textRef{entry: int32(entry + 1), off: int32(rf.TextOff), n: int32(rf.TextN)}, flags: rf.TextFlags}
	}
	if rf.Array && rf.Plain {
		c.Chars = rf.Chars
	}
}

// numberAt is the number at node n (jsval.Number).
func numberAt(lt *lineTape, n uint32, has bool) (float64, bool) {
	if !has {
		return 0, false
	}
	return lt.tp.Number(n)
}

// appendTextJSON appends the JSON form of the text of a result's content
// (its text blocks joined with "\n", as JSON.stringify writes it) to dst,
// from a parsed line's bytes, without decoding the text blocks: each one's
// canonical JSON body is appended as it is.
func appendTextJSON(dst, content []byte) []byte {
	els, ok := jsval.Elements(content)
	if !ok {
		return append(dst, `""`...)
	}
	dst = append(dst, '"')
	n := 0
	for _, el := range els {
		if t, _ := jsval.GetString(el, "type"); t != "text" {
			continue
		}
		raw, ok := jsval.Get(el, "text")
		// (content is from a parsed line: a string value is a valid one)
		if !ok || jsval.TypeOf(raw) != jsval.Str {
			// `.text` undefined or not a string joins as JavaScript's String(x)
			raw = jsval.AppendString(nil, jsString(raw, ok))
		}
		if n > 0 {
			dst = append(dst, `\n`...)
		}
		mark := len(dst)
		dst = jsval.AppendCanonical(slices.Grow(dst, len(raw)+2), raw)
		body := len(dst) - mark - 2 // the string's JSON without its quotes
		copy(dst[mark:], dst[mark+1:mark+1+body])
		dst = dst[:mark+body]
		n++
	}
	return append(dst, '"')
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

// ViewRecordArgs calls fn with a record's arguments as AppendRecordArgs
// appends them: for a record the flush made that left them in the input as
// they are, where the input holds them (Context.ViewEntryBytes: no copy);
// else appended to buf, which it returns for reuse. fn must not keep args
// nor read the input.
func (s *State) ViewRecordArgs(buf []byte, r *Record, fn func(args []byte)) ([]byte, error) {
	if at := r.argsAt; at.entry > 0 && !at.loose && s.src != nil && int(at.entry) <= len(s.src.Branch) {
		return buf, s.src.ViewEntryBytes(&s.src.Branch[at.entry-1], int(at.off), int(at.n), func(b []byte) error {
			fn(b)
			return nil
		})
	}
	buf, err := s.AppendRecordArgs(buf[:0], r)
	if err == nil {
		fn(buf)
	}
	return buf, err
}
