//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// File is a pending replacement of a file (see Create).
type File struct{ pf *renameio.PendingFile }

func create(path string, perm os.FileMode, keepPerm bool) (*File, error) {
	opts := []renameio.Option{renameio.WithTempDir(filepath.Dir(path)), renameio.WithPermissions(perm)}
	if keepPerm {
		opts = append(opts, renameio.WithExistingPermissions())
	}
	pf, err := renameio.NewPendingFile(path, opts...)
	if err != nil {
		return nil, err
	}
	return &File{pf}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.pf.Write(p) }

// Commit syncs the temporary file and renames it over the target.
func (f *File) Commit() error { return f.pf.CloseAtomicallyReplace() }

// Abort removes the temporary file; the target is left as it was.
func (f *File) Abort() { f.pf.Cleanup() }

// Temp is the temporary file (to sync, re-read or chown before Commit).
func (f *File) Temp() *os.File { return f.pf.File }
