// Package spool keeps a stream that cannot seek (stdin, a pipe, a FIFO) in
// a temporary file, so pruner's second pass can read it again as an
// io.ReaderAt. It is the one place input is spooled. Texts keeps a
// flush's summaries in a temporary file the same way.
package spool

import (
	"bufio"
	"io"
	"os"
	"sync"
)

// File is a spooled stream: a temporary file removed by Close.
type File struct {
	tmp *os.File
	w   *bufio.Writer
}

func create(pattern string) (*File, error) {
	tmp, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	return &File{tmp: tmp}, nil
}

// Tee spools r while it is read: the returned reader is r, and every byte
// read through it is kept in the spool (complete once Flush is called
// after the reader is drained). pattern names the temporary file
// (os.CreateTemp).
func Tee(r io.Reader, pattern string) (*File, io.Reader, error) {
	f, err := create(pattern)
	if err != nil {
		return nil, nil, err
	}
	f.w = bufio.NewWriterSize(f.tmp, 1<<20)
	return f, io.TeeReader(r, f.w), nil
}

// Copy spools all of r at once and rewinds, so the spool reads from its
// start (Read) as well as at any offset (ReadAt).
func Copy(r io.Reader, pattern string) (*File, error) {
	f, err := create(pattern)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(f.tmp, r); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.tmp.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Flush completes a Tee spool once its reader is drained (a no-op for a
// Copy spool).
func (f *File) Flush() error {
	if f.w == nil {
		return nil
	}
	return f.w.Flush()
}

// Read reads the spool from where the last Read stopped.
func (f *File) Read(p []byte) (int, error) { return f.tmp.Read(p) }

// ReadAt reads the spool at off.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.tmp.ReadAt(p, off) }

// Close closes and removes the temporary file.
func (f *File) Close() error {
	err := f.tmp.Close()
	if rerr := os.Remove(f.tmp.Name()); err == nil {
		err = rerr
	}
	return err
}

// Texts is an append-only temporary file of texts read back at their
// offsets (a flush's summaries: index.TextStore), so they are not held
// in memory until written; removed by Close. It is safe for concurrent
// use.
type Texts struct {
	mu      sync.Mutex
	tmp     *os.File
	w       *bufio.Writer
	size    int64 // bytes appended
	flushed int64 // bytes in the file (the rest are in w)
	// win holds the file's bytes from winOff on, read ahead: texts are
	// read back mostly in the order they were appended (a flush's
	// summaries as the render goes), so most reads are a copy from it,
	// not a pread each (1 GB: ~150,000 of them)
	win    []byte
	winOff int64
}

// textsWindow is how much ReadAt reads ahead.
const textsWindow = 256 << 10

// NewTexts creates an empty Texts; pattern names the temporary file
// (os.CreateTemp).
func NewTexts(pattern string) (*Texts, error) {
	tmp, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	return &Texts{tmp: tmp, w: bufio.NewWriterSize(tmp, 256<<10)}, nil
}

// Append stores text after the texts stored before and returns the offset
// it starts at.
func (t *Texts) Append(text string) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	off := t.size
	n, err := t.w.WriteString(text)
	t.size += int64(n)
	return off, err
}

// ReadAt reads what was appended at off (what is still buffered is written
// to the file first).
func (t *Texts) ReadAt(p []byte, off int64) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	end := off + int64(len(p))
	if off >= t.winOff && end <= t.winOff+int64(len(t.win)) {
		return copy(p, t.win[off-t.winOff:]), nil
	}
	if end > t.flushed {
		if err := t.w.Flush(); err != nil {
			return 0, err
		}
		t.flushed = t.size
	}
	if len(p) >= textsWindow/2 || off < 0 || end > t.flushed {
		return t.tmp.ReadAt(p, off)
	}
	// what was appended is never changed: the window stays true
	if t.win == nil {
		t.win = make([]byte, textsWindow)
	}
	n, err := t.tmp.ReadAt(t.win[:min(int64(textsWindow), t.flushed-off)], off)
	t.win, t.winOff = t.win[:n], off
	if n < len(p) {
		t.win = t.win[:0]
		return t.tmp.ReadAt(p, off) // (short: its own error)
	}
	_ = err // (io.EOF at the file's end: the window holds what is there)
	return copy(p, t.win), nil
}

// Close closes and removes the temporary file.
func (t *Texts) Close() error {
	err := t.tmp.Close()
	if rerr := os.Remove(t.tmp.Name()); err == nil {
		err = rerr
	}
	return err
}
