//go:build windows

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// File is a pending replacement of a file (see Create). It remembers the
// first write error: every later Write returns it, and Commit returns it
// and replaces nothing.
type File struct {
	tmp  *os.File
	path string
	done bool
	err  error
}

func create(path string, perm os.FileMode, keepPerm bool) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); keepPerm && err == nil {
		perm = st.Mode().Perm()
	}
	_ = tmp.Chmod(perm) // Windows keeps only the read-only bit
	return &File{tmp: tmp, path: path}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.tmp.Write(p)
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
		f.Abort()
		return f.err
	}
	f.done = true
	if err := f.tmp.Sync(); err != nil {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
		return err
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(f.tmp.Name())
		return err
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		os.Remove(f.tmp.Name())
		return err
	}
	return nil
}

// Abort removes the temporary file; the target is left as it was.
func (f *File) Abort() {
	if !f.done {
		f.done = true
		f.tmp.Close()
		os.Remove(f.tmp.Name())
	}
}

// Temp is the temporary file (to sync, re-read or chown before Commit).
func (f *File) Temp() *os.File { return f.tmp }
