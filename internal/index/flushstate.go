package index

import (
	"maps"
	"slices"

	"github.com/pruner-dev/pruner/internal/session"
)

// Clone returns a deep copy of s (the write side extends the copy, as
// pi-condense's indexer extends itself at flush time).
func (s *State) Clone() *State {
	c := *s
	s.cloneKeys(&c)
	c.summaries = slices.Clone(s.summaries)
	c.sumKeys = slices.Clone(s.sumKeys)
	c.chains = maps.Clone(s.chains)
	c.chainOrder = append([]int64(nil), s.chainOrder...)
	c.diagnostics = maps.Clone(s.diagnostics)
	if s.Frontier != nil {
		f := *s.Frontier
		c.Frontier = &f
	}
	if s.Stats != nil {
		st := *s.Stats
		c.Stats = &st
	}
	c.Warnings = append([]session.Warning(nil), s.Warnings...)
	c.entryBufs = new(entryBufs)
	return &c
}

// addRecord indexes a record a flush writes (pi-condense's addBatch for one
// record) under key (its occurrence key), seeding the dedup map (first
// seen wins).
// reserve makes room for n more records and keys at once: grown by append
// one at a time, a first flush of a long history copied its records about
// five times over (1 GB: ~130 MB allocated for 26 MB of records, the old
// and new arrays live together at each copy).
func (s *State) reserve(n int) {
	s.recs = slices.Grow(s.recs, n)
	s.keys = slices.Grow(s.keys, n)
	s.ids.grow(len(s.keys)+n, s.keyHash)
	s.bare.table.grow(len(s.bare.first)+n, s.bareHash)
}

func (s *State) addRecord(r Record, key, hash string) int32 {
	_, kid, at := s.indexRecord(r, key, false)
	s.seedHash(hash, kid)
	return at
}

// addAlias registers a dedup alias (pi-condense's registerDuplicate): the
// duplicate shares its original's ref.
func (s *State) addAlias(newKey, originalKey string) {
	if newKey == originalKey {
		return
	}
	s.setAlias(newKey, originalKey)
}
