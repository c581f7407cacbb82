package writeback

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/restore"
	"github.com/pruner-dev/pruner/internal/sessionfile"
)

// RestoreOptions are what Restore needs.
type RestoreOptions struct {
	// Path is the session file.
	Path string
	// Force restores even when pi appended entries since, the file looks
	// live, or its first bytes changed.
	Force bool
	// DryRun plans and changes nothing.
	DryRun bool
	// KeepBlobs leaves the spill blobs pruner wrote in place.
	KeepBlobs bool
	// Interrupts makes the context the replacement runs under, just before
	// it (the CLI: cancelled on SIGINT/SIGTERM); nil: never cancelled.
	Interrupts func() (context.Context, context.CancelFunc)
}

// BlobDeletion is one blob a marker lists: the file Restore deletes
// (Path), or why it is left alone (Why).
type BlobDeletion struct {
	Listed, Path, Why string
}

// RestoreReport says what Restore found and did; it is filled as far as
// Restore got, also on error.
type RestoreReport struct {
	// Plan is pruner's appended lines as found from the markers.
	Plan *restore.Plan
	// NotOriginal are the FILE.orig-* backups that are not this file's
	// original, each with why (kept).
	NotOriginal []NotOriginal
	// Nothing is set when pruner never wrote to the file.
	Nothing bool
	// Legacy is the restore from the backup Used (nil: none).
	Legacy *restore.LegacyPlan
	Used   string
	// Blobs are the listed blobs, each deleted or with why not.
	Blobs []BlobDeletion
	// Removed is how many blobs were deleted.
	Removed int
}

// NotOriginal is a backup beside the file that is not its original.
type NotOriginal struct {
	Path string
	Err  error
}

// ForceError is a restore that needs --force (Why says what).
type ForceError struct{ Why string }

func (e *ForceError) Error() string { return e.Why + "; nothing restored" }

// Restore removes every line pruner appended to the session at o.Path
// (restore.Analyze finds them from the markers) and the blobs they list, or
// restores a file an older pruner rewrote in place from its FILE.orig-*
// backup, replacing the file atomically and never while pi writes it. The
// restored bytes are checked against the first marker's hash before the
// file is replaced. Errors name no file (the caller prefixes it); a
// *ReplaceError comes from opening, checking or replacing the file, a
// *ForceError is a restore that needs Force.
func Restore(o RestoreOptions) (RestoreReport, error) {
	var rep RestoreReport
	// opened to read first: a session pruner never wrote to is reported as
	// such, read-only or not
	fl, err := sessionfile.Open(o.Path, sessionfile.Options{Force: o.Force, LaterQuietCheck: true, ReadOnly: true})
	if err != nil {
		return rep, &ReplaceError{Err: err}
	}
	defer fl.Close()
	plan, err := restore.Analyze(fl.Reader(), fl.Size())
	if err != nil {
		return rep, err
	}
	rep.Plan = plan
	backups := sessionfile.Backups(fl.Target)
	if plan.Markers == 0 && len(backups) == 0 {
		rep.Nothing = true
		return rep, nil
	}
	if !o.DryRun {
		if err := fl.CheckWritable(); err != nil {
			return rep, &ReplaceError{Err: err}
		}
	}
	if why := plan.NeedsForce(); plan.Markers > 0 && why != "" && !o.Force && !o.DryRun {
		return rep, &ForceError{Why: why}
	}
	// the file with pruner's appended entries removed (or as it is)
	base, baseSize, cleanup, err := withoutMarkers(fl, plan)
	if err != nil {
		return rep, err
	}
	defer cleanup()
	for _, b := range backups {
		lp, closeBackup, err := analyzeBackup(base, baseSize, b)
		if err != nil {
			rep.NotOriginal = append(rep.NotOriginal, NotOriginal{b, err})
			continue
		}
		rep.Legacy, rep.Used = lp, b
		defer closeBackup()
		break
	}
	legacy, used := rep.Legacy, rep.Used
	if plan.Markers == 0 && legacy == nil {
		return rep, fmt.Errorf("no FILE.orig-* backup beside it is the original of this file (%d found); nothing restored", len(backups))
	}
	write := func(w io.Writer) error {
		if legacy != nil {
			return legacy.Write(w)
		}
		return plan.Write(w)
	}
	rep.Blobs = blobDeletions(fl.Target, plan)
	if o.DryRun {
		return rep, nil
	}
	// a file modified moments ago is pi's, unless it is exactly what
	// pruner's own last write left (restore right after now --write)
	if !plan.AsPrunerLeftIt() || legacy != nil {
		if err := fl.CheckQuiet(); err != nil {
			return rep, &ReplaceError{Err: err}
		}
	}
	cx, stop := context.Background(), context.CancelFunc(func() {})
	if o.Interrupts != nil {
		cx, stop = o.Interrupts()
	}
	defer stop()
	verify := func(f *os.File) error {
		if plan.Markers > 0 && plan.Exact && legacy == nil {
			h := sha256.New()
			if _, err := io.Copy(h, io.NewSectionReader(f, 0, plan.BaseBytes)); err != nil {
				return err
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != plan.BaseSHA256 {
				return errors.New("the restored bytes do not hash to what pruner recorded; nothing restored")
			}
		}
		st, err := f.Stat()
		if err != nil {
			return err
		}
		p2, err := restore.Analyze(f, st.Size())
		if err != nil {
			return err
		}
		if p2.Markers > 0 {
			return errors.New("the restored file still holds a pruner-write marker; nothing restored")
		}
		return nil
	}
	if _, err := fl.Replace(cx, write, verify); err != nil {
		return rep, &ReplaceError{Err: err}
	}
	if !o.KeepBlobs {
		for _, d := range rep.Blobs {
			if d.Why == "" && os.Remove(d.Path) == nil {
				rep.Removed++
			}
		}
		if rep.Removed > 0 {
			_ = os.Remove(blobs.Dir(resolvedOr(fl.Target), plan.SessionID)) // when now empty
		}
	}
	if legacy != nil {
		_ = os.Remove(used) // the backup restored from; the others are not this file's
	}
	return rep, nil
}

// withoutMarkers returns the file with pruner's appended entries removed: a
// temporary copy when there are markers, else the file itself.
func withoutMarkers(fl *sessionfile.File, plan *restore.Plan) (io.ReaderAt, int64, func(), error) {
	if plan.Markers == 0 {
		return fl.Reader(), fl.Size(), func() {}, nil
	}
	tmp, err := os.CreateTemp("", "pruner-restore-*.jsonl")
	if err != nil {
		return nil, 0, nil, err
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	if err := plan.Write(tmp); err != nil {
		cleanup()
		return nil, 0, nil, err
	}
	st, err := tmp.Stat()
	if err != nil {
		cleanup()
		return nil, 0, nil, err
	}
	return tmp, st.Size(), cleanup, nil
}

// analyzeBackup plans the restore of base from the backup at path; the
// returned func closes the backup once the restore is written.
func analyzeBackup(base io.ReaderAt, baseSize int64, path string) (*restore.LegacyPlan, func(), error) {
	bf, err := os.Open(path)
	if err != nil {
		return nil, nil, hostfs.Cause(err)
	}
	st, err := bf.Stat()
	if err != nil {
		bf.Close()
		return nil, nil, err
	}
	lp, err := restore.AnalyzeLegacy(base, baseSize, bf, st.Size())
	if err != nil {
		bf.Close()
		return nil, nil, err
	}
	return lp, func() { bf.Close() }, nil
}

// blobDeletions checks every blob the markers list before anything is
// deleted: a marker is part of the file and a file can be forged, so only a
// regular file that is a direct child of the session's own blob directory
// (blobs.Dir: beside the session, named by its header id made safe), with a
// blob-shaped name and the size and hash of the spill record pruner's own
// entries hold for it, is deleted.
func blobDeletions(target string, plan *restore.Plan) []BlobDeletion {
	dir := blobs.Dir(resolvedOr(target), plan.SessionID)
	out := make([]BlobDeletion, 0, len(plan.Blobs))
	for _, b := range plan.Blobs {
		d := BlobDeletion{Listed: b}
		path, err := blobs.Owned(dir, b)
		if err == nil {
			var st os.FileInfo
			if st, err = os.Lstat(path); err == nil && !st.Mode().IsRegular() {
				err = errors.New("not a regular file")
			}
		}
		var content []byte
		if err == nil {
			content, err = os.ReadFile(path)
		}
		if err == nil {
			err = plan.CheckBlob(b, content)
		}
		if err != nil {
			d.Why = hostfs.Cause(err).Error()
		} else {
			d.Path = path
		}
		out = append(out, d)
	}
	return out
}

// resolvedOr is path resolved (blobs.Resolve), or path when it cannot be.
func resolvedOr(path string) string {
	if r, err := blobs.Resolve(path); err == nil {
		return r
	}
	return path
}
