// Package check checks saved pi sessions: tool calls against protected-path
// deny rules (internal/guard) and the session's structure (unparseable or
// joined lines, a missing header, tool results without their call, duplicate
// entry ids, parent cycles). Each gate finding is told apart by what the
// session shows happened: an attempt the gate (or the tool) blocked, or a
// leak whose result returned content. Files are checked in parallel; results
// keep the input order. The package holds no mutable package-level state.
package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/hostfs"
	"github.com/pruner-dev/pruner/internal/pairing"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
	"github.com/pruner-dev/pruner/internal/spool"
	"mvdan.cc/sh/v3/syntax"
)

// Kind is a finding kind; each is one SARIF rule.
type Kind string

// Finding kinds, in SARIF rule order.
const (
	KindProtectedPath Kind = "protected-path"   // a tool call touches a protected path with a denied op
	KindFolder        Kind = "protected-folder" // a tool call reads or writes every file of a folder that holds a protected path
	KindUnverifiable  Kind = "unverifiable"     // a tool call the gate cannot analyse (the hook denies it)
	KindBashParse     Kind = "bash-parse-error" // a bash command that does not parse (denied in hook mode)
	KindBadCall       Kind = "unreadable-call"  // a toolCall block the checker cannot read (no name, odd arguments)
	KindBadLine       Kind = "unparseable-line" // a line that is not JSON (pi silently drops it)
	KindJoinedLines   Kind = "joined-lines"     // two JSON objects on one line (a write race; pi drops both)
	// KindIncompleteLastLine: the last line is not JSON and has no final
	// newline — pi is most likely still writing it (a live session). Level
	// note; the same line in the middle of a file is KindBadLine.
	KindIncompleteLastLine Kind = "incomplete-last-line"
	KindBadHeader          Kind = "bad-header" // the first entry is not a {"type":"session"} header
	KindOrphanResult       Kind = "orphan-tool-result"
	KindDuplicateID        Kind = "duplicate-entry-id"
	KindParentCycle        Kind = "parent-cycle"
	// KindProtectedPruned: a tool result the pruning predicate protects
	// (contextPrune.protectedTools/protectedPaths) was replaced by a
	// "[pruner: pruned …]" notice in the written session.
	KindProtectedPruned Kind = "protected-output-pruned"
	// KindPairing: in the context pi sends for the leaf, a tool result
	// pi-ai cannot pair with its call (internal/pairing): a message between
	// them, a second result, a result with no call. Level error; warning
	// when only some pi versions render the pair broken.
	KindPairing Kind = "tool-pairing"
)

// Kinds returns every kind in rule order (a fresh slice).
func Kinds() []Kind {
	return []Kind{KindProtectedPath, KindFolder, KindUnverifiable, KindBashParse, KindBadCall, KindBadLine, KindIncompleteLastLine, KindJoinedLines, KindBadHeader, KindOrphanResult, KindDuplicateID, KindParentCycle, KindProtectedPruned, KindPairing}
}

// Outcome says what a session shows about a gate finding's call.
type Outcome string

// Outcomes of gate findings.
const (
	// OutcomeAttempt: the call was blocked (its result is a gate's deny) or
	// failed without returning content. Level note.
	OutcomeAttempt Outcome = "attempt"
	// OutcomeLeak: the call ran and its result returned content from a
	// protected path. Level error.
	OutcomeLeak Outcome = "leak"
	// OutcomeWritten: a write, edit or command that changes a protected
	// path ran without error: the change went through. Level error.
	OutcomeWritten Outcome = "written"
	// OutcomeRan: the call ran, but the session does not show whether
	// protected content came back (an unverifiable call, a folder read
	// whose output names no protected path). Level warning.
	OutcomeRan Outcome = "ran"
	// OutcomeNoResult: the session has no result for the call (it may
	// have run). Level warning.
	OutcomeNoResult Outcome = "no-result"
)

// Levels, as in SARIF.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelNote    = "note"
)

// Finding is one problem in one session file.
type Finding struct {
	File string `json:"file"`
	// Line is the 1-based JSONL line (line 1 is the header).
	Line       int    `json:"line"`
	Kind       Kind   `json:"kind"`
	Level      string `json:"level"`
	EntryID    string `json:"entryId,omitempty"`
	Tool       string `json:"tool,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	// Outcome is set for gate findings (protected-path, protected-folder,
	// unverifiable, bash-parse-error).
	Outcome Outcome `json:"outcome,omitempty"`
	// ResultLine is the line of the call's tool result (0: none).
	ResultLine int `json:"resultLine,omitempty"`
	// Path is the path or shell word as written; Resolved the normalised
	// (or symlink-resolved) path that matched.
	Path     string `json:"path,omitempty"`
	Resolved string `json:"resolvedPath,omitempty"`
	Command  string `json:"command,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Op       string `json:"op,omitempty"`
	Message  string `json:"message"`
	// Hint says what to do about the finding (set for leaks and for calls
	// whose outcome the session does not show).
	Hint string `json:"hint,omitempty"`

	seq int  // order of discovery, for a stable report order
	bom bool // an unparseable line that starts with a byte order mark
}

// Options configure a check.
type Options struct {
	// Rules are the deny rules (nil: the built-in defaults).
	Rules *guard.Rules
	// Home is this machine's home directory. Unless HomeFixed is set, a
	// session whose cwd lies under another /home/<u>, /Users/<u> or
	// C:\Users\<u> uses that home instead (see InferHome).
	Home      string
	HomeFixed bool
	// CaseSensitive turns off case-insensitive matching.
	CaseSensitive bool
	// FS, when set, is this machine's file system: a session whose cwd
	// exists on it is checked against it (symlinks, globs, folder
	// contents); other sessions are judged from the rules alone.
	FS guard.FS
	// Workers is the number of files checked at once; <= 0 means all CPUs.
	Workers int
	// Predicate, when set, is the pruning protection predicate: a tool
	// result it protects that holds a pruner notice is a finding.
	Predicate *protect.Predicate
	// Progress, when set, is called after each file with the number done
	// and the total (from several goroutines, serialised by the caller of
	// Run: calls never overlap).
	Progress func(done, total int)

	analyseEach bool // tests: no remembered verdicts (each call analysed)
}

// Result is the outcome of checking one input.
type Result struct {
	File  string `json:"file"`
	Lines int    `json:"lines"`
	Bytes int64  `json:"bytes"`
	// Entries is the number of lines that parse as JSON (header included).
	Entries  int       `json:"entries"`
	Findings []Finding `json:"findings"`
	// Err is an I/O error that stopped the check of this file.
	Err error `json:"-"`

	sessionHeader bool // the input is a session (its first entry is a header)
}

// Empty reports whether the input held nothing to check (no entry, no
// finding, no error): an empty file or empty stdin.
func (r Result) Empty() bool { return r.Err == nil && r.Entries == 0 && len(r.Findings) == 0 }

// ErrStdinTwice is the error of a second "-" input: stdin can be read once.
var ErrStdinTwice = errors.New("stdin (-) is given more than once; it can be read only once")

// ErrNotAFile is the error of an input that is a device or a socket (not a
// file, a pipe or a FIFO): it may never end, so it is not read.
var ErrNotAFile = errors.New("a device or socket, not a session file (give a file, a FIFO, or - for stdin)")

// Expand turns the arguments into the list of inputs: files as given, "-"
// as given, directories walked recursively for *.jsonl files (sorted). A
// missing path is an error.
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		found, err := hostfs.SessionFiles(a)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// Run checks the inputs in parallel (opts.Workers goroutines) and returns
// one Result per input, in input order. "-" reads stdin; stdin is read by
// one worker only, and a second "-" is an ErrStdinTwice result.
func Run(inputs []string, stdin io.Reader, opts Options) []Result {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(inputs)))
	results := make([]Result, len(inputs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	progress := func() {
		if opts.Progress != nil {
			mu.Lock()
			done++
			opts.Progress(done, len(inputs))
			mu.Unlock()
		}
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lr := session.NewLineReaderSize(nil, 256<<10) // one read buffer per worker
			for i := range jobs {
				results[i] = checkInput(inputs[i], stdin, opts, lr)
				progress()
			}
		}()
	}
	stdinSeen := false
	for i, in := range inputs {
		if in == "-" {
			if stdinSeen {
				results[i] = Result{File: "<stdin>", Err: ErrStdinTwice}
				progress()
				continue
			}
			stdinSeen = true
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func checkInput(name string, stdin io.Reader, opts Options, lr *session.LineReader) Result {
	label := name
	var f interface {
		io.Reader
		io.ReaderAt
		io.Closer
	}
	if name == "-" {
		if stdin == nil {
			return Result{File: "<stdin>"}
		}
		// spooled: the pairing pass reads the session a second time
		label = "<stdin>"
		sp, err := spool.Copy(stdin, "pruner-check-*.jsonl")
		if err != nil {
			return Result{File: label, Err: err}
		}
		f = sp
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return Result{File: name, Err: err}
		}
		st, err := fh.Stat()
		switch {
		case err != nil:
			fh.Close()
			return Result{File: name, Err: err}
		case hostfs.Unending(st) != "":
			// a device or socket may never end (/dev/zero): refused, not
			// read and spooled without bound
			fh.Close()
			return Result{File: name, Err: ErrNotAFile}
		case !st.Mode().IsRegular():
			// a FIFO, a shell's <(…): it cannot seek, so it is spooled
			// for the pairing pass, as stdin is
			sp, err := spool.Copy(fh, "pruner-check-*.jsonl")
			fh.Close()
			if err != nil {
				return Result{File: name, Err: err}
			}
			f = sp
		default:
			f = fh
		}
	}
	defer f.Close()
	tail := &tailReader{r: f, last: -1}
	lr.Reset(tail)
	res := check(lr, label, opts)
	res.markIncompleteLastLine(tail.last)
	if res.Err == nil && res.sessionHeader {
		addPairing(&res, f)
	}
	return res
}

// addPairing adds the pairing hazards of the session's leaf context
// (what pi sends, built as session.Read builds it) to res. A result already
// reported as an orphan (no call anywhere before it) is not reported twice.
func addPairing(res *Result, src io.ReaderAt) { addPairingBranch(res, src, false) }

// pairingContext reads the session's leaf context for the pairing pass.
// The leaf's branch is built (some 60 MB of heap at 1 GB of session) only
// when pairing.Find can warn from it: when an older compaction lies in the
// last one's kept range (Context.KeptCompactions), which a read without
// the branch counts; then the session is read again with it. branch
// builds it at once.
//
// A session file is read from its memory map (session.Read maps an
// *os.File it reads from the start) when it still has the size the first
// pass read; a file that has grown since (pi is writing it) is read up to
// that size, so both passes check the same lines.
func pairingContext(src io.ReaderAt, size int64, branch bool) (*session.Context, error) {
	read := func(branch bool) (*session.Context, error) {
		o := session.ReadOptions{SizeHint: size, Branch: branch}
		if f, ok := src.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Size() == size {
				if _, err := f.Seek(0, io.SeekStart); err == nil {
					if ctx, err := session.Read(f, f, o); err != nil || ctx.Bytes == size {
						return ctx, err
					}
				}
			}
		}
		return session.Read(io.NewSectionReader(src, 0, size), src, o)
	}
	ctx, err := read(branch)
	if err == nil && !branch && ctx.KeptCompactions > 0 {
		ctx = nil
		ctx, err = read(true)
	}
	return ctx, err
}

func addPairingBranch(res *Result, src io.ReaderAt, branch bool) {
	ctx, err := pairingContext(src, res.Bytes, branch)
	if err == nil && ctx.Kind != session.KindSession {
		err = errors.New("it reads as a context, not a session")
	}
	if err != nil {
		// fail closed: a pass that did not run is a finding, not silence
		res.Findings = append(res.Findings, Finding{File: res.File, Kind: KindPairing, Level: LevelError,
			Message: "tool pairing not checked: the session could not be read for the pairing pass: " + err.Error(), seq: len(res.Findings) + 1<<30})
		sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Line < res.Findings[j].Line })
		return
	}
	orphan := map[int]bool{}
	for _, f := range res.Findings {
		if f.Kind == KindOrphanResult {
			orphan[f.Line] = true
		}
	}
	for _, h := range pairing.Find(ctx).Hazards {
		if h.Kind == pairing.NoCall && orphan[h.Result.Line] {
			continue
		}
		level := LevelError
		if h.Severity == pairing.Warning {
			level = LevelWarning
		}
		res.Findings = append(res.Findings, Finding{File: res.File, Line: h.Result.Line, Kind: KindPairing, Level: level,
			EntryID: h.Result.Entry, ToolCallID: h.CallID, Message: h.String(), seq: len(res.Findings) + 1<<30})
	}
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Line < res.Findings[j].Line })
}

// CheckReader checks one session read from r; name labels the findings.
// Bad lines are findings, not errors; Result.Err is set only on a read error.
func CheckReader(r io.Reader, name string, opts Options) Result {
	tail := &tailReader{r: r, last: -1}
	res := check(session.NewLineReaderSize(tail, 256<<10), name, opts)
	res.markIncompleteLastLine(tail.last)
	return res
}

// tailReader remembers the last byte read through it (-1 before any).
type tailReader struct {
	r    io.Reader
	last int
}

func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.last = int(p[n-1])
	}
	return n, err
}

// markIncompleteLastLine turns an unparseable last line with no final
// newline (last is the input's last byte) into KindIncompleteLastLine: pi
// appends a line in more than one write, so a live session's last line can
// be cut short; a bad line anywhere else stays KindBadLine.
func (r *Result) markIncompleteLastLine(last int) {
	if last == '\n' || last < 0 || r.Err != nil || r.Lines == 0 || r.Entries == 0 {
		return
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Kind == KindBadLine && f.Line == r.Lines {
			f.Kind = KindIncompleteLastLine
			f.Message = "the last line is cut short (no final newline, not JSON): " + f.Message
			f.Level = levelOf(*f)
			f.Hint = hintOf(*f)
		}
	}
}

// pending is a gate finding waiting for its call's result.
type pending struct {
	f       Finding
	gate    guard.Kind
	readish bool // the op reads (or is bash): content returned is a leak
}

// checker holds one session's state.
type checker struct {
	opts     Options
	res      *Result
	name     string
	matcher  *guard.Matcher
	header   bool
	ids      entryIDs
	calls    callTable
	verdicts verdicts
	wait     map[string][]pending // call id → findings waiting for the result
	seq      int
	// noCwd, when set, says why the session has no cwd ("the session has
	// no header", "its header has no cwd"): relative paths then resolve
	// against nothing, and findings show them as written (unknownCwd)
	noCwd string
}

func check(lr *session.LineReader, name string, opts Options) Result {
	res := Result{File: name}
	if opts.Rules == nil {
		opts.Rules = guard.DefaultRules()
	}
	c := &checker{opts: opts, res: &res, name: name, ids: newEntryIDs(),
		calls: newCallTable(), wait: map[string][]pending{}}
	// one reader for every command: the lines pi skips are the lines
	// reported here, entries and ids are the ones session.Read sees
	er := session.NewEntryReaderLines(lr, session.EntryOptions{OnWarning: c.warning, Lenient: true})
	for {
		e, err := er.Next()
		if err != nil {
			switch {
			case errors.Is(err, io.EOF):
			case errors.Is(err, session.ErrNotSession):
				// no line of the input is JSON (a text file, binary data):
				// not a session with bad lines but not a session at all, an
				// input error as every other command reports it (exit 2,
				// --exit-zero or not), not a finding per line
				res.Findings = res.Findings[:0]
				res.Err = err
			default:
				res.Err = err
			}
			break
		}
		if c.matcher == nil {
			h := er.Header()
			// a header behind a byte order mark gives the cwd the calls
			// resolve against, but pi reads no session from the file: no
			// pairing pass over what pi would send
			c.header = h.Line > 0 && !h.BOM
			c.matcher = c.newMatcher(h.Cwd)
			switch {
			case h.Line == 0:
				c.noCwd = "the session has no header"
			case h.Cwd == "":
				c.noCwd = "its header has no cwd"
			}
			if h.Line > 0 {
				res.Entries++ // the header line
			}
		}
		res.Entries++
		num := e.Line
		if e.Type == "session" {
			c.add(Finding{Line: num, Kind: KindBadHeader, Message: "a second session header"})
			continue
		}
		id := e.ID
		if id != "" {
			if prev, dup := c.ids.add(id, e.ParentID, num); dup {
				c.add(Finding{Line: num, Kind: KindDuplicateID, EntryID: id, Message: fmt.Sprintf("entry id %q already used on line %d", id, prev)})
			}
		}
		m := e.Message
		if m == nil {
			continue
		}
		switch m.Role {
		case "assistant":
			for _, tc := range m.ToolCalls {
				c.toolCall(tc, num, id)
			}
		case "toolResult":
			c.toolResult(m, e.Raw, num, id)
		}
	}
	res.Lines = er.Lines()
	res.Bytes = er.Bytes()
	res.sessionHeader = c.header
	if c.matcher == nil && res.Entries == 0 && er.Header().Line > 0 {
		res.Entries = 1 // a header alone
	}
	var left []pending
	for _, ps := range c.wait {
		left = append(left, ps...)
	}
	sort.Slice(left, func(i, j int) bool { return left[i].f.seq < left[j].f.seq })
	for _, p := range left {
		p.f.Outcome = OutcomeNoResult
		c.add(p.f)
	}
	for _, f := range c.ids.cycles() {
		c.add(f)
	}
	sort.SliceStable(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i], res.Findings[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.seq < b.seq
	})
	for i := range res.Findings {
		res.Findings[i].Level = levelOf(res.Findings[i])
		res.Findings[i].Hint = hintOf(res.Findings[i])
	}
	return res
}

// warning turns the reader's notes on lines pi skips into findings.
func (c *checker) warning(w session.Warning) {
	switch w.Code {
	case session.WarnBOM:
		c.add(Finding{Line: w.Line, Kind: KindBadLine, Message: w.Msg, bom: true})
	case session.WarnInvalid, session.WarnTooLong:
		c.add(Finding{Line: w.Line, Kind: KindBadLine, Message: w.Msg})
	case session.WarnNotObject:
		c.add(Finding{Line: w.Line, Kind: KindBadLine, Message: w.Msg})
	case session.WarnJoined:
		c.add(Finding{Line: w.Line, Kind: KindJoinedLines, Message: w.Msg})
	case session.WarnNoHeader:
		c.add(Finding{Line: w.Line, Kind: KindBadHeader, Message: "first entry is not a {\"type\":\"session\"} header: pi treats the file as empty (is it a pi session?)"})
	}
}

func (c *checker) add(f Finding) {
	f.File = c.name
	if f.seq == 0 {
		c.seq++
		f.seq = c.seq
	}
	c.res.Findings = append(c.res.Findings, f)
}

func (c *checker) newMatcher(cwd string) *guard.Matcher {
	home := c.opts.Home
	if !c.opts.HomeFixed {
		home = InferHome(cwd, c.opts.Home)
	}
	env := guard.Env{Cwd: cwd, Home: home, CaseSensitive: c.opts.CaseSensitive}
	if c.opts.FS != nil && cwd != "" {
		// the disk counts only for sessions that ran on this machine
		if guard.CwdIsDir(c.opts.FS, guard.NormalizePath(guard.Env{Cwd: "/"}, cwd)) {
			env.FS = c.opts.FS
		}
	}
	return c.opts.Rules.Matcher(env)
}

// toolCall checks one toolCall block (the reader lists each block on its
// own: one odd block never hides the others).
func (c *checker) toolCall(tc session.EntryToolCall, num int, entryID string) {
	vs, problem := c.analyse(tc)
	if tc.Name == "" || problem != "" {
		what := "has no tool name"
		if tc.Name != "" {
			what = problem
		}
		f := Finding{Line: num, Kind: KindBadCall, EntryID: entryID, Tool: tc.Name, ToolCallID: tc.ID,
			Message: fmt.Sprintf("tool call %q %s, so it cannot be checked (the hook denies such calls)", tc.ID, what)}
		c.hold(tc.ID, pending{f: f, gate: guard.KindUnverifiable, readish: true})
		return
	}
	if tc.ID != "" {
		c.calls.set(tc.ID, tc.Name, tc.Path, tc.HasPath)
	}
	for _, v := range vs {
		unknown := c.noCwd != "" && isRelative(v.Raw)
		if unknown {
			v = unknownCwd(v, c.noCwd)
		}
		f := violation(v, num, entryID, tc.ID)
		if unknown {
			f.Resolved = "" // not /PATH: the cwd is not known
		}
		readish := v.Op == guard.OpRead || v.Op == guard.OpBash
		c.hold(tc.ID, pending{f: f, gate: v.Kind, readish: readish})
	}
}

// analyse is the gate's answer for a toolCall block with a name: its
// violations, or the problem that keeps its arguments from being read.
// One matcher gives the same tool and argument bytes the same answer, and
// agents repeat calls (git status, a file read again), so answers are
// remembered for the session (verdicts).
func (c *checker) analyse(tc session.EntryToolCall) ([]guard.Violation, string) {
	if tc.Name == "" {
		return nil, ""
	}
	key, ok := c.verdicts.key(tc.Name, tc.Arguments)
	if ok && !c.opts.analyseEach {
		if v, seen := c.verdicts.m[string(key)]; seen {
			return v.vs, v.problem
		}
	}
	var v verdict
	args, problem := callArgs(tc.Arguments)
	if problem == "" {
		v.vs = c.matcher.Check(guard.Call{Tool: tc.Name, Args: args})
	}
	v.problem = problem
	if ok {
		c.verdicts.add(key, v)
	}
	return v.vs, v.problem
}

// verdicts are the gate's answers for the calls a session has made so
// far, by tool name and argument bytes, up to a bound (calls with large
// arguments, and any once the keys hold maxVerdictBytes, are analysed
// each time).
type verdicts struct {
	m       map[string]verdict
	size    int
	scratch []byte
}

type verdict struct {
	vs      []guard.Violation // read only: every call with the key shares it
	problem string
}

const (
	maxVerdictKey   = 4 << 10
	maxVerdictBytes = 4 << 20
)

// key is the call's key in scratch space (valid until the next call);
// ok is false when the call is not remembered.
func (t *verdicts) key(name string, args []byte) ([]byte, bool) {
	n := len(name) + 1 + len(args)
	if n > maxVerdictKey || t.size+n > maxVerdictBytes {
		return nil, false
	}
	t.scratch = append(append(append(t.scratch[:0], name...), 0), args...)
	return t.scratch, true
}

func (t *verdicts) add(key []byte, v verdict) {
	if t.m == nil {
		t.m = map[string]verdict{}
	}
	t.m[string(key)] = v
	t.size += len(key)
}

// str reads a JSON string; ok is false for anything else.
func str(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// callArgs reads a toolCall's arguments: an object, or a JSON string
// holding one (some providers store them so); a missing value is empty.
func callArgs(raw json.RawMessage) (map[string]any, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, ""
	}
	if raw[0] == '"' {
		s, _ := str(raw)
		raw = []byte(s)
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, ""
		}
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		if err != nil && strings.Contains(err.Error(), "exceeded max depth") {
			return nil, "has arguments nested deeper than the 10000 levels the decoder reads"
		}
		return nil, "has arguments that are not an object"
	}
	return args, ""
}

// hold keeps a gate finding until its call's result shows the outcome; a
// call without an id is settled at once (no result can name it).
func (c *checker) hold(callID string, p pending) {
	c.seq++
	p.f.seq = c.seq
	if callID == "" {
		p.f.Outcome = OutcomeNoResult
		c.add(p.f)
		return
	}
	c.wait[callID] = append(c.wait[callID], p)
}

func (c *checker) toolResult(msg *session.EntryMessage, raw []byte, num int, entryID string) {
	callID, toolName := msg.ToolCallID, msg.ToolName
	ci, ok := c.calls.get(callID)
	if !ok {
		if _, waiting := c.wait[callID]; !waiting {
			c.add(Finding{Line: num, Kind: KindOrphanResult, EntryID: entryID, Tool: toolName, ToolCallID: callID,
				Message: fmt.Sprintf("tool result for call %q has no earlier toolCall with that id", callID)})
		}
	}
	if ps, waiting := c.wait[callID]; waiting {
		delete(c.wait, callID)
		text, media := resultContent(msg.Content)
		for _, p := range ps {
			p.f.ResultLine = num
			p.f.Outcome = c.outcome(p, firstNonEmpty(toolName, ci.name, p.f.Tool), msg.IsError, text, media)
			c.add(p.f)
		}
	}
	if c.opts.Predicate != nil && msg.HasNotice && hasPrunedNotice(msg.Content) {
		tool := firstNonEmpty(toolName, ci.name)
		if c.opts.Predicate.Protected(tool, ci.path, ci.hasPath) {
			what := tool
			if ci.hasPath {
				what += " " + ci.path
			}
			c.add(Finding{Line: num, Kind: KindProtectedPruned, EntryID: entryID, Tool: tool, ToolCallID: callID, Path: ci.path,
				Message: fmt.Sprintf("the output of protected call %s (%s) was replaced by a pruner notice", callID, what)})
		}
	}
	_ = raw
}

// isGateMessage reports whether a result is what a guard writes when it
// blocks a call: pruner's own reasons, pi's protected-paths and permission
// extensions, pi's default block text, Claude Code's hook denials.
func isGateMessage(text string) bool {
	l := strings.ToLower(text)
	for _, m := range []string{"pruner protected-paths", "pruner: hook", "[protected-paths]", "[pi-permission-system]",
		"tool execution was blocked", "blocked by hook", "blocked by a hook", "blocked by the hook", "blocked by pretooluse hook",
		"blocked by the pretooluse hook", "hook denied", "hook blocked", "denied by rule", "denied by policy", "denied by hook"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	if i := strings.Index(l, "pretooluse:"); i >= 0 && (strings.Contains(l[i:], "denied") || strings.Contains(l[i:], "blocked")) {
		return true
	}
	if i := strings.Index(l, "permission to use "); i >= 0 && (strings.Contains(l[i:], " was denied") || strings.Contains(l[i:], " has been denied")) {
		return true
	}
	return false
}

// outcome tells an attempt from a leak by the call's result.
func (c *checker) outcome(p pending, tool string, isErr bool, text string, media bool) Outcome {
	content := strings.TrimSpace(text) != "" || media
	shellish := isShellTool(tool)
	switch {
	case isErr && (!content || isGateMessage(text)):
		return OutcomeAttempt
	case isErr && !shellish:
		return OutcomeAttempt // a file tool's error carries no file content
	case p.gate == guard.KindDeny && !p.readish:
		return OutcomeWritten // a write that went through
	case !content && shellish && !isErr:
		// A command that printed nothing and did not fail ran: it may
		// have written (cp, tee, a redirection print nothing).
		return OutcomeRan
	case !content:
		return OutcomeAttempt
	case p.gate == guard.KindDeny:
		return OutcomeLeak
	case c.mentionsProtected(text):
		return OutcomeLeak
	}
	return OutcomeRan
}

func isShellTool(name string) bool {
	switch strings.ToLower(name) {
	case "bash", "shell", "powershell", "pwsh", "exec", "run_command", "execute_command", "terminal":
		return true
	}
	return false
}

// mentionsProtected reports whether a result's text names a protected path
// (`grep -r` prints `./.env:KEY=…`): its words are checked as reads.
func (c *checker) mentionsProtected(text string) bool {
	if len(text) > 1<<20 {
		text = text[:1<<20]
	}
	n := 0
	for line := range strings.Lines(text) {
		for tok := range strings.FieldsSeq(line) {
			if n++; n > 20000 {
				return false
			}
			if !strings.ContainsAny(tok, "./\\~") {
				continue
			}
			tok = strings.Trim(tok, `"'`+"`,;()[]{}<>")
			for _, cand := range []string{tok, strings.SplitN(tok, ":", 2)[0]} {
				if cand == "" {
					continue
				}
				if vs := c.matcher.Check(guard.Call{Tool: "read", Args: map[string]any{"path": cand}}); len(vs) > 0 && vs[0].Kind == guard.KindDeny {
					return true
				}
			}
		}
	}
	return false
}

// resultContent returns a tool result's text and whether it holds images.
func resultContent(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		s, _ := str(raw)
		return s, false
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw), false
	}
	var b strings.Builder
	media := false
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			b.WriteString(bl.Text)
			b.WriteByte('\n')
		case "image":
			media = true
		}
	}
	return b.String(), media
}

// levelOf is a finding's SARIF level: gate findings by their outcome,
// structural ones by kind.
func levelOf(f Finding) string {
	switch f.Kind {
	case KindProtectedPath, KindFolder, KindUnverifiable, KindBashParse, KindBadCall:
		switch f.Outcome {
		case OutcomeAttempt:
			return LevelNote
		case OutcomeLeak, OutcomeWritten:
			return LevelError
		default:
			if f.Kind == KindProtectedPath {
				return LevelError // a protected path touched, with no sign it was blocked
			}
			return LevelWarning
		}
	}
	return ruleLevel(f.Kind)
}

// hintOf is what to do about a gate finding, by its outcome.
func hintOf(f Finding) string {
	switch f.Kind {
	case KindIncompleteLastLine:
		return "pi may still be writing this session: check it again once pi has closed it (pi skips the line if it stays cut short)"
	case KindBadLine:
		if f.bom {
			return BOMHint(f.File, "pruner check -")
		}
		return ""
	case KindProtectedPath, KindFolder, KindUnverifiable:
	default:
		return ""
	}
	live := "pruner hook (extensions/protect.ts in pi) denies such calls before they run"
	switch f.Outcome {
	case OutcomeLeak:
		where := "this session"
		if f.ResultLine > 0 {
			where = fmt.Sprintf("this session (line %d)", f.ResultLine)
		}
		return fmt.Sprintf("the protected content is in %s: treat what it holds as exposed (rotate secrets) and keep the file out of what you share; %s", where, live)
	case OutcomeWritten:
		return fmt.Sprintf("the protected file was changed: compare it with version control or a backup and undo what the call wrote (the call is at line %d); %s", f.Line, live)
	case OutcomeRan, OutcomeNoResult:
		return "the session does not show what the call read or changed: look at its result and at the protected path; " + live
	}
	return ""
}

// BOMHint is the command that strips UTF-8 byte order marks from the start
// of the lines of file, to paste (perl: the same on Linux and macOS); for
// stdin ("<stdin>" or ""), a pipe into pipeTo ("pruner check -").
func BOMHint(file, pipeTo string) string {
	const strip = `'s/^\xEF\xBB\xBF//'`
	if file == "<stdin>" || file == "" {
		return "strip the byte order mark: perl -pe " + strip + " FILE | " + pipeTo
	}
	q, err := syntax.Quote(file, syntax.LangPOSIX)
	if err != nil {
		q = file
	}
	return fmt.Sprintf("strip the byte order mark (the command keeps a copy in %s.bak): perl -pi.bak -e %s %s", file, strip, q)
}

// prunedMarker starts the text pruner writes in place of pruned output
// (session.NoticePrefix + "pruned").
const prunedMarker = "[pruner: pruned"

// hasPrunedNotice reports whether a toolResult's content has a text block
// that starts with the pruned notice.
func hasPrunedNotice(content json.RawMessage) bool {
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if b.Type == "text" && strings.HasPrefix(b.Text, prunedMarker) {
			return true
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// isRelative reports whether a path as written in a call resolves against
// the cwd: not absolute (/…, a Windows drive or share), not ~ or $HOME.
func isRelative(raw string) bool {
	return raw != "" && !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "~") &&
		!strings.HasPrefix(raw, "$") && !strings.HasPrefix(raw, "file:") && !guard.IsWindowsPath(raw)
}

// unknownCwd is v for a session without a cwd: the gate resolved its
// relative path against / (a "/.env" the session never named), so the
// finding shows the path as written and says why there is no cwd.
func unknownCwd(v guard.Violation, why string) guard.Violation {
	note := "cwd unknown: " + why
	switch v.Kind {
	case guard.KindFolder:
		v.Path = note
		v.Holds = strings.TrimPrefix(v.Holds, "/")
	case guard.KindDeny:
		if v.Loader == "" {
			v.Path, v.Resolved, v.Expanded = note, "", ""
		}
	}
	return v
}

func violation(v guard.Violation, num int, entryID, callID string) Finding {
	f := Finding{Line: num, EntryID: entryID, Tool: v.Tool, ToolCallID: callID, Command: v.Command,
		Rule: v.Rule, Op: string(v.Op), Message: v.Description()}
	switch v.Kind {
	case guard.KindBashParse:
		f.Kind = KindBashParse
		return f
	case guard.KindUnverifiable:
		f.Kind = KindUnverifiable
		f.Path = v.Raw
		return f
	case guard.KindFolder:
		f.Kind = KindFolder
		f.Path = v.Raw
		f.Resolved = v.Holds
		return f
	}
	f.Kind = KindProtectedPath
	f.Path = v.Raw
	f.Resolved = v.Path
	if v.Resolved != "" {
		f.Resolved = v.Resolved
	}
	return f
}

// InferHome returns the home directory a session's cwd implies
// (`/home/<u>`, `/Users/<u>`, `/root`, `C:\Users\<u>`) when the cwd is not
// under fallback; otherwise fallback.
func InferHome(cwd, fallback string) string {
	if cwd == "" {
		return fallback
	}
	if fallback != "" {
		fb := strings.TrimSuffix(strings.ReplaceAll(fallback, `\`, "/"), "/")
		c := strings.ReplaceAll(cwd, `\`, "/")
		if c == fb || strings.HasPrefix(c, fb+"/") {
			return fallback
		}
	}
	if h, ok := homeOf(cwd); ok {
		return h
	}
	return fallback
}

// homeOf returns the home directory at the start of a path: /home/<u>,
// /Users/<u>, /root, or <drive>:\Users\<u> (either separator).
func homeOf(p string) (string, bool) {
	sep := func(c byte) bool { return c == '/' || c == '\\' }
	user := func(rest string) int { // length of the user name segment
		i := 0
		for i < len(rest) && !sep(rest[i]) {
			i++
		}
		return i
	}
	ends := func(n int) bool { return n == len(p) || sep(p[n]) }
	for _, pre := range []string{"/home/", "/Users/"} {
		if strings.HasPrefix(p, pre) {
			if n := user(p[len(pre):]); n > 0 {
				return p[:len(pre)+n], true
			}
			return "", false
		}
	}
	if strings.HasPrefix(p, "/root") && ends(5) {
		return "/root", true
	}
	if len(p) >= 9 && (p[0] >= 'A' && p[0] <= 'Z' || p[0] >= 'a' && p[0] <= 'z') && p[1] == ':' && sep(p[2]) && p[3:8] == "Users" && sep(p[8]) {
		if n := user(p[9:]); n > 0 {
			return p[:9+n], true
		}
	}
	return "", false
}

// Count returns the number of findings over all results.
func Count(results []Result) int {
	n := 0
	for _, r := range results {
		n += len(r.Findings)
	}
	return n
}

// levelRank orders levels: error > warning > note.
func levelRank(l string) int {
	switch l {
	case LevelError:
		return 3
	case LevelWarning:
		return 2
	case LevelNote:
		return 1
	}
	return 0
}

// CountAtLeast returns the number of findings at level or above ("error",
// "warning", "note").
func CountAtLeast(results []Result, level string) int {
	n := 0
	min := levelRank(level)
	for _, r := range results {
		for _, f := range r.Findings {
			if levelRank(f.Level) >= min {
				n++
			}
		}
	}
	return n
}
