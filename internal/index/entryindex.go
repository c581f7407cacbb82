package index

import "github.com/pruner-dev/pruner/internal/session"

// entryIndex finds a branch entry by its id's integer key
// (Context.EntryKey, Message.EntryKey): the last entry of the Branch with
// that key, as its index plus one (0: none, and for key 0). It is an
// open-addressing table of branch indexes plus one whose keys are read
// from the Branch itself, so it holds 4 bytes a slot and no pointer: the
// map[uint64]int32 chain compression built of every branch entry held
// ~17 MB for a 1 GB session (~550,000 entries), live through the chains,
// where this holds 4 MB.
type entryIndex struct {
	branch []session.BranchEntry
	ctx    *session.Context
	slots  []int32 // len a power of two, at most half full
	shift  uint    // 64 - log2(len(slots))
}

// newEntryIndex indexes the entries of ctx's Branch.
func newEntryIndex(ctx *session.Context) *entryIndex {
	size, shift := 64, uint(64-6)
	for 2*len(ctx.Branch) > size {
		size *= 2
		shift--
	}
	x := &entryIndex{branch: ctx.Branch, ctx: ctx, slots: make([]int32, size), shift: shift}
	mask := uint64(size - 1)
	for i := range x.branch {
		k := ctx.EntryKey(&x.branch[i])
		if k == 0 {
			continue
		}
		for j := x.slot(k); ; j = (j + 1) & mask {
			v := x.slots[j]
			if v == 0 || ctx.EntryKey(&x.branch[v-1]) == k {
				x.slots[j] = int32(i + 1) // a later entry with the key wins
				break
			}
		}
	}
	return x
}

// slot is where key k's probe starts (Fibonacci hashing: the product's
// top bits).
func (x *entryIndex) slot(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> x.shift }

// get is the index plus one in the Branch of the last entry with key k (0:
// none).
func (x *entryIndex) get(k uint64) int32 {
	if k == 0 {
		return 0
	}
	mask := uint64(len(x.slots) - 1)
	for j := x.slot(k); ; j = (j + 1) & mask {
		v := x.slots[j]
		if v == 0 || x.ctx.EntryKey(&x.branch[v-1]) == k {
			return v
		}
	}
}
