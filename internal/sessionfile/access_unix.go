//go:build !windows

package sessionfile

import (
	"os"
	"syscall"
)

// canWrite reports whether this process may write path (a file, or a
// directory to create files in).
func canWrite(path string) bool { return syscall.Access(path, 2) == nil }

// sameOwner gives the new file the old one's owner when pruner runs as root
// (a session replaced by root must stay its user's).
func sameOwner(f *os.File, old os.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}
