// Package protect is the pruning predicate: which tool results pruner must
// leave alone (protected tool names and path globs). The protected-path deny
// rules of `pruner check` and `pruner hook` are a different concern, in
// internal/guard.
package protect

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// DefaultProtectedPaths returns the default protectedPaths list (a fresh
// copy): skill bodies and their sibling reference files are standing
// instructions, never data.
func DefaultProtectedPaths() []string { return []string{"**/skills/**/*.md"} }

// DefaultProtectedTools returns the tool names (globs) whose results are
// never pruned by default (a fresh copy): orchestration and memory tools whose
// output is state, not data.
func DefaultProtectedTools() []string {
	return []string{
		"subagent_run", "subagent_result", "subagent_status",
		"gentle_review*", "mem_*", "todo", "ask_user_*",
	}
}

// Predicate is the pruning protection predicate. The zero value protects
// nothing. It is immutable and safe for concurrent use.
type Predicate struct {
	tools []string // compiled (escaped) doublestar patterns
	paths []string
}

// PatternError reports an invalid glob in protectedTools or protectedPaths.
type PatternError struct {
	Key     string // "protectedTools" or "protectedPaths"
	Index   int
	Pattern string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("contextPrune.%s[%d]: invalid glob %q", e.Key, e.Index, e.Pattern)
}

// NewPredicate compiles the protectedTools name globs and protectedPaths path
// globs. Glob contract (pi-context-prune's protectedPaths, matched with
// doublestar): `\` is read as `/`; the whole string must match; `*` and `?`
// stay within one path segment; `**` crosses segments and `**/` also matches
// zero directories (so `**/SKILL.md` matches `SKILL.md`); `[`, `]`, `{`, `}`
// are literal characters; matching is case-sensitive. It returns a
// *PatternError for an empty or invalid pattern.
func NewPredicate(tools, paths []string) (*Predicate, error) {
	p := &Predicate{}
	for i, t := range tools {
		c, err := compileGlob(t)
		if err != nil {
			return nil, &PatternError{Key: "protectedTools", Index: i, Pattern: t}
		}
		p.tools = append(p.tools, c)
	}
	for i, g := range paths {
		c, err := compileGlob(g)
		if err != nil {
			return nil, &PatternError{Key: "protectedPaths", Index: i, Pattern: g}
		}
		p.paths = append(p.paths, c)
	}
	return p, nil
}

func compileGlob(g string) (string, error) {
	if g == "" {
		return "", fmt.Errorf("empty pattern")
	}
	var b strings.Builder
	for _, r := range g {
		switch r {
		case '\\':
			b.WriteByte('/')
		case '[', ']', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	c := b.String()
	if !doublestar.ValidatePattern(c) {
		return "", fmt.Errorf("invalid pattern")
	}
	return c, nil
}

// MatchPath reports whether the raw path argument matches glob g under the
// protectedPaths contract (see NewPredicate). An invalid g matches nothing.
func MatchPath(g, path string) bool {
	c, err := compileGlob(g)
	if err != nil {
		return false
	}
	ok, _ := doublestar.Match(c, strings.ReplaceAll(path, `\`, "/"))
	return ok
}

// ToolProtected reports whether toolName matches a protectedTools entry.
func (p *Predicate) ToolProtected(toolName string) bool {
	if p == nil {
		return false
	}
	for _, g := range p.tools { // validated by NewPredicate
		if doublestar.MatchUnvalidated(g, toolName) {
			return true
		}
	}
	return false
}

// PathProtected reports whether the raw path argument matches a
// protectedPaths glob (after `\` → `/`; no resolution of `.`, `..` or `~`).
func (p *Predicate) PathProtected(path string) bool {
	if p == nil || len(p.paths) == 0 {
		return false
	}
	path = strings.ReplaceAll(path, `\`, "/")
	for _, g := range p.paths { // validated by NewPredicate
		if doublestar.MatchUnvalidated(g, path) {
			return true
		}
	}
	return false
}

// Protected is IsProtected(toolName, args): true when toolName is in
// protectedTools or args.path (hasPath: args.path is a JSON string) matches
// a protectedPaths glob. A non-string or missing path is not protected.
func (p *Predicate) Protected(toolName, path string, hasPath bool) bool {
	return p.ToolProtected(toolName) || (hasPath && p.PathProtected(path))
}

// Memo answers a Predicate once per tool name and once per path: a
// session calls the same few tools on the same files again and again, and
// each answer is a list of glob matches. A Memo is not safe for concurrent
// use; a nil Predicate's Memo protects nothing.
type Memo struct {
	p     *Predicate
	tools map[string]bool // ToolProtected by tool name
	paths map[string]bool // PathProtected by path
}

// NewMemo returns an empty Memo of p.
func NewMemo(p *Predicate) *Memo {
	return &Memo{p: p, tools: map[string]bool{}, paths: map[string]bool{}}
}

// ToolProtected is p.ToolProtected(toolName), remembered.
func (m *Memo) ToolProtected(toolName string) bool {
	v, ok := m.tools[toolName]
	if !ok {
		v = m.p.ToolProtected(toolName)
		m.tools[toolName] = v
	}
	return v
}

// PathProtected is p.PathProtected(path), remembered.
func (m *Memo) PathProtected(path string) bool {
	v, ok := m.paths[path]
	if !ok {
		v = m.p.PathProtected(path)
		m.paths[path] = v
	}
	return v
}

// Protected is p.Protected(toolName, path, hasPath), remembered.
func (m *Memo) Protected(toolName, path string, hasPath bool) bool {
	return m.ToolProtected(toolName) || (hasPath && m.PathProtected(path))
}
