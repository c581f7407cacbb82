package index

import (
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
	if id, ok := s.ids[key]; ok {
		return id
	}
	id := int32(len(s.keys))
	s.keys = append(s.keys, keyInfo{key: key})
	s.ids[key] = id
	return id
}

// record returns the record of key (nil: none), a new one (changing it
// changes nothing in s).
func (s *State) record(key string) *Record {
	if id, ok := s.ids[key]; ok {
		if r := s.keys[id].rec; r > 0 {
			rc := s.recs[r-1].record()
			return &rc
		}
	}
	return nil
}

// hasRecord reports whether key has a record.
func (s *State) hasRecord(key string) bool {
	id, ok := s.ids[key]
	return ok && s.keys[id].rec > 0
}

// aliasOf returns the original's key of a dedup alias key.
func (s *State) aliasOf(key string) (string, bool) {
	if id, ok := s.ids[key]; ok {
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
	for k := s.bare[id]; k > 0; k = s.keys[k-1].nextBare {
		out = append(out, k-1)
	}
	return out
}

// bareCount is len(bareRecordKeys(id)), up to 2.
func (s *State) bareCount(id string) int {
	n := 0
	for k := s.bare[id]; k > 0 && n < 2; k = s.keys[k-1].nextBare {
		n++
	}
	return n
}

// addBare adds the record key kid to its bare id's list (once).
func (s *State) addBare(bareID string, kid int32) {
	k := s.bare[bareID]
	if k == 0 {
		s.bare[bareID] = kid + 1
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
	c.keys = slices.Clone(s.keys)
	c.ids = make(map[string]int32, len(s.ids))
	for k, v := range s.ids {
		c.ids[k] = v
	}
	c.bare = make(map[string]int32, len(s.bare))
	for k, v := range s.bare {
		c.bare[k] = v
	}
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
		if id, ok := s.ids[string(key)]; ok {
			return s.keys[id].key
		}
	}
	return string(key)
}
