// Package restore gives a session back as it was before pruner wrote to it.
//
// `pruner now --write` only appends: a pruner-write marker entry (what the
// file was: its size and SHA-256), then its entries. Restoring removes every
// line pruner appended (the marker and the entries it lists, found by
// position and checked by id and type) and keeps every other line byte for
// byte. When pi appended entries after pruner's, those are kept too, and the
// ones whose parent was a pruner entry get that entry's nearest non-pruner
// ancestor as parent (the only bytes of theirs that change); that, and a
// file whose bytes before pruner's first write no longer match the marker's
// hash, needs Force.
//
// Spill blobs listed by the markers are the caller's to delete (Plan.Blobs),
// after checking each against the session's own blob directory and, with
// CheckBlob, against the spill record pruner's entries hold for it: a
// marker is part of the file, and a file can be forged.
// The pre-marker format (`--write` rewrote masked lines in place and kept
// FILE.orig-<hash>) is handled by Legacy.
package restore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// line is one input line.
type line struct {
	num      int
	off      int64
	n        int
	nl       bool // followed by "\n"
	id       string
	parentID string
	pruner   bool
}

// Plan is what restoring a file does.
type Plan struct {
	// Markers is the number of pruner writes found; zero means there is
	// nothing to restore.
	Markers int
	// BaseBytes is the size the file had before pruner's first write, and
	// BaseSHA256 the hash the first marker recorded for those bytes.
	BaseBytes  int64
	BaseSHA256 string
	// Exact reports that the bytes before pruner's first write still hash
	// to what the first marker recorded.
	Exact bool
	// Removed is the number of lines pruner appended (markers included).
	Removed int
	// Later are the line numbers of lines after pruner's first write that
	// pruner did not write (pi's, appended since).
	Later []int
	// Reparented is the number of later lines whose parent is re-pointed
	// past pruner's entries.
	Reparented int
	// Blobs are the spill files pruner's writes created, as the markers
	// list them (untrusted: see CheckBlob).
	Blobs []string
	// SessionID is the header's id (the blob directory's name).
	SessionID string
	// Problems are inconsistencies found (a listed entry not where the
	// marker says), each with its line.
	Problems []string

	lines    []line
	parentOf map[string]string // pruner entry id → its parent id
	newline  bool              // pruner added "\n" to the base's last line
	src      io.ReaderAt
	spills   map[string]index.Record // spillPath → the record of pruner's index entries naming it
}

// NeedsForce says why restoring is not a plain byte-exact truncation ("" when it is).
func (p *Plan) NeedsForce() string {
	switch {
	case !p.Exact:
		return "the bytes before pruner's first write no longer match the hash pruner recorded (was the file rewritten, e.g. migrated by pi?)"
	case len(p.Later) > 0:
		return fmt.Sprintf("pi appended %d entries after pruner's; restoring keeps them but re-points the parent of %d past pruner's entries", len(p.Later), p.Reparented)
	case len(p.Problems) > 0:
		return p.Problems[0]
	}
	return ""
}

// AsPrunerLeftIt reports that the file is exactly what pruner's writes
// made of it: the bytes before the first write hash as the first marker
// recorded, every line after them is an entry a marker lists (none of pi's),
// the last marker's entries are all there and end the file. A file pruner
// just wrote is then recent because of pruner, not because pi is writing it.
func (p *Plan) AsPrunerLeftIt() bool {
	if p.Markers == 0 || p.NeedsForce() != "" || len(p.lines) == 0 {
		return false
	}
	return p.lines[len(p.lines)-1].pruner
}

// prunerTypes are the entry types pruner appends.
var prunerTypes = map[string]bool{"custom": true, "custom_message": true, "context_edit": true}

// Analyze reads src (size bytes) and plans the restore.
func Analyze(src io.ReaderAt, size int64) (*Plan, error) {
	p := &Plan{src: src, parentOf: map[string]string{}, spills: map[string]index.Record{}}
	lr := session.NewLineReader(io.NewSectionReader(src, 0, size))
	var expect []string // ids the current marker still expects, in order
	firstMarker := -1
	for {
		b, num, off, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		l := line{num: num, off: off, n: len(b), nl: off+int64(len(b)) < size}
		l.id, _ = stringField(b, "id")
		l.parentID, _ = stringField(b, "parentId")
		typ, _ := stringField(b, "type")
		ctype, _ := stringField(b, "customType")
		if num == 1 && typ == "session" {
			p.SessionID = l.id
		}
		switch {
		case typ == "custom" && ctype == index.TypeWrite:
			m, err := decodeMarker(b)
			if err != nil {
				p.Problems = append(p.Problems, fmt.Sprintf("line %d: unreadable pruner-write marker: %v", num, err))
				break
			}
			if len(expect) > 0 {
				p.Problems = append(p.Problems, fmt.Sprintf("line %d: pruner-write marker before the %d entries of the previous one", num, len(expect)))
			}
			l.pruner = true
			expect = append([]string(nil), m.IDs...)
			p.Markers++
			p.Blobs = append(p.Blobs, m.Blobs...)
			if firstMarker < 0 {
				firstMarker = len(p.lines)
				p.BaseBytes, p.BaseSHA256, p.newline = m.BaseBytes, m.BaseSHA256, m.Newline
				p.Exact = hashPrefix(src, m.BaseBytes) == m.BaseSHA256 && baseEnd(off, m.Newline) == m.BaseBytes
			}
		case len(expect) > 0:
			// the lines right after a marker are the ones it lists, in order
			if !prunerTypes[typ] {
				p.Problems = append(p.Problems, fmt.Sprintf("line %d: expected pruner's entry %s, found a %q entry", num, expect[0], typ))
				expect = nil
				break
			}
			if l.id != expect[0] {
				p.Problems = append(p.Problems, fmt.Sprintf("line %d: pruner's entry %s has id %q (ids rewritten?)", num, expect[0], l.id))
			}
			l.pruner = true
			expect = expect[1:]
			if ctype == index.TypeIndex {
				p.addSpills(b)
			}
		}
		if l.pruner {
			p.Removed++
			if l.id != "" {
				p.parentOf[l.id] = l.parentID
			}
		} else if firstMarker >= 0 {
			p.Later = append(p.Later, num)
		}
		p.lines = append(p.lines, l)
	}
	if len(expect) > 0 {
		p.Problems = append(p.Problems, fmt.Sprintf("the last pruner-write marker lists %d entries the file does not have", len(expect)))
	}
	for _, l := range p.lines {
		if !l.pruner && l.parentID != "" {
			if _, ok := p.parentOf[l.parentID]; ok {
				p.Reparented++
			}
		}
	}
	return p, nil
}

// decodeMarker reads a pruner-write marker's data with exact keys (as
// JSON.parse reads it; a key in another case is not the key).
func decodeMarker(line []byte) (index.WriteMarker, error) {
	var m index.WriteMarker
	data, ok := jsval.Get(line, "data")
	if !ok || jsval.TypeOf(data) != jsval.Obj {
		return m, errors.New("no data object")
	}
	obj := jsval.Object(data)
	num := func(key string) (int64, error) {
		f, ok := jsval.Number(obj[key])
		if !ok || f < 0 || f != float64(int64(f)) {
			return 0, fmt.Errorf("%s is not a whole number ≥ 0", key)
		}
		return int64(f), nil
	}
	strs := func(key string) ([]string, error) {
		v, ok := obj[key]
		if !ok {
			return nil, nil
		}
		els, ok := jsval.Elements(v)
		if !ok {
			return nil, fmt.Errorf("%s is not a list", key)
		}
		out := make([]string, len(els))
		for i, el := range els {
			if out[i], ok = jsval.String(el); !ok {
				return nil, fmt.Errorf("%s[%d] is not a string", key, i)
			}
		}
		return out, nil
	}
	var err error
	if v, err := num("v"); err != nil || v != 1 {
		return m, errors.New("v is not 1 (a marker format this pruner does not know)")
	}
	m.V = 1
	if m.BaseBytes, err = num("baseBytes"); err != nil {
		return m, err
	}
	if m.BaseSHA256, ok = jsval.String(obj["baseSha256"]); !ok {
		return m, errors.New("baseSha256 is not a string")
	}
	if v, ok := obj["newline"]; ok {
		if m.Newline, ok = jsval.Boolean(v); !ok {
			return m, errors.New("newline is not true or false")
		}
	}
	if m.IDs, err = strs("ids"); err != nil {
		return m, err
	}
	if m.Blobs, err = strs("blobs"); err != nil {
		return m, err
	}
	return m, nil
}

// addSpills records the spilled records of one of pruner's index entries.
func (p *Plan) addSpills(line []byte) {
	data, _ := jsval.Get(line, "data")
	calls, _ := jsval.Get(data, "toolCalls")
	els, _ := jsval.Elements(calls)
	for _, el := range els {
		if r, err := index.DecodeRecord(el); err == nil && r.SpillPath != nil {
			p.spills[*r.SpillPath] = r
		}
	}
}

// CheckBlob says whether content, read from listed (a path of Blobs), is
// the blob pruner's own entries describe: an index entry of one of
// pruner's writes has a record spilled to that path, and the content has
// the record's size and hash. nil means it may be deleted.
func (p *Plan) CheckBlob(listed string, content []byte) error {
	r, ok := p.spills[listed]
	if !ok {
		return errors.New("no spill record of pruner's entries names it")
	}
	if r.SpillBytes != nil && int64(len(content)) != *r.SpillBytes {
		return fmt.Errorf("%d bytes, its spill record says %d", len(content), *r.SpillBytes)
	}
	if r.ContentHash != nil && index.ContentHash(r.ToolName, string(content)) != *r.ContentHash {
		return errors.New("its content does not hash to its spill record's contentHash")
	}
	return nil
}

// baseEnd is where the base ends given the first marker's offset.
func baseEnd(markerOff int64, newline bool) int64 {
	if newline {
		return markerOff - 1
	}
	return markerOff
}

// Write writes the restored file to w: every line pruner did not append,
// in order, byte for byte, except re-pointed parent ids.
func (p *Plan) Write(w io.Writer) error {
	kept := make([]line, 0, len(p.lines))
	for _, l := range p.lines {
		if !l.pruner {
			kept = append(kept, l)
		}
	}
	var buf []byte
	for i, l := range kept {
		buf = buf[:0]
		if cap(buf) < l.n {
			buf = make([]byte, 0, l.n)
		}
		buf = buf[:l.n]
		if _, err := p.src.ReadAt(buf, l.off); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if l.parentID != "" {
			if np, ok := p.resolve(l.parentID); ok {
				if s, e, found := session.ValueRange(buf, "parentId"); found {
					v := []byte("null")
					if np != "" {
						v = session.AppendJSString(nil, np)
					}
					buf = append(append(append([]byte(nil), buf[:s]...), v...), buf[e:]...)
				}
			}
		}
		nl := l.nl
		if i == len(kept)-1 && p.newline && p.Markers > 0 && l.off+int64(l.n)+1 == p.markerOff() {
			nl = false // the final newline pruner added, with nothing after it now
		}
		if nl {
			buf = append(buf, '\n')
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// markerOff is the offset of the first marker line.
func (p *Plan) markerOff() int64 {
	for _, l := range p.lines {
		if l.pruner {
			return l.off
		}
	}
	return -1
}

// resolve follows pruner entries' parents to the first id that is not
// pruner's; ok is false when id is not a pruner entry.
func (p *Plan) resolve(id string) (string, bool) {
	if _, ok := p.parentOf[id]; !ok {
		return "", false
	}
	seen := map[string]bool{}
	for {
		next, ok := p.parentOf[id]
		if !ok || seen[id] {
			return id, true
		}
		seen[id] = true
		id = next
		if id == "" {
			return "", true
		}
	}
}

// hashPrefix is the hex SHA-256 of the first n bytes of src.
func hashPrefix(src io.ReaderAt, n int64) string {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(src, 0, n)); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stringField returns the top-level string value of key in a JSON line.
func stringField(b []byte, key string) (string, bool) {
	s, e, ok := session.ValueRange(b, key)
	if !ok || e-s < 2 || b[s] != '"' {
		return "", false
	}
	raw := b[s:e]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	return jsval.String(raw)
}
