//go:build linux

package session

import (
	"errors"

	"golang.org/x/sys/unix"
)

// populate maps the pages of b in one call (MADV_POPULATE_READ, Linux
// 5.14): no fault for each page as it is read. ok is false when it cannot
// (an older kernel, a range past a truncated file's end).
func populate(b []byte) (ok, unsupported bool) {
	err := unix.Madvise(b, unix.MADV_POPULATE_READ)
	return err == nil, errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS)
}
