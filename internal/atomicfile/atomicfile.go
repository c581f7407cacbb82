// Package atomicfile replaces a file so that readers see the old content or
// the new, never a part of it, and a failed write leaves the old file as it
// was. On Unix it is google/renameio (a temporary file in the same
// directory, fsync, rename over the target). renameio does not build on
// Windows, where no rename is guaranteed atomic; there a temporary file in
// the same directory is renamed over the target with os.Rename
// (MoveFileEx, replacing), which is as close as Windows comes.
package atomicfile

import "os"

// WriteFile writes data to path atomically with permissions perm (before
// the umask); see the package comment.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := create(path, perm, false)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// Create starts writing path: the bytes go to a temporary file beside it,
// which Commit renames over path and Abort removes. A new file gets mode
// 0666 before the umask; an existing file keeps its permissions.
func Create(path string) (*File, error) { return create(path, 0o666, true) }
