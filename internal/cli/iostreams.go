package cli

import (
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime/debug"

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
	// Executable is the running pruner binary's path (os.Executable), for
	// the gate's rules that keep it from being written over; nil: none.
	Executable func() (string, error)
	// Environ lists the environment (NAME=value); nil means os.Environ
	// when Getenv is nil too, else none (a test's injected environment).
	Environ func() []string
	// UserHome looks the home directory up in the user database (used when
	// $HOME is unset, as Node's os.homedir); nil means none.
	UserHome func() string
	// SetMemoryLimit sets the Go heap's soft limit and returns the old one
	// (debug.SetMemoryLimit); nil leaves the process's limit alone (tests
	// that run commands in-process).
	SetMemoryLimit func(int64) int64
	// SetGCPercent sets the collector's GOGC percent and returns the old
	// one (debug.SetGCPercent); nil leaves it alone (tests that run
	// commands in-process).
	SetGCPercent func(int) int
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In:             os.Stdin,
		Out:            os.Stdout,
		ErrOut:         os.Stderr,
		InIsTerminal:   term.IsTerminal(int(os.Stdin.Fd())),
		OutIsTerminal:  term.IsTerminal(int(os.Stdout.Fd())),
		ErrIsTerminal:  term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:         os.Getenv,
		Environ:        os.Environ,
		Executable:     os.Executable,
		UserHome:       userDBHome,
		SetMemoryLimit: debug.SetMemoryLimit,
		SetGCPercent:   debug.SetGCPercent,
	}
}

// limitMemory sets the heap's soft limit to n unless GOMEMLIMIT is set (it
// wins) or no setter is wired; it returns a func that puts the old one back.
func (s *IOStreams) limitMemory(n int64) (restore func()) {
	if s.SetMemoryLimit == nil || s.Env("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := s.SetMemoryLimit(n)
	return func() { s.SetMemoryLimit(old) }
}

// collectAtLimit turns the collector's pacing by GOGC off, so that only the
// soft memory limit starts a collection, unless GOGC is set (it wins) or no
// setter is wired; it returns a func that puts the old percent back.
func (s *IOStreams) collectAtLimit() (restore func()) {
	if s.SetGCPercent == nil || s.Env("GOGC") != "" {
		return func() {}
	}
	old := s.SetGCPercent(-1)
	return func() { s.SetGCPercent(old) }
}

// userDBHome is the current user's home directory from the user database
// ("" when it cannot be found).
func userDBHome() string {
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// exePath is the running binary's path, symlinks resolved ("" when
// unknown or not injected).
func (s *IOStreams) exePath() string {
	if s.Executable == nil {
		return ""
	}
	p, err := s.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Environment lists the environment variables (Environ).
func (s *IOStreams) Environment() []string {
	switch {
	case s.Environ != nil:
		return s.Environ()
	case s.Getenv == nil:
		return os.Environ()
	}
	return nil
}

// Env returns the value of the environment variable key.
func (s *IOStreams) Env(key string) string {
	if s.Getenv == nil {
		return os.Getenv(key)
	}
	return s.Getenv(key)
}
