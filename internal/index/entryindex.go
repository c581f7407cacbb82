package index

import "github.com/pruner-dev/pruner/internal/session"

// keyIndex finds an item of a list by an integer key (an entry id's
// Context.EntryKey, Message.EntryKey): the last item with that key, as its
// index plus one (0: none, and for key 0). It is an open-addressing table
// of keys and indexes packed in a word (no pointer, one load a probe):
// the map[uint64]int32 chain compression built of every branch entry held
// ~17 MB for a 1 GB session (~550,000 entries), live through the chains,
// where this holds 8 MB (at most 3/4 full: linear probes stay within a
// cache line or two; half full, it was 16 MB there). Keys of more than keyBits bits, or more items
// than an index of idxBits holds, are in a map instead.
type keyIndex struct {
	slots []uint64 // key<<idxBits | index+1 (0: empty); len a power of two, at most 3/4 full
	shift uint     // 64 - log2(len(slots))
	m     map[uint64]int32
}

const (
	idxBits = 27
	keyBits = 64 - idxBits
	idxMask = 1<<idxBits - 1
)

// newKeyIndex indexes the n items whose keys key gives.
func newKeyIndex(n int, key func(i int) uint64) *keyIndex {
	if x, ok := packedKeyIndex(n, key); ok {
		return x
	}
	x := &keyIndex{m: make(map[uint64]int32, n)}
	for i := range n {
		if k := key(i); k != 0 {
			x.m[k] = int32(i + 1)
		}
	}
	return x
}

// packedKeyIndex is the table of the n items, false when a key or an index
// does not fit its word.
func packedKeyIndex(n int, key func(i int) uint64) (*keyIndex, bool) {
	if n >= idxMask {
		return nil, false
	}
	size, shift := 64, uint(64-6)
	for 4*n > 3*size {
		size *= 2
		shift--
	}
	x := &keyIndex{slots: make([]uint64, size), shift: shift}
	mask := uint64(size - 1)
	for i := range n {
		k := key(i)
		if k == 0 {
			continue
		}
		if k>>keyBits != 0 {
			return nil, false
		}
		for j := x.slot(k); ; j = (j + 1) & mask {
			if v := x.slots[j]; v == 0 || v>>idxBits == k {
				x.slots[j] = k<<idxBits | uint64(i+1) // a later item with the key wins
				break
			}
		}
	}
	return x, true
}

// newEntryIndex indexes the entries of ctx's Branch by their ids' keys.
func newEntryIndex(ctx *session.Context) *keyIndex {
	return newKeyIndex(len(ctx.Branch), func(i int) uint64 { return ctx.EntryKey(&ctx.Branch[i]) })
}

// newMessageIndex indexes ctx's Messages by their entries' keys.
func newMessageIndex(ctx *session.Context) *keyIndex {
	return newKeyIndex(len(ctx.Messages), func(i int) uint64 { return ctx.Messages[i].EntryKey() })
}

// slot is where key k's probe starts (Fibonacci hashing: the product's
// top bits).
func (x *keyIndex) slot(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> x.shift }

// get is the index plus one of the last item with key k (0: none).
func (x *keyIndex) get(k uint64) int32 {
	if x.m != nil {
		return x.m[k]
	}
	if k == 0 || k>>keyBits != 0 {
		return 0
	}
	mask := uint64(len(x.slots) - 1)
	for j := x.slot(k); ; j = (j + 1) & mask {
		switch v := x.slots[j]; {
		case v == 0:
			return 0
		case v>>idxBits == k:
			return int32(v & idxMask)
		}
	}
}
