// Package host is the summariser's edge on this machine: ExecRunner runs
// the summariser command (summarize.Runner) in its own process group, and
// DirCache keeps command summaries one file each (summarize.Cache). The
// summariser itself (internal/summarize) does no IO.
package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/pruner-dev/pruner/internal/atomicfile"
	"github.com/pruner-dev/pruner/internal/summarize"
)

var (
	_ summarize.Runner = ExecRunner{}
	_ summarize.Cache  = DirCache{}
)

// ExecRunner runs a shell command line (`sh -c CMD`) as the summariser:
// the request on its stdin, the summary read from its stdout. When the
// context ends the whole process group is killed.
type ExecRunner struct {
	Command string
	// Env is the command's environment (nil: the current one).
	Env []string
}

// Run runs the command once.
func (r ExecRunner) Run(ctx context.Context, request []byte) ([]byte, error) {
	cmd := exec.Command("sh", "-c", r.Command)
	cmd.Env = r.Env
	cmd.Stdin = bytes.NewReader(request)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &limitedBuffer{max: 4096, buf: &stderr}
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %w", summarize.ErrCannotRun, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return nil, describeExit(err, stderr.String())
		}
		return stdout.Bytes(), nil
	case <-ctx.Done():
		killGroup(cmd)
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		return nil, ctx.Err()
	}
}

// describeExit names how the command ended, with the last line it wrote
// on stderr.
func describeExit(err error, stderr string) error {
	var ee *exec.ExitError
	msg := err.Error()
	if errors.As(err, &ee) {
		msg = fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		msg += ": " + last
	}
	if ee != nil && (ee.ExitCode() == 127 || ee.ExitCode() == 126) {
		// the shell's "command not found" and "not executable"
		return &cannotRun{msg}
	}
	return errors.New(msg)
}

// limitedBuffer keeps the last max bytes written to it
type limitedBuffer struct {
	max int
	buf *bytes.Buffer
}

// (a write longer than max replaces the buffer with its own tail, so the
// buffer never grows past a few times max, whatever the command prints).
func (l *limitedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if n >= l.max {
		l.buf.Reset()
		l.buf.Write(p[n-l.max:])
		return n, nil
	}
	l.buf.Write(p)
	if over := l.buf.Len() - l.max; over > 0 {
		l.buf.Next(over)
	}
	return n, nil
}

// DirCache is a Cache of one file per summary under Dir (pruner uses
// <user cache dir>/pruner/summaries). Files are written atomically.
type DirCache struct {
	Dir string
}

func (c DirCache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".md")
}

// Get returns the cached summary for key.
func (c DirCache) Get(key string) (string, bool) {
	if len(key) < 3 {
		return "", false
	}
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Put stores summary under key.
func (c DirCache) Put(key, summary string) error {
	if len(key) < 3 {
		return errors.New("cache key too short")
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(p, []byte(summary), 0o644)
}

// cannotRun is a command the shell could not run (exit status 126 or 127).
type cannotRun struct{ msg string }

func (e *cannotRun) Error() string        { return e.msg }
func (e *cannotRun) Is(target error) bool { return target == summarize.ErrCannotRun }
