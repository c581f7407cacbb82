package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/restore"
	"github.com/pruner-dev/pruner/internal/sessionfile"
	"github.com/spf13/cobra"
)

// RestoreOptions are the options of `pruner restore`.
type RestoreOptions struct {
	IO        *IOStreams
	Input     string
	Force     bool
	DryRun    bool
	KeepBlobs bool
	Quiet     bool
}

// NewCmdRestore builds `pruner restore`.
func NewCmdRestore(s *IOStreams) *cobra.Command {
	o := &RestoreOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "restore SESSION",
		Short: "Give a session back as it was before pruner wrote to it, byte for byte",
		Long: `Undo what 'pruner now --write' did to a session file: remove every entry
pruner appended (summaries, index entries, context edits, its pruner-write
markers) and the spill blobs it wrote, and check that what is left is byte
for byte the file as it was before pruner's first write (the marker records
its size and SHA-256). A blob is deleted only when it is a file of the
session's own <session id>-blobs directory, named like a blob, with the
size and hash of the spill record pruner's entries hold for it; any other
path a marker lists is left alone with a warning. Sessions an older pruner
rewrote in place are restored from the FILE.orig-<hash> backup that is
this file's original, which is then removed (other backups are kept).

The file is replaced atomically (through symlinks), and never while pi is
writing to it. When pi appended entries after pruner's, they are kept and
re-pointed past pruner's entries; that needs --force, as does a file whose
bytes before pruner's first write no longer match the recorded hash.

Exit status: 0 restored (or nothing to restore), 2 usage or I/O error, or
a restore that needs --force.`,
		Example: `  # see what would happen, change nothing
  pruner restore --dry-run session.jsonl

  # undo pruner's writes
  pruner restore session.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Input = args[0]
			return runRestore(o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.Force, "force", false, "restore even when pi appended entries since, the file looks live, or its first bytes changed")
	f.BoolVar(&o.DryRun, "dry-run", false, "print what would be restored; change nothing")
	f.BoolVar(&o.KeepBlobs, "keep-blobs", false, "leave the spill blobs pruner wrote in place")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no summary on stderr")
	return cmd
}

func runRestore(o *RestoreOptions) error {
	s := o.IO
	name := o.Input
	if _, err := os.Stat(name); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: no such file", name)}
		}
		return &ExitErr{Code: ExitError, Err: err}
	}
	fl, err := sessionfile.Open(name, sessionfile.Options{Force: o.Force, LaterQuietCheck: true})
	if err != nil {
		return writeErr(name, err)
	}
	defer fl.Close()
	plan, err := restore.Analyze(fl.Reader(), fl.Size())
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	backups := origBackups(fl.Target)
	for _, p := range plan.Problems {
		fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s\n", name, p)
	}
	if plan.Markers == 0 && len(backups) == 0 {
		if !o.Quiet {
			fmt.Fprintf(s.ErrOut, "pruner: %s: pruner has not written to this session; nothing to restore\n", name)
		}
		return nil
	}
	if why := plan.NeedsForce(); plan.Markers > 0 && why != "" && !o.Force && !o.DryRun {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %s; nothing restored", name, why),
			Hint: "pruner restore --force keeps every line pruner did not write and removes only pruner's"}
	}
	// the file with pruner's appended entries removed (or as it is)
	base, baseSize, cleanup, err := withoutMarkers(fl, plan)
	if err != nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	defer cleanup()
	var legacy *restore.LegacyPlan
	var used string
	for _, b := range backups {
		lp, closeBackup, err := analyzeBackup(base, baseSize, b)
		if err != nil {
			if !o.Quiet {
				fmt.Fprintf(s.ErrOut, "pruner: %s: %s is not this file's original (%v); kept\n", name, b, err)
			}
			continue
		}
		legacy, used = lp, b
		defer closeBackup()
		break
	}
	if plan.Markers == 0 && legacy == nil {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: no FILE.orig-* backup beside it is the original of this file (%d found); nothing restored", name, len(backups))}
	}
	write := func(w io.Writer) error {
		if legacy != nil {
			return legacy.Write(w)
		}
		return plan.Write(w)
	}
	dels := blobDeletions(fl.Target, plan)
	if o.DryRun {
		describeRestore(s, name, plan, legacy, used, dels, o.KeepBlobs)
		return nil
	}
	if err := fl.CheckQuiet(); err != nil {
		return writeErr(name, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
	if _, err := fl.Replace(ctx, write, verify); err != nil {
		return writeErr(name, err)
	}
	removed := 0
	if !o.KeepBlobs {
		for _, d := range dels {
			if d.why != "" {
				fmt.Fprintf(s.ErrOut, "pruner: warning: %s: spill blob %s not deleted: %s\n", name, d.listed, d.why)
				continue
			}
			if os.Remove(d.path) == nil {
				removed++
			}
		}
		if removed > 0 {
			_ = os.Remove(blobs.Dir(resolvedOr(fl.Target), plan.SessionID)) // when now empty
		}
	}
	if legacy != nil {
		_ = os.Remove(used) // the backup restored from; the others are not this file's
	}
	if !o.Quiet {
		var did []string
		if plan.Markers > 0 {
			did = append(did, fmt.Sprintf("%d entries of %d pruner writes removed", plan.Removed, plan.Markers))
		}
		if removed > 0 {
			did = append(did, fmt.Sprintf("%d spill blobs deleted", removed))
		}
		if legacy != nil {
			did = append(did, fmt.Sprintf("%d masked lines restored from %s (backup removed)", legacy.Masked, filepath.Base(used)))
		}
		if len(plan.Later) > 0 {
			did = append(did, fmt.Sprintf("%d later entries kept", len(plan.Later)))
		}
		exact := "restored as it was before pruner wrote to it"
		if plan.Markers > 0 && !plan.Exact {
			exact = "pruner's entries removed (the bytes before them had changed, so this is not byte-exact)"
		}
		fmt.Fprintf(s.ErrOut, "pruner: %s: %s; %s\n", name, exact, strings.Join(did, ", "))
	}
	return nil
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

// origBackups lists the FILE.orig-<hash> backups an older `now --write`
// left beside path, oldest first (the directory is listed: a path with glob
// characters in its name is no pattern).
func origBackups(path string) []string {
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(filepath.Join(dir, "."))
	if err != nil {
		return nil
	}
	type backup struct {
		path string
		mod  time.Time
	}
	var bs []backup
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), base+".orig-") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		bs = append(bs, backup{p, st.ModTime()})
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].mod.Before(bs[j].mod) })
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.path
	}
	return out
}

// analyzeBackup plans the restore of base from the backup at path; the
// returned func closes the backup once the restore is written.
func analyzeBackup(base io.ReaderAt, baseSize int64, path string) (*restore.LegacyPlan, func(), error) {
	bf, err := os.Open(path)
	if err != nil {
		return nil, nil, unwrapPathErr(err)
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

// blobDeletion is one blob a marker lists: the file restore deletes
// (path), or why it is left alone.
type blobDeletion struct {
	listed, path, why string
}

// blobDeletions checks every blob the markers list before anything is
// deleted: a marker is part of the file and a file can be forged, so only a
// regular file that is a direct child of the session's own blob directory
// (blobs.Dir: beside the session, named by its header id made safe), with a
// blob-shaped name and the size and hash of the spill record pruner's own
// entries hold for it, is deleted.
func blobDeletions(target string, plan *restore.Plan) []blobDeletion {
	dir := blobs.Dir(resolvedOr(target), plan.SessionID)
	out := make([]blobDeletion, 0, len(plan.Blobs))
	for _, b := range plan.Blobs {
		d := blobDeletion{listed: b}
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
			d.why = unwrapPathErr(err).Error()
		} else {
			d.path = path
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

func describeRestore(s *IOStreams, name string, plan *restore.Plan, legacy *restore.LegacyPlan, used string, dels []blobDeletion, keepBlobs bool) {
	w := s.ErrOut
	if plan.Markers > 0 {
		fmt.Fprintf(w, "pruner: %s: %d pruner writes, %d entries to remove; the file was %d bytes before them", name, plan.Markers, plan.Removed, plan.BaseBytes)
		if plan.Exact {
			fmt.Fprintln(w, " (hash matches: byte-exact)")
		} else {
			fmt.Fprintln(w, " (hash does NOT match: needs --force, not byte-exact)")
		}
		if len(plan.Later) > 0 {
			fmt.Fprintf(w, "pruner: %s: %d entries pi appended later are kept (%d re-pointed past pruner's; needs --force)\n", name, len(plan.Later), plan.Reparented)
		}
		for _, d := range dels {
			switch {
			case d.why != "":
				fmt.Fprintf(w, "pruner: warning: %s: spill blob %s would not be deleted: %s\n", name, d.listed, d.why)
			case keepBlobs:
				fmt.Fprintf(w, "pruner: %s: spill blob %s would be kept (--keep-blobs)\n", name, d.path)
			default:
				fmt.Fprintf(w, "pruner: %s: spill blob %s would be deleted\n", name, d.path)
			}
		}
	}
	if legacy != nil {
		fmt.Fprintf(w, "pruner: %s: %d masked lines restored from %s (%d lines appended since kept); that backup would be deleted\n", name, legacy.Masked, used, legacy.Later)
	}
	fmt.Fprintf(w, "pruner: %s: dry run; nothing changed\n", name)
}

// writeErr maps sessionfile's errors to exit-2 errors with hints.
func writeErr(name string, err error) error {
	var live *sessionfile.LiveError
	var ro *sessionfile.ReadOnlyError
	switch {
	case errors.As(err, &live):
		return &ExitErr{Code: ExitError, Err: err, Hint: "wait until pi is done with the session (or quit it), or pass --force if nothing is writing to it"}
	case errors.As(err, &ro):
		return &ExitErr{Code: ExitError, Err: err, Hint: "pruner now --session FILE > pruned.jsonl writes the pruned session elsewhere"}
	case errors.Is(err, sessionfile.ErrInterrupted):
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
}
