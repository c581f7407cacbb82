package protect

import (
	"fmt"
	"strings"
)

// Call is one tool call: a pi tool name (`read`, `bash`, …) or a Claude Code
// one (`Read`, `Bash`, …) and its decoded JSON arguments.
type Call struct {
	Tool string
	Args map[string]any
}

// Kind classifies a Violation.
type Kind string

const (
	// KindDeny: the call touches a protected path with a denied op.
	KindDeny Kind = "deny"
	// KindBashParse: a bash command does not parse; it is denied because
	// what it touches cannot be known.
	KindBashParse Kind = "bash-parse-error"
)

// Violation is one reason to block a call.
type Violation struct {
	Kind Kind
	Tool string
	// Op is the denied op reported (bash first for bash calls).
	Op Op
	// Raw is the path or shell word as written in the call.
	Raw string
	// Path is the normalised absolute path (or pattern) that matched;
	// Resolved is its symlink-resolved form when only that matched.
	Path     string
	Resolved string
	// Rule is the path of the first entry (in rule order) that denies Op;
	// RuleIndex its position; Rules every entry that denies Op.
	Rule      string
	RuleIndex int
	Rules     []string
	// Source is where the rules came from.
	Source string
	// Command is the bash command, for bash calls.
	Command string
	// Detail holds the parse error of a KindBashParse violation.
	Detail string
}

// Reason is a one-line, model-facing explanation naming the path, the op and
// the rule. It deliberately does not say how to change the rules.
func (v Violation) Reason() string {
	if v.Kind == KindBashParse {
		return oneLine(fmt.Sprintf("pruner protected-paths: %s call blocked: %s", v.Tool, v.Detail))
	}
	what := fmt.Sprintf("%q", v.Raw)
	if v.Path != "" && v.Path != v.Raw {
		what += fmt.Sprintf(" (%s)", v.Path)
	}
	if v.Resolved != "" {
		what += fmt.Sprintf(" -> %s", v.Resolved)
	}
	if v.Command != "" {
		return oneLine(fmt.Sprintf("pruner protected-paths: bash command touches protected path %s; rule %q denies %s", what, v.Rule, v.Op))
	}
	return oneLine(fmt.Sprintf("pruner protected-paths: %s of protected path %s denied by rule %q (deny %s)", v.Op, what, v.Rule, v.Op))
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// Check returns the violations of one call, at most one per path or shell
// word (as written), op and rule, in the order they appear. Each path is matched against every
// entry (the union of their deny ops, never first-match-wins), on its
// normalised form and, with a Resolver, on its symlink-resolved form. Bash
// calls are denied for the op `bash` and for the op their command implies
// (read, or write for redirect/tee/cp/mv/sed -i targets); a bash command that
// does not parse yields one KindBashParse violation. Unknown tools with a
// path argument count as reads. Check never panics on any input.
func (m *Matcher) Check(c Call) []Violation {
	ts, command, isBash := toolTargets(c.Tool, c.Args)
	if isBash {
		if command == "" {
			return nil
		}
		var err error
		ts, err = analyzeBash(m.env, command)
		if err != nil {
			return []Violation{{Kind: KindBashParse, Tool: c.Tool, Op: OpBash, Raw: command, Command: command,
				Detail: err.Error(), Source: m.rules.Source, RuleIndex: -1}}
		}
	}
	var out []Violation
	seen := map[string]bool{}
	for _, t := range ts {
		if t.path == "" {
			t.path = normalize(m.env, t.raw, modeTool, t.pattern)
		}
		ops := opBit(t.op)
		if isBash {
			ops |= setBash
		}
		v, ok := m.matchTarget(t, ops)
		if !ok {
			continue
		}
		key := v.Raw + "\x00" + string(v.Op) + "\x00" + v.Rule // one per word, not per candidate cwd
		if seen[key] {
			continue
		}
		seen[key] = true
		v.Tool = c.Tool
		if isBash {
			v.Command = command
		}
		out = append(out, v)
	}
	return out
}

// matchTarget matches one target on its own and its resolved path.
func (m *Matcher) matchTarget(t target, ops OpSet) (Violation, bool) {
	denied, hits := m.deniedOps(t.path, t.pattern, ops)
	resolved := ""
	if m.env.Resolver != nil && !t.pattern {
		if r, ok := m.env.Resolver.Resolve(t.path); ok && r != t.path {
			d2, h2 := m.deniedOps(r, false, ops)
			if d2&^denied != 0 || (denied == 0 && d2 != 0) {
				resolved = r
			}
			denied |= d2
			hits = append(hits, h2...)
		}
	}
	if g, ok := m.env.Resolver.(Globber); ok && t.pattern && denied == 0 {
		for _, f := range g.Glob(t.path) {
			d2, h2 := m.deniedOps(f, false, ops)
			if d2 != 0 && resolved == "" {
				resolved = f
			}
			denied |= d2
			hits = append(hits, h2...)
			if r, ok := m.env.Resolver.Resolve(f); ok && r != f {
				d3, h3 := m.deniedOps(r, false, ops)
				if d3 != 0 && resolved == "" {
					resolved = r
				}
				denied |= d3
				hits = append(hits, h3...)
			}
		}
	}
	if denied == 0 {
		return Violation{}, false
	}
	v := Violation{Kind: KindDeny, Raw: t.raw, Path: t.path, Resolved: resolved, Source: m.rules.Source, RuleIndex: -1}
	for _, op := range allOps {
		if denied.Has(op) {
			v.Op = op
			break
		}
	}
	seenRule := map[int]bool{}
	for _, i := range hits {
		e := &m.rules.Entries[i]
		if !e.Deny.Has(v.Op) || seenRule[i] {
			continue
		}
		seenRule[i] = true
		if v.RuleIndex < 0 || i < v.RuleIndex {
			v.RuleIndex, v.Rule = i, e.Path
		}
	}
	for i := range m.rules.Entries {
		if seenRule[i] {
			v.Rules = append(v.Rules, m.rules.Entries[i].Path)
		}
	}
	return v, true
}

// deniedOps returns the union of ops ∩ deny over every entry matching p, and
// the indexes of those entries.
func (m *Matcher) deniedOps(p string, pattern bool, ops OpSet) (OpSet, []int) {
	ps := m.split(p, pattern)
	var denied OpSet
	var hits []int
	for i := range m.entries {
		c := &m.entries[i]
		if c.entry.Deny&ops == 0 {
			continue
		}
		if matchEntry(c, ps) {
			denied |= c.entry.Deny & ops
			hits = append(hits, i)
		}
	}
	return denied, hits
}

// Decide is a convenience for hooks: it returns the first violation of the
// call, or nil when the call is allowed.
func (m *Matcher) Decide(c Call) *Violation {
	vs := m.Check(c)
	if len(vs) == 0 {
		return nil
	}
	return &vs[0]
}
