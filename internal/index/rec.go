package index

// rec is a Record as the state holds it: the fields every record has, a
// third of Record's pointers, and what few records have (arguments or a
// text held in memory, a spill) out of line — a first flush of a long
// session holds hundreds of thousands of records until it is written.
type rec struct {
	id, name       string
	argsAt, textAt textRef
	ts, resTS      int64
	turn           int
	flags          uint8
	extra          *recExtra
}

// rec flags
const (
	recHasResTS = 1 << iota
	recIsError
	recArgsCanonical
)

// recExtra is the rest of a Record, for the records that have it.
type recExtra struct {
	args                                  []byte
	resultText                            string
	spillPath, resultPreview, contentHash *string
	spillBytes                            *int64
}

// packRecord is r as the state holds it.
func packRecord(r *Record) rec {
	c := rec{id: r.ToolCallID, name: r.ToolName, argsAt: r.argsAt, textAt: r.textAt, ts: r.Timestamp, turn: r.TurnIndex}
	if r.ResultTimestamp != nil {
		c.resTS, c.flags = *r.ResultTimestamp, c.flags|recHasResTS
	}
	if r.IsError {
		c.flags |= recIsError
	}
	if r.argsCanonical {
		c.flags |= recArgsCanonical
	}
	if r.Args != nil || r.ResultText != "" || r.SpillPath != nil || r.SpillBytes != nil || r.ResultPreview != nil || r.ContentHash != nil {
		c.extra = &recExtra{args: r.Args, resultText: r.ResultText, spillPath: r.SpillPath, resultPreview: r.ResultPreview, contentHash: r.ContentHash, spillBytes: r.SpillBytes}
	}
	return c
}

// record is the Record c holds (a new one: changing it changes nothing in
// the state).
func (c *rec) record() Record {
	r := Record{ToolCallID: c.id, ToolName: c.name, IsError: c.flags&recIsError != 0, TurnIndex: c.turn, Timestamp: c.ts,
		argsCanonical: c.flags&recArgsCanonical != 0, textAt: c.textAt, argsAt: c.argsAt}
	if c.flags&recHasResTS != 0 {
		ts := c.resTS
		r.ResultTimestamp = &ts
	}
	if x := c.extra; x != nil {
		r.Args, r.ResultText, r.SpillPath, r.ResultPreview, r.ContentHash, r.SpillBytes = x.args, x.resultText, x.spillPath, x.resultPreview, x.contentHash, x.spillBytes
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
