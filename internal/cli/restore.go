package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/session"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pruner-dev/pruner/internal/restore"
	"github.com/pruner-dev/pruner/internal/sessionfile"
	"github.com/pruner-dev/pruner/internal/writeback"
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
writing to it: a file modified in the last 10 s is refused unless it is
exactly what pruner's last write left (every line after the original is
pruner's, the original still hashes as recorded), so a restore right after
'pruner now --write' needs no --force. When pi appended entries after pruner's, they are kept and
re-pointed past pruner's entries; that needs --force, as does a file whose
bytes before pruner's first write no longer match the recorded hash.

Exit status: 0 restored (or nothing to restore), 2 usage or I/O error, or
a restore that needs --force.`,
		Example: `  # see what would happen, change nothing
  pruner restore --dry-run session.jsonl

  # undo pruner's writes
  pruner restore session.jsonl`,
		Args: oneSession,
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
	if name == "-" {
		return &ExitErr{Code: ExitError, Err: errors.New("restore does not read stdin (-): it rewrites a session file in place"),
			Hint: "give the session file itself: pruner restore ~/.pi/agent/sessions/--<cwd>--/<session>.jsonl (pruner now -o FILE writes a pruned copy instead)"}
	}
	if a := hostfs.StreamAlias(name); a != "" {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: restore needs the session file's own path: %s names whatever the shell opened there", name, a),
			Hint: "pruner restore SESSION.jsonl (the path pruner now --write was given)"}
	}
	st, err := os.Stat(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return &ExitErr{Code: ExitError, Err: hostfs.NoSuchFile(name)}
		}
		return &ExitErr{Code: ExitError, Err: err}
	}
	if st.IsDir() {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is a directory: restore gives back one session file", name),
			Hint: fmt.Sprintf("pick the session in it (ls %s), then: pruner restore --dry-run FILE.jsonl", shellQuote(name)+"/*.jsonl")}
	}
	if !st.Mode().IsRegular() {
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is not a regular file (a pipe or device): restore rewrites a session file in place", name),
			Hint: "give the session file itself: pruner restore ~/.pi/agent/sessions/--<cwd>--/<session>.jsonl"}
	}
	rep, err := writeback.Restore(writeback.RestoreOptions{
		Path: name, Force: o.Force, DryRun: o.DryRun, KeepBlobs: o.KeepBlobs,
		Interrupts: func() (context.Context, context.CancelFunc) {
			return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		},
	})
	if plan := rep.Plan; plan != nil {
		for _, p := range plan.Problems {
			fmt.Fprintf(s.ErrOut, "pruner: warning: %s: %s\n", name, p)
		}
	}
	if !o.Quiet {
		for _, b := range rep.NotOriginal {
			fmt.Fprintf(s.ErrOut, "pruner: %s: %s is not this file's original (%v); kept\n", name, b.Path, b.Err)
		}
	}
	if err != nil {
		var re *writeback.ReplaceError
		var fe *writeback.ForceError
		switch {
		case errors.As(err, &re):
			var ro *sessionfile.ReadOnlyError
			if errors.As(re.Err, &ro) {
				return &ExitErr{Code: ExitError, Err: re.Err, Hint: fmt.Sprintf("restore rewrites the file: make it writable (chmod u+w %s) and run it again; pruner restore --dry-run %s shows what it would do", shellQuote(name), shellQuote(name))}
			}
			return writeErr(name, re.Err)
		case errors.As(err, &fe):
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err),
				Hint: "pruner restore --force keeps every line pruner did not write and removes only pruner's"}
		}
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	plan, legacy, used := rep.Plan, rep.Legacy, rep.Used
	if rep.Nothing {
		if !sessionHeader(name) {
			// restore found no marker of pruner's because there is no
			// session: say that, as now and check do
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s is not a pi session (its first line is not a session header); nothing to restore", name),
				Hint: "pruner restore gives back a session file 'pruner now --write' wrote to (first line {\"type\":\"session\",…})"}
		}
		if !o.Quiet {
			fmt.Fprintf(s.ErrOut, "pruner: %s: pruner has not written to this session; nothing to restore\n", name)
		}
		return nil
	}
	if o.DryRun {
		describeRestore(s, name, plan, legacy, used, rep.Blobs, o.KeepBlobs)
		return nil
	}
	if !o.KeepBlobs {
		for _, d := range rep.Blobs {
			if d.Why != "" {
				fmt.Fprintf(s.ErrOut, "pruner: warning: %s: spill blob %s not deleted: %s\n", name, d.Listed, d.Why)
			}
		}
	}
	if !o.Quiet {
		var did []string
		if plan.Markers > 0 {
			did = append(did, fmt.Sprintf("%d entries of %d pruner writes removed", plan.Removed, plan.Markers))
		}
		if rep.Removed > 0 {
			did = append(did, fmt.Sprintf("%d spill blobs deleted", rep.Removed))
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

func describeRestore(s *IOStreams, name string, plan *restore.Plan, legacy *restore.LegacyPlan, used string, dels []writeback.BlobDeletion, keepBlobs bool) {
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
			case d.Why != "":
				fmt.Fprintf(w, "pruner: warning: %s: spill blob %s would not be deleted: %s\n", name, d.Listed, d.Why)
			case keepBlobs:
				fmt.Fprintf(w, "pruner: %s: spill blob %s would be kept (--keep-blobs)\n", name, d.Path)
			default:
				fmt.Fprintf(w, "pruner: %s: spill blob %s would be deleted\n", name, d.Path)
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
		return &ExitErr{Code: ExitError, Err: err, Hint: "if no pi session is open on it (a file just copied, edited or given back by pruner restore), add --force (a copy made with cp -p keeps the time and needs none); otherwise quit pi or wait until it is done with the session"}
	case errors.As(err, &ro):
		hint := "pruner now --session FILE > pruned.jsonl writes the pruned session elsewhere"
		if ro.Why == "is read-only" {
			hint = "chmod u+w " + ro.Path + " first if it is yours to rewrite (a copy of a read-only file keeps its mode); or " + hint
		}
		return &ExitErr{Code: ExitError, Err: err, Hint: hint}
	case errors.Is(err, sessionfile.ErrInterrupted):
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
	}
	return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
}

// sessionHeader reports whether name is a pi session as the session
// reader tells it (a header first; its Kind once the first entry is read),
// or holds nothing but blank lines (an empty session to pi).
func sessionHeader(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return true // not for this check to say: restore read it already
	}
	defer f.Close()
	skipped := false // a line other than a blank one was skipped
	er := session.NewEntryReader(f, session.EntryOptions{OnWarning: func(w session.Warning) {
		skipped = skipped || w.Code != session.WarnBlank
	}})
	_, err = er.Next()
	if er.Kind() == 0 && errors.Is(err, io.EOF) && !skipped {
		return true
	}
	return er.Kind() == session.KindSession
}
