package render

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/turns"
)

// QueryToolName is pi-condense's recovery tool.
const QueryToolName = "context_tree_query"

// kv is one object member to set in spread.
type kv struct {
	key string
	val []byte // raw JSON
}

// spread is JavaScript's `{...obj, k1: v1, …}` for a raw object, written
// canonically: a key already present keeps its place with the new value, a
// new key goes last.
func spread(obj []byte, set ...kv) []byte {
	ms, _ := jsval.Members(obj)
	size := len(obj) // about the result's size, the buffer grown once
	for _, s := range set {
		size += len(s.val)
	}
	for _, s := range set {
		found := false
		for i := range ms {
			if ms[i].Key == s.key {
				ms[i].Value = s.val
				found = true
			}
		}
		if !found {
			ms = append(ms, jsval.Member{Key: s.key, Value: s.val})
		}
	}
	return jsval.AppendObject(make([]byte, 0, size), ms)
}

// textContent is `[{"type":"text","text":text}]`.
func textContent(text string) []byte { return appendTextContent(nil, text) }

// appendTextContent appends `[{"type":"text","text":text}]` to dst.
func appendTextContent(dst []byte, text string) []byte {
	dst = append(dst, `[{"type":"text","text":`...)
	dst = jsval.AppendString(dst, text)
	return append(dst, '}', ']')
}

// graceKeys is pi-condense's inGraceRecoveryToolCallIds: the occurrence
// keys of context_tree_query results in the last RecoveryGraceTurns+1 user
// turns (at most RecoveryGraceTurns user turns start after them). Turns are
// counted as everywhere else (internal/turns), where pi-condense counts
// every user message: a subagent notice or a <compressed-chain> message
// starts no turn, and after a compaction a result before the first user
// message in the context is outside the grace as soon as a turn starts in
// the context (its turn began in the compacted part).
func (r *renderer) graceKeys() map[string]bool {
	if r.o.RecoveryGraceTurns <= 0 {
		return nil
	}
	from := turns.Of(r.ctx).Window(r.o.RecoveryGraceTurns + 1)
	out := map[string]bool{}
	for i := range r.slots {
		s := &r.slots[i]
		if m := r.msg(s); m == nil || int(s.src) < from || m.Role() != session.RoleToolResult || m.ToolName() != QueryToolName {
			continue
		}
		out[r.keyOf(int(s.src))] = true
	}
	return out
}

// recordProtected is the render-time re-check: the record's call is
// protected under the current config (or its arguments, read again when
// the session decoder's path of the call may not be theirs, cannot be).
func (r *renderer) recordProtected(rec *index.Record) bool {
	if r.o.Protect == nil || rec == nil {
		return false
	}
	if r.memo().ToolProtected(rec.ToolName) {
		return true
	}
	// the call's path as the session decoder read it, when it is the one
	// the arguments hold: they are not read again
	if path, has, ok := decodedPath(r.st, rec); ok {
		return has && r.memo().PathProtected(path)
	}
	// a record the flush made reads them from the input, where it holds
	// them
	protected := false
	args, err := r.st.ViewRecordArgs(r.args, rec, func(args []byte) {
		v, ok := jsval.Get(args, "path")
		if !ok {
			v = nil
		}
		protected = r.memo().protectedRaw(rec.ToolName, v) // (its memo keeps copies)
	})
	r.args = args
	if err != nil {
		return true // fail closed: the result stays as it is
	}
	return protected
}

// stubReplace is phase 1.
func (r *renderer) stubReplace() error {
	if r.st.Len() == 0 && len(r.st.Aliases()) == 0 {
		return nil
	}
	grace := r.graceKeys()
	for i := range r.slots {
		s := &r.slots[i]
		m := r.msg(s)
		if m == nil || m.Role() != session.RoleToolResult {
			continue
		}
		// the key built in a reused buffer: looked up, never kept
		r.stubKey = appendMessageKey(r.stubKey[:0], m)
		key := bufString(r.stubKey)
		lookup, ok := stubLookup(r.st, m, key)
		if !ok {
			continue // not indexed: untouched (fail closed)
		}
		if r.hazard(s) {
			r.rep.Hazards++
			continue
		}
		rc, found := r.st.RecordOf(lookup)
		var rec *index.Record
		if found {
			rec = &rc
		}
		if r.recordProtected(rec) {
			r.rep.Repaired++
			continue
		}
		if grace[key] {
			r.rep.Graced++
			continue
		}
		// every stub shares one body: its ref and record are looked up
		// again when it is written (a long session's chains drop most
		// stubs, and a stub held 72 bytes and a ref string)
		if s.body == nil {
			s.body = r.stubBody()
		} else {
			s.setStub(r.stubBody().stub)
		}
		if found && rc.SpillPath != nil {
			s.change = SpillStubbed
			r.rep.SpillStubbed++
		} else {
			s.change = Stubbed
			r.rep.Stubbed++
		}
	}
	return nil
}

// stubLookup returns the key the result m (its occurrence key key) is
// indexed under: key, or its bare toolCallId for a legacy record; ok is
// false when it is not indexed.
func stubLookup(st *index.State, m *session.Message, key string) (lookup string, ok bool) {
	switch {
	case st.IsSummarized(key):
		return key, true
	case st.HasLegacyBareRecord(m.ToolCallID()):
		return m.ToolCallID(), true
	}
	return "", false
}

// stubSpec is an indexed result's stub, built from the source message
// when it is written (stubMessage), its ref and record looked up in the
// state the render ran with (which is not changed after).
type stubSpec struct {
	st *index.State
}

// stubBody is the body every stub of the render shares.
func (r *renderer) stubBody() *itemBody {
	if r.stubs == nil {
		r.stubs = &itemBody{stub: &stubSpec{st: r.st}}
	}
	return r.stubs
}

// append appends the stub of the source message orig to dst; m is the
// source message (its content, which the stub does not read, is passed
// over where the decoder located it).
func (sp *stubSpec) append(dst, orig []byte, m *session.Message) []byte {
	rec, ref := sp.of(m)
	cs, ce, ok := m.ContentRange()
	if !ok {
		cs, ce = -1, -1
	}
	b, _ := stubMessage(dst, orig, cs, ce, rec, ref)
	return b
}

// of returns what the stub of result m shows: its record when the result
// was spilled (nil for a plain stub) and its ref, as stubReplace found
// them.
func (sp *stubSpec) of(m *session.Message) (rec *index.Record, ref string) {
	var kb [64]byte
	lookup, ok := stubLookup(sp.st, m, string(appendMessageKey(kb[:0], m)))
	if !ok {
		return nil, m.ToolCallID() // (stubReplace stubs indexed results only)
	}
	if ref, ok = sp.st.ShortRef(lookup); !ok {
		ref = m.ToolCallID()
	}
	if rc, found := sp.st.RecordOf(lookup); found && rc.SpillPath != nil {
		rec = &rc
	}
	return rec, ref
}

// stubMessage builds pi-condense's replacement toolResult for an indexed
// result: role, toolCallId, toolName, one text block, isError false,
// timestamp — fields absent from the original are left out.
// The value at orig[cs:ce] (the source's content: ContentRange; cs < 0:
// none known) is passed over without reading it — a stub replaces a result
// of any size and needs none of it.
func stubMessage(dst, orig []byte, cs, ce int, rec *index.Record, ref string) ([]byte, Change) {
	text := "[Summarized in pruner summary, ref `" + ref + "`. Use context_tree_query to retrieve full output.]"
	change := Stubbed
	if rec != nil && rec.SpillPath != nil {
		change = SpillStubbed
		size := "?"
		if rec.SpillBytes != nil {
			size = jsval.FormatNumber(float64(*rec.SpillBytes))
		}
		preview := ""
		if rec.ResultPreview != nil {
			preview = *rec.ResultPreview
		}
		text = strings.Join([]string{
			"[Oversized output spilled to file — " + size + " bytes.]",
			"Tool: " + rec.ToolName,
			"Preview (head):",
			preview,
			"Full output — read this file (offset/limit supported): " + *rec.SpillPath,
			"Or use context_tree_query with ref `" + ref + "`.",
		}, "\n")
	}
	vals, has := stubFields(orig, cs, ce)
	b := append(dst, `{"role":"toolResult"`...)
	for k, key := range stubKeys[:2] {
		if has[k] {
			b = append(b, ',')
			b = jsval.AppendString(b, key)
			b = append(b, ':')
			b = jsval.AppendCanonical(b, vals[k])
		}
	}
	b = append(b, `,"content":`...)
	b = appendTextContent(b, text)
	b = append(b, `,"isError":false`...)
	if has[2] {
		b = append(b, `,"timestamp":`...)
		b = jsval.AppendCanonical(b, vals[2])
	}
	return append(b, '}'), change
}

// stubKeys are the members of its source a stub copies.
var stubKeys = [...]string{"toolCallId", "toolName", "timestamp"}

// stubFields returns the raw values of stubKeys in the object obj, each as
// jsval.Get finds it (exact key, the last duplicate wins), in one pass over
// its members — the value at obj[cs:ce] (cs < 0: none) jumped over, not
// scanned.
func stubFields(obj []byte, cs, ce int) (vals [len(stubKeys)][]byte, has [len(stubKeys)]bool) {
	space := func(i int) int {
		for i < len(obj) && (obj[i] == ' ' || obj[i] == '\t' || obj[i] == '\n' || obj[i] == '\r') {
			i++
		}
		return i
	}
	i := space(0)
	if i >= len(obj) || obj[i] != '{' {
		return vals, has
	}
	i++
	for {
		if i = space(i); i >= len(obj) {
			return vals, has
		}
		switch obj[i] {
		case '}':
			return vals, has
		case ',':
			i++
			continue
		case '"':
		default:
			return vals, has
		}
		ks := i
		i = jsonscan.SkipString(obj, i)
		rawKey := obj[ks:i]
		if i = space(i); i >= len(obj) || obj[i] != ':' {
			return vals, has
		}
		vs := space(i + 1)
		if vs == cs && cs < ce && ce <= len(obj) {
			i = ce // the content: a value the decoder read
		} else {
			i = jsonscan.SkipValue(obj, vs)
		}
		for k, key := range stubKeys {
			if keyIs(rawKey, key) {
				vals[k], has[k] = obj[vs:i], true
			}
		}
	}
}

// keyIs reports whether the raw JSON string rawKey decodes to key (as
// jsval.Get compares keys).
func keyIs(rawKey []byte, key string) bool {
	if len(rawKey) < 2 {
		return false
	}
	if body := rawKey[1 : len(rawKey)-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body) == key
	}
	k, _ := jsval.String(rawKey)
	return k == key
}
