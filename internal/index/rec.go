package index

// rec is a Record as the state holds it: the fields every record has, no
// pointer, and what few records have (arguments or a text held in memory,
// a spill, a turn index beyond 32 bits) out of line in the state's extras
// — a first flush of a long session holds hundreds of thousands of records
// until it is written. The toolCallId is the first idLen bytes of the
// record's occurrence key (keys[key].key: the id, or the id, "@" and the
// result time), the tool name an index in the state's names: 72 bytes a
// record the collector does not scan (was 80 with a pointer, 104 with two
// strings).
type rec struct {
	argsAt, textAt textRef
	ts, resTS      int64
	// turn is the TurnIndex (recWideTurn: in the record's extra)
	turn int32
	// extra is the index plus one of the record's recExtra in
	// State.extras (0: none)
	extra      int32
	key, idLen int32
	name       int32
	flags      uint8
}

// rec flags
const (
	recHasResTS = 1 << iota
	recIsError
	recArgsCanonical
	recWideTurn
)

// recExtra is the rest of a Record, for the records that have it.
type recExtra struct {
	args                                  []byte
	resultText                            string
	spillPath, resultPreview, contentHash *string
	spillBytes                            *int64
	turn                                  int // TurnIndex when recWideTurn
}

// packRecord is r as s holds it under the key id kid (r's occurrence
// key: its toolCallId is the key's first bytes).
func (s *State) packRecord(r *Record, kid int32) rec {
	c := rec{key: kid, idLen: int32(len(r.ToolCallID)), name: s.nameID(r.ToolName), argsAt: r.argsAt, textAt: r.textAt, ts: r.Timestamp, turn: int32(r.TurnIndex)}
	wide := int(c.turn) != r.TurnIndex
	if wide {
		c.turn, c.flags = 0, c.flags|recWideTurn
	}
	if r.ResultTimestamp != nil {
		c.resTS, c.flags = *r.ResultTimestamp, c.flags|recHasResTS
	}
	if r.IsError {
		c.flags |= recIsError
	}
	if r.argsCanonical {
		c.flags |= recArgsCanonical
	}
	if wide || r.Args != nil || r.ResultText != "" || r.SpillPath != nil || r.SpillBytes != nil || r.ResultPreview != nil || r.ContentHash != nil {
		x := recExtra{args: r.Args, resultText: r.ResultText, spillPath: r.SpillPath, resultPreview: r.ResultPreview, contentHash: r.ContentHash, spillBytes: r.SpillBytes}
		if wide {
			x.turn = r.TurnIndex
		}
		s.extras = append(s.extras, x)
		c.extra = int32(len(s.extras))
	}
	return c
}

// nameID is the index of a tool name in s.names (added when new).
func (s *State) nameID(name string) int32 {
	if id, ok := s.nameIDs[name]; ok {
		return id
	}
	if s.nameIDs == nil {
		s.nameIDs = map[string]int32{}
	}
	id := int32(len(s.names))
	s.names = append(s.names, name)
	s.nameIDs[name] = id
	return id
}

// recID and recName are the record's toolCallId and toolName.
func (s *State) recID(c *rec) string   { return s.keys[c.key].key[:c.idLen] }
func (s *State) recName(c *rec) string { return s.names[c.name] }

// unpack is the Record c holds (a new one: changing it changes nothing in
// the state).
func (s *State) unpack(c *rec) Record {
	r := Record{ToolCallID: s.recID(c), ToolName: s.recName(c), IsError: c.flags&recIsError != 0, TurnIndex: int(c.turn), Timestamp: c.ts,
		argsCanonical: c.flags&recArgsCanonical != 0, textAt: c.textAt, argsAt: c.argsAt}
	if c.flags&recHasResTS != 0 {
		ts := c.resTS
		r.ResultTimestamp = &ts
	}
	if c.extra > 0 {
		x := &s.extras[c.extra-1]
		r.Args, r.ResultText, r.SpillPath, r.ResultPreview, r.ContentHash, r.SpillBytes = x.args, x.resultText, x.spillPath, x.resultPreview, x.contentHash, x.spillBytes
		if c.flags&recWideTurn != 0 {
			r.TurnIndex = x.turn
		}
	}
	return r
}

// resultTimestamp is the record's ResultTimestamp (nil: none).
func (c *rec) resultTimestamp() *int64 {
	if c.flags&recHasResTS == 0 {
		return nil
	}
	ts := c.resTS
	return &ts
}
