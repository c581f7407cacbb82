package session

import (
	"bytes"
	"unsafe"
)

// The per-entry index Read keeps while it reads: fixed-size records in
// chunks, ids as integers, strings in an arena, and no pointer in a
// per-line record (messages, entries, tool-result fields and call sets
// refer to each other and to their strings by index: msgRef, aref,
// callSet). Nothing here is allocated per line and almost nothing is
// scanned, so the collector has few objects to trace and little to mark
// however long the session is (1 GB of pi-derived input: 83 MB after Read,
// 0.08 bytes per input byte).

// idKey is an entry id as an integer: pi's ids are 8 lowercase hex digits,
// kept as their value (tag 1 in the high bits); any other id is interned in
// a table (tag 2). 0 is "no id".
type idKey uint64

const (
	keyHex   idKey = 1 << 32
	keyTable idKey = 2 << 32
)

func hexVal(c byte) (uint32, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	}
	return 0, false
}

// hexKey returns the key of an 8-hex-digit id (lowercase).
func hexKey(b []byte) (idKey, bool) {
	if len(b) != 8 {
		return 0, false
	}
	var v uint32
	for _, c := range b {
		h, ok := hexVal(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | h
	}
	return keyHex | idKey(v), true
}

// ids interns entry ids that are not 8 hex digits.
type ids struct {
	byStr map[string]idKey
	strs  []string
}

// key returns the key of id b (0 for ""), interning it.
func (t *ids) key(b []byte, a *arena) idKey {
	if len(b) == 0 {
		return 0
	}
	if k, ok := hexKey(b); ok {
		return k
	}
	if k, ok := t.byStr[string(b)]; ok {
		return k
	}
	if t.byStr == nil {
		t.byStr = map[string]idKey{}
	}
	s := a.str(b)
	k := keyTable | idKey(len(t.strs))
	t.strs = append(t.strs, s)
	t.byStr[s] = k
	return k
}

const hexDigitsLower = "0123456789abcdef"

// string returns the id of key k.
func (t *ids) string(k idKey) string {
	switch k &^ (1<<32 - 1) {
	case keyHex:
		var b [8]byte
		v := uint32(k)
		for i := 7; i >= 0; i-- {
			b[i] = hexDigitsLower[v&15]
			v >>= 4
		}
		return string(b[:])
	case keyTable:
		return t.strs[uint32(k)]
	}
	return ""
}

// arena holds the strings of a context in large blocks: a string is a view
// of arena bytes that are never written again. A string kept in the index
// is an aref (no pointer: the collector does not scan the records that
// hold them).
type arena struct {
	blocks [][]byte // the small strings' blocks and the large strings
	cur    int      // index+1 in blocks of the block small strings go to (0: none)
}

// aref is where a string is in an arena: the block's index+1 (24 bits),
// the offset in it (16 bits) and the length (24 bits; all ones: the rest
// of the block, a large string's own). 0 is "". 2^24 blocks hold a TB of
// small strings, or 16 M strings over 8 KiB (tool call ids, names and
// timestamps: none is near either).
type aref uint64

const (
	arenaBlock = 64 << 10
	arefWhole  = 1<<24 - 1
)

// add copies b into the arena and returns where it is.
func (a *arena) add(b []byte) aref {
	if len(b) == 0 {
		return 0
	}
	if len(b) > arenaBlock/8 {
		a.blocks = append(a.blocks, bytes.Clone(b))
		return aref(len(a.blocks))<<40 | arefWhole
	}
	if a.cur == 0 || len(a.blocks[a.cur-1])+len(b) > cap(a.blocks[a.cur-1]) {
		a.blocks = append(a.blocks, make([]byte, 0, arenaBlock))
		a.cur = len(a.blocks)
	}
	blk := &a.blocks[a.cur-1]
	s := len(*blk)
	*blk = append(*blk, b...)
	return aref(a.cur)<<40 | aref(s)<<24 | aref(len(b))
}

// addWhole copies b into a block of its own (for a few strings: no
// block of arenaBlock bytes) and returns where it is.
func (a *arena) addWhole(b []byte) aref {
	if len(b) == 0 {
		return 0
	}
	a.blocks = append(a.blocks, bytes.Clone(b))
	return aref(len(a.blocks))<<40 | arefWhole
}

// get returns the string at r (no copy).
func (a *arena) get(r aref) string {
	if r == 0 {
		return ""
	}
	blk := a.blocks[r>>40-1]
	off, n := int(r>>24&0xffff), int(r&arefWhole)
	if n == arefWhole {
		n = len(blk) - off
	}
	return unsafe.String(&blk[off], n)
}

// str returns a string with the bytes of b.
func (a *arena) str(b []byte) string { return a.get(a.add(b)) }

// entry is the index record of one session entry (everything pi keeps in its
// entries array except the header): 24 bytes, no pointer. Its line's place
// is in loc, a Message that is the entry's message for a message entry
// (isMsg) and a bare location otherwise.
type entry struct {
	id, par uint32 // the low bits of the entry's and its parent's idKeys (tags: the high ones)
	loc     msgRef
	x       int32 // index of the entry's extra fields; -1 for most entries
	typ     uint8 // index into builder.types
	idTag   uint8
	parTag  uint8
	isMsg   bool // loc is the entry's message
	sysRole bool // message entry with role "system"
	local   bool // par is the id of the entry just before (resolved by position unless that id repeats)
}

// key is the entry's idKey.
func (e *entry) key() idKey { return idKey(e.idTag)<<32 | idKey(e.id) }

// parent is the idKey of the entry's parent.
func (e *entry) parent() idKey { return idKey(e.parTag)<<32 | idKey(e.par) }

func (e *entry) setKeys(id, par idKey) {
	e.id, e.idTag, e.par, e.parTag = uint32(id), uint8(id>>32), uint32(par), uint8(par>>32)
}

// entryExtra holds what compaction, branch_summary, custom and context_edit
// entries add (kept out of entry so the per-line index stays small).
type entryExtra struct {
	firstKept idKey  // compaction
	fkIndex   int    // v1 compaction firstKeptEntryIndex, -1 when absent
	hasSysMsg bool   // compaction with a systemMessage checkpoint
	summaryOK bool   // branch_summary with a truthy summary
	targetID  idKey  // context_edit
	replNull  bool   // context_edit replacement null
	replRaw   []byte // context_edit replacement.content raw
	replStr   bool   // replacement.content is a string
	ctype     string // custom, custom_message: customType
}

// entryList stores the index in fixed-size chunks: appending never copies
// what is stored (no doubling peaks on large sessions).
type entryList struct {
	chunks [][]entry
	n      int
}

const entryChunk = 4096

func (l *entryList) len() int { return l.n }

func (l *entryList) at(i int) *entry { return &l.chunks[i/entryChunk][i%entryChunk] }

func (l *entryList) add(e entry) {
	if l.n%entryChunk == 0 {
		l.chunks = append(l.chunks, make([]entry, 0, entryChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, e)
	l.n++
}
