//go:build !windows

package atomicfile

import (
	"io"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// File is a pending replacement of a file (see Create). It remembers the
// first write error: every later Write returns it, and Commit returns it
// and replaces nothing (a short write never becomes the file).
type File struct {
	pf  *renameio.PendingFile
	err error
}

func create(path string, perm os.FileMode, keepPerm bool) (*File, error) {
	opts := []renameio.Option{renameio.WithTempDir(filepath.Dir(path)), renameio.WithPermissions(perm)}
	if keepPerm {
		opts = append(opts, renameio.WithExistingPermissions())
	}
	pf, err := renameio.NewPendingFile(path, opts...)
	if err != nil {
		return nil, err
	}
	return &File{pf: pf}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.pf.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		f.err = err
	}
	return n, err
}

// Commit syncs the temporary file and renames it over the target; after a
// failed Write it removes the temporary file and returns that error.
func (f *File) Commit() error {
	if f.err != nil {
		f.pf.Cleanup()
		return f.err
	}
	return f.pf.CloseAtomicallyReplace()
}

// Abort removes the temporary file; the target is left as it was.
func (f *File) Abort() { f.pf.Cleanup() }

// Temp is the temporary file (to sync, re-read or chown before Commit).
func (f *File) Temp() *os.File { return f.pf.File }
