package summarize

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Runner runs the summariser command once: request on stdin, summary on
// stdout. host.ExecRunner is the real one; tests use a function.
type Runner interface {
	Run(ctx context.Context, request []byte) (stdout []byte, err error)
}

// ErrCannotRun marks a Runner error of a command that cannot run at all —
// not found or not executable (a shell's exit status 127 or 126), or no
// process could be started — as opposed to one that ran and failed: every
// batch would fail the same way.
var ErrCannotRun = errors.New("summarizer command cannot run")

// StopWhenCannotRun wraps r so that once a run fails with ErrCannotRun the
// command is not run again: later runs return an error at once, and the
// summaries they would have made fall back without a warning of their own
// (the first failure's warning says it for all). One wrapper per pruner
// run: it holds that run's state.
func StopWhenCannotRun(r Runner) Runner { return &stopRunner{r: r} }

type stopRunner struct {
	r   Runner
	mu  sync.Mutex
	err error
}

// errNotRerun is a run skipped because the command cannot run.
type errNotRerun struct{ err error }

func (e *errNotRerun) Error() string { return "not run again: " + e.err.Error() }
func (e *errNotRerun) Unwrap() error { return e.err }

func (s *stopRunner) Run(ctx context.Context, request []byte) ([]byte, error) {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		return nil, &errNotRerun{err}
	}
	out, err := s.r.Run(ctx, request)
	if errors.Is(err, ErrCannotRun) {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return out, err
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, request []byte) ([]byte, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, request []byte) ([]byte, error) { return f(ctx, request) }

// Cache keeps every summary a command made, keyed by the request and the
// command (Key), so a later run of the same command reuses it byte for
// byte instead of asking again. Fallbacks (the command failed) are never
// kept: the next run asks again.
type Cache interface {
	Get(key string) (string, bool)
	Put(key, summary string) error
}

// Source says where a summary came from.
type Source string

// Sources of a summary.
const (
	SourceDeterministic Source = "deterministic"
	SourceCommand       Source = "command"
	SourceCache         Source = "cache"
	SourceFallback      Source = "fallback" // the command failed; deterministic instead
)

// Options configure Summarize.
type Options struct {
	// Command runs the summariser command; nil summarises deterministically.
	Command Runner
	// Timeout bounds one command run (0: no limit).
	Timeout time.Duration
	// Concurrency bounds how many commands run at once (≤0: 4).
	Concurrency int
	// Cache, when set, is read before every command run and written after
	// one that gave a summary (never with a fallback).
	Cache Cache
	// CommandID names the command in cache keys (its command line): a
	// summary one command made is never reused for another.
	CommandID string
	// CacheOnly runs no command and writes nothing: a batch whose summary
	// Cache holds gets it (SourceCache), any other the deterministic summary
	// (what `pruner stats` measures without calling a model).
	CacheOnly bool
	// Clip is how long results are cut for the request.
	Clip Clip
}

// Result is the summary of one batch, its labels not yet substituted.
type Result struct {
	Text   string
	Source Source
	// Warning says why a command summary was not used ("" when it was).
	Warning string
}

// Key is the cache key of b summarised by the command commandID: a hash of
// both the request it makes (the batch's calls, arguments and results) and
// the command line, so changing the command (another model, a fixed
// script) asks again instead of reusing another command's summary.
// (v1 keys, of the request alone, are never read: a v1 cache may hold
// fallbacks.)
func Key(b Batch, c Clip, commandID string) string {
	return cacheKey("pruner-summary-v2", commandID, Request(b, c))
}

// cacheKey hashes a key's kind, the command and the request, each
// length-prefixed (no two pairs hash alike).
func cacheKey(kind, commandID, request string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00", kind, len(commandID), commandID)
	h.Write([]byte(request))
	return hex.EncodeToString(h.Sum(nil))
}

// Summarize summarises every batch, in parallel up to opts.Concurrency when
// a command is set. It never fails: a command that errs, times out, prints
// nothing, or prints something that is not a summary (binary, or no
// [[N:tool]] label of the batch) gives the deterministic summary and a
// Warning. The slice is index-aligned with batches.
func Summarize(ctx context.Context, batches []Batch, opts Options) []Result {
	out := make([]Result, len(batches))
	if opts.Command == nil || opts.CacheOnly {
		for i, b := range batches {
			if opts.CacheOnly && opts.Cache != nil {
				if s, ok := opts.Cache.Get(Key(b, opts.Clip, opts.CommandID)); ok {
					out[i] = Result{Text: s, Source: SourceCache}
					continue
				}
			}
			out[i] = Result{Text: Deterministic(b), Source: SourceDeterministic}
		}
		return out
	}
	n := opts.Concurrency
	if n <= 0 {
		n = 4
	}
	// the first batch that needs the command runs alone: a command that
	// cannot run (not found) is then found once, on the same batch every
	// time, and not run again for the others (StopWhenCannotRun)
	first := -1
	for i, b := range batches {
		if opts.Cache == nil {
			first = i
			break
		}
		if _, ok := opts.Cache.Get(Key(b, opts.Clip, opts.CommandID)); !ok {
			first = i
			break
		}
	}
	if first >= 0 {
		out[first] = summarizeOne(ctx, batches[first], opts)
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i := range batches {
		if i == first {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = summarizeOne(ctx, batches[i], opts)
		}(i)
	}
	wg.Wait()
	return out
}

func summarizeOne(ctx context.Context, b Batch, opts Options) Result {
	key := Key(b, opts.Clip, opts.CommandID)
	if opts.Cache != nil {
		if s, ok := opts.Cache.Get(key); ok {
			return Result{Text: s, Source: SourceCache}
		}
	}
	r := runCommand(ctx, b, opts)
	if opts.Cache != nil && r.Source == SourceCommand {
		// only a summary the command made: a failure is asked again next
		// time, not frozen in
		_ = opts.Cache.Put(key, r.Text)
	}
	return r
}

func runCommand(ctx context.Context, b Batch, opts Options) Result {
	text, why := ask(ctx, []byte(Request(b, opts.Clip)), opts, func(reply []byte) (string, string) { return Check(reply, b) })
	if why == quietFallback {
		return Result{Text: Deterministic(b), Source: SourceFallback}
	}
	if why != "" {
		return Result{Text: Deterministic(b), Source: SourceFallback, Warning: why}
	}
	return Result{Text: text, Source: SourceCommand}
}

// ask runs the summariser command once on request (within opts.Timeout)
// and checks its reply: the text, or why there is none (the warning of the
// deterministic fallback).
func ask(ctx context.Context, request []byte, opts Options, check func([]byte) (string, string)) (string, string) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	stdout, err := opts.Command.Run(ctx, request)
	if err != nil {
		var skipped *errNotRerun
		switch {
		case errors.As(err, &skipped):
			return "", quietFallback
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return "", fmt.Sprintf("summarizer timed out after %s", opts.Timeout)
		case errors.Is(err, ErrCannotRun):
			return "", "summarizer cannot run: " + err.Error() + " (check summarizerCmd or --summarizer-cmd, and PATH; it is not run again for the other batches, which get the deterministic summary too)"
		}
		return "", "summarizer failed: " + err.Error()
	}
	return check(stdout)
}

// quietFallback is ask's why for a run skipped because the command cannot
// run: a fallback whose warning the first failure already gave.
const quietFallback = "\x00not run again"

// replyText is a reply as text (CRLF as LF, trailing white space trimmed),
// or why it is none: binary or invalid UTF-8, or empty.
func replyText(reply []byte) (string, string) {
	if bytes.IndexByte(reply, 0) >= 0 || !utf8.Valid(reply) {
		return "", "summarizer printed binary data (not UTF-8 text)"
	}
	text := strings.TrimRightFunc(strings.ReplaceAll(string(reply), "\r\n", "\n"), isJSSpace)
	if strings.TrimLeftFunc(text, isJSSpace) == "" {
		return "", "summarizer printed nothing"
	}
	return text, ""
}

// Check validates a summariser reply for b and returns its text (trailing
// white space trimmed), or why it is not a summary: empty, binary or invalid
// UTF-8, or without any line-leading label of the batch's calls.
func Check(reply []byte, b Batch) (string, string) {
	text, why := replyText(reply)
	if why != "" {
		return "", why
	}
	names := make([]string, len(b.Calls))
	for i, c := range b.Calls {
		names[i] = c.ToolName
	}
	if ValidLabels(text, names) == 0 {
		return "", "summarizer reply has no [[N:tool]] label of the batch (not a summary?)"
	}
	return text, ""
}
