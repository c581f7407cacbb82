package render

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unsafe"
)

// keySet is a set of strings held as handles (a uint64 the caller gives
// each member, such as a message's index) that keyOf turns back into the
// member's bytes when a lookup must compare them: no string is made or
// kept per member. A member is 24 bytes (its handle, and its table slot
// at a load of at most a half), where a map[string]bool of built keys
// held ~90 (a string of its own and the map's slot). Adding a member
// twice keeps both (membership is all a keySet answers).
type keySet struct {
	seed    maphash.Seed
	keyOf   func(dst []byte, h uint64) []byte
	members []uint64
	// slots are open-addressed (linear probing): 0 is empty, else the
	// member's index plus one in the low 32 bits and its hash's low 32
	// bits in the high ones (the slot a member goes to, and a first
	// comparison without its bytes)
	slots []uint64
	buf   []byte
}

func newKeySet(keyOf func(dst []byte, h uint64) []byte) *keySet {
	return &keySet{seed: maphash.MakeSeed(), keyOf: keyOf}
}

// reserve makes room for n more members (no growth while they are
// added).
func (s *keySet) reserve(n int) {
	want := len(s.members) + n
	s.members = slices.Grow(s.members, n)
	size := max(16, len(s.slots))
	for 2*want > size {
		size *= 2
	}
	if size > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, size)
		for _, sl := range old {
			if sl != 0 {
				s.place(sl)
			}
		}
	}
}

// add adds the member with handle h.
func (s *keySet) add(h uint64) {
	s.buf = s.keyOf(s.buf[:0], h)
	tag := uint32(maphash.Bytes(s.seed, s.buf))
	if 2*(len(s.members)+1) > len(s.slots) {
		s.grow()
	}
	s.members = append(s.members, h)
	s.place(uint64(tag)<<32 | uint64(len(s.members)))
}

func (s *keySet) place(slot uint64) {
	mask := uint32(len(s.slots) - 1)
	for i := uint32(slot>>32) & mask; ; i = (i + 1) & mask {
		if s.slots[i] == 0 {
			s.slots[i] = slot
			return
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(16, 2*len(old)))
	for _, sl := range old {
		if sl != 0 {
			s.place(sl)
		}
	}
}

// has reports whether key is a member.
func (s *keySet) has(key []byte) bool {
	if len(s.members) == 0 {
		return false
	}
	tag := uint32(maphash.Bytes(s.seed, key))
	mask := uint32(len(s.slots) - 1)
	for i := tag & mask; s.slots[i] != 0; i = (i + 1) & mask {
		sl := s.slots[i]
		if uint32(sl>>32) != tag {
			continue
		}
		s.buf = s.keyOf(s.buf[:0], s.members[uint32(sl)-1])
		if bytes.Equal(s.buf, key) {
			return true
		}
	}
	return false
}

// hasString is has of a string (not copied).
func (s *keySet) hasString(key string) bool {
	return s.has(unsafeBytes(key))
}

// unsafeBytes is s as bytes, without a copy (read only).
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
