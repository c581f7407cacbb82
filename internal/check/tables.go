package check

import (
	"fmt"
	"hash/maphash"
	"strings"
	"unsafe"
)

// The first pass's tables hold one record per entry and per tool call of
// a session of a million entries: pointer-free records of small integers
// (the collector has nothing to scan in them), ids as integers where pi
// writes them so (8 hex digits), strings once each in an arena.

// entryIDs is the first pass's table of entry ids: each id (an entry's, or
// a parentId naming one) is stored once, by slot; an entry's line and
// parent are slots' numbers.
type entryIDs struct {
	hex   map[uint32]int32 // ids of 8 lowercase hex digits (pi v3's, v1 stand-ins) → slot
	other map[string]int32 // every other id → slot
	key   []uint64         // slot → its id: the hex digits' value, or otherID|index in names
	names []string         // the ids that are not 8 hex digits
	line  []int32          // slot → the line of the entry with that id; 0: no entry (only named as a parentId)
	par   []int32          // slot → its entry's parentId's slot; -1: none
	order []int32          // slots of the entries with a parentId, in file order

	last     string // the id of() returned last and its slot: most parents are the entry before
	lastSlot int32
}

// otherID marks a key that indexes entryIDs.names.
const otherID = 1 << 32

func newEntryIDs() entryIDs {
	return entryIDs{hex: map[uint32]int32{}, other: map[string]int32{}, lastSlot: -1}
}

// hex8 reads an id of exactly 8 lowercase hex digits as its value: the
// value gives the id back (name), so two ids share a key only when they
// are the same.
func hex8(id string) (uint32, bool) {
	if len(id) != 8 {
		return 0, false
	}
	var v uint32
	for i := 0; i < 8; i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint32(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// of returns id's slot, adding it.
func (t *entryIDs) of(id string) int32 {
	if t.lastSlot >= 0 && id == t.last {
		return t.lastSlot
	}
	var s int32
	if v, ok := hex8(id); ok {
		var found bool
		if s, found = t.hex[v]; !found {
			s = t.newSlot(uint64(v))
			t.hex[v] = s
		}
	} else {
		var found bool
		if s, found = t.other[id]; !found {
			s = t.newSlot(otherID | uint64(len(t.names)))
			t.names = append(t.names, strings.Clone(id))
			t.other[t.names[len(t.names)-1]] = s
		}
	}
	t.last, t.lastSlot = id, s
	return s
}

func (t *entryIDs) newSlot(key uint64) int32 {
	s := int32(len(t.key))
	t.key = append(t.key, key)
	t.line = append(t.line, 0)
	t.par = append(t.par, -1)
	return s
}

// name is the id of slot s.
func (t *entryIDs) name(s int32) string {
	k := t.key[s]
	if k&otherID != 0 {
		return t.names[k&^otherID]
	}
	const digits = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = digits[k&0xf]
		k >>= 4
	}
	return string(b[:])
}

// add records the entry id on line num with parentID ("" for none); dup
// reports an id already used, with the line (prev) of its first entry,
// which keeps its parent.
func (t *entryIDs) add(id, parentID string, num int) (prev int, dup bool) {
	s := t.of(id)
	if t.line[s] != 0 {
		return int(t.line[s]), true
	}
	t.line[s] = int32(num)
	if parentID != "" {
		p := t.of(parentID)
		t.par[s] = p
		t.order = append(t.order, s)
		t.last, t.lastSlot = id, s // the next entry's parent, most likely
	}
	return 0, false
}

// cycles reports each parent cycle once, at the line of its first entry in
// file order.
func (t *entryIDs) cycles() []Finding {
	state := make([]uint8, len(t.key)) // 1 on the current walk, 2 done
	var out []Finding
	var walk []int32
	for _, start := range t.order { // file order: lines increase
		if state[start] != 0 {
			continue
		}
		walk = walk[:0]
		cur := start
		for {
			if state[cur] == 2 {
				break
			}
			if state[cur] == 1 {
				// cur is on this walk: the cycle is walk[idx(cur):]
				var members []int32
				for i := len(walk) - 1; i >= 0; i-- {
					members = append(members, walk[i])
					if walk[i] == cur {
						break
					}
				}
				minID := members[0]
				for _, m := range members {
					if t.line[m] < t.line[minID] {
						minID = m
					}
				}
				// in link order, from the entry first in the file: each id's
				// parentId is the next, the last's is the first again
				chain := []string{t.name(minID)}
				for p := t.par[minID]; p >= 0 && p != minID && len(chain) <= len(members); p = t.par[p] {
					chain = append(chain, t.name(p))
				}
				chain = append(chain, t.name(minID))
				out = append(out, Finding{Line: int(t.line[minID]), Kind: KindParentCycle, EntryID: t.name(minID),
					Message: fmt.Sprintf("parentId chain loops: %s", strings.Join(chain, " -> "))})
				break
			}
			state[cur] = 1
			walk = append(walk, cur)
			next := t.par[cur]
			if next < 0 || t.line[next] == 0 { // no parentId, or one no entry has
				break
			}
			cur = next
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return out
}

// callInfo is what a tool result needs to know about its call.
type callInfo struct {
	name    string
	path    string
	hasPath bool
}

// callTable maps tool call ids to what their results need (callInfo):
// records found by the id's hash, the id's bytes kept to compare (a hash
// shared by two ids sends the later one to a map of its own).
type callTable struct {
	seed    maphash.Seed
	byHash  map[uint64]int32 // hash of a call id → its record
	clashed map[string]int32 // call ids whose hash an earlier id has
	recs    []callRec
	tools   []string // tool names, by index
	toolIdx map[string]uint32
	arena   arena
}

type callRec struct {
	id, path span
	tool     uint32
	hasPath  bool
}

func newCallTable() callTable {
	return callTable{seed: maphash.MakeSeed(), byHash: map[uint64]int32{}, toolIdx: map[string]uint32{}}
}

// find returns the record of call id (-1: none).
func (t *callTable) find(id string, h uint64) int32 {
	if i, ok := t.byHash[h]; ok && t.arena.is(t.recs[i].id, id) {
		return i
	}
	if i, ok := t.clashed[id]; ok {
		return i
	}
	return -1
}

// set records call id's tool name and path, replacing what an earlier
// call with that id left.
func (t *callTable) set(id, name, path string, hasPath bool) {
	h := maphash.String(t.seed, id)
	tool, ok := t.toolIdx[name]
	if !ok {
		tool = uint32(len(t.tools))
		t.tools = append(t.tools, strings.Clone(name))
		t.toolIdx[t.tools[tool]] = tool
	}
	rec := callRec{tool: tool, hasPath: hasPath}
	if hasPath {
		rec.path = t.arena.add(path)
	}
	if i := t.find(id, h); i >= 0 {
		rec.id = t.recs[i].id
		t.recs[i] = rec
		return
	}
	rec.id = t.arena.add(id)
	i := int32(len(t.recs))
	t.recs = append(t.recs, rec)
	if _, taken := t.byHash[h]; taken {
		if t.clashed == nil {
			t.clashed = map[string]int32{}
		}
		t.clashed[strings.Clone(id)] = i
		return
	}
	t.byHash[h] = i
}

// get returns what was recorded for call id.
func (t *callTable) get(id string) (callInfo, bool) {
	i := t.find(id, maphash.String(t.seed, id))
	if i < 0 {
		return callInfo{}, false
	}
	r := &t.recs[i]
	return callInfo{name: t.tools[r.tool], path: t.arena.str(r.path), hasPath: r.hasPath}, true
}

// span is a string's place in an arena.
type span struct{ chunk, off, n uint32 }

// arena keeps strings in a few large blocks, never rewritten.
type arena struct {
	chunks [][]byte
	fill   int // the block small strings go to (-1 before the first)
}

const arenaBlock = 64 << 10

// add copies s into the arena.
func (a *arena) add(s string) span {
	if len(s) == 0 {
		return span{}
	}
	if len(a.chunks) == 0 {
		a.fill = -1
	}
	if len(s) > arenaBlock/8 { // a block of its own
		a.chunks = append(a.chunks, []byte(s))
		return span{chunk: uint32(len(a.chunks) - 1), n: uint32(len(s))}
	}
	if a.fill < 0 || len(a.chunks[a.fill])+len(s) > cap(a.chunks[a.fill]) {
		// blocks grow from 1 KiB: a small session (of a directory of
		// thousands) clears no 64 KiB for a few ids
		size := arenaBlock
		if a.fill < 0 {
			size = 1 << 10
		} else if c := 2 * cap(a.chunks[a.fill]); c < size {
			size = c
		}
		a.chunks = append(a.chunks, make([]byte, 0, max(size, len(s))))
		a.fill = len(a.chunks) - 1
	}
	c := a.chunks[a.fill]
	off := len(c)
	a.chunks[a.fill] = append(c, s...)
	return span{chunk: uint32(a.fill), off: uint32(off), n: uint32(len(s))}
}

func (a *arena) bytes(sp span) []byte {
	if sp.n == 0 {
		return nil
	}
	return a.chunks[sp.chunk][sp.off : sp.off+sp.n]
}

// is reports whether the string at sp is s.
func (a *arena) is(sp span, s string) bool { return string(a.bytes(sp)) == s }

// str is the string at sp (its bytes are never written again).
func (a *arena) str(sp span) string {
	b := a.bytes(sp)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
