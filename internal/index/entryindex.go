package index

import "github.com/pruner-dev/pruner/internal/session"

// keyIndex finds an item of a list by an integer key (an entry id's
// Context.EntryKey, Message.EntryKey): the last item with that key, as its
// index plus one (0: none, and for key 0). It is an open-addressing table
// of indexes plus one whose keys are read from the list itself (key), so
// it holds 4 bytes a slot and no pointer: the map[uint64]int32 chain
// compression built of every branch entry held ~17 MB for a 1 GB session
// (~550,000 entries), live through the chains, where this holds 4 MB.
type keyIndex struct {
	key   func(i int) uint64
	slots []int32 // len a power of two, at most half full
	shift uint    // 64 - log2(len(slots))
}

// newKeyIndex indexes the n items whose keys key gives.
func newKeyIndex(n int, key func(i int) uint64) *keyIndex {
	size, shift := 64, uint(64-6)
	for 2*n > size {
		size *= 2
		shift--
	}
	x := &keyIndex{key: key, slots: make([]int32, size), shift: shift}
	mask := uint64(size - 1)
	for i := range n {
		k := key(i)
		if k == 0 {
			continue
		}
		for j := x.slot(k); ; j = (j + 1) & mask {
			v := x.slots[j]
			if v == 0 || key(int(v-1)) == k {
				x.slots[j] = int32(i + 1) // a later item with the key wins
				break
			}
		}
	}
	return x
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
	if k == 0 {
		return 0
	}
	mask := uint64(len(x.slots) - 1)
	for j := x.slot(k); ; j = (j + 1) & mask {
		v := x.slots[j]
		if v == 0 || x.key(int(v-1)) == k {
			return v
		}
	}
}
