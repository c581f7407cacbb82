package index

import (
	"hash/maphash"
	"maps"
	"slices"
	"strconv"
)

// This file is the state's tables by occurrence key: every key the state
// knows (a record's, a dedup alias's, one a ref names) gets a small integer
// id once, and what the state says of a key is kept in slices by that id,
// not in one string-keyed map per fact — a first flush of a long session
// knows hundreds of thousands of keys, and six maps of strings per key were
// most of its memory and of the collector's work.

// keyInfo is what the state holds for one occurrence key.
type keyInfo struct {
	key string
	// rec is the key's record: its index in State.recs plus one (0: none);
	// pos is the record key's place in first-insertion order.
	rec int32
	pos int32
	// ref is the key's short ref: N of a canonical `tN` (refOdd < 0: the
	// ref is in State.refNames; 0 and refOdd 0: none).
	ref    int32
	refOdd int8
	// backfilled: the key's last record came from a backfill entry.
	backfilled bool
	// alias is the original's key id plus one when the key is a dedup
	// alias (0: not one).
	alias int32
	// nextBare is the key id plus one of the next record key with the same
	// bare toolCallId (State.bare holds the first), in first-insertion
	// order.
	nextBare int32
	// sum is the index in State.summaries plus one of the first summary
	// covering the key (0: none; the others: State.sumMore).
	sum int32
}

// intern returns the id of key, adding it when new.
func (s *State) intern(key string) int32 {
	h := s.ids.hash(key)
	if id, ok := s.ids.find(h, func(id int32) bool { return s.keys[id].key == key }); ok {
		return id
	}
	id := int32(len(s.keys))
	s.keys = append(s.keys, keyInfo{key: key})
	s.ids.insert(h, id, s.keyHash)
	return id
}

// record returns the record of key (nil: none), a new one (changing it
// changes nothing in s).
func (s *State) record(key string) *Record {
	if id, ok := s.keyID(key); ok {
		if r := s.keys[id].rec; r > 0 {
			rc := s.unpack(&s.recs[r-1])
			return &rc
		}
	}
	return nil
}

// hasRecord reports whether key has a record.
func (s *State) hasRecord(key string) bool {
	id, ok := s.keyID(key)
	return ok && s.keys[id].rec > 0
}

// aliasOf returns the original's key of a dedup alias key.
func (s *State) aliasOf(key string) (string, bool) {
	if id, ok := s.keyID(key); ok {
		if a := s.keys[id].alias; a > 0 {
			return s.keys[a-1].key, true
		}
	}
	return "", false
}

// refOf returns the short ref registered for the key id.
func (s *State) refOf(id int32) (string, bool) {
	k := &s.keys[id]
	switch {
	case k.refOdd < 0:
		return s.refNames[id], true
	case k.ref > 0 || k.refOdd > 0:
		return "t" + strconv.Itoa(int(k.ref)), true
	}
	return "", false
}

// setRef registers ref as the short ref of the key id (the last one
// registered wins) and ref → the key.
func (s *State) setRef(ref string, id int32) {
	k := &s.keys[id]
	if n, ok := denseRef(ref); ok && n <= len(s.refKeys)+1<<16 {
		for len(s.refKeys) <= n {
			s.refKeys = append(s.refKeys, 0)
		}
		s.refKeys[n] = id + 1
		k.ref, k.refOdd = int32(n), 1
		return
	}
	if s.refByName == nil {
		s.refByName, s.refNames = map[string]int32{}, map[int32]string{}
	}
	s.refByName[ref] = id
	s.refNames[id] = ref
	k.ref, k.refOdd = 0, -1
}

// refKey returns the key a short ref names.
func (s *State) refKey(ref string) (string, bool) {
	if n, ok := denseRef(ref); ok && n < len(s.refKeys) && s.refKeys[n] > 0 {
		return s.keys[s.refKeys[n]-1].key, true
	}
	if id, ok := s.refByName[ref]; ok {
		return s.keys[id].key, true
	}
	return "", false
}

// denseRef says whether ref may be kept in the dense table (State.refKeys)
// and at which N: `t` and the digits of N as strconv writes them (no sign,
// no leading zero). setRef puts it there when N is at most 64 Ki past the
// table's end (refs are allocated one after another; a far one from an odd
// file goes to the map instead of growing the table), so a lookup tries
// the table, then the map.
func denseRef(ref string) (int, bool) {
	if len(ref) < 2 || len(ref) > 11 || ref[0] != 't' || (ref[1] == '0' && len(ref) > 2) {
		return 0, false
	}
	n := 0
	for _, c := range []byte(ref[1:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// bareRecordKeys returns the ids of the record keys of a bare toolCallId,
// in first-insertion order.
func (s *State) bareRecordKeys(id string) []int32 {
	var out []int32
	for k := s.bareFirst(id); k > 0; k = s.keys[k-1].nextBare {
		out = append(out, k-1)
	}
	return out
}

// bareCount is len(bareRecordKeys(id)), up to 2.
func (s *State) bareCount(id string) int {
	n := 0
	for k := s.bareFirst(id); k > 0 && n < 2; k = s.keys[k-1].nextBare {
		n++
	}
	return n
}

// addBare adds the record key kid to its bare id's list (once).
func (s *State) addBare(bareID string, kid int32) {
	k := s.bareFirst(bareID)
	if k == 0 {
		b := &s.bare
		i := int32(len(b.first))
		b.idLen, b.first = append(b.idLen, int32(len(bareID))), append(b.first, kid+1)
		b.table.insert(s.bareHash(i), i, s.bareHash)
		return
	}
	for {
		if k-1 == kid {
			return
		}
		next := s.keys[k-1].nextBare
		if next == 0 {
			s.keys[k-1].nextBare = kid + 1
			return
		}
		k = next
	}
}

// hashSum is a content hash as its 20 bytes when it is SHA-1's lower-case
// hex (what ContentHash writes); ok false for any other spelling, which the
// state keys by its string.
func hashSum(h string) (sum [20]byte, ok bool) {
	if len(h) != 40 {
		return sum, false
	}
	for i := 0; i < 40; i++ {
		c := h[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		default:
			return sum, false
		}
		if i%2 == 0 {
			sum[i/2] = v << 4
		} else {
			sum[i/2] |= v
		}
	}
	return sum, true
}

// hashKey returns the key of the first record with content hash h.
func (s *State) hashKey(h string) (string, bool) {
	if sum, ok := hashSum(h); ok {
		if id, ok := s.hashes[sum]; ok {
			return s.keys[id].key, true
		}
		return "", false
	}
	if id, ok := s.hashOdd[h]; ok {
		return s.keys[id].key, true
	}
	return "", false
}

// hashKeyBefore is hashKey as it was when the state had n record keys: a
// hash the later record keys seeded is not found.
func (s *State) hashKeyBefore(h string, n int32) (string, bool) {
	id, ok := int32(0), false
	if sum, isSum := hashSum(h); isSum {
		id, ok = s.hashes[sum]
	} else {
		id, ok = s.hashOdd[h]
	}
	if !ok || s.keys[id].pos >= n {
		return "", false
	}
	return s.keys[id].key, true
}

// unseeded reports whether no record has a content hash (dedup finds
// none).
func (s *State) unseeded() bool {
	return len(s.hashes) == 0 && len(s.hashOdd) == 0 && len(s.unhashed) == 0
}

// seedHash makes the record key kid the first with content hash h, unless
// one is already.
func (s *State) seedHash(h string, kid int32) {
	if sum, ok := hashSum(h); ok {
		if _, seen := s.hashes[sum]; !seen {
			s.hashes[sum] = kid
		}
		return
	}
	if s.hashOdd == nil {
		s.hashOdd = map[string]int32{}
	}
	if _, seen := s.hashOdd[h]; !seen {
		s.hashOdd[h] = kid
	}
}

// cloneKeys copies s's key tables into c (Clone).
func (s *State) cloneKeys(c *State) {
	c.recs = slices.Clone(s.recs)
	// shared: a record's extra is never changed, and c's appends go to a
	// new array
	c.extras = slices.Clip(s.extras)
	c.names = slices.Clone(s.names)
	c.nameIDs = maps.Clone(s.nameIDs)
	c.keys = slices.Clone(s.keys)
	c.ids = s.ids.clone()
	c.bare = s.bare.clone()
	c.refKeys = slices.Clone(s.refKeys)
	if s.refByName != nil {
		c.refByName, c.refNames = make(map[string]int32, len(s.refByName)), make(map[int32]string, len(s.refNames))
		for k, v := range s.refByName {
			c.refByName[k] = v
		}
		for k, v := range s.refNames {
			c.refNames[k] = v
		}
	}
	c.aliasOrder = slices.Clone(s.aliasOrder)
	if s.sumMore != nil {
		c.sumMore = make(map[int32][]int32, len(s.sumMore))
		for k, v := range s.sumMore {
			c.sumMore[k] = slices.Clone(v)
		}
	}
	// shared: an unhashed record is never changed, and c's appends go to
	// a new array
	c.unhashed = slices.Clip(s.unhashed)
	c.hashes = make(map[[20]byte]int32, len(s.hashes))
	for k, v := range s.hashes {
		c.hashes[k] = v
	}
	if s.hashOdd != nil {
		c.hashOdd = make(map[string]int32, len(s.hashOdd))
		for k, v := range s.hashOdd {
			c.hashOdd[k] = v
		}
	}
}

// setAlias registers newKey as a dedup alias of originalKey (the last
// registration wins); the alias shares the original's ref, when it has
// one by then.
func (s *State) setAlias(newKey, originalKey string) {
	nid := s.intern(newKey)
	oid := s.intern(originalKey)
	if s.keys[nid].alias == 0 {
		s.aliasOrder = append(s.aliasOrder, nid)
	}
	s.keys[nid].alias = oid + 1
	if o := s.keys[oid]; o.refOdd != 0 {
		n := &s.keys[nid]
		n.ref, n.refOdd = o.ref, o.refOdd
		if o.refOdd < 0 {
			s.refNames[nid] = s.refNames[oid]
		}
	}
}

// sameKey reports whether key is OccurrenceKey(id, ts), without making it
// (a call's key from its message, MessageKey, differs for a timestamp that
// is no integer).
func sameKey(key, id string, ts *int64) bool {
	if ts == nil {
		return key == id
	}
	if len(key) <= len(id) || key[:len(id)] != id || key[len(id)] != '@' {
		return false
	}
	var nb [20]byte
	return key[len(id)+1:] == string(strconv.AppendInt(nb[:0], *ts, 10))
}

// appendOccurrenceKey appends OccurrenceKey(id, &ts) to dst.
func appendOccurrenceKey(dst []byte, id string, ts int64) []byte {
	return strconv.AppendInt(append(append(dst, id...), '@'), ts, 10)
}

// knownKey is key as a string: s's own when s knows the key (s nil: a new
// one).
func (s *State) knownKey(key []byte) string {
	if s != nil {
		if id, ok := s.keyIDBytes(key); ok {
			return s.keys[id].key
		}
	}
	return string(key)
}

// idTable finds key ids by a string: an open-addressing hash table of key
// ids plus one (0: an empty slot), whose strings are the state's own (the
// caller compares them), so it holds 4 bytes a slot and no pointer — a
// map of strings to ids held a string header and its hash-table overhead
// per key (1 GB first flush: ~300,000 keys, two such maps ~25 MB), all of
// it scanned by the collector.
type idTable struct {
	slots []int32 // len a power of two (or 0), at most half full
	n     int
}

// tableSeed seeds every idTable's hash: made once, never changed (a
// table's layout then depends only on what it holds and in which order,
// so equal states are equal values).
var tableSeed = maphash.MakeSeed()

// hash is the hash of a string in t.
func (t *idTable) hash(s string) uint64 { return maphash.String(tableSeed, s) }

// find returns the id whose string eq reports equal, with hash h.
func (t *idTable) find(h uint64, eq func(id int32) bool) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if eq(v - 1) {
			return v - 1, true
		}
	}
}

// insert adds id, with hash h, which find does not hold; hash gives the
// hash of any id held (to grow).
func (t *idTable) insert(h uint64, id int32, hash func(id int32) uint64) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow(t.n+1, hash)
	}
	t.put(h, id)
	t.n++
}

func (t *idTable) put(h uint64, id int32) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = id + 1
}

// grow makes room for n ids at most half full (rehashing those held).
func (t *idTable) grow(n int, hash func(id int32) uint64) {
	size := max(len(t.slots), 64)
	for 2*n > size {
		size *= 2
	}
	if size == len(t.slots) {
		return
	}
	old := t.slots
	t.slots = make([]int32, size)
	for _, v := range old {
		if v != 0 {
			t.put(hash(v-1), v-1)
		}
	}
}

// shrink rebuilds t at the size its ids need (as grow sizes it), ids 0
// to n-1 put in order, when that is smaller than it is.
func (t *idTable) shrink(hash func(id int32) uint64) {
	size := 64
	for 2*t.n > size {
		size *= 2
	}
	if size >= len(t.slots) {
		return
	}
	t.slots = make([]int32, size)
	for id := range int32(t.n) {
		t.put(hash(id), id)
	}
}

// clone is a copy of t.
func (t *idTable) clone() idTable {
	return idTable{slots: slices.Clone(t.slots), n: t.n}
}

// keyID returns the id of key.
func (s *State) keyID(key string) (int32, bool) {
	return s.ids.find(s.ids.hash(key), func(id int32) bool { return s.keys[id].key == key })
}

// keyIDBytes is keyID of a key in bytes (no string made).
func (s *State) keyIDBytes(key []byte) (int32, bool) {
	return s.ids.find(maphash.Bytes(tableSeed, key), func(id int32) bool { return s.keys[id].key == string(key) })
}

// keyHash is the hash of the key id's key.
func (s *State) keyHash(id int32) uint64 { return s.ids.hash(s.keys[id].key) }

// bareIDs are the bare toolCallIds the state has records of, each once,
// with the first record key id plus one of each (bareTable finds them by
// the id: its slots are indexes in the list). A bare id is the first
// idLen bytes of its first record key (a record's key starts with its
// toolCallId: indexRecord's), so it is kept as a length, not a string:
// 4 bytes an id the collector does not scan instead of a 16-byte header
// (1 GB first flush: ~225,000 ids, ~3.5 MB less with the list's growth).
type bareIDs struct {
	idLen []int32
	first []int32
	table idTable
}

// clone is a copy of b.
func (b *bareIDs) clone() bareIDs {
	return bareIDs{idLen: slices.Clone(b.idLen), first: slices.Clone(b.first), table: b.table.clone()}
}

// bareID is the i-th bare id of s.bare.
func (s *State) bareID(i int32) string {
	return s.keys[s.bare.first[i]-1].key[:s.bare.idLen[i]]
}

// bareHash is the hash of the i-th bare id of s.bare.
func (s *State) bareHash(i int32) uint64 { return s.bare.table.hash(s.bareID(i)) }

// bareFirst returns the first record key id plus one of a bare toolCallId
// (0: none).
func (s *State) bareFirst(bareID string) int32 {
	t := &s.bare.table
	if i, ok := t.find(t.hash(bareID), func(i int32) bool { return s.bareID(i) == bareID }); ok {
		return s.bare.first[i]
	}
	return 0
}

// internKeys replaces each key of keys that s knows with s's own string
// of it (the same bytes, held once).
func (s *State) internKeys(keys []string) {
	for i, k := range keys {
		if id, ok := s.keyID(k); ok {
			keys[i] = s.keys[id].key
		}
	}
}

// trim gives back the room reserve made for records and keys a flush did
// not add (a chain's calls a summary already covers): a first flush of
// 1 GB reserved ~300,000 and added ~225,000 (~9 MB unused, held through
// the render), and the key tables' slots it made for them (1 GB: twice
// the ~225,000 keys' 2^19 slots each, 4 MB more).
func (s *State) trim() {
	if cap(s.recs)-len(s.recs) > len(s.recs)/8 {
		s.recs = slices.Clone(s.recs)
	}
	if cap(s.keys)-len(s.keys) > len(s.keys)/8 {
		s.keys = slices.Clone(s.keys)
	}
	s.ids.shrink(s.keyHash)
	s.bare.table.shrink(s.bareHash)
}
