package index

import (
	"fmt"
	"maps"
	"slices"

	"github.com/pruner-dev/pruner/internal/jsval"
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

// addRecord indexes a record a flush writes (pi-condense's addBatch for one
// record) under c's occurrence key, seeding the dedup map with c's hash
// (first seen wins).
//
// A call the flush did not hash (c.Hash "": no dedup of that flush could
// find its hash, as it looks only at the hashes before the batches) is
// seeded later, from its text read again, when a hash is first asked for
// (seedUnhashed) — in a `now` run, never: a first flush of a session
// hashed every summarised result for nothing (1 MB: 10.9% of the
// instructions).
func (s *State) addRecord(r Record, c *Call, ctx *session.Context) int32 {
	_, kid, at := s.indexRecord(r, c.Key, false)
	if c.Hash != "" && len(s.unhashed) == 0 {
		s.seedHash(c.Hash, kid)
		return at
	}
	// (one hashed behind unhashed ones waits its turn: first seen wins)
	s.unhashed = append(s.unhashed, unhashedRec{rec: at, text: c.text, result: c.Result})
	s.unhashedIn = ctx
	return at
}

// unhashedRec is a record whose content hash is not seeded yet (addRecord,
// Rebuild): its index in recs (its key, tool name, text and any hash
// there) and, for a record a flush added, where its result's text is in
// State.unhashedIn (result not nil; 32 bytes, less than the hash's seat
// in the hashes map it stands for).
type unhashedRec struct {
	rec    int32
	text   textLoc
	result *session.Message
}

// seedUnhashed seeds the content hashes of the records added unhashed, in
// the order they were added (first seen wins, as when seeded at once: no
// record seeds a hash while one is unhashed). Errors are I/O errors
// re-reading the input.
func (s *State) seedUnhashed() error {
	if len(s.unhashed) == 0 {
		return nil
	}
	var lt lineTape
	var text, norm []byte
	for _, u := range s.unhashed {
		c := &s.recs[u.rec]
		switch r := s.unpack(c); {
		case r.ContentHash != nil:
			s.seedHash(*r.ContentHash, c.key)
		case u.result != nil:
			// a flush's: read again as the flush reads it (hashText)
			call := Call{text: u.text, Result: u.result}
			lt.textKnown = false
			var err error
			if text, err = call.appendText(text[:0], s.unhashedIn, &lt); err != nil {
				return err
			}
			s.seedHash(lt.contentHash(r.ToolName, text, lt.textFlags, lt.textKnown), c.key)
		default:
			// a rebuilt one's: its text in its entry's line, or held
			if at := r.textAt; at.entry != 0 {
				line, err := s.src.EntryLine(&s.src.Branch[at.entry-1])
				if err != nil {
					return err
				}
				if int(at.off)+int(at.n) > len(line) {
					return fmt.Errorf("line %d: the resultText of %s is past the line's end", s.src.Branch[at.entry-1].Line(), r.ToolCallID)
				}
				text, _ = jsval.AppendStringValue(text[:0], line[at.off:at.off+at.n])
				norm = appendNormalizedBytes(norm[:0], text)
			} else {
				norm = appendNormalized(norm[:0], r.ResultText)
			}
			s.seedHash(hashNormalized(r.ToolName, norm), c.key)
		}
	}
	s.unhashed, s.unhashedIn = nil, nil
	return nil
}

// addAlias registers a dedup alias (pi-condense's registerDuplicate): the
// duplicate shares its original's ref.
func (s *State) addAlias(newKey, originalKey string) {
	if newKey == originalKey {
		return
	}
	s.setAlias(newKey, originalKey)
}
