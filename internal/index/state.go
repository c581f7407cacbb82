package index

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// State is pi-condense's in-memory state as its session_start rebuild
// leaves it (ToolCallIndexer.reconstructFromSession, the block-ref issuer,
// the frontier and stats trackers): records by occurrence key, short refs,
// dedup aliases, summary bodies, chains, counters, the last frontier and
// stats. It is built by Rebuild from a session's branch and only read
// afterwards (the write side extends a copy).
type State struct {
	// recs are the records as indexed: a later record with the same key
	// replaces one (keyInfo.rec moves to it; keyInfo.pos keeps the key's
	// place in first-insertion order, a JS Map's order), and a record, once
	// in recs, is never changed (the entries a flush appends read theirs);
	// nrec counts the record keys. keys is what the state holds per
	// occurrence key (or legacy bare id) by key id, ids the key ids
	// (keys.go).
	recs []rec
	nrec int32
	// extras are what records hold out of line (rec.extra), in the
	// order the records were added
	extras []recExtra
	// names are the records' tool names, each once (rec.name), nameIDs
	// their indexes
	names   []string
	nameIDs map[string]int32
	keys    []keyInfo
	ids     idTable
	// bare finds a bare toolCallId's first record key id (the others:
	// keyInfo.nextBare)
	bare bareIDs
	// refKeys are the key ids plus one of the canonical refs `tN` by N;
	// refByName and refNames the others (ref → key id, key id → ref)
	refKeys   []int32
	refByName map[string]int32
	refNames  map[int32]string
	// aliasOrder are the dedup aliases' key ids, first-registered order
	aliasOrder []int32
	// hashes are content hashes → the first record's key id (dedup):
	// SHA-1 hex as its bytes, any other spelling in hashOdd
	hashes  map[[20]byte]int32
	hashOdd map[string]int32
	// unhashed are the records whose hashes are not in hashes yet, their
	// texts in unhashedIn's lines (addRecord; seedUnhashed seeds them)
	unhashed   []unhashedRec
	unhashedIn *session.Context
	// summaries are the summary bodies, their keys' ids in sumKeys
	summaries []summaryBody
	sumKeys   []int32
	// sumMore are the indexes in summaries, ascending, of the summaries
	// covering a key id after the first (keyInfo.sum); most keys have one
	sumMore    map[int32][]int32
	chains     map[int64]*ChainData // by startUserTimestamp (last entry wins)
	chainOrder []int64
	// diagnostics are the context-prune-diagnostic entries read (kind and
	// detail), so a flush does not write the same one twice.
	diagnostics map[string]bool
	// textErrs is where its chains' texts written when asked put the first
	// error re-reading the input (TextErr; nil: no such chain)
	textErrs *textErrs
	// texts keeps the summary texts a flush of the state adds
	// (FlushOptions.Texts; nil: held in summaryBody.text)
	texts   TextStore
	textBuf *textBuf
	// src is the session the state was rebuilt from: records' result texts
	// stay in its lines (Record.textAt) until asked for.
	src *session.Context
	// entryBufs are the buffers the index entries a flush of this state
	// appends build their results' texts in when written (Clone makes
	// them; nil: each entry uses its own). Entries are written one at a
	// time, in order.
	entryBufs *entryBufs

	// NextRef is the number of the next short ref to allocate (max N of
	// every registered `tN`, plus one; 1 when none).
	NextRef int
	// NextBlock is the number of the next chain block id (max N of `bN`
	// plus one; 1 when none).
	NextBlock int
	// Frontier is the last valid frontier entry on the branch (nil: none).
	Frontier *FrontierData
	// Stats is the last stats entry on the branch (nil: none).
	Stats *StatsData
	// Entries counts the context-prune-* entries read (0: the session was
	// never touched by pi-condense or pruner's flush).
	Entries int
	// RewritePoints are the moments the branch records where pi-condense
	// rewrote the prompt anyway (a flush's stubs, a dedup alias, a chain
	// compression), in branch order: where a cache-aware pass may piggy-back.
	RewritePoints []RewritePoint
	// Warnings are the odd or corrupt entries that were skipped (in whole or
	// in part), with their line numbers.
	Warnings []session.Warning
}

// Summary is one context-prune-summary message's body and the occurrence
// keys of the calls it covers.
//
// The state holds it as a summaryBody: its keys by id (4 bytes a key, not
// a string header), in State.sumKeys.
type Summary struct {
	Keys    []string
	Text    string
	EntryID string
	Line    int
}

// RewritePoint is one rewrite of the prompt recorded in the session: after
// the entry at Line was appended, the next request changed the prompt from
// the message with timestamp Floor on (pi-condense's supersede floor).
type RewritePoint struct {
	Line  int
	Floor int64
	Kind  string // the entry's customType
}

// Entry is one branch entry as the rebuild reads it.
type Entry struct {
	Type       string // pi entry type: "custom", "custom_message", …
	CustomType string
	ID         string
	Line       int    // 1-based line in the session file
	Raw        []byte // the entry's JSON line

	// branch is the entry's index in the context's Branch plus one (0: not
	// read from a context): its records' texts are left in the line.
	branch int32
}

// ErrNoBranch is returned by Rebuild for a session context read without
// session.ReadOptions.Branch.
var ErrNoBranch = errors.New("index: the context was read without ReadOptions.Branch")

// Rebuild rebuilds pi-condense's state from the branch of a session context
// (read with session.ReadOptions{Branch: true}). A context input (no
// entries) gives an empty state. It reads only the branch entries' lines
// through ctx (no other I/O); errors are I/O errors re-reading the input.
// Odd or corrupt entries are reported in State.Warnings and skipped.
func Rebuild(ctx *session.Context) (*State, error) { return rebuildState(ctx, false) }

// RebuildKeys is Rebuild without the records' arguments, result texts and
// previews, and so without the dedup hashes (which hash the texts), and
// without the chains (nor their rewrite points, warnings and block
// counter) and the summaries' bodies: the records' keys and fields, the
// refs, aliases, frontier and stats only — what a check of the refs a file
// rebuilds to needs, in a fraction of the memory (--write's verify of the
// file it wrote: 1 GB of pi-derived input flushed, ~185 MB for the state
// with its chains and summary texts, ~75 MB of them the chains).
func RebuildKeys(ctx *session.Context) (*State, error) { return rebuildState(ctx, true) }

func rebuildState(ctx *session.Context, keysOnly bool) (*State, error) {
	if ctx.Kind != session.KindSession {
		return RebuildEntries(nil), nil
	}
	if ctx.Branch == nil && ctx.LeafID != "" {
		return nil, ErrNoBranch
	}
	// one entry at a time, its line not copied: the state keeps copies of
	// what it decodes, never the line, so a rebuild of a large index holds
	// one entry's bytes, not all of them (BranchEntries would)
	b := newRebuilder()
	b.keysOnly = keysOnly
	b.s.src = ctx
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		if !isCondenseEntry(ctx, be) {
			continue
		}
		line, err := ctx.EntryLine(be)
		if err != nil {
			return nil, err
		}
		b.add(Entry{Type: ctx.EntryType(be), CustomType: ctx.EntryCustomType(be), ID: ctx.EntryID(be), Line: be.Line(), Raw: line, branch: int32(i + 1)})
	}
	return b.done(), nil
}

// HasEntries reports whether ctx's branch holds any pi-condense entry (what
// Rebuild rebuilds from): a session flushed before, whose state a render
// holds beside the context.
func HasEntries(ctx *session.Context) bool {
	for i := range ctx.Branch {
		if isCondenseEntry(ctx, &ctx.Branch[i]) {
			return true
		}
	}
	return false
}

// isCondenseEntry says whether a branch entry is one Rebuild reads.
func isCondenseEntry(ctx *session.Context, be *session.BranchEntry) bool {
	if !strings.HasPrefix(ctx.EntryCustomType(be), "context-prune-") {
		return false
	}
	t := ctx.EntryType(be)
	return t == "custom" || t == "custom_message"
}

// BranchEntries reads the pi-condense entries (custom and custom_message
// entries with a context-prune-* customType) of ctx's branch, root first:
// what Rebuild rebuilds from. A context input has none.
func BranchEntries(ctx *session.Context) ([]Entry, error) {
	if ctx.Kind != session.KindSession {
		return nil, nil
	}
	if ctx.Branch == nil && ctx.LeafID != "" {
		return nil, ErrNoBranch
	}
	var ents []Entry
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		if !isCondenseEntry(ctx, be) {
			continue
		}
		line, err := ctx.EntryLine(be)
		if err != nil {
			return nil, err
		}
		ents = append(ents, Entry{Type: ctx.EntryType(be), CustomType: ctx.EntryCustomType(be), ID: ctx.EntryID(be), Line: be.Line(), Raw: append([]byte(nil), line...)})
	}
	return ents, nil
}

func newState() *State {
	return &State{
		hashes: map[[20]byte]int32{}, chains: map[int64]*ChainData{}, NextRef: 1, NextBlock: 1,
	}
}

// RebuildEntries is Rebuild over entries already read, root first (pure).
// Entries that are not pi-condense's are ignored.
func RebuildEntries(entries []Entry) *State {
	b := newRebuilder()
	for _, e := range entries {
		b.add(e)
	}
	return b.done()
}

// rebuilder rebuilds a State one entry at a time (add, root first, then
// done); it keeps nothing of an entry's Raw (decoders copy what they keep).
type rebuilder struct {
	s        *State
	aliases  []DedupAlias
	keysOnly bool // RebuildKeys
}

func newRebuilder() *rebuilder { return &rebuilder{s: newState()} }

// add reads one entry; entries that are not pi-condense's are ignored.
func (b *rebuilder) add(e Entry) {
	s := b.s
	if !strings.HasPrefix(e.CustomType, "context-prune-") {
		return
	}
	s.Entries++
	warn := func(format string, a ...any) {
		s.Warnings = append(s.Warnings, session.Warning{Line: e.Line, Msg: e.CustomType + " entry: " + fmt.Sprintf(format, a...)})
	}
	wantType := "custom"
	if e.CustomType == TypeSummary {
		wantType = "custom_message"
	}
	if e.Type != wantType {
		if e.Type == "custom" || e.Type == "custom_message" {
			warn("written as a %s entry, not %s; pi-condense ignores it", e.Type, wantType)
		}
		return
	}
	if e.CustomType == TypeSummary {
		s.addSummary(e, warn, b.keysOnly)
		return
	}
	if e.CustomType == TypeChain && b.keysOnly {
		return // no records nor refs: none of what RebuildKeys keeps
	}
	data, ok := jsval.Get(e.Raw, "data")
	switch e.CustomType {
	case TypeIndex:
		if !ok || jsval.TypeOf(data) != jsval.Obj {
			warn("data is %s, not an object; skipped", describeOpt(data, ok))
			return
		}
		if floor, ok := b.addIndex(e, data, warn); ok {
			s.RewritePoints = append(s.RewritePoints, RewritePoint{Line: e.Line, Floor: floor, Kind: e.CustomType})
		}
	case TypeChain:
		c, err := DecodeChain(data)
		if err != nil {
			warn("%v; skipped", err)
			return
		}
		if _, seen := s.chains[c.StartUserTimestamp]; !seen {
			s.chainOrder = append(s.chainOrder, c.StartUserTimestamp)
		}
		s.chains[c.StartUserTimestamp] = &c
		s.RewritePoints = append(s.RewritePoints, RewritePoint{Line: e.Line, Floor: c.StartUserTimestamp, Kind: e.CustomType})
	case TypeDedupAlias:
		a, err := DecodeDedupAlias(data)
		if err != nil {
			warn("%v; skipped", err)
			return
		}
		b.aliases = append(b.aliases, a)
		if a.NewResultTimestamp != nil {
			s.RewritePoints = append(s.RewritePoints, RewritePoint{Line: e.Line, Floor: *a.NewResultTimestamp, Kind: e.CustomType})
		}
	case TypeFrontier:
		if f, valid := DecodeFrontier(data); valid {
			s.Frontier = &f
		} else if jsval.Truthy(data) {
			warn("no lastAttemptedToolCallId; the previous frontier stays")
		}
	case TypeStats:
		if st, valid := DecodeStats(data); valid {
			s.Stats = &st
		} else if jsval.Truthy(data) {
			warn("data is %s, not an object; skipped", describe(data))
		}
	case TypeDiagnostic:
		if d, ok := jsval.Get(data, "kind"); ok {
			kind, _ := jsval.String(d)
			detail, _ := jsval.GetString(data, "detail")
			if s.diagnostics == nil {
				s.diagnostics = map[string]bool{}
			}
			s.diagnostics[kind+"\x00"+detail] = true
		}
	case TypeFlushMetrics:
		// a record of what happened; no state
	default:
		warn("unknown pi-condense entry type; ignored")
	}
}

// done applies the aliases and returns the state.
func (b *rebuilder) done() *State {
	s := b.s
	// Aliases after every record and ref, so a duplicate shares the
	// original's ref whatever the append order.
	for _, a := range b.aliases {
		s.setAlias(OccurrenceKey(a.NewToolCallID, a.NewResultTimestamp), OccurrenceKey(a.OriginalToolCallID, a.OriginalResultTimestamp))
	}
	s.rebuildBlockCounter()
	return s
}

func describeOpt(v []byte, ok bool) string {
	if !ok {
		return "absent"
	}
	return describe(v)
}

// addIndex reads an index entry; floor is the earliest resultTimestamp of
// its records (ok false when none has one).
// A record read from a session's line keeps its result text there
// (Record.textAt): only its dedup hash is computed from it here.
func (b *rebuilder) addIndex(e Entry, data []byte, warn func(string, ...any)) (floor int64, ok bool) {
	s, keysOnly := b.s, b.keysOnly
	mode := recordFull
	switch {
	case keysOnly:
		mode = recordKeysOnly
	case e.branch > 0:
		mode = recordLazyText
	}
	// one pass over data's members (the last of duplicates wins, as Get)
	var vBackfilled, tc, rv []byte
	var has, hasRefs bool
	var kbuf []byte
	jsval.EachMemberRaw(data, func(rawKey, v []byte) bool {
		var k []byte
		k, kbuf = memberKey(rawKey, kbuf)
		switch string(k) {
		case "backfilled":
			vBackfilled = v
		case "toolCalls":
			tc, has = v, true
		case "refs":
			rv, hasRefs = v, true
		}
		return true
	})
	backfilled := jsval.IsTrue(vBackfilled)
	if has && jsval.TypeOf(tc) == jsval.Arr {
		els, _ := jsval.Elements(tc)
		for i, el := range els {
			r, rawText, err := decodeRecord(el, mode)
			if err != nil {
				warn("toolCalls[%d]: %v; skipped", i, err)
				continue
			}
			if rawText != nil && nonEmptyString(rawText) {
				// the value is a subslice of the line: its offset is what
				// the line's capacity and the value's differ by
				r.textAt = textRef{entry: e.branch, off: int32(cap(e.Raw) - cap(rawText)), n: int32(len(rawText))}
			}
			_, _, at := s.indexRecord(r, "", backfilled)
			if r.ResultTimestamp != nil && (!ok || *r.ResultTimestamp < floor) {
				floor, ok = *r.ResultTimestamp, true
			}
			if backfilled || keysOnly {
				continue // backfilled records never seed dedup; no texts to hash
			}
			// seeded when a hash is first asked for (seedUnhashed), in
			// this order: a `now` with nothing new to flush, or a query,
			// asks for none (20 MB flushed and read again: decoding and
			// hashing its records' texts were ~17% of the instructions)
			s.unhashed = append(s.unhashed, unhashedRec{rec: at})
		}
	} else {
		warn("no toolCalls array; nothing indexed")
	}
	if !backfilled {
		return floor, ok
	}
	if !hasRefs || jsval.TypeOf(rv) != jsval.Arr {
		return floor, ok
	}
	els, _ := jsval.Elements(rv)
	for i, el := range els {
		ref, err := decodeRef(el)
		if err != nil {
			warn("refs[%d]: %v; skipped", i, err)
			continue
		}
		s.registerRef(ref)
	}
	return floor, ok
}

// addSummary reads a summary entry: its refs, and its body unless
// refsOnly (RebuildKeys).
func (s *State) addSummary(e Entry, warn func(string, ...any), refsOnly bool) {
	details, _ := jsval.Get(e.Raw, "details")
	refs, bad := summaryRefs(details)
	for _, b := range bad {
		warn("details.%s; skipped", b)
	}
	for _, r := range refs {
		s.registerRef(r)
	}
	if refsOnly {
		return
	}
	content, _ := jsval.Get(e.Raw, "content")
	text := summaryText(content)
	if text == "" {
		return
	}
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = OccurrenceKey(r.ToolCallID, r.ResultTimestamp)
	}
	s.addSummaryBody(Summary{Keys: keys, Text: text, EntryID: e.ID, Line: e.Line})
}

// summaryBody is a Summary as the state holds it: its keys are
// State.sumKeys[keys0:keys0+nkeys].
type summaryBody struct {
	text, entryID string
	line          int
	keys0, nkeys  int32
	// at is where the text is when the state keeps it in its TextStore
	// (text is then "")
	at storedText
}

// summary is the Summary of b.
func (s *State) summary(b *summaryBody) Summary {
	sm := Summary{Keys: make([]string, b.nkeys), Text: b.text, EntryID: b.entryID, Line: b.line}
	if b.at.n > 0 {
		t, err := s.load(b.at)
		s.textErr(err)
		sm.Text = t
	}
	for i, kid := range s.sumKeys[b.keys0 : b.keys0+b.nkeys] {
		sm.Keys[i] = s.keys[kid].key
	}
	return sm
}

// addSummaryBody appends a summary body and indexes it by its keys (the
// first summary of a key in its keyInfo, the others in sumMore).
func (s *State) addSummaryBody(sm Summary) { s.addStoredSummary(sm, storedText{}) }

// addStoredSummary is addSummaryBody of a summary whose text is at at in
// the state's TextStore (sm.Text is then ""; the zero at: held).
func (s *State) addStoredSummary(sm Summary, at storedText) {
	i := int32(len(s.summaries))
	s.summaries = append(s.summaries, summaryBody{text: sm.Text, entryID: sm.EntryID, line: sm.Line, keys0: int32(len(s.sumKeys)), nkeys: int32(len(sm.Keys)), at: at})
	for _, k := range sm.Keys {
		kid := s.intern(k)
		s.sumKeys = append(s.sumKeys, kid)
		switch ki := &s.keys[kid]; {
		case ki.sum == 0:
			ki.sum = i + 1
		case ki.sum != i+1:
			if l := s.sumMore[kid]; len(l) == 0 || l[len(l)-1] != i {
				if s.sumMore == nil {
					s.sumMore = map[int32][]int32{}
				}
				s.sumMore[kid] = append(l, i)
			}
		}
	}
}

// summariesCovering returns the indexes in s.summaries of the summaries
// covering any of keys, ascending, each once.
func (s *State) summariesCovering(keys []string) []int32 {
	var idx []int32
	for _, k := range keys {
		kid, ok := s.keyID(k)
		if !ok || s.keys[kid].sum == 0 {
			continue
		}
		idx = append(idx, s.keys[kid].sum-1)
		idx = append(idx, s.sumMore[kid]...)
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// indexRecord stores r under its occurrence key (a later record with the
// same key replaces it, keeping its place) and returns the key, its id and
// the record's index in s.recs. key is r's occurrence key when the caller
// has it ("": made here).
func (s *State) indexRecord(r Record, key string, backfilled bool) (string, int32, int32) {
	if key == "" || !sameKey(key, r.ToolCallID, r.ResultTimestamp) {
		key = OccurrenceKey(r.ToolCallID, r.ResultTimestamp)
	}
	kid := s.intern(key)
	s.recs = append(s.recs, s.packRecord(&r, kid))
	k := &s.keys[kid]
	if k.rec == 0 {
		k.pos = s.nrec
		s.nrec++
	}
	k.rec = int32(len(s.recs))
	k.backfilled = backfilled
	s.addBare(r.ToolCallID, kid)
	return k.key, kid, k.rec - 1
}

// registerRef is pi-condense's registerSummaryRefs for one ref.
func (s *State) registerRef(r ToolCallRef) { s.registerRefKey(r, "") }

// registerRefKey is registerRef with the ref's occurrence key when the
// caller has it (a flushed call's: not made again; "": made here).
func (s *State) registerRefKey(r ToolCallRef, key string) {
	if r.ShortID == "" || r.ToolCallID == "" {
		return
	}
	if key == "" || !sameKey(key, r.ToolCallID, r.ResultTimestamp) {
		key = OccurrenceKey(r.ToolCallID, r.ResultTimestamp)
	}
	if r.ShortID != key {
		s.setRef(r.ShortID, s.intern(key))
	}
	if n, ok := refNumber(r.ShortID, 't'); ok && n+1 > s.NextRef {
		s.NextRef = n + 1
	}
}

// refNumber parses "tN"/"bN" (prefix then digits only).
func refNumber(id string, prefix byte) (int, bool) {
	if len(id) < 2 || id[0] != prefix {
		return 0, false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil || n > 1<<40 {
		return 0, false
	}
	return n, true
}

// rebuildBlockCounter sets NextBlock to max N of the chains' `bN` plus one
// (pi-condense parses the digits after the first character).
func (s *State) rebuildBlockCounter() {
	for _, ts := range s.chainOrder {
		id := s.chains[ts].BlockID
		n, ok := leadingInt(id[1:])
		if !ok {
			s.Warnings = append(s.Warnings, session.Warning{Msg: fmt.Sprintf("context-prune-chain blockId %q has no number; not counted for the next block id", id)})
			continue
		}
		if n+1 > s.NextBlock {
			s.NextBlock = n + 1
		}
	}
}

// leadingInt is JavaScript's parseInt(s, 10) for non-negative results.
func leadingInt(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	s = strings.TrimPrefix(s, "+")
	i := 0
	for i < len(s) && i < 12 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(s[:i])
	return n, true
}

// IsSummarized reports whether the occurrence key is indexed or is a dedup
// alias of an indexed original (strict: no bare-id fallback).
func (s *State) IsSummarized(key string) bool {
	if id, ok := s.keyID(key); ok {
		k := &s.keys[id]
		return k.rec > 0 || k.alias > 0
	}
	return false
}

// HasLegacyBareRecord reports whether toolCallID is indexed under its bare
// id (a legacy record, written before resultTimestamp existed) and has no
// occurrence-keyed siblings: only then may a result be matched by bare id.
func (s *State) HasLegacyBareRecord(toolCallID string) bool {
	if !s.hasRecord(toolCallID) {
		return false
	}
	return s.bareCount(toolCallID) == 1
}

// Resolve maps a record key, a dedup alias key, a short ref, or a bare id
// with exactly one occurrence to the key of the record behind it.
func (s *State) Resolve(input string) (string, bool) {
	if id, ok := s.keyID(input); ok {
		k := &s.keys[id]
		if k.rec > 0 {
			return input, true
		}
		if k.alias > 0 {
			return s.keys[k.alias-1].key, true
		}
	}
	if k, ok := s.refKey(input); ok {
		return k, true
	}
	if h := s.bareFirst(input); h > 0 && s.keys[h-1].nextBare == 0 {
		return s.keys[h-1].key, true
	}
	return "", false
}

// Record returns the record input resolves to (see Resolve). A record the
// flush made leaves its arguments in the input (Args is nil): RecordArgs
// reads them.
func (s *State) Record(input string) (*Record, bool) {
	k, ok := s.Resolve(input)
	if !ok {
		return nil, false
	}
	r := s.record(k)
	return r, r != nil
}

// RecordOf is Record as a value (a caller that keeps it on its stack
// allocates nothing for it).
func (s *State) RecordOf(input string) (Record, bool) {
	k, ok := s.Resolve(input)
	if !ok {
		return Record{}, false
	}
	if id, ok := s.keyID(k); ok {
		if r := s.keys[id].rec; r > 0 {
			return s.unpack(&s.recs[r-1]), true
		}
	}
	return Record{}, false
}

// AppendRecordArgs appends the arguments of a record of s to dst (what
// RecordArgs returns, into a buffer the caller reuses). Errors are I/O
// errors re-reading the input.
func (s *State) AppendRecordArgs(dst []byte, r *Record) ([]byte, error) {
	if r.argsAt.entry == 0 {
		return append(dst, r.Args...), nil
	}
	if s.src == nil {
		return dst, fmt.Errorf("the arguments of %s are in a session the state does not hold", r.ToolCallID)
	}
	return appendArgs(dst, s.src, nil, r.argsAt)
}

// RecordArgs is the arguments of a record of s: Args, or for a record the
// flush made, read from the input (a new slice). Errors are I/O errors
// re-reading the input.
func (s *State) RecordArgs(r *Record) ([]byte, error) { return s.recordArgs(r) }

// recordArgs is r's arguments: Args, or read from the input when the
// record left them there (argsAt).
func (s *State) recordArgs(r *Record) ([]byte, error) {
	if r.argsAt.entry == 0 {
		return r.Args, nil
	}
	if s.src == nil {
		return nil, fmt.Errorf("the arguments of %s are in a session the state does not hold", r.ToolCallID)
	}
	args, err := appendArgs(nil, s.src, nil, r.argsAt)
	if err != nil {
		return nil, err
	}
	return args, nil
}

// ResultText is r's resultText: ResultText itself, or for a record Rebuild
// read from a session, the text read again from its entry's line (the state
// does not hold the texts of the records it rebuilds). Errors are I/O errors
// re-reading the input.
func (s *State) ResultText(r *Record) (string, error) {
	at := r.textAt
	if at.entry == 0 || s.src == nil || int(at.entry) > len(s.src.Branch) {
		return r.ResultText, nil
	}
	line, err := s.src.EntryLine(&s.src.Branch[at.entry-1])
	if err != nil {
		return "", err
	}
	if int(at.off)+int(at.n) > len(line) {
		return "", fmt.Errorf("line %d: the resultText of %s is past the line's end", s.src.Branch[at.entry-1].Line(), r.ToolCallID)
	}
	t, _ := jsval.String(line[at.off : at.off+at.n])
	return t, nil
}

// withText is r with its Args and ResultText filled in (recordArgs,
// State.ResultText).
func (s *State) withText(r Record) (Record, error) {
	if r.argsAt.entry != 0 {
		args, err := s.recordArgs(&r)
		if err != nil {
			return r, err
		}
		r.Args, r.argsAt = args, textRef{}
	}
	if r.textAt.entry == 0 {
		return r, nil
	}
	t, err := s.ResultText(&r)
	r.ResultText, r.textAt = t, textRef{}
	return r, err
}

// Occurrence is one record returned by RecordsFor: the record (for a dedup
// alias, the original's, with the alias's own result timestamp; its
// ResultText filled in) and its key. Err is an I/O error re-reading the
// record's result text (ResultText is then empty).
type Occurrence struct {
	Record Record
	Key    string
	Err    error
}

// RecordsFor returns every record input denotes, as context_tree_query
// lists them: a bare id gives every occurrence (aliases included),
// sorted by resultTimestamp (or the batch time); a short ref or an
// occurrence key gives the one record it resolves to.
func (s *State) RecordsFor(input string) []Occurrence {
	var out []Occurrence
	for _, kid := range s.bareRecordKeys(input) {
		k := &s.keys[kid]
		out = append(out, Occurrence{Record: s.unpack(&s.recs[k.rec-1]), Key: k.key})
	}
	for _, aid := range s.aliasOrder {
		ak := s.keys[aid].key
		id, ts := ParseOccurrenceKey(ak)
		if id != input {
			continue
		}
		orig := s.record(s.keys[s.keys[aid].alias-1].key)
		if orig == nil {
			continue
		}
		r := *orig
		r.ResultTimestamp = ts
		out = append(out, Occurrence{Record: r, Key: ak})
	}
	if len(out) == 0 {
		if k, ok := s.Resolve(input); ok {
			if r := s.record(k); r != nil {
				out = []Occurrence{{Record: *r, Key: k}}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return sortTime(out[i].Record) < sortTime(out[j].Record) })
	for i := range out {
		out[i].Record, out[i].Err = s.withText(out[i].Record)
	}
	return out
}

func sortTime(r Record) int64 {
	if r.ResultTimestamp != nil {
		return *r.ResultTimestamp
	}
	return r.Timestamp
}

// ShortRef returns the `tN` ref registered for an occurrence key (a dedup
// alias shares its original's).
func (s *State) ShortRef(key string) (string, bool) {
	if id, ok := s.keyID(key); ok {
		return s.refOf(id)
	}
	return "", false
}

// ToolRefs returns the short refs of keys, skipping keys without one (nil
// when none has one). The list is its size and the `tN` refs' bytes are in
// one buffer: a chain holds them as long as it is kept (1 GB: ~200,000
// refs, a string each and a list grown by append before).
func (s *State) ToolRefs(keys []string) []string {
	var idBuf [64]int32
	ids, size := idBuf[:0], 0
	var digits [20]byte
	for _, k := range keys {
		id, ok := s.keyID(k)
		if !ok {
			continue
		}
		switch ki := &s.keys[id]; {
		case ki.refOdd < 0:
		case ki.ref > 0 || ki.refOdd > 0:
			size += 1 + len(strconv.AppendInt(digits[:0], int64(ki.ref), 10))
		default:
			continue // no ref
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	b := make([]byte, 0, size) // filled to its capacity, never moved
	for i, id := range ids {
		if ki := &s.keys[id]; ki.refOdd < 0 {
			out[i] = s.refNames[id]
		} else {
			n := len(b)
			b = strconv.AppendInt(append(b, 't'), int64(ki.ref), 10)
			out[i] = unsafe.String(&b[n], len(b)-n)
		}
	}
	return out
}

// toolRefNums are ToolRefs(keys) as the numbers N of their `tN` refs
// (nil when none has a ref); ok false when one is not canonical (in
// refNames: ToolRefs then).
func (s *State) toolRefNums(keys []string) (nums []int32, ok bool) {
	n := 0
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			if n == 0 {
				return nil, true
			}
			nums = make([]int32, 0, n)
		}
		for _, k := range keys {
			id, found := s.keyID(k)
			if !found {
				continue
			}
			switch ki := &s.keys[id]; {
			case ki.refOdd < 0:
				return nil, false
			case ki.ref > 0 || ki.refOdd > 0:
				if pass == 0 {
					n++
				} else {
					nums = append(nums, ki.ref)
				}
			}
		}
	}
	return nums, true
}

// Backfilled reports whether the record under key came from a chain
// backfill (turnIndex -1, no summary message).
func (s *State) Backfilled(key string) bool {
	if id, ok := s.keyID(key); ok {
		return s.keys[id].rec > 0 && s.keys[id].backfilled
	}
	return false
}

// LookupByContent returns the key of the first non-backfilled record with
// the same content hash (pi-condense's dedup lookup).
// A record whose text cannot be read again (an I/O error) is not found.
func (s *State) LookupByContent(toolName, resultText string) (string, bool) {
	if s.seedUnhashed() != nil {
		return "", false
	}
	return s.hashKey(ContentHash(toolName, resultText))
}

// Aliases returns the dedup aliases (duplicate key → original key).
func (s *State) Aliases() map[string]string {
	out := make(map[string]string, len(s.aliasOrder))
	for _, aid := range s.aliasOrder {
		out[s.keys[aid].key] = s.keys[s.keys[aid].alias-1].key
	}
	return out
}

// Keys returns every record key in first-insertion order.
func (s *State) Keys() []string {
	out := make([]string, s.nrec)
	for i := range s.keys {
		if s.keys[i].rec > 0 {
			out[s.keys[i].pos] = s.keys[i].key
		}
	}
	return out
}

// Len is the number of records.
func (s *State) Len() int { return int(s.nrec) }

// Summaries returns the summary bodies in branch order.
func (s *State) Summaries() []Summary {
	var out []Summary
	for i := range s.summaries {
		out = append(out, s.summary(&s.summaries[i]))
	}
	return out
}

// SummaryTexts returns the distinct summary texts covering any of keys
// (in branch order), as pi-condense builds a chain body from them.
func (s *State) SummaryTexts(keys []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, i := range s.summariesCovering(keys) {
		t, err := s.sumText(i)
		if err != nil {
			s.textErr(err) // (TextErr: what is written with it is not whole)
			continue
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// Chains returns the chain entries sorted by startUserTimestamp.
func (s *State) Chains() []*ChainData {
	out := make([]*ChainData, 0, len(s.chainOrder))
	for _, ts := range s.chainOrder {
		out = append(out, s.chains[ts])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartUserTimestamp < out[j].StartUserTimestamp })
	return out
}

// ChainByBlock returns the chain entry with blockId id.
func (s *State) ChainByBlock(id string) (*ChainData, bool) {
	for _, ts := range s.chainOrder {
		if c := s.chains[ts]; c.BlockID == id {
			return c, true
		}
	}
	return nil, false
}

// MessageKey is the occurrence key of a toolResult message as pi-condense
// computes it: toolCallId@timestamp when the message's timestamp (raw
// JSON) is a number, else the bare id.
func MessageKey(toolCallID string, rawTimestamp []byte) string {
	if jsval.PlainInteger(rawTimestamp) {
		return toolCallID + "@" + string(rawTimestamp)
	}
	if _, ok := jsval.Number(rawTimestamp); ok {
		var kb [64]byte
		return string(appendMessageKey(kb[:0], toolCallID, bufString(rawTimestamp)))
	}
	return toolCallID
}

// appendMessageKey appends MessageKey(toolCallID, rawTimestamp) to dst.
// A timestamp JavaScript writes back as it is (jsval.PlainInteger: pi's
// milliseconds) is used as written, not parsed and formatted again
// (20 MB: 1.5% of the instructions, ~800 a key).
func appendMessageKey(dst []byte, toolCallID, rawTimestamp string) []byte {
	dst = append(dst, toolCallID...)
	raw := unsafe.Slice(unsafe.StringData(rawTimestamp), len(rawTimestamp))
	if jsval.PlainInteger(raw) {
		return append(append(dst, '@'), rawTimestamp...)
	}
	if f, ok := jsval.Number(raw); ok {
		dst = append(dst, '@')
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 && f != 0 {
			// a safe integer (a time in ms): JavaScript writes its digits
			return strconv.AppendInt(dst, int64(f), 10)
		}
		return jsval.AppendNumber(dst, f)
	}
	return dst
}

// isSummarizedBytes is IsSummarized of a key in bytes (no string made).
func (s *State) isSummarizedBytes(key []byte) bool {
	if id, ok := s.keyIDBytes(key); ok {
		k := &s.keys[id]
		return k.rec > 0 || k.alias > 0
	}
	return false
}

// ParseOccurrenceKey splits an occurrence key at its last "@" when digits
// follow (pi-condense's parseOccKey); a key without one is a bare id.
func ParseOccurrenceKey(key string) (toolCallID string, resultTimestamp *int64) {
	i := strings.LastIndexByte(key, '@')
	if i <= 0 || i == len(key)-1 {
		return key, nil
	}
	for _, c := range key[i+1:] {
		if c < '0' || c > '9' {
			return key, nil
		}
	}
	n, err := strconv.ParseInt(key[i+1:], 10, 64)
	if err != nil {
		return key, nil
	}
	return key[:i], &n
}

// ArgsMessage is the message of the branch entry whose line holds r's
// arguments (argsAt), nil when r holds them (or the state's session is not
// the one they are in). The message's calls, as the session decoder read
// them from that line, answer what the arguments say without reading them
// again.
func (s *State) ArgsMessage(r *Record) *session.Message {
	at := r.argsAt
	if at.entry <= 0 || s.src == nil || int(at.entry) > len(s.src.Branch) {
		return nil
	}
	be := &s.src.Branch[at.entry-1]
	m := s.src.EntryMessage(be)
	if m == nil || m.Line() != be.Line() {
		return nil
	}
	return m
}
