package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// openInput opens the command's input: arg "-" (or "" when stdin is not a
// terminal) is stdin; otherwise arg is a file path. The returned name is used
// in messages ("<stdin>" for stdin). Errors: a missing argument with stdin on
// a terminal, a missing file, or a directory are usage/IO errors (exit 2)
// with a hint.
func openInput(s *IOStreams, arg string) (io.ReadCloser, string, error) {
	return openInputHint(s, arg, "a session file", "pi keeps sessions in ~/.pi/agent/sessions/--<cwd>--/*.jsonl")
}

// openInputHint is openInput with the words used when no input is given.
func openInputHint(s *IOStreams, arg, what, hint string) (io.ReadCloser, string, error) {
	if arg == "-" || (arg == "" && !s.InIsTerminal) {
		return io.NopCloser(s.In), "<stdin>", nil
	}
	if arg == "" {
		return nil, "", &ExitErr{Code: ExitError, Err: fmt.Errorf("no input: give %s, or - for stdin", what), Hint: hint}
	}
	f, err := os.Open(arg)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: no such file", arg)}
		}
		return nil, "", &ExitErr{Code: ExitError, Err: err}
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		f.Close()
		e := &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: is a directory, not %s", arg, what)}
		if what == "a session file" {
			e.Hint = "pass one .jsonl file; `pruner check DIR` walks directories"
		}
		return nil, "", e
	}
	return f, arg, nil
}
