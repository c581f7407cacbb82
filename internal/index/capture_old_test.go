package index

// The capture as it was before the session's read recorded each tool
// result's facts (session.ResultFacts): every result line parsed again.
// TestCaptureFactsDiff checks the capture against it.

import (
	"math"
	"strings"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// Capture returns the batches a flush takes from ctx's branch: every
// completed call (its result on the branch, before the next assistant
// message) that is not indexed or aliased in st, not protected, in the
// context (not cut by a compaction), not in the raw window, and past st's
// frontier — one batch per assistant turn (Group merges them for
// batchingMode agent-message). Result texts are measured on their raw
// strings, not decoded (Call.ReadText reads them; the flush hashes them as
// it reads them for the summariser). Errors are I/O errors re-reading the
// input.
func captureOld(ctx *session.Context, st *State, opts CaptureOptions) ([]*Batch, error) {
	// by entry id: a context_edit'ed message is a copy of the branch's
	inCtx := make(map[uint64]int, len(ctx.Messages)) // by entry key (no id strings made)
	for i, m := range ctx.Messages {
		if k := m.EntryKey(); k != 0 {
			inCtx[k] = i
		}
	}
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
	var resAt []int // resEntries' indexes in ctx.Branch
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
		ready, readyAt, resEntries, resAt = ready[:0], readyAt[:0], resEntries[:0], resAt[:0]
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
			ri, in := inCtx[ctx.EntryKey(re)]
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
		}
		if len(ready) == 0 {
			continue
		}
		b, err := captureBatchOld(ctx, &lt, be, int(at[i]), ready, readyAt, resEntries, resAt)
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

// captureBatch reads the assistant entry (ctx.Branch[entry]) and the
// results of the ready calls (m.ToolCalls()[readyAt[k]]; res,
// ctx.Branch[resAt[k]]).
func captureBatchOld(ctx *session.Context, lt *lineTape, be *session.BranchEntry, entry int, ready []*session.ToolCall, readyAt []int, res []*session.BranchEntry, resAt []int) (*Batch, error) {
	msg, hasMsg, err := lt.entryMessage(ctx, be)
	if err != nil {
		return nil, err
	}
	b := &Batch{Timestamp: lt.entryMillis(msg, hasMsg)}
	content, ok := lt.get(msg, hasMsg, "content")
	type callArgs struct {
		args  []byte
		at    textRef
		found bool
	}
	// the ready calls' arguments: each from the first toolCall block with
	// its id (the one calls pair with); the prose, text blocks joined with
	// "\n", in the tape's reused buffer
	args := make([]callArgs, len(ready))
	// the batch's calls and their timestamps, allocated together
	calls := make([]Call, len(ready))
	stamps := make([]int64, len(ready))
	b.Calls = make([]*Call, 0, len(ready))
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
	b.AssistantText = strings.Clone(strings.TrimFunc(bufString(prose), isJSWhitespace))
	for k, tc := range ready {
		rmsg, ok, err := lt.entryMessage(ctx, res[k])
		if err != nil {
			return nil, err
		}
		a := args[k]
		c := &calls[k]
		*c = Call{ToolCallID: tc.ID(), ToolName: tc.Name(), Args: a.args, argsAt: a.at, Result: ctx.EntryMessage(res[k]),
			turn: int32(min(entry, math.MaxInt32)), call: int32(min(readyAt[k], math.MaxInt32)), res: int32(min(resAt[k], math.MaxInt32))}
		if !a.found {
			c.Args = []byte("{}")
			c.turn = -1 // no block on the line: a chain's backfill parses it
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
		b.Calls = append(b.Calls, c)
	}
	return b, nil
}
