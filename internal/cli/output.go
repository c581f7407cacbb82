package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pruner-dev/pruner/internal/atomicfile"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/sessionfile"
	"github.com/spf13/cobra"
)

// addOutputFlag gives cmd -o/--output FILE: what the command prints on
// stdout goes to FILE instead, written atomically (a temporary file in FILE's
// directory renamed over it, internal/atomicfile) and only when the command
// succeeds, so FILE is never left half-written and an existing FILE is kept
// on failure. "-" is stdout. FILE may not be any file the command reads —
// inputs lists them for the command's arguments and flags — nor a
// directory; a symlink is written through.
func addOutputFlag(s *IOStreams, cmd *cobra.Command, inputs inputsFunc) {
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
		pf, err := createOutput(path, inputs(c, args))
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
			return &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, hostfs.Cause(err))}
		}
		return nil
	}
}

// inputsFunc lists the files a command reads, given its arguments and
// flags: every path -o must never write over.
type inputsFunc func(c *cobra.Command, args []string) []string

// argsAndConfig is the inputs of a command whose every positional argument
// may be a file, plus its --config FILE.
func argsAndConfig(c *cobra.Command, args []string) []string {
	out := append([]string(nil), args...)
	if f := c.Flags().Lookup("config"); f != nil && f.Value.String() != "" {
		out = append(out, f.Value.String())
	}
	return out
}

// queryInputs is query's inputs: its session (the last argument with refs,
// the only one with --entry/--call; a ref is listed too, so a file named
// like a ref is never written over either), --config FILE, and the
// FILE.orig-* backups --entry and --call read originals from.
func queryInputs(c *cobra.Command, args []string) []string {
	out := argsAndConfig(c, args)
	for _, a := range args {
		if a != "" && a != "-" {
			out = append(out, sessionfile.Backups(a)...)
		}
	}
	return out
}

// createOutput starts the atomic write of path, refusing a directory and
// every input file (also through a symlink or a hard link).
func createOutput(path string, inputs []string) (*atomicfile.File, error) {
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
	case err == nil:
		for _, input := range inputs {
			if input == "" || input == "-" {
				continue
			}
			if in, ierr := os.Stat(input); ierr == nil && os.SameFile(in, st) {
				return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s is an input file (%s); refusing to write over it", path, input),
					Hint: "write elsewhere, or use pruner now --write FILE to add pruner's entries to a session in place (undo with pruner restore)"}
			}
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, hostfs.Cause(err))}
	}
	pf, err := atomicfile.Create(target)
	if err != nil {
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("--output %s: %w", path, hostfs.Cause(err))}
	}
	return pf, nil
}
