package index

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// Decoding of pi-condense's entry data as its rebuild reads it: keys match
// exactly (JSON.parse; goccy/go-json would match "ToolCallID" too), fields
// are checked with the typeof tests pi-condense applies, and what it would
// crash on or silently mis-key is reported as an error for the caller to
// warn about and skip.

// ErrNotObject is returned for data that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// timestampOf reads an optional occurrence timestamp: absent or null →
// nil; a number that is a whole millisecond count → its value; anything
// else is an error (pi-condense would key it under a string that no message
// can ever match).
func timestampOf(obj fields, key string) (*int64, error) {
	v, ok := obj[key]
	return timestampValue(v, ok, key)
}

// timestampValue is timestampOf of the value v of key (ok: present).
func timestampValue(v []byte, ok bool, key string) (*int64, error) {
	if !ok || jsval.TypeOf(v) == jsval.Null {
		return nil, nil
	}
	f, ok := jsval.Number(v)
	if !ok {
		return nil, fmt.Errorf("%s is %s, not a number", key, describe(v))
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return nil, fmt.Errorf("%s %s is not a whole number of milliseconds", key, bytes.TrimSpace(v))
	}
	n := int64(f)
	return &n, nil
}

// describe names a raw value's type for a warning.
func describe(v []byte) string {
	switch jsval.TypeOf(v) {
	case jsval.Null:
		return "null"
	case jsval.Bool:
		return "a boolean"
	case jsval.Num:
		return "a number"
	case jsval.Str:
		return "a string"
	case jsval.Arr:
		return "an array"
	case jsval.Obj:
		return "an object"
	}
	return "invalid"
}

// fields is an object's members by key (jsval.Object).
type fields = map[string][]byte

func getString(obj fields, key string) (string, bool) {
	v, ok := obj[key]
	if !ok {
		return "", false
	}
	return jsval.String(v)
}

func getInt(obj fields, key string) (int64, bool) {
	v, ok := obj[key]
	if !ok {
		return 0, false
	}
	return intValue(v)
}

// intValue is a number value as an integer (truncated), false when it is
// not a finite number within half of int64's range.
func intValue(v []byte) (int64, bool) {
	f, ok := jsval.Number(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if f > math.MaxInt64/2 || f < math.MinInt64/2 {
		return 0, false
	}
	return int64(f), true
}

func getFloat(obj fields, key string) (float64, bool) {
	v, ok := obj[key]
	if !ok {
		return 0, false
	}
	return jsval.Number(v)
}

// DecodeRecord decodes one ToolCallRecord of an index entry. A record that
// is not an object or has no non-empty string toolCallId, or whose
// resultTimestamp is not a whole number, is an error.
func DecodeRecord(raw []byte) (Record, error) {
	r, _, err := decodeRecord(raw, recordFull)
	return r, err
}

// recordMode is what decodeRecord decodes of a record.
type recordMode uint8

const (
	recordFull     recordMode = iota // every field (DecodeRecord)
	recordKeysOnly                   // no arguments, result text or preview (RebuildKeys)
	recordLazyText                   // every field but the result text, whose raw value is returned
)

// decodeRecord is DecodeRecord in one pass over the record's members (the
// last of duplicate keys wins, as with JSON.parse); in recordLazyText mode
// ResultText is left empty and text is its raw JSON value (nil: absent),
// a subslice of raw.
func decodeRecord(raw []byte, mode recordMode) (r Record, text []byte, err error) {
	var vID, vName, vArgs, vText, vIsError, vTurn, vTS, vResultTS, vSpillPath, vSpillBytes, vPreview, vHash []byte
	var hasID, hasName, hasArgs, hasText, hasIsError, hasTurn, hasTS, hasResultTS, hasSpillPath, hasSpillBytes, hasPreview, hasHash bool
	var kbuf []byte
	isObj := jsval.TypeOf(raw) == jsval.Obj && jsval.EachMemberRaw(raw, func(rawKey, v []byte) bool {
		var k []byte
		k, kbuf = memberKey(rawKey, kbuf)
		switch string(k) {
		case "toolCallId":
			vID, hasID = v, true
		case "toolName":
			vName, hasName = v, true
		case "args":
			vArgs, hasArgs = v, true
		case "resultText":
			vText, hasText = v, true
		case "isError":
			vIsError, hasIsError = v, true
		case "turnIndex":
			vTurn, hasTurn = v, true
		case "timestamp":
			vTS, hasTS = v, true
		case "resultTimestamp":
			vResultTS, hasResultTS = v, true
		case "spillPath":
			vSpillPath, hasSpillPath = v, true
		case "spillBytes":
			vSpillBytes, hasSpillBytes = v, true
		case "resultPreview":
			vPreview, hasPreview = v, true
		case "contentHash":
			vHash, hasHash = v, true
		}
		return true
	})
	if !isObj {
		return r, nil, fmt.Errorf("tool call record is %s, not an object", describe(raw))
	}
	id, ok := stringOf(vID, hasID)
	if !ok || id == "" {
		return r, nil, errors.New("tool call record without a toolCallId string")
	}
	r.ToolCallID = id
	r.ToolName, _ = stringOf(vName, hasName)
	if hasArgs && mode != recordKeysOnly {
		r.Args = bytes.Clone(vArgs)
	}
	switch mode {
	case recordFull:
		r.ResultText, _ = stringOf(vText, hasText)
	case recordLazyText:
		if hasText {
			text = vText
		}
	}
	if hasIsError {
		r.IsError = jsval.Truthy(vIsError)
	}
	if n, ok := intOf(vTurn, hasTurn); ok {
		r.TurnIndex = int(n)
	}
	r.Timestamp, _ = intOf(vTS, hasTS)
	ts, err := timestampValue(vResultTS, hasResultTS, "resultTimestamp")
	if err != nil {
		return r, nil, fmt.Errorf("record %s: %w", id, err)
	}
	r.ResultTimestamp = ts
	if s, ok := stringOf(vSpillPath, hasSpillPath); ok && s != "" {
		r.SpillPath = &s
	}
	if n, ok := intOf(vSpillBytes, hasSpillBytes); ok {
		r.SpillBytes = &n
	}
	if s, ok := stringOf(vPreview, hasPreview); ok && mode != recordKeysOnly {
		r.ResultPreview = &s
	}
	if s, ok := stringOf(vHash, hasHash); ok {
		r.ContentHash = &s
	}
	return r, text, nil
}

// memberKey is the decoded key of a raw JSON member key: its body when it
// has no escape (no copy), else decoded into buf (returned for reuse).
func memberKey(rawKey, buf []byte) (key, _ []byte) {
	if len(rawKey) < 2 {
		return nil, buf
	}
	body := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return body, buf
	}
	s, _ := jsval.String(rawKey)
	buf = append(buf[:0], s...)
	return buf, buf
}

func stringOf(v []byte, ok bool) (string, bool) {
	if !ok {
		return "", false
	}
	return jsval.String(v)
}

func intOf(v []byte, ok bool) (int64, bool) {
	if !ok {
		return 0, false
	}
	return intValue(v)
}

// decodeRef decodes a {shortId, toolCallId, resultTimestamp?} ref. ok is
// false (with a reason) when pi-condense would skip or crash on it.
func decodeRef(raw []byte) (ToolCallRef, error) {
	var ref ToolCallRef
	if jsval.TypeOf(raw) != jsval.Obj {
		return ref, fmt.Errorf("ref is %s, not an object", describe(raw))
	}
	obj := jsval.Object(raw)
	var ok bool
	if ref.ShortID, ok = getString(obj, "shortId"); !ok || ref.ShortID == "" {
		return ref, errors.New("ref without a shortId string")
	}
	if ref.ToolCallID, ok = getString(obj, "toolCallId"); !ok || ref.ToolCallID == "" {
		return ref, errors.New("ref without a toolCallId string")
	}
	ts, err := timestampOf(obj, "resultTimestamp")
	if err != nil {
		return ref, fmt.Errorf("ref %s: %w", ref.ShortID, err)
	}
	ref.ResultTimestamp = ts
	return ref, nil
}

// stringList decodes an array, keeping its string items; ok is false when v
// is not an array.
func stringList(v []byte) ([]string, bool) {
	els, ok := jsval.Elements(v)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(els))
	for _, el := range els {
		if s, ok := jsval.String(el); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// DecodeChain decodes a context-prune-chain entry's data. pi-condense keeps
// an entry with a truthy blockId and a numeric startUserTimestamp; anything
// else is an error.
func DecodeChain(raw []byte) (ChainData, error) {
	var c ChainData
	if jsval.TypeOf(raw) != jsval.Obj {
		return c, ErrNotObject
	}
	data := jsval.Object(raw)
	bv := data["blockId"]
	if !jsval.Truthy(bv) {
		return c, errors.New("chain without a blockId")
	}
	c.BlockID, _ = jsval.String(bv)
	if c.BlockID == "" {
		return c, fmt.Errorf("chain blockId is %s, not a string", describe(bv))
	}
	f, ok := getFloat(data, "startUserTimestamp")
	if !ok || f != math.Trunc(f) {
		return c, fmt.Errorf("chain %s without a numeric startUserTimestamp", c.BlockID)
	}
	c.StartUserTimestamp = int64(f)
	if v, ok := data["droppedToolCallIds"]; ok {
		c.DroppedToolCallIDs, _ = stringList(v)
	}
	if v, ok := data["protectedToolCallIds"]; ok {
		c.ProtectedToolCallIDs, _ = stringList(v)
	}
	if v, ok := data["droppedOccurrenceKeys"]; ok {
		c.DroppedOccurrenceKeys, _ = stringList(v)
	}
	if v, ok := data["toolRefs"]; ok {
		c.ToolRefs, _ = stringList(v)
	}
	if f, ok := getFloat(data, "finalAssistantTimestamp"); ok && f == math.Trunc(f) {
		n := int64(f)
		c.FinalAssistantTimestamp = &n
	}
	c.CompressedAt, _ = getInt(data, "compressedAt")
	if s, ok := getString(data, "rangeSummaryText"); ok {
		c.RangeSummaryText = &s
	}
	c.BodySource, _ = getString(data, "bodySource")
	return c, nil
}

// DecodeDedupAlias decodes a context-prune-dedup-alias entry's data (both
// ids must be non-empty strings).
func DecodeDedupAlias(raw []byte) (DedupAlias, error) {
	var a DedupAlias
	if jsval.TypeOf(raw) != jsval.Obj {
		return a, ErrNotObject
	}
	data := jsval.Object(raw)
	var ok bool
	if a.NewToolCallID, ok = getString(data, "newToolCallId"); !ok || a.NewToolCallID == "" {
		return a, errors.New("dedup alias without a newToolCallId string")
	}
	if a.OriginalToolCallID, ok = getString(data, "originalToolCallId"); !ok || a.OriginalToolCallID == "" {
		return a, errors.New("dedup alias without an originalToolCallId string")
	}
	var err error
	if a.NewResultTimestamp, err = timestampOf(data, "newResultTimestamp"); err != nil {
		return a, fmt.Errorf("dedup alias: %w", err)
	}
	if a.OriginalResultTimestamp, err = timestampOf(data, "originalResultTimestamp"); err != nil {
		return a, fmt.Errorf("dedup alias: %w", err)
	}
	return a, nil
}

// DecodeFrontier decodes a context-prune-frontier entry's data with
// pi-condense's defaults for missing fields; ok is false when it has no
// lastAttemptedToolCallId (pi-condense then keeps the previous frontier).
func DecodeFrontier(raw []byte) (FrontierData, bool) {
	var f FrontierData
	if jsval.TypeOf(raw) != jsval.Obj {
		return f, false
	}
	data := jsval.Object(raw)
	v := data["lastAttemptedToolCallId"]
	if !jsval.Truthy(v) {
		return f, false
	}
	f.LastAttemptedToolCallID, _ = jsval.String(v)
	f.LastAttemptedToolName = "unknown"
	if s, ok := getString(data, "lastAttemptedToolName"); ok {
		f.LastAttemptedToolName = s
	}
	n, _ := getInt(data, "lastAttemptedTurnIndex")
	f.LastAttemptedTurnIndex = int(n)
	f.LastAttemptedTimestamp, _ = getInt(data, "lastAttemptedTimestamp")
	n, _ = getInt(data, "attemptedBatchCount")
	f.AttemptedBatchCount = int(n)
	n, _ = getInt(data, "attemptedToolCallCount")
	f.AttemptedToolCallCount = int(n)
	n, _ = getInt(data, "rawCharCount")
	f.RawCharCount = int(n)
	n, _ = getInt(data, "summaryCharCount")
	f.SummaryCharCount = int(n)
	f.Outcome = "summarized"
	if s, ok := getString(data, "outcome"); ok {
		f.Outcome = s
	}
	return f, true
}

// DecodeStats decodes a context-prune-stats entry's data (missing fields 0).
func DecodeStats(raw []byte) (StatsData, bool) {
	var s StatsData
	if jsval.TypeOf(raw) != jsval.Obj {
		return s, false
	}
	data := jsval.Object(raw)
	s.TotalInputTokens, _ = getInt(data, "totalInputTokens")
	s.TotalOutputTokens, _ = getInt(data, "totalOutputTokens")
	s.TotalCost, _ = getFloat(data, "totalCost")
	n, _ := getInt(data, "callCount")
	s.CallCount = int(n)
	n, _ = getInt(data, "chainsCompressed")
	s.ChainsCompressed = int(n)
	n, _ = getInt(data, "rangesSummarized")
	s.RangesSummarized = int(n)
	return s, true
}

// summaryText is the text of a summary's content as pi-condense's rebuild
// reads it: a string, or the text blocks of an array joined with "\n".
func summaryText(content []byte) string {
	if s, ok := jsval.String(content); ok {
		return s
	}
	els, ok := jsval.Elements(content)
	if !ok {
		return ""
	}
	var parts []string
	for _, el := range els {
		obj := jsval.Object(el)
		if t, _ := getString(obj, "type"); t != "text" {
			continue
		}
		s, _ := getString(obj, "text")
		parts = append(parts, s)
	}
	return joinLines(parts)
}

func joinLines(parts []string) string {
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, p...)
	}
	return string(b)
}

// summaryRefs is pi-condense's normalizeSummaryToolCallRefs over a
// summary's details: details.toolCallRefs (refs with a string shortId and
// toolCallId; resultTimestamp only when a number), else the legacy
// details.toolCallIds (each id its own shortId). bad lists refs skipped.
func summaryRefs(details []byte) (refs []ToolCallRef, bad []string) {
	if jsval.TypeOf(details) != jsval.Obj {
		return nil, nil
	}
	if v, ok := jsval.Get(details, "toolCallRefs"); ok && jsval.TypeOf(v) == jsval.Arr {
		els, _ := jsval.Elements(v)
		for i, el := range els {
			if jsval.TypeOf(el) != jsval.Obj {
				bad = append(bad, fmt.Sprintf("toolCallRefs[%d] is %s", i, describe(el)))
				continue
			}
			obj := jsval.Object(el)
			sid, ok1 := getString(obj, "shortId")
			tid, ok2 := getString(obj, "toolCallId")
			if !ok1 || !ok2 {
				bad = append(bad, fmt.Sprintf("toolCallRefs[%d] has no shortId/toolCallId strings", i))
				continue
			}
			ref := ToolCallRef{ShortID: sid, ToolCallID: tid}
			if tv, ok := obj["resultTimestamp"]; ok {
				// pi-condense drops a non-numeric resultTimestamp (bare key)
				if f, ok := jsval.Number(tv); ok {
					if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
						bad = append(bad, fmt.Sprintf("toolCallRefs[%d] resultTimestamp %s is not a whole number of milliseconds", i, bytes.TrimSpace(tv)))
						continue
					}
					n := int64(f)
					ref.ResultTimestamp = &n
				}
			}
			refs = append(refs, ref)
		}
		return refs, bad
	}
	if v, ok := jsval.Get(details, "toolCallIds"); ok && jsval.TypeOf(v) == jsval.Arr {
		ids, _ := stringList(v)
		for _, id := range ids {
			refs = append(refs, ToolCallRef{ShortID: id, ToolCallID: id})
		}
	}
	return refs, bad
}

// nonEmptyString reports whether jsval.AppendStringValue decodes v to a
// non-empty string, without decoding it: quoted, a body, and every escape
// one appendUnescaped decodes (Rebuild locates such a text in its line and
// decodes it only when asked for it).
func nonEmptyString(v []byte) bool {
	v = bytes.TrimLeft(bytes.TrimRight(v, " \t\n\r"), " \t\n\r")
	if len(v) < 3 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	body := v[1 : len(v)-1]
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return true
		}
		if i+1 >= len(body) {
			return false
		}
		switch body[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			body = body[i+2:]
		case 'u':
			if i+6 > len(body) || !isHex(body[i+2]) || !isHex(body[i+3]) || !isHex(body[i+4]) || !isHex(body[i+5]) {
				return false
			}
			body = body[i+6:]
		default:
			return false
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
