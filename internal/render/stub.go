package render

import (
	"strings"

	"github.com/pruner-dev/pruner/internal/index"
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
	return jsval.AppendObject(nil, ms)
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
		if s.m == nil || int(s.src) < from || s.m.Role() != session.RoleToolResult || s.m.ToolName() != QueryToolName {
			continue
		}
		out[r.keyOf(int(s.src))] = true
	}
	return out
}

// recordProtected is the render-time re-check: the record's call is
// protected under the current config (or its arguments cannot be read
// again).
func (r *renderer) recordProtected(rec *index.Record) bool {
	if r.o.Protect == nil || rec == nil {
		return false
	}
	args, err := r.st.AppendRecordArgs(r.args[:0], rec) // a record the flush made reads them from the input
	r.args = args
	if err != nil {
		return true // fail closed: the result stays as it is
	}
	v, ok := jsval.Get(args, "path")
	if !ok {
		v = nil
	}
	return r.memo().protectedRaw(rec.ToolName, v)
}

// stubReplace is phase 1.
func (r *renderer) stubReplace() error {
	if r.st.Len() == 0 && len(r.st.Aliases()) == 0 {
		return nil
	}
	grace := r.graceKeys()
	for i := range r.slots {
		s := &r.slots[i]
		if s.m == nil || s.m.Role() != session.RoleToolResult {
			continue
		}
		key := r.keyOf(int(s.src))
		lookup := ""
		switch {
		case r.st.IsSummarized(key):
			lookup = key
		case r.st.HasLegacyBareRecord(s.m.ToolCallID()):
			lookup = s.m.ToolCallID()
		default:
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
		ref, ok := r.st.ShortRef(lookup)
		if !ok {
			ref = s.m.ToolCallID()
		}
		var spilled *index.Record // a plain stub is its ref alone: no record held per stub
		if found && rc.SpillPath != nil {
			c := rc
			spilled = &c
		}
		s.setStub(r.newStub(spilled, ref))
		s.change = s.stub().change()
		if s.change == SpillStubbed {
			r.rep.SpillStubbed++
		} else {
			r.rep.Stubbed++
		}
	}
	return nil
}

// stubSpec is an indexed result's stub, built from the source message
// when it is written (stubMessage).
type stubSpec struct {
	rec *index.Record
	ref string
}

// newStub returns a stub spec, from chunks (one allocation per
// stubChunk stubs).
func (r *renderer) newStub(rec *index.Record, ref string) *stubSpec {
	const stubChunk = 1024
	if len(r.specs) == cap(r.specs) {
		r.specs = make([]stubSpec, 0, stubChunk)
	}
	r.specs = append(r.specs, stubSpec{rec, ref})
	return &r.specs[len(r.specs)-1]
}

func (sp *stubSpec) change() Change {
	if sp.rec != nil && sp.rec.SpillPath != nil {
		return SpillStubbed
	}
	return Stubbed
}

// append appends the stub of the source message orig to dst.
func (sp *stubSpec) append(dst, orig []byte) []byte {
	b, _ := stubMessage(dst, orig, sp.rec, sp.ref)
	return b
}

// stubMessage builds pi-condense's replacement toolResult for an indexed
// result: role, toolCallId, toolName, one text block, isError false,
// timestamp — fields absent from the original are left out.
func stubMessage(dst, orig []byte, rec *index.Record, ref string) ([]byte, Change) {
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
	b := append(dst, `{"role":"toolResult"`...)
	for _, k := range [...]string{"toolCallId", "toolName"} {
		if v, ok := jsval.Get(orig, k); ok {
			b = append(b, ',')
			b = jsval.AppendString(b, k)
			b = append(b, ':')
			b = jsval.AppendCanonical(b, v)
		}
	}
	b = append(b, `,"content":`...)
	b = appendTextContent(b, text)
	b = append(b, `,"isError":false`...)
	if v, ok := jsval.Get(orig, "timestamp"); ok {
		b = append(b, `,"timestamp":`...)
		b = jsval.AppendCanonical(b, v)
	}
	return append(b, '}'), change
}
