//go:build windows

package sessionfile

import "os"

// canWrite reports whether path is writable: on Windows only the read-only
// bit says so.
func canWrite(path string) bool {
	st, err := os.Stat(path)
	return err == nil && (st.IsDir() || st.Mode().Perm()&0o200 != 0)
}

// sameOwner is a no-op on Windows.
func sameOwner(*os.File, os.FileInfo) {}
