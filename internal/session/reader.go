package session

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// LineReader frames JSONL input into lines with no length limit (real pi
// lines reach several MB: base64 images, 50 KB tool outputs), tracking the
// 1-based line number and the byte offset of each line.
type LineReader struct {
	r    *bufio.Reader
	buf  []byte
	line int
	off  int64
	// rest: the line returned last was cut at a NUL byte; what is left of
	// it is skipped before the next line
	rest bool
}

// NewLineReader wraps r with a 1 MiB read buffer.
func NewLineReader(r io.Reader) *LineReader { return NewLineReaderSize(r, 1<<20) }

// NewLineReaderSize wraps r with a read buffer of size bytes (lines may
// still be longer).
func NewLineReaderSize(r io.Reader, size int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, size)}
}

// Reset makes lr read from r from the start (line 1, offset 0), keeping its
// buffers; a buffer grown past 8 MiB for one huge line is dropped.
func (lr *LineReader) Reset(r io.Reader) {
	lr.r.Reset(r)
	lr.line, lr.off, lr.rest = 0, 0, false
	if cap(lr.buf) > 8<<20 {
		lr.buf = nil
	}
}

// Next returns the next line without its trailing "\n", its 1-based number
// and the byte offset where it starts. The returned slice is valid until the
// next call. At the end of input it returns io.EOF (a last line without a
// final newline is returned first).
//
// A line longer than the read buffer that holds a NUL byte — binary data,
// never JSON — is returned as far as the buffer that held the NUL (its
// rest is skipped, counted in the offsets, not kept): the caller rejects or
// skips it without pruner holding a line that may never end (/dev/zero
// through a pipe is one endless line of NULs).
func (lr *LineReader) Next() (line []byte, num int, off int64, err error) {
	if lr.rest {
		if err := lr.skipRest(); err != nil {
			return nil, lr.line, lr.off, err
		}
	}
	start := lr.off
	frag, err := lr.r.ReadSlice('\n')
	if err == nil {
		lr.off += int64(len(frag))
		lr.line++
		return frag[:len(frag)-1], lr.line, start, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) && len(frag) == 0 {
		return nil, lr.line, start, err
	}
	lr.buf = append(lr.buf[:0], frag...)
	binary := bytes.IndexByte(frag, 0) >= 0
	for errors.Is(err, bufio.ErrBufferFull) && !binary {
		frag, err = lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, frag...)
		binary = bytes.IndexByte(frag, 0) >= 0
	}
	lr.off += int64(len(lr.buf))
	lr.line++
	if binary && errors.Is(err, bufio.ErrBufferFull) {
		lr.rest = true
		return lr.buf, lr.line, start, nil
	}
	if err == nil {
		return lr.buf[:len(lr.buf)-1], lr.line, start, nil
	}
	if errors.Is(err, io.EOF) {
		return lr.buf, lr.line, start, nil
	}
	return nil, lr.line, start, err
}

// skipRest reads past the rest of a line cut at a NUL byte (its newline
// included), keeping none of it.
func (lr *LineReader) skipRest() error {
	for {
		frag, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(frag))
		switch {
		case err == nil || errors.Is(err, io.EOF) && len(frag) > 0:
			lr.rest = false
			return nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		}
		lr.rest = false
		return err
	}
}
