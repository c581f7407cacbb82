// Package writeback runs the sequences that replace a session file: Restore
// (`pruner restore`) and Write, `pruner now --write`'s sequence over a
// pipeline result: the entries to append are planned (pipeline.Result.Append), the
// spill blobs written, the session streamed into a temporary file beside
// the target, re-read and verified (pipeline.Result.Verify), and renamed
// over the target only if pi did not touch it meanwhile
// (sessionfile.File.Replace). Blobs are written only once everything else
// succeeded and removed again when the file is not replaced: a run that
// fails anywhere leaves nothing beside the session.
//
// The CLI maps flags onto Options, calls Write (or Restore) and prints the
// report.
package writeback

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pruner-dev/pruner/internal/blobs"
	"github.com/pruner-dev/pruner/internal/pipeline"
	"github.com/pruner-dev/pruner/internal/restore"
	"github.com/pruner-dev/pruner/internal/sessionfile"
)

// Options are what Write needs.
type Options struct {
	// File is the session file, opened with its live checks.
	File *sessionfile.File
	// Result is the pipeline's run over File's bytes.
	Result *pipeline.Result
	// Plan is the run's spill plan (nil: nothing spilled).
	Plan *blobs.Plan
	// Checking, when set, is called once the new file is written, before
	// it is re-read and checked (a caller sets the re-read's heap limit).
	Checking func()
}

// Report says what Write did.
type Report struct {
	// Appended is what was (or would have been) appended; nil when the
	// plan itself failed. Once the file is written its Entries are nil
	// (their number, Len, stays).
	Appended *pipeline.Appended
	// Unchanged is set when there was nothing to append (the file is left
	// as it is).
	Unchanged bool
	// Info is the new file's layout (base and total bytes).
	Info pipeline.SessionInfo
	// Blobs are the spill blobs created.
	Blobs []string
	// Moved is the number of bytes pi appended while the file was
	// replaced (kept at the new file's end).
	Moved int64
}

// ReplaceError is a failure of the file replacement itself
// (sessionfile's live, read-only and interrupt errors among them).
type ReplaceError struct{ Err error }

func (e *ReplaceError) Error() string { return e.Err.Error() }
func (e *ReplaceError) Unwrap() error { return e.Err }

// PendingBlobs is what plan would write (nil plan: none).
func PendingBlobs(plan *blobs.Plan) []string {
	if plan == nil {
		return nil
	}
	return plan.Pending()
}

// Write appends the result's entries to the session file. The report is
// filled as far as Write got, also on error (Appended.EditsSkipped is worth
// a warning either way). Errors name no file: the caller prefixes it; a
// *ReplaceError comes from the replacement.
func Write(cx context.Context, o Options) (Report, error) {
	var rep Report
	res, fl, plan, checking := o.Result, o.File, o.Plan, o.Checking
	o = Options{} // res is let go once written (below): nothing else may hold it
	pending := PendingBlobs(plan)
	a, err := res.Append(pending)
	if err != nil {
		return rep, err
	}
	rep.Appended = a
	if a.Refused != "" {
		return rep, fmt.Errorf("%s; nothing written", a.Refused)
	}
	if a.Len() == 0 {
		rep.Unchanged = true
		return rep, nil
	}
	// what is printed is decided: let the collector have the render
	res.Rendered, res.Mask = nil, nil
	// what the check compares, taken now: once the file is written the
	// result is not needed here, and the collector can have it while the
	// written file is re-read
	chk := res.Check()
	write := func(w io.Writer) error {
		var err error
		rep.Info, err = res.WriteSession(w, fl.Reader(), res.Ctx.Bytes, a)
		res = nil
		// written: the entries' texts are the collector's while the file
		// is checked (the check and the report need their number and ids)
		a.Drop()
		return err
	}
	verify := func(f *os.File) error {
		if checking != nil {
			checking()
		}
		st, err := f.Stat()
		if err != nil {
			return err
		}
		// f is rewound: its context is read from it, mapped (VerifyFrom)
		if err := chk.VerifyFrom(f, f, st.Size(), rep.Info, a); err != nil {
			return fmt.Errorf("checking the new file: %w; nothing written", err)
		}
		return nil
	}
	var created []string
	if len(pending) > 0 {
		if created, err = plan.Write(); err != nil {
			return rep, fmt.Errorf("writing spill blobs: %w; nothing written", err)
		}
		if len(created) != len(pending) {
			blobs.Remove(plan.Dir(), created)
			return rep, fmt.Errorf("the blob directory %s changed while pruner ran; nothing written", plan.Dir())
		}
	}
	r, err := fl.Replace(cx, write, verify)
	if err != nil {
		if plan != nil {
			blobs.Remove(plan.Dir(), created)
		}
		return rep, &ReplaceError{Err: err}
	}
	rep.Blobs, rep.Moved = created, r.Moved
	return rep, nil
}

// CheckQuiet is the live-session guard of a file about to be rewritten
// (sessionfile.File.CheckQuiet), except that a file modified moments ago
// is let through when it is exactly what pruner's own last write left
// (restore.Plan.AsPrunerLeftIt: the recorded base hash matches and the
// file ends with the last marker's entries, none of pi's after them): it
// is recent because of pruner, not because pi is writing it. The file is
// analysed only when the quiet check fails.
func CheckQuiet(fl *sessionfile.File) error {
	err := fl.CheckQuiet()
	if err == nil {
		return nil
	}
	if plan, aerr := restore.Analyze(fl.Reader(), fl.Size()); aerr == nil && plan.AsPrunerLeftIt() {
		return nil
	}
	return err
}
