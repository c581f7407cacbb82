package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/index"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/pruner-dev/pruner/internal/render"
	"github.com/pruner-dev/pruner/internal/session"
)

// Appended is what `now --write` appends to a session, in order: a
// pruner-write marker (what the file was, for `pruner restore`), the
// flush's entries, and one context_edit per tool result whose content the
// rendered context changes (a stub or a masking notice), so that pi ≥ 1.0
// on its own — without pi-condense or pruner — sends the same content.
type Appended struct {
	// Entries are the flush's entries (the context edits follow them, not
	// held as entries: edits). Once the file is written (writeback) they
	// are nil; Len stays.
	Entries []*index.NewEntry
	// edits are the context edits, in order, each its result's render
	// item (16 bytes; its content and target id are built when written),
	// and mask the plan a masked one renders through.
	edits []edit
	mask  *prune.Plan
	// IDs are the entries' ids (IDs[0] is the marker's), unique in the file.
	IDs []string
	// Edits counts the context_edit entries.
	Edits int
	// Blobs are the spill blobs the marker lists (created by this write).
	Blobs []string
	// EditsSkipped says why no context_edit was written ("" when they were).
	EditsSkipped string
	// Refused says why nothing can be appended at all ("" when it can).
	Refused string
}

// Len is the number of entries appended after the marker: the flush's
// entries and the context edits (0: nothing to append).
func (a *Appended) Len() int { return max(len(a.IDs)-1, 0) }

// Drop lets the collector have what the entries are written from (once
// they are): the flush's entries (their slots cleared) and the edits.
// Len and IDs stay.
func (a *Appended) Drop() {
	clear(a.Entries)
	a.edits, a.mask = nil, nil
}

// edit is a context_edit of the result item it renders (through the mask
// when masked): its content is that message rendered again when the entry
// is written, its target the source message's entry id.
type edit struct {
	it     render.Item
	masked bool
}

// Append plans the entries to append for r. ctx must have been read with
// session.ReadOptions{Branch: true, AllEntries: true}. blobs are the spill
// files this run created. Nothing to append (no flush entry, no changed
// result) gives an Appended with no entries.
func (r *Result) Append(blobs []string) (*Appended, error) {
	ctx := r.Ctx
	a := &Appended{Blobs: blobs}
	if ctx.Header.Version >= 2 && ctx.LeafID == "" && len(ctx.Branch) > 0 {
		a.Refused = "the last entry has no id, so appended entries could not continue its branch (pi would start a new one)"
		return a, nil
	}
	edits, err := r.edits()
	if err != nil {
		return nil, err
	}
	if ctx.Header.Version < 2 {
		// pi rewrites every id when it migrates a v1 file: an edit's
		// targetId would point nowhere
		if len(edits) > 0 {
			a.EditsSkipped = "v1 session: pi gives every entry a new id when it migrates the file, so context edits are not written; pi-condense's entries are, and they shrink the context only with pi-condense loaded — pi alone sends their summaries on top (a bigger context): load pi-condense or pruner's extension (extensions/prune.ts), or restore the file"
		}
		edits = nil
	}
	// a flush that only moved the frontier (trivial batches) is written
	// only along with something that changes the context
	if r.Flushed != nil && (r.Flushed.Changes() || len(edits) > 0) {
		r.Flushed.BuildEntries()
		a.Entries = append(a.Entries, r.Flushed.Entries...)
	}
	a.Edits = len(edits)
	if len(edits) > 0 {
		a.edits, a.mask = edits, r.Mask
	}
	if n := len(a.Entries) + len(a.edits); n > 0 {
		a.IDs = newIDs(ctx, n+1)
	}
	return a, nil
}

// edits are the context_edit entries for the results the rendered context
// changes: stubs of indexed results and masking notices, those a
// compressed chain dropped included (the render's other rewrites — chains,
// purges, superseded reads, the image cap — are pi-condense's render-time
// business and stay out of the file). An edit holds no copy of its
// content, nor an entry: it renders its message again when written
// (appendEdit), so that a run that writes the session does not hold every
// stub's bytes (1 GB of pi-derived input: ~225,000 edits, ~40 MB of
// content) nor an entry, a closure and a target id string per edit.
func (r *Result) edits() ([]edit, error) {
	ctx := r.Ctx
	var out []edit
	var cur []byte // the message's content as it is (reused)
	add := func(m *session.Message, rendered []byte, it render.Item, masked bool) error {
		if m.EntryID() == "" || m.Role() != session.RoleToolResult {
			return nil
		}
		s, e, ok := session.ValueRange(rendered, "content")
		if !ok {
			return nil
		}
		var now []byte
		if _, _, ok := m.ContentRange(); ok {
			// the message as it was read (no patch): ContentOf's bytes,
			// in a buffer reused from one result to the next
			var err error
			if cur, err = ctx.AppendMessage(cur[:0], m); err != nil {
				return err
			}
			if cs, ce, ok := session.ValueRange(cur, "content"); ok {
				now = cur[cs:ce]
			}
		} else {
			var err error
			if now, err = ctx.ContentOf(m); err != nil {
				return err
			}
		}
		if bytes.Equal(bytes.TrimSpace(now), rendered[s:e]) {
			return nil
		}
		out = append(out, edit{it: it, masked: masked})
		return nil
	}
	var buf []byte
	var err error
	if r.Rendered == nil {
		if r.Mask == nil {
			return nil, nil
		}
		for i, m := range ctx.Messages {
			if r.Mask.Decisions[i].Kind == prune.Keep {
				continue
			}
			var changed bool
			if buf, changed, err = r.Mask.AppendMessage(buf[:0], ctx, i); err != nil {
				return nil, err
			}
			if changed {
				if err := add(m, buf, render.Item{Src: int32(i)}, true); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	// the results a compressed chain drops too: pi alone does not apply
	// chains, so their stubs (or masking notices) are pinned as well
	for _, items := range [][]render.Item{r.Rendered.Items, r.Rendered.Dropped} {
		for _, it := range items {
			if it.Src < 0 {
				continue
			}
			m := ctx.Messages[it.Src]
			switch {
			case it.Change == render.Stubbed || it.Change == render.SpillStubbed:
				if buf, err = it.AppendJSON(buf[:0], ctx); err != nil {
					return nil, err
				}
				if err := add(m, buf, it, false); err != nil {
					return nil, err
				}
			case it.Change == render.Kept && r.Mask != nil && r.Mask.Decisions[it.Src].Kind != prune.Keep:
				var changed bool
				if buf, changed, err = r.Mask.AppendMessage(buf[:0], ctx, int(it.Src)); err != nil {
					return nil, err
				}
				if changed {
					if err := add(m, buf, it, true); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

// editEntry is the context_edit entry of the edit *cur points to (target
// and content set from it when written), its content built in scratch:
// one entry for all the edits, so none is held per edit. It holds the
// mask, not the result (whose render --write lets go once the entries are
// planned).
func editEntry(mask *prune.Plan, cur *edit, scratch *[]byte) *index.NewEntry {
	return index.ContextEdit("", func(dst []byte, ctx *session.Context) ([]byte, error) {
		var b []byte
		var err error
		if cur.masked {
			b, _, err = mask.AppendMessage((*scratch)[:0], ctx, int(cur.it.Src))
		} else {
			b, err = cur.it.AppendJSON((*scratch)[:0], ctx)
		}
		if err != nil {
			return dst, err
		}
		*scratch = b
		s, e, ok := session.ValueRange(b, "content")
		if !ok {
			return dst, fmt.Errorf("line %d: the rendered result has no content", ctx.Messages[cur.it.Src].Line())
		}
		return append(dst, b[s:e]...), nil
	})
}

// newIDs returns n entry ids like pi's (8 lowercase hex), unique in the
// file and deterministic for the same session (derived from its id and
// size): the k-th candidate, k = 0, 1, …, skipped when the file or an
// earlier pick has it. The candidates are what is looked up (the file's ids
// are not held: 1 GB of pi-derived input has over a million).
func newIDs(ctx *session.Context, n int) []string {
	seed := ctx.Header.ID + "\x00" + strconv.FormatInt(ctx.Bytes, 10)
	for k := n + n/16 + 8; ; k *= 2 {
		if out, ok := pickIDs(ctx, seed, n, k); ok {
			return out
		}
	}
}

// pickIDs is newIDs from the first k candidates; ok is false when fewer
// than n of them are free.
func pickIDs(ctx *session.Context, seed string, n, k int) (out []string, ok bool) {
	cand := make([]string, k)
	first := make(map[string]int32, k) // a candidate → its first k
	for i := range cand {
		sum := sha256.Sum256([]byte(seed + "\x00" + strconv.Itoa(i)))
		cand[i] = hex.EncodeToString(sum[:4])
		if _, dup := first[cand[i]]; !dup {
			first[cand[i]] = int32(i)
		}
	}
	taken := make([]bool, k) // by first k: the file has it
	mark := func(be *session.BranchEntry) {
		if i, ok := first[ctx.EntryID(be)]; ok {
			taken[i] = true
		}
	}
	for i := range ctx.Entries {
		mark(&ctx.Entries[i])
	}
	for i := range ctx.Branch {
		mark(&ctx.Branch[i])
	}
	out = make([]string, 0, n)
	for i, id := range cand {
		if len(out) == n {
			break
		}
		if f := first[id]; int(f) == i && !taken[f] {
			out = append(out, id)
		}
	}
	return out, len(out) == n
}

// SessionInfo is what WriteSession wrote.
type SessionInfo struct {
	// BaseBytes and BaseSHA256 are the input's size and hash (what the
	// marker records); Newline is set when a final newline was added.
	BaseBytes  int64
	BaseSHA256 string
	Newline    bool
	// Lines is the number of lines appended.
	Lines int
	// Bytes is the size written.
	Bytes int64
}

// WriteSession writes the whole session to w: the input's bytes (size of
// them, from src) unchanged — a final newline added when the last line has
// none — then a's entries, each a line. With no entries it writes the
// input alone.
func (r *Result) WriteSession(w io.Writer, src io.ReaderAt, size int64, a *Appended) (SessionInfo, error) {
	info := SessionInfo{BaseBytes: size}
	h := sha256.New()
	cw := &countWriter{w: w}
	n, err := io.Copy(io.MultiWriter(cw, h), io.NewSectionReader(src, 0, size))
	if err != nil {
		return info, err
	}
	if n != size {
		return info, fmt.Errorf("read %d of %d bytes", n, size)
	}
	info.BaseSHA256 = hex.EncodeToString(h.Sum(nil))
	if a == nil || a.Len() == 0 {
		info.Bytes = cw.n
		return info, nil
	}
	if size > 0 {
		last := make([]byte, 1)
		if _, err := src.ReadAt(last, size-1); err != nil {
			return info, err
		}
		if last[0] != '\n' {
			info.Newline = true
			if _, err := cw.Write([]byte{'\n'}); err != nil {
				return info, err
			}
		}
	}
	ts, _ := AppendTime(r.Ctx)
	marker := index.WriteMarker{V: 1, BaseBytes: size, BaseSHA256: info.BaseSHA256, Newline: info.Newline, IDs: a.IDs[1:], Blobs: a.Blobs}
	data, err := json.Marshal(marker)
	if err != nil {
		return info, err
	}
	line, err := index.MarkerEntry(data).AppendLine(nil, r.Ctx, a.IDs[0], r.Ctx.LeafID, ts)
	if err != nil {
		return info, err
	}
	parent := a.IDs[0]
	if _, err := cw.Write(append(line, '\n')); err != nil {
		return info, err
	}
	info.Lines = 1
	var buf []byte
	put := func(e *index.NewEntry, id string) error {
		buf, err = e.AppendLine(buf[:0], r.Ctx, id, parent, ts)
		if err != nil {
			return err
		}
		if _, err := cw.Write(append(buf, '\n')); err != nil {
			return err
		}
		parent = id
		info.Lines++
		return nil
	}
	for i, e := range a.Entries {
		if err := put(e, a.IDs[i+1]); err != nil {
			return info, err
		}
	}
	var cur edit
	ee := editEntry(a.mask, &cur, new([]byte))
	for i, ed := range a.edits {
		cur = ed
		ee.TargetID = r.Ctx.Messages[ed.it.Src].EntryID()
		if err := put(ee, a.IDs[len(a.Entries)+i+1]); err != nil {
			return info, err
		}
	}
	info.Bytes = cw.n
	return info, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// lostLine reports the warnings of a line pi does not read as an entry (it
// skips it, or keeps no fields of it): none may be one pruner appended.
func lostLine(c session.WarnCode) bool {
	switch c {
	case session.WarnBlank, session.WarnInvalid, session.WarnJoined, session.WarnBOM,
		session.WarnTooLong, session.WarnNotObject, session.WarnNoRole:
		return true
	}
	return false
}

// Verify re-reads a session WriteSession wrote (f, rewound) and checks it
// before it may replace the input: the input's bytes are there unchanged
// (same hash), every appended line is a valid entry with a unique id, the
// leaf is pruner's last entry, the context is the old one plus the
// flush's summaries, and pi-condense's state rebuilt from the file holds
// every ref the flush allocated. It is r.Check().Verify.
func (r *Result) Verify(f io.ReaderAt, size int64, info SessionInfo, a *Appended) error {
	return r.Check().Verify(f, size, info, a)
}

// Check is what Verify compares a written file with, taken from a result
// (Result.Check) before the file is written: with it the result's context,
// index and flush need not be live while the written file is re-read and
// its state rebuilt (--write's peak is then one of them, not both).
type Check struct {
	ids        idSet // the session's entry ids
	lines      int   // the session's lines
	warnBefore int   // its warnings on those lines
	version    int
	messages   int // the context's messages plus the flush's summaries
	state      bool
	records    int
	// every record's key and short ref: record i's are
	// keys[keyEnd[i-1]:keyEnd[i]] and refs[refEnd[i-1]:refEnd[i]] (one
	// string each, not two per record: 1 GB of pi-derived input has
	// ~240,000 records)
	keys, refs     string
	keyEnd, refEnd []int
}

// Check takes what Verify needs of r.
func (r *Result) Check() *Check {
	ctx := r.Ctx
	c := &Check{lines: ctx.Lines, warnBefore: countBefore(ctx.Warnings, ctx.Lines), version: ctx.Header.Version, messages: len(ctx.Messages)}
	c.ids = newIDSet(len(ctx.Entries), func(i int) string { return ctx.EntryID(&ctx.Entries[i]) })
	if r.Flushed != nil {
		c.messages += len(r.Flushed.Summaries)
	}
	if r.State != nil {
		c.state, c.records = true, r.State.Len()
		keys := r.State.Keys()
		var kb, rb strings.Builder
		c.keyEnd, c.refEnd = make([]int, len(keys)), make([]int, len(keys))
		for i, k := range keys {
			ref, _ := r.State.ShortRef(k)
			kb.WriteString(k)
			rb.WriteString(ref)
			c.keyEnd[i], c.refEnd[i] = kb.Len(), rb.Len()
		}
		c.keys, c.refs = kb.String(), rb.String()
	}
	return c
}

// ref is record i's key and short ref as Check took them.
func (c *Check) ref(i int) (key, ref string) {
	k0, r0 := 0, 0
	if i > 0 {
		k0, r0 = c.keyEnd[i-1], c.refEnd[i-1]
	}
	return c.keys[k0:c.keyEnd[i]], c.refs[r0:c.refEnd[i]]
}

// idSet is a set of entry ids, held in 4 bytes an id for pi's (8 lowercase
// hex digits: 1 GB of pi-derived input has over a million), as strings for
// the others; both sorted.
type idSet struct {
	hex   []uint32
	other []string
}

// newIDSet is the set of id(0), …, id(n-1).
func newIDSet(n int, id func(int) string) idSet {
	var s idSet
	s.hex = make([]uint32, 0, n)
	for i := range n {
		v := id(i)
		if h, ok := hexID(v); ok {
			s.hex = append(s.hex, h)
		} else {
			s.other = append(s.other, v)
		}
	}
	slices.Sort(s.hex)
	slices.Sort(s.other)
	return s
}

// has reports whether id is in s.
func (s *idSet) has(id string) bool {
	if h, ok := hexID(id); ok {
		_, found := slices.BinarySearch(s.hex, h)
		return found
	}
	_, found := slices.BinarySearch(s.other, id)
	return found
}

// hexID is id's value when it is 8 lowercase hex digits (so that the value
// gives the id back).
func hexID(id string) (uint32, bool) {
	if len(id) != 8 {
		return 0, false
	}
	var v uint32
	for i := range 8 {
		c := id[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Verify is Result.Verify for the result c was taken from.
func (c *Check) Verify(f io.ReaderAt, size int64, info SessionInfo, a *Appended) error {
	return c.VerifyFrom(io.NewSectionReader(f, 0, size), f, size, info, a)
}

// VerifyFrom is Verify re-reading the file's context from r, which reads
// f's size bytes from the start: the file itself when it is an *os.File
// of that size (session.Read maps it: no read call per line, nor per entry
// the rebuild reads).
func (c *Check) VerifyFrom(r io.Reader, f io.ReaderAt, size int64, info SessionInfo, a *Appended) error {
	h := sha256.New()
	if err := hashPrefix(h, f, info.BaseBytes); err != nil {
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != info.BaseSHA256 {
		return errors.New("the new file does not start with the session's bytes")
	}
	if a == nil || a.Len() == 0 {
		return nil
	}
	// the appended lines: valid JSON, ids new to the file and chained
	taken := make(map[string]bool, len(a.IDs)) // the appended ids seen
	lr := session.NewLineReader(io.NewSectionReader(f, info.BaseBytes, size-info.BaseBytes))
	k := 0
	for {
		line, num, _, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(line) == 0 && k == 0 {
			continue // the newline added after a last line that had none
		}
		if !json.Valid(line) {
			return fmt.Errorf("appended line %d is not valid JSON", num)
		}
		if k >= len(a.IDs) {
			return fmt.Errorf("%d lines appended, %d planned", k+1, len(a.IDs))
		}
		if id, ok := jsval.GetString(line, "id"); !ok || id != a.IDs[k] || taken[id] || c.ids.has(id) {
			return fmt.Errorf("appended line %d has id %q, want %s, new to the file", num, id, a.IDs[k])
		}
		taken[a.IDs[k]] = true
		k++
	}
	if k != len(a.IDs) {
		return fmt.Errorf("%d lines appended, %d planned", k, len(a.IDs))
	}
	taken = nil
	ctx, err := session.Read(r, f, session.ReadOptions{Branch: true})
	if err != nil {
		return fmt.Errorf("re-reading the new file: %w", err)
	}
	for _, w := range ctx.Warnings {
		if w.Line > c.lines && lostLine(w.Code) {
			return fmt.Errorf("appended line %d would be skipped: %s", w.Line, w.Msg)
		}
	}
	if n := countBefore(ctx.Warnings, c.lines); n != c.warnBefore {
		return fmt.Errorf("the session's lines read with %d warnings in the new file, %d before", n, c.warnBefore)
	}
	if c.version >= 2 && ctx.LeafID != a.IDs[len(a.IDs)-1] {
		return fmt.Errorf("the new file's leaf is %q, not pruner's last entry", ctx.LeafID)
	}
	if len(ctx.Messages) != c.messages {
		return fmt.Errorf("the new file's context has %d messages, want %d", len(ctx.Messages), c.messages)
	}
	if c.state {
		st, err := index.RebuildKeys(ctx) // keys and refs are what is compared
		if err != nil {
			return err
		}
		if st.Len() != c.records {
			return fmt.Errorf("pi-condense would rebuild %d records, the flush holds %d", st.Len(), c.records)
		}
		for i := range c.keyEnd {
			key, ref := c.ref(i)
			got, _ := st.ShortRef(key)
			if !st.IsSummarized(key) || got != ref {
				return fmt.Errorf("pi-condense would rebuild %s as ref %q, the flush made it %q", key, got, ref)
			}
		}
	}
	return nil
}

func hashPrefix(h hash.Hash, f io.ReaderAt, n int64) error {
	_, err := io.Copy(h, io.NewSectionReader(f, 0, n))
	return err
}

// countBefore counts the warnings on lines up to n (or tied to no line).
func countBefore(ws []session.Warning, n int) int {
	c := 0
	for _, w := range ws {
		if w.Line <= n {
			c++
		}
	}
	return c
}

// IndexState is the pi-condense state of the session once r's entries are
// appended — what pi-condense's rebuild of the file --write writes gives,
// with every record's text — without writing anything: `pruner query`
// resolves the refs and chain ids of an in-memory flush through it, so every
// `tN` and `bN` that `now` prints resolves with or without --write.
func (r *Result) IndexState() (*index.State, error) {
	ctx := r.Ctx
	ents, err := index.BranchEntries(ctx)
	if err != nil {
		return nil, err
	}
	if ctx.Kind != session.KindSession {
		return index.RebuildEntries(ents), nil
	}
	a, err := r.Append(nil)
	if err != nil {
		return nil, err
	}
	ts, _ := AppendTime(ctx)
	prev := ""
	if len(a.IDs) > 0 {
		prev = a.IDs[0] // the marker
	}
	for i, e := range a.Entries {
		id := a.IDs[i+1]
		if !strings.HasPrefix(e.CustomType, "context-prune-") {
			prev = id
			continue
		}
		line, err := e.AppendLine(nil, ctx, id, prev, ts)
		if err != nil {
			return nil, err
		}
		ents = append(ents, index.Entry{Type: e.Type, CustomType: e.CustomType, ID: id, Line: ctx.Lines + 2 + i, Raw: line})
		prev = id
	}
	return index.RebuildEntries(ents), nil
}
