package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/spool"
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
			return nil, "", &ExitErr{Code: ExitError, Err: hostfs.NoSuchFile(arg)}
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
	if err == nil {
		if kind := hostfs.Unending(st); kind != "" {
			f.Close()
			return nil, "", &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: is %s, not %s", arg, kind, what),
				Hint: "give a file, a pipe or a FIFO; - reads stdin"}
		}
	}
	return f, arg, nil
}

// seekableInput is a session or context opened for pruner's two passes:
// Reader streams it once, ReaderAt re-reads the lines that are rendered.
type seekableInput struct {
	Name     string
	Reader   io.Reader
	ReaderAt io.ReaderAt
	// Flush must be called once Reader is drained (it completes the spool).
	Flush func() error
	// Close releases the input (and removes the spool).
	Close func()
	// Stream is set for an input that is not a regular file (stdin, a
	// pipe, a FIFO): its reads may block, see interruptible.
	Stream bool
}

// openSeekable opens arg (see openInput) for two passes. A regular file is
// its own ReaderAt. Anything else — stdin, a pipe, a FIFO, a shell's <(…)
// (/dev/fd/N), a character device — cannot seek, so it is spooled to a
// temporary file while it is read, and that file is the ReaderAt.
//
// A stream is read under cx (interruptible): a signal stops a read that
// waits on an idle writer.
func openSeekable(cx context.Context, s *IOStreams, arg string) (*seekableInput, error) {
	rc, name, err := openInput(s, arg)
	if err != nil {
		return nil, err
	}
	if f, ok := rc.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return &seekableInput{Name: name, Reader: f, ReaderAt: f, Flush: func() error { return nil }, Close: func() { f.Close() }}, nil
		}
	}
	sp, r, err := spool.Tee(interruptible(cx, rc, receivedOf(cx)), "pruner-input-*.jsonl")
	if err != nil {
		rc.Close()
		return nil, &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: spooling the input: %w", name, err)}
	}
	return &seekableInput{
		Name:     name,
		Reader:   r,
		ReaderAt: sp,
		Flush:    sp.Flush,
		Close: func() {
			rc.Close()
			sp.Close()
		},
		Stream: true,
	}, nil
}

// receivedOf is the Received of cx when it is an *interrupts (see there),
// else whether cx is done.
func receivedOf(cx context.Context) func(time.Duration) bool {
	if ir, ok := cx.(*interrupts); ok {
		return ir.Received
	}
	return func(time.Duration) bool { return cx.Err() != nil }
}

// errInterrupted is what an interruptible reader returns once its context
// is done.
var errInterrupted = errors.New("interrupted")

// interruptible returns r read under cx: once cx is done (SIGINT,
// SIGTERM), Read returns errInterrupted at once, even while a read of r
// blocks (a pipe whose writer is idle), so the command stops, removes its
// spool and exits instead of waiting for the input to end. The blocked
// read is left to a goroutine that reads into its own buffer (the
// caller's is never written after Read returns) and ends with the process.
// When r ends (io.EOF or an error) and received reports a signal, Read
// returns errInterrupted instead (endOfStream).
func interruptible(cx context.Context, r io.Reader, received func(time.Duration) bool) io.Reader {
	if cx.Done() == nil {
		return r // never interrupted
	}
	cr := &cancelReader{cx: cx, received: received, req: make(chan int), res: make(chan readResult, 1)}
	go func() {
		var buf []byte
		for n := range cr.req {
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			m, err := r.Read(buf[:n])
			cr.res <- readResult{buf[:m], err}
		}
	}()
	return cr
}

type readResult struct {
	b   []byte
	err error
}

type cancelReader struct {
	cx       context.Context
	received func(time.Duration) bool
	cut      bool // the bytes read so far end in the middle of a line (not after a newline or a `}`)
	req      chan int
	res      chan readResult
	err      error // sticky: the reader's error, or errInterrupted
}

// Read asks for at most len(p) bytes, so what comes back fits p.
func (c *cancelReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.cx.Err() != nil {
		c.err = errInterrupted
		return 0, c.err
	}
	select {
	case c.req <- len(p):
	case <-c.cx.Done():
		c.err = errInterrupted
		return 0, c.err
	}
	select {
	case r := <-c.res:
		n := copy(p, r.b)
		if n > 0 {
			c.cut = p[n-1] != '\n' && p[n-1] != '}'
		}
		if r.err != nil {
			c.err = endOfStream(r.err, c.cut, c.received)
		}
		return n, c.err
	case <-c.cx.Done():
		c.err = errInterrupted
		return 0, c.err
	}
}

// readError is the error of reading the input name (session.Read), exit 2:
// an empty input (with emptyHint, "" for none), an input that is neither a
// session nor a context (notSessionHint), or another read error.
func readError(name string, err error, emptyHint string) error {
	switch {
	case errors.Is(err, session.ErrEmpty):
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: empty input: no JSON line found", name), Hint: emptyHint}
	case errors.Is(err, session.ErrNotSession):
		return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err), Hint: notSessionHint(err, name)}
	}
	return &ExitErr{Code: ExitError, Err: fmt.Errorf("%s: %w", name, err)}
}
