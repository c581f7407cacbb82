// Package check checks saved pi sessions: tool calls against protected-path
// deny rules (internal/protect) and the session's structure (unparseable or
// joined lines, a missing header, tool results without their call, duplicate
// entry ids, parent cycles). Files are checked in parallel; results keep the
// input order. The package holds no mutable package-level state.
package check

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/session"
)

// Kind is a finding kind; each is one SARIF rule.
type Kind string

// Finding kinds, in SARIF rule order.
const (
	KindProtectedPath Kind = "protected-path"   // a tool call touches a protected path with a denied op
	KindBashParse     Kind = "bash-parse-error" // a bash command that does not parse (denied in hook mode)
	KindBadLine       Kind = "unparseable-line" // a line that is not JSON (pi silently drops it)
	KindJoinedLines   Kind = "joined-lines"     // two JSON objects on one line (a write race; pi drops both)
	KindBadHeader     Kind = "bad-header"       // the first entry is not a {"type":"session"} header
	KindOrphanResult  Kind = "orphan-tool-result"
	KindDuplicateID   Kind = "duplicate-entry-id"
	KindParentCycle   Kind = "parent-cycle"
	// KindProtectedPruned: a tool result the pruning predicate protects
	// (contextPrune.protectedTools/protectedPaths) was replaced by a
	// "[pruner: pruned …]" notice in the written session.
	KindProtectedPruned Kind = "protected-output-pruned"
)

// Kinds lists every kind in rule order.
var Kinds = []Kind{KindProtectedPath, KindBashParse, KindBadLine, KindJoinedLines, KindBadHeader, KindOrphanResult, KindDuplicateID, KindParentCycle, KindProtectedPruned}

// Finding is one problem in one session file.
type Finding struct {
	File string `json:"file"`
	// Line is the 1-based JSONL line (line 1 is the header).
	Line       int    `json:"line"`
	Kind       Kind   `json:"kind"`
	EntryID    string `json:"entryId,omitempty"`
	Tool       string `json:"tool,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	// Path is the path or shell word as written; Resolved the normalised
	// (or symlink-resolved) path that matched.
	Path     string `json:"path,omitempty"`
	Resolved string `json:"resolvedPath,omitempty"`
	Command  string `json:"command,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Op       string `json:"op,omitempty"`
	Message  string `json:"message"`
}

// Options configure a check.
type Options struct {
	// Rules are the deny rules (required).
	Rules *protect.Rules
	// Home is this machine's home directory. Unless HomeFixed is set, a
	// session whose cwd lies under another /home/<u>, /Users/<u> or
	// C:\Users\<u> uses that home instead (see InferHome).
	Home      string
	HomeFixed bool
	// CaseSensitive turns off case-insensitive matching.
	CaseSensitive bool
	// ResolveSymlinks matches calls on their symlink-resolved paths too,
	// for files that exist on this machine.
	ResolveSymlinks bool
	// Workers is the number of files checked at once; <= 0 means all CPUs.
	Workers int
	// Predicate, when set, is the pruning protection predicate: a tool
	// result it protects that holds a pruner notice is a finding.
	Predicate *protect.Predicate
	// Progress, when set, is called after each file with the number done
	// and the total (from several goroutines, serialised by the caller of
	// Run: calls never overlap).
	Progress func(done, total int)

	resolver protect.Resolver // shared by Run's workers
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
}

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
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Run checks the inputs in parallel (opts.Workers goroutines) and returns
// one Result per input, in input order. "-" reads stdin.
func Run(inputs []string, stdin io.Reader, opts Options) []Result {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if workers > len(inputs) {
		workers = len(inputs)
	}
	if opts.ResolveSymlinks && opts.resolver == nil {
		opts.resolver = protect.NewCachingResolver()
	}
	results := make([]Result, len(inputs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lr := session.NewLineReaderSize(nil, 256<<10) // one read buffer per worker
			for i := range jobs {
				results[i] = checkInput(inputs[i], stdin, opts, lr)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(inputs))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range inputs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func checkInput(name string, stdin io.Reader, opts Options, lr *session.LineReader) Result {
	if name == "-" {
		lr.Reset(stdin)
		return check(lr, "<stdin>", opts)
	}
	f, err := os.Open(name)
	if err != nil {
		return Result{File: name, Err: err}
	}
	defer f.Close()
	lr.Reset(f)
	return check(lr, name, opts)
}

// line is the part of a session line the checker decodes.
type line struct {
	Type     string  `json:"type"`
	ID       *string `json:"id"`
	ParentID *string `json:"parentId"`
	Cwd      string  `json:"cwd"`
	Message  *struct {
		Role       string `json:"role"`
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
	} `json:"message"`
}

// assistantLine is decoded, second, from assistant lines with tool calls
// only: most bytes of a session are tool results, scanned once.
type assistantLine struct {
	Message struct {
		Content blocks `json:"content"`
	} `json:"message"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// blocks decodes a content array's toolCall blocks and ignores a string.
type blocks []block

func (b *blocks) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		return nil
	}
	var bs []block
	if err := json.Unmarshal(data, &bs); err != nil {
		return err
	}
	*b = bs
	return nil
}

// CheckReader checks one session read from r; name labels the findings.
// Bad lines are findings, not errors; Result.Err is set only on a read error.
func CheckReader(r io.Reader, name string, opts Options) Result {
	return check(session.NewLineReaderSize(r, 256<<10), name, opts)
}

func check(lr *session.LineReader, name string, opts Options) Result {
	res := Result{File: name}
	var (
		matcher   *protect.Matcher
		header    = false
		first     = true
		ids       = map[string]int{}
		parents   = map[string]string{}
		idLine    = map[string]int{}
		calls     = map[string]callInfo{}
		rules     = opts.Rules
		add       = func(f Finding) { f.File = name; res.Findings = append(res.Findings, f) }
		newMatchr = func(cwd string) *protect.Matcher {
			home := opts.Home
			if !opts.HomeFixed {
				home = InferHome(cwd, opts.Home)
			}
			env := protect.Env{Cwd: cwd, Home: home, CaseSensitive: opts.CaseSensitive}
			if opts.ResolveSymlinks {
				env.Resolver = opts.resolver
				if env.Resolver == nil {
					env.Resolver = protect.OSResolver{}
				}
			}
			return rules.Matcher(env)
		}
	)
	if rules == nil {
		rules = protect.DefaultRules()
	}
	for {
		raw, num, off, err := lr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.Err = err
			}
			break
		}
		res.Lines = num
		res.Bytes = off + int64(len(raw)) + 1
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(raw, &l); err != nil {
			add(badLine(raw, num, err))
			continue
		}
		res.Entries++
		if first {
			first = false
			if l.Type == "session" {
				header = true
				matcher = newMatchr(l.Cwd)
				continue
			}
			what := fmt.Sprintf("has type %q", l.Type)
			if l.Type == "" {
				what = "has no \"type\""
			}
			add(Finding{Line: num, Kind: KindBadHeader, Message: "first entry " + what + ", not a {\"type\":\"session\"} header: pi treats the file as empty (is it a pi session?)"})
			matcher = newMatchr("")
		}
		if l.Type == "session" && header {
			add(Finding{Line: num, Kind: KindBadHeader, Message: "a second session header"})
			continue
		}
		id := ""
		if l.ID != nil {
			id = *l.ID
			if prev, dup := ids[id]; dup {
				add(Finding{Line: num, Kind: KindDuplicateID, EntryID: id, Message: fmt.Sprintf("entry id %q already used on line %d", id, prev)})
			} else {
				ids[id] = num
				idLine[id] = num
				if l.ParentID != nil {
					parents[id] = *l.ParentID
				}
			}
		}
		if l.Message == nil {
			continue
		}
		switch l.Message.Role {
		case "assistant":
			if !bytes.Contains(raw, []byte(`"toolCall"`)) {
				continue
			}
			var al assistantLine
			if err := json.Unmarshal(raw, &al); err != nil {
				continue
			}
			for _, b := range al.Message.Content {
				if b.Type != "toolCall" {
					continue
				}
				args := map[string]any{}
				if len(b.Arguments) > 0 {
					_ = json.Unmarshal(b.Arguments, &args) // non-object arguments check as empty
				}
				if b.ID != "" {
					ci := callInfo{name: b.Name}
					ci.path, ci.hasPath = args["path"].(string)
					calls[b.ID] = ci
				}
				for _, v := range matcher.Check(protect.Call{Tool: b.Name, Args: args}) {
					add(violation(v, num, id, b.ID))
				}
			}
		case "toolResult":
			ci, ok := calls[l.Message.ToolCallID]
			if !ok {
				add(Finding{Line: num, Kind: KindOrphanResult, EntryID: idOr(l.ID), Tool: l.Message.ToolName, ToolCallID: l.Message.ToolCallID,
					Message: fmt.Sprintf("tool result for call %q has no earlier toolCall with that id", l.Message.ToolCallID)})
			}
			if opts.Predicate != nil && bytes.Contains(raw, []byte(prunedMarker)) && hasPrunedNotice(raw) {
				tool := firstNonEmpty(l.Message.ToolName, ci.name)
				if opts.Predicate.Protected(tool, ci.path, ci.hasPath) {
					what := tool
					if ci.hasPath {
						what += " " + ci.path
					}
					add(Finding{Line: num, Kind: KindProtectedPruned, EntryID: idOr(l.ID), Tool: tool, ToolCallID: l.Message.ToolCallID, Path: ci.path,
						Message: fmt.Sprintf("the output of protected call %s (%s) was replaced by a pruner notice", l.Message.ToolCallID, what)})
				}
			}
		}
	}
	for _, f := range cycles(parents, idLine) {
		add(f)
	}
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Line < res.Findings[j].Line })
	return res
}

// callInfo is what a tool result needs to know about its call.
type callInfo struct {
	name    string
	path    string
	hasPath bool
}

// prunedMarker starts the text pruner writes in place of pruned output
// (session.NoticePrefix + "pruned").
const prunedMarker = "[pruner: pruned"

// hasPrunedNotice reports whether a toolResult line has a text block that
// starts with the pruned notice.
func hasPrunedNotice(raw []byte) bool {
	var l struct {
		Message struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(raw, &l) != nil {
		return false
	}
	for _, b := range l.Message.Content {
		if b.Type == "text" && strings.HasPrefix(b.Text, prunedMarker) {
			return true
		}
	}
	return false
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func idOr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func violation(v protect.Violation, num int, entryID, callID string) Finding {
	f := Finding{Line: num, EntryID: entryID, Tool: v.Tool, ToolCallID: callID, Command: v.Command,
		Rule: v.Rule, Op: string(v.Op)}
	if v.Kind == protect.KindBashParse {
		f.Kind = KindBashParse
		f.Message = strings.TrimPrefix(v.Reason(), "pruner protected-paths: ")
		return f
	}
	f.Kind = KindProtectedPath
	f.Path = v.Raw
	f.Resolved = v.Path
	if v.Resolved != "" {
		f.Resolved = v.Resolved
	}
	f.Message = strings.TrimPrefix(v.Reason(), "pruner protected-paths: ")
	return f
}

// badLine classifies an undecodable line: two objects joined, or not JSON.
func badLine(raw []byte, num int, err error) Finding {
	dec := stdjson.NewDecoder(bytes.NewReader(raw))
	var first stdjson.RawMessage
	if dec.Decode(&first) == nil && dec.More() {
		var second stdjson.RawMessage
		if dec.Decode(&second) == nil {
			return Finding{Line: num, Kind: KindJoinedLines,
				Message: fmt.Sprintf("two JSON objects joined on one line (%d + %d bytes); pi drops both", len(first), len(second))}
		}
	}
	if stdjson.Valid(raw) {
		return Finding{Line: num, Kind: KindBadLine, Message: "line is JSON but not an object (not a pi entry)"}
	}
	return Finding{Line: num, Kind: KindBadLine, Message: "line is not valid JSON (pi skips it)"}
}

// cycles reports each parent cycle once, at the line of its first entry in
// file order.
func cycles(parents map[string]string, idLine map[string]int) []Finding {
	ids := make([]string, 0, len(parents))
	for id := range parents {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return idLine[ids[i]] < idLine[ids[j]] })
	state := map[string]uint8{} // 1 on the current walk, 2 done
	var out []Finding
	for _, start := range ids {
		if state[start] != 0 {
			continue
		}
		var walk []string
		cur := start
		for {
			if state[cur] == 2 {
				break
			}
			if state[cur] == 1 {
				// cur is on this walk: the cycle is walk[idx(cur):]
				var members []string
				for i := len(walk) - 1; i >= 0; i-- {
					members = append(members, walk[i])
					if walk[i] == cur {
						break
					}
				}
				minID := members[0]
				for _, m := range members {
					if idLine[m] < idLine[minID] {
						minID = m
					}
				}
				sort.Slice(members, func(i, j int) bool { return idLine[members[i]] < idLine[members[j]] })
				out = append(out, Finding{Line: idLine[minID], Kind: KindParentCycle, EntryID: minID,
					Message: fmt.Sprintf("parentId chain loops: %s", strings.Join(members, " -> "))})
				break
			}
			state[cur] = 1
			walk = append(walk, cur)
			next, ok := parents[cur]
			if !ok {
				break
			}
			if _, known := idLine[next]; !known {
				break
			}
			cur = next
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return out
}

var homeRe = regexp.MustCompile(`^(/home/[^/]+|/Users/[^/]+|/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+)(?:[\\/]|$)`)

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
	if m := homeRe.FindStringSubmatch(cwd); m != nil {
		return m[1]
	}
	return fallback
}

// Count returns the number of findings over all results.
func Count(results []Result) int {
	n := 0
	for _, r := range results {
		n += len(r.Findings)
	}
	return n
}
