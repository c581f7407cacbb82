package index

import (
	"maps"

	"github.com/pruner-dev/pruner/internal/session"
)

// Clone returns a deep copy of s (the write side extends the copy, as
// pi-condense's indexer extends itself at flush time).
func (s *State) Clone() *State {
	c := *s
	c.records = make(map[string]*Record, len(s.records))
	for k, r := range s.records {
		rc := *r
		c.records[k] = &rc
	}
	c.order = append([]string(nil), s.order...)
	c.backfilled = maps.Clone(s.backfilled)
	c.bareKeys = make(map[string][]string, len(s.bareKeys))
	for k, v := range s.bareKeys {
		c.bareKeys[k] = append([]string(nil), v...)
	}
	c.keyByRef = maps.Clone(s.keyByRef)
	c.refByKey = maps.Clone(s.refByKey)
	c.aliases = maps.Clone(s.aliases)
	c.aliasOrder = append([]string(nil), s.aliasOrder...)
	c.hashes = maps.Clone(s.hashes)
	c.summaries = append([]Summary(nil), s.summaries...)
	c.sumByKey = make(map[string][]int32, len(s.sumByKey))
	for k, v := range s.sumByKey {
		c.sumByKey[k] = append([]int32(nil), v...)
	}
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
	return &c
}

// addRecord indexes a record a flush writes (pi-condense's addBatch for one
// record): by occurrence key, seeding the dedup map (first seen wins).
func (s *State) addRecord(r Record, hash string) {
	key := s.indexRecord(r, false)
	if _, seen := s.hashes[hash]; !seen {
		s.hashes[hash] = key
	}
}

// addAlias registers a dedup alias (pi-condense's registerDuplicate): the
// duplicate shares its original's ref.
func (s *State) addAlias(newKey, originalKey string) {
	if newKey == originalKey {
		return
	}
	if _, seen := s.aliases[newKey]; !seen {
		s.aliasOrder = append(s.aliasOrder, newKey)
	}
	s.aliases[newKey] = originalKey
	if ref, ok := s.refByKey[originalKey]; ok {
		s.refByKey[newKey] = ref
	}
}
