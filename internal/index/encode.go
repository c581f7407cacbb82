package index

import (
	"strconv"

	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/summarize"
)

// Encoding of the entries a flush appends, in pi's entry shapes
// (SessionManager's appendCustomEntry, appendCustomMessageEntry,
// appendContextEdit) with pi-condense's data in its key order, every string
// as JSON.stringify writes it.

// NewEntry is one entry a flush (or the pipeline) appends to a session.
type NewEntry struct {
	// Type is pi's entry type: "custom", "custom_message" or "context_edit".
	Type       string
	CustomType string
	// TargetID and Content are a context_edit's target entry and
	// replacement content (raw JSON; or appended by body when written:
	// ContextEdit).
	TargetID string
	Content  []byte
	// body appends a custom entry's data, or a custom_message's content,
	// display and details members (lazily: index records re-read their
	// results' text from the input).
	body func(dst []byte, ctx *session.Context) ([]byte, error)
	// floor, when set, is the earliest result time the entry makes the next
	// request rewrite (a rewrite point, as Rebuild finds it in the file).
	floor *int64
}

// AppendLine appends the entry's JSON line (without a newline) with the
// given id, parent id ("" → null) and ISO timestamp.
func (e *NewEntry) AppendLine(dst []byte, ctx *session.Context, id, parentID, ts string) ([]byte, error) {
	var err error
	dst = append(dst, `{"type":`...)
	dst = jsval.AppendString(dst, e.Type)
	tail := func() {
		dst = append(dst, `,"id":`...)
		dst = jsval.AppendString(dst, id)
		dst = append(dst, `,"parentId":`...)
		if parentID == "" {
			dst = append(dst, "null"...)
		} else {
			dst = jsval.AppendString(dst, parentID)
		}
		dst = append(dst, `,"timestamp":`...)
		dst = jsval.AppendString(dst, ts)
	}
	switch e.Type {
	case "context_edit":
		tail()
		dst = append(dst, `,"targetId":`...)
		dst = jsval.AppendString(dst, e.TargetID)
		dst = append(dst, `,"replacement":{"content":`...)
		if e.body != nil {
			if dst, err = e.body(dst, ctx); err != nil {
				return dst, err
			}
		} else {
			dst = append(dst, e.Content...)
		}
		dst = append(dst, '}')
	default:
		dst = append(dst, `,"customType":`...)
		dst = jsval.AppendString(dst, e.CustomType)
		if e.Type == "custom" {
			dst = append(dst, `,"data":`...)
		} else {
			dst = append(dst, ',')
		}
		if dst, err = e.body(dst, ctx); err != nil {
			return dst, err
		}
		tail()
	}
	return append(dst, '}'), nil
}

// ContextEdit is a context_edit entry for targetID whose replacement
// content content appends when the entry is written (not held: Content is
// nil).
func ContextEdit(targetID string, content func(dst []byte, ctx *session.Context) ([]byte, error)) *NewEntry {
	return &NewEntry{Type: "context_edit", TargetID: targetID, body: content}
}

func customEntry(ctype string, data []byte) *NewEntry {
	return &NewEntry{Type: "custom", CustomType: ctype, body: func(dst []byte, _ *session.Context) ([]byte, error) {
		return append(dst, data...), nil
	}}
}

// SummaryMessage is a context-prune-summary a flush writes: the custom
// message pi builds from its entry, for the rendered context.
type SummaryMessage struct {
	// Content is the summary's text; "" when the flush keeps it in its
	// FlushOptions.Texts (Text reads it back).
	Content string
	at      storedText
	// the flush's summary (its details are written from its records when
	// the message or the entry is: AppendDetails): its records (the batch's, in order: n of
	// them from rec0 in the state's recs, where the flush appends them in
	// a row) and the number of its first ref (refs are allocated in a
	// row), its turn and time
	st         *State
	rec0, n    int32
	firstRef   int
	turnIndex  int
	batchMilli int64
}

// AppendDetails appends the summary's details JSON to dst (makeSummaryDetails:
// refs, tool names, turn and time).
func (s *SummaryMessage) AppendDetails(dst []byte) []byte {
	if s.st == nil {
		return dst
	}
	dst = append(dst, `{"toolCallRefs":[`...)
	recs := s.st.recs[s.rec0 : s.rec0+s.n]
	for i := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &recs[i]
		dst = appendRef(dst, "t"+strconv.Itoa(s.firstRef+i), s.st.recID(r), r.resultTimestamp())
	}
	dst = append(dst, `],"toolNames":[`...)
	for i := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsval.AppendString(dst, s.st.recName(&recs[i]))
	}
	dst = append(dst, `],"turnIndex":`...)
	dst = strconv.AppendInt(dst, int64(s.turnIndex), 10)
	dst = append(dst, `,"timestamp":`...)
	dst = strconv.AppendInt(dst, s.batchMilli, 10)
	return append(dst, '}')
}

// AppendMessage appends the custom message pi's buildSessionContext makes
// of the summary entry (createCustomMessage's key order), with the entry's
// time in ms.
// Errors are errors reading the text back from the flush's TextStore.
func (s *SummaryMessage) AppendMessage(dst []byte, millis int64) ([]byte, error) {
	dst = append(dst, `{"role":"custom","customType":"`+TypeSummary+`","content":`...)
	dst, err := s.appendContent(dst)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"display":false,"details":`...)
	dst = s.AppendDetails(dst)
	dst = append(dst, `,"timestamp":`...)
	return append(strconv.AppendInt(dst, millis, 10), '}'), nil
}

// Text is the summary's text: Content, or read back from the flush's
// TextStore (errors are its read's).
func (s *SummaryMessage) Text() (string, error) {
	if s.at.n == 0 {
		return s.Content, nil
	}
	return s.st.load(s.at)
}

// appendContent appends the summary's text to dst as a JSON string (read
// back from the flush's TextStore when it keeps it: no string made).
func (s *SummaryMessage) appendContent(dst []byte) ([]byte, error) {
	if s.at.n == 0 {
		return jsval.AppendString(dst, s.Content), nil
	}
	return s.st.appendStoredString(dst, s.at)
}

func summaryEntry(s *SummaryMessage) *NewEntry {
	return &NewEntry{Type: "custom_message", CustomType: TypeSummary, body: func(dst []byte, _ *session.Context) ([]byte, error) {
		dst = append(dst, `"content":`...)
		dst, err := s.appendContent(dst)
		if err != nil {
			return dst, err
		}
		dst = append(dst, `,"display":false,"details":`...)
		return s.AppendDetails(dst), nil
	}}
}

// appendRef appends a SummaryToolCallRef.
func appendRef(dst []byte, shortID, toolCallID string, ts *int64) []byte {
	dst = append(dst, `{"shortId":`...)
	dst = jsval.AppendString(dst, shortID)
	dst = append(dst, `,"toolCallId":`...)
	dst = jsval.AppendString(dst, toolCallID)
	if ts != nil {
		dst = append(dst, `,"resultTimestamp":`...)
		dst = strconv.AppendInt(dst, *ts, 10)
	}
	return append(dst, '}')
}

// spill is what a spilled record carries instead of its text.
type spill struct {
	path    string
	bytes   int
	preview string
	hash    string
}

// appendRecord appends a ToolCallRecord in addBatch's key order (the
// arguments read from ctx when the record left them there; a spilled
// record's applySpill keys after its own).
func appendRecord(dst []byte, ctx *session.Context, r *Record, textJSON []byte) ([]byte, error) {
	dst = append(dst, `{"toolCallId":`...)
	dst = jsval.AppendString(dst, r.ToolCallID)
	dst = append(dst, `,"toolName":`...)
	dst = jsval.AppendString(dst, r.ToolName)
	dst = append(dst, `,"args":`...)
	dst, err := appendArgs(dst, ctx, r.Args, r.argsAt)
	if err != nil {
		return dst, err
	}
	spilled := r.SpillPath != nil
	dst = append(dst, `,"resultText":`...)
	if spilled {
		dst = append(dst, `""`...)
	} else {
		dst = append(dst, textJSON...)
	}
	dst = append(dst, `,"isError":`...)
	dst = strconv.AppendBool(dst, r.IsError)
	dst = append(dst, `,"turnIndex":`...)
	dst = strconv.AppendInt(dst, int64(r.TurnIndex), 10)
	dst = append(dst, `,"timestamp":`...)
	dst = strconv.AppendInt(dst, r.Timestamp, 10)
	if r.ResultTimestamp != nil {
		dst = append(dst, `,"resultTimestamp":`...)
		dst = strconv.AppendInt(dst, *r.ResultTimestamp, 10)
	}
	if spilled {
		dst = append(dst, `,"spillPath":`...)
		dst = jsval.AppendString(dst, *r.SpillPath)
		dst = append(dst, `,"spillBytes":`...)
		dst = strconv.AppendInt(dst, *r.SpillBytes, 10)
		dst = append(dst, `,"resultPreview":`...)
		dst = jsval.AppendString(dst, *r.ResultPreview)
		dst = append(dst, `,"contentHash":`...)
		dst = jsval.AppendString(dst, *r.ContentHash)
	}
	return append(dst, '}'), nil
}

// entryCall is one record an index entry of the flush writes: the record
// (its index in the state's recs, where it is never changed) and where its
// result's text is — one text block located in the input, or the result
// message (a batch's call) or entry (a chain's backfilled call) to parse.
// The entries of a first flush of a long session hold one per call until
// they are written (or never, without --write): no more than this.
type entryCall struct {
	rec    int32
	text   textLoc
	result *session.Message
	entry  *session.BranchEntry
}

// appendTextJSON appends the JSON form of the call's resultText to dst
// (appendResultJSON).
func (e *entryCall) appendTextJSON(dst []byte, ctx *session.Context) ([]byte, error) {
	dst, _, err := e.appendTextJSONIn(dst, nil, ctx)
	return dst, err
}

// appendTextJSONIn is appendTextJSON with a text located in the input read
// into raw first (reused: returned).
func (e *entryCall) appendTextJSONIn(dst, raw []byte, ctx *session.Context) ([]byte, []byte, error) {
	if e.text.at.entry != 0 {
		var err error
		if raw, err = appendArgs(raw[:0], ctx, nil, e.text.at); err != nil {
			return dst, raw, err
		}
		return jsval.AppendCanonical(dst, raw), raw, nil
	}
	dst, err := appendResultJSON(dst, ctx, e.text, func(lt *lineTape) (uint32, bool, error) {
		var msg uint32
		var ok bool
		var err error
		if e.result != nil {
			msg, ok, err = lt.message(ctx, e.result)
		} else {
			msg, ok, err = lt.entryMessage(ctx, e.entry)
		}
		if err != nil {
			return 0, false, err
		}
		content, ok := lt.get(msg, ok, "content")
		return content, ok, nil
	})
	return dst, raw, err
}

// entryBufs are an index entry's buffers while it is written: a result's
// text as JSON and its raw string (State.entryBufs).
type entryBufs struct {
	text, raw []byte
}

// indexEntry is a context-prune-index entry for the records of one batch
// (st's, calls); the results' text is read from the input when the line is
// written.
func indexEntry(st *State, calls []entryCall) *NewEntry {
	var floor *int64
	if t, ok := callsFloor(st, calls); ok {
		floor = &t
	}
	return &NewEntry{Type: "custom", CustomType: TypeIndex, floor: floor, body: func(dst []byte, ctx *session.Context) ([]byte, error) {
		dst = append(dst, `{"toolCalls":[`...)
		var bufs entryBufs // a result's text as JSON and its raw string (reused)
		if st.entryBufs != nil {
			bufs = *st.entryBufs
			defer func() { *st.entryBufs = bufs }()
		}
		for i := range calls {
			if i > 0 {
				dst = append(dst, ',')
			}
			c := &calls[i]
			rc := st.unpack(&st.recs[c.rec])
			r := &rc
			bufs.text = bufs.text[:0]
			if r.SpillPath == nil {
				var err error
				if bufs.text, bufs.raw, err = c.appendTextJSONIn(bufs.text, bufs.raw, ctx); err != nil {
					return dst, err
				}
			}
			var err error
			if dst, err = appendRecord(dst, ctx, r, bufs.text); err != nil {
				return dst, err
			}
		}
		return append(dst, `]}`...), nil
	}}
}

// callsFloor is the earliest result time of the calls' records (an index
// entry's rewrite point; ok false: none has one).
func callsFloor(st *State, calls []entryCall) (floor int64, ok bool) {
	for i := range calls {
		r := &st.recs[calls[i].rec]
		if r.flags&recHasResTS != 0 && (!ok || r.resTS < floor) {
			floor, ok = r.resTS, true
		}
	}
	return floor, ok
}

// aliasData is a context-prune-dedup-alias's data.
func aliasData(newKey, originalKey string) []byte {
	nid, nts := ParseOccurrenceKey(newKey)
	oid, ots := ParseOccurrenceKey(originalKey)
	dst := []byte(`{"newToolCallId":`)
	dst = jsval.AppendString(dst, nid)
	dst = append(dst, `,"originalToolCallId":`...)
	dst = jsval.AppendString(dst, oid)
	if nts != nil {
		dst = append(dst, `,"newResultTimestamp":`...)
		dst = strconv.AppendInt(dst, *nts, 10)
	}
	if ots != nil {
		dst = append(dst, `,"originalResultTimestamp":`...)
		dst = strconv.AppendInt(dst, *ots, 10)
	}
	return append(dst, '}')
}

// frontierData encodes a frontier in pi-condense's key order.
func frontierData(f FrontierData) []byte {
	dst := []byte(`{"lastAttemptedToolCallId":`)
	dst = jsval.AppendString(dst, f.LastAttemptedToolCallID)
	dst = append(dst, `,"lastAttemptedToolName":`...)
	dst = jsval.AppendString(dst, f.LastAttemptedToolName)
	for _, kv := range []struct {
		k string
		v int64
	}{
		{"lastAttemptedTurnIndex", int64(f.LastAttemptedTurnIndex)},
		{"lastAttemptedTimestamp", f.LastAttemptedTimestamp},
		{"attemptedBatchCount", int64(f.AttemptedBatchCount)},
		{"attemptedToolCallCount", int64(f.AttemptedToolCallCount)},
		{"rawCharCount", int64(f.RawCharCount)},
		{"summaryCharCount", int64(f.SummaryCharCount)},
	} {
		dst = append(dst, `,"`+kv.k+`":`...)
		dst = strconv.AppendInt(dst, kv.v, 10)
	}
	dst = append(dst, `,"outcome":`...)
	dst = jsval.AppendString(dst, f.Outcome)
	return append(dst, '}')
}

// statsData encodes cumulative stats in pi-condense's key order.
func statsData(s StatsData) []byte {
	dst := []byte(`{"totalInputTokens":`)
	dst = strconv.AppendInt(dst, s.TotalInputTokens, 10)
	dst = append(dst, `,"totalOutputTokens":`...)
	dst = strconv.AppendInt(dst, s.TotalOutputTokens, 10)
	dst = append(dst, `,"totalCost":`...)
	dst = jsval.AppendNumber(dst, s.TotalCost)
	dst = append(dst, `,"callCount":`...)
	dst = strconv.AppendInt(dst, int64(s.CallCount), 10)
	dst = append(dst, `,"chainsCompressed":`...)
	dst = strconv.AppendInt(dst, int64(s.ChainsCompressed), 10)
	dst = append(dst, `,"rangesSummarized":`...)
	dst = strconv.AppendInt(dst, int64(s.RangesSummarized), 10)
	return append(dst, '}')
}

// flushMetricsData encodes a flush-metrics entry's data.
func flushMetricsData(m FlushMetrics) []byte {
	dst := []byte(`{"ts":`)
	dst = strconv.AppendInt(dst, m.TS, 10)
	dst = append(dst, `,"trigger":`...)
	dst = jsval.AppendString(dst, m.Trigger)
	dst = append(dst, `,"capturedBatches":`...)
	dst = strconv.AppendInt(dst, int64(m.CapturedBatches), 10)
	dst = append(dst, `,"processedBatches":`...)
	dst = strconv.AppendInt(dst, int64(m.ProcessedBatches), 10)
	dst = append(dst, `,"outcome":`...)
	dst = jsval.AppendString(dst, m.Outcome)
	dst = append(dst, `,"metrics":{"openCycleThinkingTokens":`...)
	dst = strconv.AppendInt(dst, int64(m.Metrics.OpenCycleThinkingTokens), 10)
	dst = append(dst, `,"largestChainSharePct":`...)
	dst = strconv.AppendInt(dst, int64(m.Metrics.LargestChainSharePct), 10)
	dst = append(dst, `,"frontierGapTokens":`...)
	dst = strconv.AppendInt(dst, int64(m.Metrics.FrontierGapTokens), 10)
	return append(dst, `}}`...)
}

// RangeSummary is the chain's range summary — RangeSummaryText, the
// deterministic body of a chain no summary covered, or the deterministic
// fusion of its summaries (and of its backfilled calls' bullets); a body
// or bullets the flush did not keep are written from its records and the
// input again (a failure to read them gives "", and State.TextErr says
// why) — and whether it has one.
func (c *ChainData) RangeSummary() (string, bool) {
	text, ok, _ := c.rangeSummary()
	return text, ok
}

// rangeSummary is RangeSummary with its error.
func (c *ChainData) rangeSummary() (string, bool, error) {
	switch {
	case c.RangeSummaryText != nil:
		return *c.RangeSummaryText, true, nil
	case c.body != nil:
		text, err := c.body.text(c.Refs())
		if err != nil {
			return "", true, err
		}
		return text, true, nil
	case c.backfill != nil:
		extra, err := c.backfill.summary()
		if err != nil {
			return "", true, err
		}
		fused, err := c.fusedTexts()
		if err != nil {
			return "", true, err
		}
		return summarize.FuseDeterministic(append(fused[:len(fused):len(fused)], extra), c.Refs()), true, nil
	case c.fused != nil || c.sums != nil:
		fused, err := c.fusedTexts()
		if err != nil {
			return "", true, err
		}
		return summarize.FuseDeterministic(fused, c.Refs()), true, nil
	}
	return "", false, nil
}

// fusedTexts are the summaries of the chain's deterministic fusion:
// fused, or read back from the state's TextStore (sums).
func (c *ChainData) fusedTexts() ([]string, error) {
	if c.sums != nil {
		return c.sums.texts()
	}
	return c.fused, nil
}

// entryMarks is what a flush with FlushOptions.NoEntries keeps of the
// entries it would append: how many, and where those that rewrite the
// prompt are (their rewrite points) — not the entries, which a run that
// only renders never writes (a first flush of 1 GB held ~35 MB of them).
type entryMarks struct {
	n      int
	floors []entryFloor
}

// entryFloor is an entry's rewrite point: its place among the entries,
// its floor and its customType.
type entryFloor struct {
	at    int
	floor int64
	kind  string
}

// add marks e.
func (m *entryMarks) add(e *NewEntry) {
	if e.floor != nil {
		m.floors = append(m.floors, entryFloor{at: m.n, floor: *e.floor, kind: e.CustomType})
	}
	m.n++
}

// then appends the marks of next, the entries that follow m's.
func (m *entryMarks) then(next entryMarks) {
	for _, f := range next.floors {
		f.at += m.n
		m.floors = append(m.floors, f)
	}
	m.n += next.n
}

// addEntry appends entries to the flush's (f.Entries), or marks them when
// the flush keeps none (FlushOptions.NoEntries).
func (f *Flushed) addEntry(es ...*NewEntry) {
	if !f.noEntries {
		f.Entries = append(f.Entries, es...)
		return
	}
	for _, e := range es {
		f.marks.add(e)
	}
}
