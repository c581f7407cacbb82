package session

import (
	"encoding/binary"
	"github.com/pruner-dev/pruner/internal/jsonscan"
	"io"
	"math/bits"
	"unicode/utf8"
)

// RuneCount is utf8.RuneCount, 8 bytes at a time: for valid UTF-8 the count
// is the number of bytes that are not continuation bytes (10xxxxxx).
func RuneCount(p []byte) int {
	n := len(p)
	var high uint64 // any byte >= 0x80 seen
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		if w&0x8080808080808080 == 0 {
			continue
		}
		high = 1
		n -= bits.OnesCount64(w & ^(w << 1) & 0x8080808080808080)
	}
	for ; i < len(p); i++ {
		if p[i] >= 0x80 {
			high = 1
			if p[i]&0xC0 == 0x80 {
				n--
			}
		}
	}
	// ASCII needs no check; otherwise invalid UTF-8 counts one per bad byte
	if high != 0 && !utf8.Valid(p) {
		return utf8.RuneCount(p)
	}
	return n
}

// windowReaderAt serves ReadAt from a window of the underlying file that
// moves forward: a context is rendered in file order (nearly always), so the
// file is read once in large chunks instead of one pread per message.
type windowReaderAt struct {
	r   io.ReaderAt
	buf []byte
	off int64 // file offset of buf[0]
	n   int   // valid bytes in buf
}

const windowSize = 1 << 20

func newWindowReaderAt(r io.ReaderAt) *windowReaderAt { return &windowReaderAt{r: r, off: -1} }

// slice returns the n bytes at off; valid until the next call.
func (w *windowReaderAt) slice(off int64, n int) ([]byte, error) {
	if w.off >= 0 && off >= w.off && off+int64(n) <= w.off+int64(w.n) {
		s := int(off - w.off)
		return w.buf[s : s+n], nil
	}
	size := windowSize
	if n > size {
		size = n
	}
	if cap(w.buf) < size {
		w.buf = make([]byte, size)
	}
	w.buf = w.buf[:cap(w.buf)]
	m, err := w.r.ReadAt(w.buf, off)
	w.off, w.n = off, m
	if m >= n {
		return w.buf[:n], nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	w.off = -1
	return nil, err
}

// ValueRange returns the [start,end) byte range of key's value in the JSON
// object obj (last occurrence wins, keys matched exactly, as in JSON.parse);
// ok is false when the key is absent. obj must be valid JSON.
func ValueRange(obj []byte, key string) (start, end int, ok bool) {
	return jsonscan.ValueRange(obj, key)
}
