package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pruner-dev/pruner/internal/atomicfile"
	"github.com/spf13/cobra"
)

// addOutputFlag gives cmd -o/--output FILE: what the command prints on
// stdout goes to FILE instead, written atomically (a temporary file in FILE's
// directory renamed over it, internal/atomicfile) and only when the command
// succeeds, so FILE is never left half-written and an existing FILE is kept
// on failure. "-" is stdout. FILE may not be the command's input (its
// positional argument), nor a directory; a symlink is written through.
func addOutputFlag(s *IOStreams, cmd *cobra.Command) {
	cmd.Flags().StringP("output", "o", "", "write the output to `FILE` instead of stdout (atomic, only on success; - is stdout)")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		path, _ := c.Flags().GetString("output")
		if path == "" || path == "-" {
			return run(c, args)
		}
		if w, _ := c.Flags().GetBool("write"); w {
			return UsageError("--output and --write exclude each other: --write appends to FILE itself (undo with pruner restore)")
		}
		input := ""
		if len(args) > 0 {
			input = args[0]
		}
		pf, err := createOutput(path, input)
		if err != nil {
			return err
		}
		out, outTerm := s.Out, s.OutIsTerminal
		s.Out, s.OutIsTerminal = pf, false
		err = run(c, args)
		s.Out, s.OutIsTerminal = out, outTerm
		if err != nil {
			pf.Abort()
			return err
		}
		if err := pf.Commit(); err != nil {
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, unwrapPathErr(err))}
		}
		return nil
	}
}

// createOutput starts the atomic write of path, refusing a directory and the
// input file itself (also through a symlink or a hard link).
func createOutput(path, input string) (*atomicfile.File, error) {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: is a directory", path), Hint: "give a file name: -o DIR/context.jsonl"}
	case err == nil && !st.Mode().IsRegular():
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: not a regular file (a pipe or device cannot be replaced atomically)", path),
			Hint: "redirect stdout instead: > " + path}
	case err == nil && input != "" && input != "-":
		if in, ierr := os.Stat(input); ierr == nil && os.SameFile(in, st) {
			return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s is the input file; refusing to write over it", path),
				Hint: "write elsewhere, or use pruner now --write FILE to replace a session in place (the original is kept as a backup)"}
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, unwrapPathErr(err))}
	}
	pf, err := atomicfile.Create(target)
	if err != nil {
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, unwrapPathErr(err))}
	}
	return pf, nil
}
