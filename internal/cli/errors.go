package cli

import (
	"errors"
	"fmt"
)

// Exit codes, documented in the README. They are mapped from errors in one
// place, ExitCode.
const (
	ExitOK       = 0 // success, nothing found
	ExitFindings = 1 // check found problems; narrow --check found a tool outside the allowed set
	ExitError    = 2 // usage, config or I/O error (also `hook`'s deny, by Claude Code's protocol)
	// ExitInterrupted: stopped by SIGINT or SIGTERM before it finished
	// (128 + SIGINT, as shells report a command stopped by Ctrl-C);
	// nothing was written
	ExitInterrupted = 130
)

// ExitErr carries an exit code. A nil Err means "exit with Code and print
// nothing more" (the command already reported what it had to say).
type ExitErr struct {
	Code int
	Err  error
	Hint string // optional age-style hint, printed on its own line
}

func (e *ExitErr) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitErr) Unwrap() error { return e.Err }

// UsageError returns an exit-2 error for bad flags or arguments.
func UsageError(format string, a ...any) error {
	return &ExitErr{Code: ExitError, Err: fmt.Errorf(format, a...)}
}

// Interrupted returns the exit-130 error of a command stopped by a signal.
func Interrupted(format string, a ...any) error {
	return &ExitErr{Code: ExitInterrupted, Err: fmt.Errorf(format, a...)}
}

// Findings returns a silent exit-1 error: the command printed its findings.
func Findings() error { return &ExitErr{Code: ExitFindings} }

// ExitCode maps an error returned by a command to the process exit code:
// nil → 0, *ExitErr → its Code, anything else (I/O, config, parse) → 2.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitErr
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitError
}

// asExit returns err as an exit-2 error, keeping an *ExitErr (and its hint)
// as it is.
func asExit(err error) error {
	var ee *ExitErr
	if errors.As(err, &ee) {
		return err
	}
	return &ExitErr{Code: ExitError, Err: err}
}
