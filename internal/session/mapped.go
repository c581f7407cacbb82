package session

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// lineSource frames input into lines (LineReader, or a mapped file).
type lineSource interface {
	Next() (line []byte, num int, off int64, err error)
	pos() (lines int, bytes int64)
}

func (lr *LineReader) pos() (int, int64) { return lr.line, lr.off }

// mappedLines frames a memory-mapped file: lines are slices of the mapping,
// never copied. Pages behind the reader are given back to the kernel every
// dropEvery bytes, so the process keeps only a window of the file resident.
type mappedLines struct {
	m    *mapping
	off  int64
	line int
}

const dropEvery = 1 << 20

func (ml *mappedLines) pos() (int, int64) { return ml.line, ml.off }

func (ml *mappedLines) Next() ([]byte, int, int64, error) {
	data := ml.m.data
	start := ml.off
	if start >= int64(len(data)) {
		return nil, ml.line, start, io.EOF
	}
	if start-ml.m.dropped > dropEvery+window {
		ml.m.drop(&ml.m.dropped, start)
	}
	rest := data[start:]
	ml.line++
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		ml.off = int64(len(data))
		return rest, ml.line, start, nil
	}
	ml.off = start + int64(i) + 1
	return rest[:i], ml.line, start, nil
}

// mapping is a read-only memory map of a whole regular file.
type mapping struct {
	data     []byte
	dropped  int64 // the read pass gave back the pages before this offset
	rdropped int64 // and so did the render pass
	// the pages of data[pop0:pop1] were mapped by populate (view);
	// noPopulate: populate cannot map them here
	pop0, pop1 int64
	noPopulate bool
}

// pageSize is the system's page size (populate's ranges start on a page).
var pageSize = os.Getpagesize()

// popAhead is how much of the file view maps at once past a read.
const popAhead = 1 << 20

// view returns the n bytes at off where they are mapped, their pages
// mapped ahead of the read (populate: popAhead bytes at a time, so reads
// in file order make one call a window, not one a read nor a fault a
// page); ok is false when populate cannot map them (read them from the
// file). The range must be inside the mapping; the caller reads the bytes
// under guard and calls advance.
func (m *mapping) view(off int64, n int) ([]byte, bool) {
	end := off + int64(n)
	if off < m.pop0 || end > m.pop1 {
		if m.noPopulate {
			return nil, false
		}
		p0 := off &^ int64(pageSize-1)
		p1 := min(max(end, p0+popAhead), int64(len(m.data)))
		ok, unsupported := populate(m.data[p0:p1])
		if !ok {
			m.noPopulate = m.noPopulate || unsupported
			return nil, false
		}
		m.pop0, m.pop1 = p0, p1
	}
	return m.data[off:end], true
}

// window is how much of the file stays resident behind a cursor.
const window = 1 << 20

// drop gives back the pages from *done to off minus one window, rounded
// down to a window boundary, and moves *done.
func (m *mapping) drop(done *int64, off int64) {
	end := (off - window) &^ (window - 1)
	if end <= *done {
		return
	}
	dropPages(m.data[*done:end])
	*done = end
	if end > m.pop0 {
		m.pop0 = min(end, m.pop1) // those pages are no longer mapped
	}
}

// slice copies the n bytes at off into *buf (fault-guarded) and returns
// them; valid until the next call.
func (m *mapping) slice(off int64, n int, buf *[]byte) ([]byte, error) {
	if off < 0 || n < 0 || off+int64(n) > int64(len(m.data)) {
		return nil, io.ErrUnexpectedEOF
	}
	if cap(*buf) < n || cap(*buf) > 8<<20 && n < 1<<20 {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if err := guard(func() error { copy(b, m.data[off:]); return nil }); err != nil {
		return nil, err
	}
	m.advance(off)
	return b, nil
}

// resident reports whether the mapping is small enough that no page of it
// is ever given back (neither cursor passes dropEvery+window bytes): once
// read, its pages stay mapped, and reading them where they are costs no
// fault (ReadMessage's copy is for the pages a larger file gave back).
func (m *mapping) resident() bool { return int64(len(m.data)) <= dropEvery+window }

// advance notes that the render pass has read up to off, giving back the
// pages well behind it.
func (m *mapping) advance(off int64) {
	if off < m.rdropped {
		// a read behind the cursor (e.g. the last message first, then the
		// context from its start): restart the cursor here, or every page
		// read from now on would stay resident
		m.rdropped = off &^ (window - 1)
	}
	if off-m.rdropped > dropEvery+window {
		m.drop(&m.rdropped, off)
	}
}

// errChanged is returned when the mapped file shrinks under pruner (a
// fault on a page past its new end).
var errChanged = fmt.Errorf("the input file changed while it was read (truncated?)")

// guard runs fn and turns a memory fault (a mapped file that was truncated)
// into errChanged instead of a crash.
func guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); ok {
				err = errChanged
				return
			}
			panic(r)
		}
	}()
	return fn()
}
