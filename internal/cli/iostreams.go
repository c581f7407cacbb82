package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the standard streams a command reads and writes, injected so
// that tests and testscript drive the real commands. Data goes to Out only;
// summaries, warnings and progress go to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InIsTerminal etc. report whether the stream is an interactive terminal.
	InIsTerminal  bool
	OutIsTerminal bool
	ErrIsTerminal bool

	// Getenv looks up an environment variable; nil means os.Getenv.
	Getenv func(string) string
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In:            os.Stdin,
		Out:           os.Stdout,
		ErrOut:        os.Stderr,
		InIsTerminal:  term.IsTerminal(int(os.Stdin.Fd())),
		OutIsTerminal: term.IsTerminal(int(os.Stdout.Fd())),
		ErrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:        os.Getenv,
	}
}

// Env returns the value of the environment variable key.
func (s *IOStreams) Env(key string) string {
	if s.Getenv == nil {
		return os.Getenv(key)
	}
	return s.Getenv(key)
}
