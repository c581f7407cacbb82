// Package sessionfile replaces a pi session file on disk without losing a
// line: it refuses a file pi is writing (modified moments ago, or growing
// while pruner works), writes through symlinks to their target, streams the
// new bytes into a temporary file beside the target, lets the caller check
// them, and renames it over the target (internal/atomicfile: google/renameio on Unix) only if the target
// is still the file that was read. Bytes pi appends to the old file in the
// instant between that last check and the rename are moved to the end of
// the new file, never dropped. An interrupted or failed run leaves the
// target as it was and no temporary file behind.
//
// It is mechanism only: what the new bytes are is the caller's business.
package sessionfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pruner-dev/pruner/internal/atomicfile"
)

// DefaultQuietPeriod is how long a session must have been left alone before
// it is rewritten: pi appends one line per message as it arrives.
const DefaultQuietPeriod = 10 * time.Second

// Options tune Open.
type Options struct {
	// Force skips the live-session checks (recent modification, growth).
	Force bool
	// QuietPeriod overrides DefaultQuietPeriod (negative: no check).
	QuietPeriod time.Duration
	// LaterQuietCheck leaves the quiet-period check to CheckQuiet (a
	// caller that first looks whether there is anything to write).
	LaterQuietCheck bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// ReadOnly opens the file to read it only (a dry run): a file pruner
	// could not rewrite is no error.
	ReadOnly bool
}

// LiveError says the file looks like a session pi is writing.
type LiveError struct {
	Path string
	Why  string
}

func (e *LiveError) Error() string {
	return fmt.Sprintf("%s: %s (is pi writing to it?); nothing written", e.Path, e.Why)
}

// CheckWritable reports a *ReadOnlyError when the file cannot be rewritten
// (read-only, or in a directory pruner cannot write the new file to); Open
// checks it unless Options.ReadOnly.
func (fl *File) CheckWritable() error {
	if fl.info.Mode().Perm()&0o200 == 0 || !canWrite(fl.Target) {
		return &ReadOnlyError{Path: fl.Path, Why: "is read-only"}
	}
	if !canWrite(filepath.Dir(fl.Target)) {
		return &ReadOnlyError{Path: fl.Path, Why: "is in a directory pruner cannot write to (the new file is renamed over it)"}
	}
	return nil
}

// ReadOnlyError says the file cannot be rewritten.
type ReadOnlyError struct {
	Path string
	Why  string
}

func (e *ReadOnlyError) Error() string { return fmt.Sprintf("%s %s; not rewriting it", e.Path, e.Why) }

// ErrInterrupted is returned when the context ends before the rename.
var ErrInterrupted = errors.New("interrupted; nothing written")

// File is a session file opened for replacement.
type File struct {
	// Path is the path as given; Target is where it resolves through
	// symlinks (the file that is replaced).
	Path, Target string
	f            *os.File
	info         os.FileInfo
	opts         Options
	beforeRename func() // test hook: runs after the last check
}

// Open opens path for reading and checks that it may be replaced: a regular,
// writable file in a writable directory, not modified within the quiet
// period (unless opts.Force).
func Open(path string, opts Options) (*File, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(target)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	fail := func(err error) (*File, error) { f.Close(); return nil, err }
	if !info.Mode().IsRegular() {
		return fail(&ReadOnlyError{Path: path, Why: "is not a regular file"})
	}
	fl := &File{Path: path, Target: target, f: f, info: info, opts: opts}
	if opts.ReadOnly {
		return fl, nil
	}
	if err := fl.CheckWritable(); err != nil {
		return fail(err)
	}
	if !opts.LaterQuietCheck {
		if err := fl.CheckQuiet(); err != nil {
			return fail(err)
		}
	}
	return fl, nil
}

// CheckQuiet refuses (a *LiveError) a file modified within the quiet
// period, unless Options.Force.
func (fl *File) CheckQuiet() error {
	if fl.opts.Force {
		return nil
	}
	q := fl.opts.QuietPeriod
	if q == 0 {
		q = DefaultQuietPeriod
	}
	if age := fl.now().Sub(fl.info.ModTime()); q > 0 && age < q {
		return &LiveError{Path: fl.Path, Why: fmt.Sprintf("modified %s ago", age.Round(time.Second))}
	}
	return nil
}

func (fl *File) now() time.Time {
	if fl.opts.Now != nil {
		return fl.opts.Now()
	}
	return time.Now()
}

// Reader is the file as opened (read it with ReadAt or from offset 0).
func (fl *File) Reader() *os.File { return fl.f }

// Size is the file's size when it was opened.
func (fl *File) Size() int64 { return fl.info.Size() }

// Close closes the file.
func (fl *File) Close() error { return fl.f.Close() }

// unchanged checks that the target is still the file that was opened, with
// the same size and modification time. With Force only a replaced file
// counts (growth is moved over by Replace; a replaced file would be lost).
func (fl *File) unchanged() error {
	now, err := fl.f.Stat()
	if err != nil {
		return err
	}
	cur, err := os.Stat(fl.Target)
	if err != nil {
		return err
	}
	if !os.SameFile(cur, now) {
		return &LiveError{Path: fl.Path, Why: "file was replaced while pruning"}
	}
	if fl.opts.Force {
		return nil
	}
	if now.Size() != fl.info.Size() {
		return &LiveError{Path: fl.Path, Why: fmt.Sprintf("file changed while pruning (%d → %d bytes)", fl.info.Size(), now.Size())}
	}
	if !now.ModTime().Equal(fl.info.ModTime()) {
		return &LiveError{Path: fl.Path, Why: "file changed while pruning (modified)"}
	}
	return nil
}

// Report says what Replace did besides the rename.
type Report struct {
	// Moved is the number of bytes pi appended to the old file between the
	// last check and the rename, appended to the new file afterwards.
	Moved int64
}

// Replace writes the new content with write (streamed into a temporary file
// next to the target), calls verify on that file (rewound, still open)
// before anything is replaced, checks at the last moment that the target
// has not changed, and renames the temporary file over it. On any error or
// when ctx ends first, the target is untouched and the temporary file
// removed.
func (fl *File) Replace(ctx context.Context, write func(io.Writer) error, verify func(*os.File) error) (Report, error) {
	var rep Report
	if err := fl.unchanged(); err != nil {
		return rep, err
	}
	pf, err := atomicfile.Create(fl.Target)
	if err != nil {
		return rep, fmt.Errorf("creating the new file next to %s: %w", fl.Path, err)
	}
	committed := false
	defer func() {
		if !committed {
			pf.Abort()
		}
	}()
	tmp := pf.Temp()
	sameOwner(tmp, fl.info)
	bw := bufio.NewWriterSize(&ctxWriter{ctx: ctx, w: pf}, 1<<20)
	if err := write(bw); err != nil {
		if ctx.Err() != nil {
			return rep, ErrInterrupted
		}
		return rep, err
	}
	if err := bw.Flush(); err != nil {
		if ctx.Err() != nil {
			return rep, ErrInterrupted
		}
		return rep, err
	}
	if err := tmp.Sync(); err != nil {
		return rep, err
	}
	if verify != nil {
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return rep, err
		}
		if err := verify(tmp); err != nil {
			return rep, err
		}
		if _, err := tmp.Seek(0, io.SeekEnd); err != nil {
			return rep, err
		}
	}
	if ctx.Err() != nil {
		return rep, ErrInterrupted
	}
	if err := fl.unchanged(); err != nil {
		return rep, err
	}
	if fl.beforeRename != nil {
		fl.beforeRename()
	}
	committed = true
	if err := pf.Commit(); err != nil {
		return rep, err
	}
	syncDir(filepath.Dir(fl.Target))
	moved, err := fl.moveStray()
	rep.Moved = moved
	return rep, err
}

// moveStray appends to the new file what was appended to the old one after
// the last check (pi opens the file by path for every append, so only an
// append racing the rename can land in the old file).
func (fl *File) moveStray() (int64, error) {
	var moved int64
	off := fl.info.Size()
	for round := 0; round < 3; round++ {
		st, err := fl.f.Stat()
		if err != nil {
			return moved, err
		}
		if st.Size() > off {
			stray := make([]byte, st.Size()-off)
			if _, err := fl.f.ReadAt(stray, off); err != nil && err != io.EOF {
				return moved, err
			}
			out, err := os.OpenFile(fl.Target, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return moved, fmt.Errorf("%d bytes pi appended during the rename are only in the old file: %w", len(stray), err)
			}
			_, werr := out.Write(stray)
			cerr := out.Close()
			if werr != nil || cerr != nil {
				return moved, fmt.Errorf("moving %d bytes pi appended during the rename: %w", len(stray), errors.Join(werr, cerr))
			}
			moved += int64(len(stray))
			off = st.Size()
		}
		time.Sleep(20 * time.Millisecond)
	}
	return moved, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// ctxWriter fails writes once ctx is done, so an interrupted copy stops.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
