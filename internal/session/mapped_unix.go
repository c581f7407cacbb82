//go:build linux || darwin || freebsd || netbsd || openbsd

package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a regular file of at least one byte read-only; ok is false
// when it cannot (pipes, empty files, mmap errors): the caller streams it.
func mapFile(f *os.File) (*mapping, bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return nil, false
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	_ = unix.Madvise(data, unix.MADV_SEQUENTIAL)
	return &mapping{data: data}, true
}

// unmap releases the mapping.
func (m *mapping) unmap() { _ = unix.Munmap(m.data) }

// dropPages gives the pages of b back to the kernel (the page cache keeps
// them; a later access faults them in again).
func dropPages(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_DONTNEED)
	}
}
