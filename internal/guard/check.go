package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Kind classifies a Violation.
type Kind string

const (
	// KindDeny: the call touches a protected path with a denied op.
	KindDeny Kind = "deny"
	// KindFolder: the call reads (or writes) everything below a folder
	// that holds a protected path (`grep -r x .`, `tar c ~/.pi`).
	KindFolder Kind = "folder"
	// KindUnverifiable: part of the call cannot be analysed (a file named
	// by `$(…)`, a script read from a pipe) and a rule could be involved.
	KindUnverifiable Kind = "unverifiable"
	// KindBashParse: a bash command does not parse; what it touches cannot
	// be known.
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
	// Resolved is its symlink-resolved form (or the file a glob expanded
	// to) when only that matched.
	Path     string
	Resolved string
	// Expanded is, for a glob, the entry it expanded to when that entry is
	// a symlink and only its target (Resolved) matched: the name the
	// command reaches the protected path by.
	Expanded string
	// Holds is, for KindFolder, the protected path found below Path.
	Holds string
	// Via is, for KindFolder, what reads or writes the folder ("grep -r");
	// Writes says it writes into it (an extraction, `rm -r`).
	Via    string
	Writes bool
	// Lists says, for KindFolder, that the call lists names below the
	// folder (a name search: find, Glob) rather than reading the files.
	Lists bool
	// Tracked says, for KindFolder, that the call prints what git tracks
	// below the folder (git diff, git show, git log -p).
	Tracked bool
	// Meta says the shell command only looks at the path's metadata
	// (test -f, stat, ls -d): denied because the rule denies bash.
	Meta bool
	// Rule is the path of the first entry (in rule order) that denies Op;
	// RuleIndex its position; Rules every entry that denies Op.
	Rule      string
	RuleIndex int
	Rules     []string
	// Source is where the rules came from; RuleSource where Rule came from.
	Source     string
	RuleSource string
	// Command is the bash command, for bash calls.
	Command string
	// Detail is the parse error of a KindBashParse violation or what
	// cannot be verified in a KindUnverifiable one.
	Detail string
	// Excludes are, for a grep of a folder, the exclusions that leave
	// every protected path of the folder out (the analysis checked them),
	// for the reason's hint; nil when one is not enough to name.
	Excludes []string `json:"-"`
	// Loader is, for a path a program reads by itself (bun, pipenv load
	// .env), that program as a phrase for the reason.
	Loader string `json:"-"`
	// Unmodelled is, for a path named to a program the analysis does not
	// model, that program: it may write what it is given.
	Unmodelled string `json:"-"`
	// CdUnknown says the path is a name written after a cd to a folder
	// named only when the command runs (unknownCwd), and it matched only
	// because that folder may be a protected folder of its own: Rules are
	// then the rules it may land in.
	CdUnknown bool `json:"-"`
	// CdProgram, with CdUnknown: the path is the name of a program run
	// in that folder, which may read any file there.
	CdProgram bool `json:"-"`
	// HomeSet says the path starts with a `~` the command made unknown by
	// assigning HOME: Rules are the rules it may hit.
	HomeSet bool `json:"-"`
}

// Reason is a one-line, model-facing explanation naming the path, the op and
// the rule. It deliberately does not say how to change the rules.
func (v Violation) Reason() string { return "pruner protected-paths: " + v.text(true) }

// Description is the violation as a report on a call that already ran (a
// saved session: pruner check): the path, the op and the rule that protects
// it, without saying the call was denied.
func (v Violation) Description() string { return v.text(false) }

// folderHint is, for a call denied because it reads (or lists) a whole
// folder holding a protected path, how the agent can do its job without it:
// name what it needs, or leave the path out (grep's own exclusions, which
// the analysis honours). It never says how to change the rules.
func (v Violation) folderHint(verdict bool, via string) string {
	if !verdict || v.Tracked || v.Holds == "" {
		return ""
	}
	hint := " (name the files, or a folder that does not hold it"
	leaveOut := func(program string, ex []string) string {
		them := "it"
		if len(ex) > 1 {
			them = "them"
		}
		return ", or leave " + them + " out: " + program + " " + strings.Join(ex, " ")
	}
	if v.Writes {
		// a write or delete (git clean, rm -r, an extraction): another
		// folder, or git clean's own -e when re-checking showed it
		// leaves them out
		hint = " (use a folder that does not hold it"
		if v.Command != "" && len(v.Excludes) > 0 && strings.HasPrefix(via, "git clean") {
			hint += leaveOut("git clean", v.Excludes)
		}
		return hint + ")"
	}
	if v.Command != "" && strings.HasPrefix(via, "grep") {
		ex := v.Excludes
		if len(ex) == 0 {
			// re-checking found no set that leaves every path out: the
			// exclusion of the one named, at least
			opt := "--exclude="
			if strings.HasSuffix(v.Rule, "/") {
				opt = "--exclude-dir="
			}
			ex = []string{opt + showWord(path.Base(v.Holds))}
		}
		hint += leaveOut("grep", ex)
	}
	return hint + ")"
}

// grepExcludesFor returns the grep exclusions (--exclude=NAME for a file,
// --exclude-dir=NAME for a folder) that leave every protected path of the
// folder t out, the first being v's: the folder is searched again with
// each one added, as the analysis reads grep's own exclusions, until it
// holds none (at most eight rounds; nil when that does not get there, or
// a protected path cannot be left out by its name).
func (m *Matcher) grepExcludesFor(t target, ops OpSet, v Violation) []string {
	return m.excludesFor(t, ops, v, func(name string, dir bool) (string, excludePat) {
		if dir {
			return "--exclude-dir=" + showWord(name), excludePat{glob: name, dirs: true}
		}
		return "--exclude=" + showWord(name), excludePat{glob: name, files: true}
	})
}

// cleanExcludesFor is grepExcludesFor for git clean: `-e NAME` makes NAME
// ignored at any depth, file or folder, which git clean leaves (the
// target's hint says the analysis reads its -e so: no -X, no `!`).
func (m *Matcher) cleanExcludesFor(t target, ops OpSet, v Violation) []string {
	return m.excludesFor(t, ops, v, func(name string, _ bool) (string, excludePat) {
		return "-e " + showWord(name), excludePat{glob: name}
	})
}

// excludesFor re-checks the folder t with the exclusion opt gives for
// each protected name found added (see grepExcludesFor).
func (m *Matcher) excludesFor(t target, ops OpSet, v Violation, opt func(name string, dir bool) (string, excludePat)) []string {
	var out []string
	t.exclude = append([]excludePat(nil), t.exclude...)
	for range 8 {
		if v.Holds == "" || v.Kind != KindFolder {
			return nil
		}
		name := path.Base(v.Holds)
		if name == "" || name == "." || name == "/" || strings.ContainsRune(name, unknownRune) {
			return nil
		}
		word, ex := opt(name, strings.HasSuffix(v.Rule, "/"))
		out = append(out, word)
		t.exclude = append(t.exclude, ex)
		next, ok := m.matchFolder(t, ops)
		if !ok {
			return out
		}
		if next.Holds == v.Holds {
			return nil // the exclusion does not leave it out
		}
		v = next
	}
	return nil
}

// quoteSome quotes the first n of names, and says how many more there are.
func quoteSome(names []string, n int) string {
	var b strings.Builder
	for i, x := range names {
		if i == n {
			fmt.Fprintf(&b, ", and %d more", len(names)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", x)
	}
	return b.String()
}

// text is Reason's text after its prefix (verdict: the call is being
// denied) or Description's.
func (v Violation) text(verdict bool) string {
	rule := fmt.Sprintf("rule %q denies %s", v.Rule, v.Op)
	if !verdict {
		rule = fmt.Sprintf("protected by rule %q (deny %s)", v.Rule, v.Op)
	}
	if v.RuleSource == GateRulesSource {
		rule += " (the gate's own configuration: a tool call may read it, never change it)"
	}
	switch v.Kind {
	case KindBashParse:
		if !verdict {
			return oneLine(fmt.Sprintf("%s call does not parse: %s", v.Tool, v.Detail))
		}
		return oneLine(fmt.Sprintf("%s call blocked: %s", v.Tool, v.Detail))
	case KindUnverifiable:
		in := ""
		if v.Raw != "" && !namesWord(v.Detail, v.Raw) {
			// where in the command, unless the detail already says
			// (`sh runs a script read from …` needs no `(in "sh")`)
			in = " (in " + showWord(clip(v.Raw, 120)) + ")"
		}
		verb := "cannot be verified, so it is denied"
		if !verdict {
			verb = "cannot be verified"
		}
		// the call touches no rule's path that the analysis knows of: name
		// the rules it could be after, not the first of them as though it
		// were the one at stake (curl x | sh is not about .env)
		if len(v.Rules) > 1 {
			rule = fmt.Sprintf("%d rules deny %s (%s)", len(v.Rules), v.Op, quoteSome(v.Rules, 3))
			if !verdict {
				rule = fmt.Sprintf("%d rules deny %s there (%s)", len(v.Rules), v.Op, quoteSome(v.Rules, 3))
			}
		}
		return oneLine(fmt.Sprintf("%s call %s: %s%s; %s", v.Tool, verb, v.Detail, in, rule))
	case KindFolder:
		what := showWord(clip(v.Raw, 120))
		if v.Path != "" && v.Path != v.Raw {
			what += fmt.Sprintf(" (%s)", v.Path)
		}
		verb := "reads every file below"
		switch {
		case v.Writes && v.Tracked:
			verb = "may rewrite what git tracks below"
		case v.Writes:
			verb = "writes files below"
		case v.Lists:
			verb = "lists the names below"
		case v.Tracked:
			verb = "prints what git tracks below"
		}
		via := v.Via
		if via == "" {
			via = v.Tool
		}
		if v.CdUnknown {
			return oneLine(fmt.Sprintf("%s %s %s after a cd to a folder known only at run time; pruner cannot tell whether it is in or holds %s; %s", via, verb, what, cdRules(v.Rules), rule))
		}
		return oneLine(fmt.Sprintf("%s %s %s, which holds protected path %s; %s%s", via, verb, what, v.Holds, rule, v.folderHint(verdict, via)))
	}
	if v.HomeSet && v.Command != "" {
		// `~` after the command assigned HOME: any folder; the rules it
		// may hit, not only the first
		return oneLine(fmt.Sprintf("bash command touches %s, and sets HOME, so pruner cannot tell what ~ names (%s): it may be protected by %s; %s", showWord(clip(v.Raw, 160)), v.Path, cdRules(v.Rules), rule))
	}
	if v.CdUnknown {
		// a name written after cd to a computed folder, which may be a
		// protected folder (unknownCwd)
		name := showWord(clip(v.Raw, 160))
		if v.CdProgram {
			return oneLine(fmt.Sprintf("%s runs %s after a cd to a folder known only at run time, where it may read any file; pruner cannot tell whether that folder is (inside) %s; %s", cdSubject(v), name, cdRules(v.Rules), rule))
		}
		return oneLine(fmt.Sprintf("%s %s %s after a cd to a folder known only at run time (%s); pruner cannot tell whether it lands in %s; %s", cdSubject(v), cdVerb(v.Op), name, v.Path, cdRules(v.Rules), rule))
	}
	if v.Command != "" && v.Loader != "" {
		// a program that reads the file by itself (selfloads.go)
		return oneLine(fmt.Sprintf("bash command runs %s (protected path %s); %s", v.Loader, v.Path, rule))
	}
	what := showWord(clip(v.Raw, 160))
	if v.Path != "" && v.Path != v.Raw {
		what += fmt.Sprintf(" (%s)", v.Path)
	}
	if v.Command != "" && v.Unmodelled != "" && (v.Op == OpWrite || v.Op == OpEdit) {
		return oneLine(fmt.Sprintf("pruner cannot tell what %s does with protected path %s (it may write it); %s", v.Unmodelled, what, rule))
	}
	switch {
	case v.Expanded != "":
		what += fmt.Sprintf(" expands to %s -> %s", v.Expanded, v.Resolved)
	case v.Resolved != "":
		what += fmt.Sprintf(" -> %s", v.Resolved)
	}
	if v.Command != "" && v.Meta {
		return oneLine(fmt.Sprintf("bash command touches protected path %s (its metadata only: test -f, stat, ls -d read no content); %s, which covers any shell command that touches it", what, rule))
	}
	if v.Command != "" {
		return oneLine(fmt.Sprintf("bash command touches protected path %s; %s", what, rule))
	}
	if !verdict {
		return oneLine(fmt.Sprintf("%s of protected path %s, %s", v.Op, what, rule))
	}
	return oneLine(fmt.Sprintf("%s of protected path %s denied by rule %q (deny %s)", v.Op, what, v.Rule, v.Op))
}

// cdRules names the rules a path below a folder a cd named at run time
// may land in (v.Rules: every matching entry that denies the op).
func cdRules(rules []string) string {
	if len(rules) == 0 {
		return "a protected folder"
	}
	return quoteSome(rules, 6)
}

// cdVerb is what a CdUnknown reason says the call does with the name.
func cdVerb(op Op) string {
	switch op {
	case OpBash:
		return "touches"
	case OpRead, OpWrite, OpEdit:
		return string(op) + "s"
	}
	return "touches"
}

// cdSubject is what names the path, for a CdUnknown reason.
func cdSubject(v Violation) string {
	if v.Command != "" {
		return "bash command"
	}
	return v.Tool + " call"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		if r == unknownRune {
			return '*'
		}
		return r
	}, s)
}

// Check returns the violations of one call, at most one per path or shell
// word (as written), op and rule, direct hits first. Each path is matched
// against every entry (the union of their deny ops, never first-match-wins),
// on its normalised form, its other spellings and, with a file system, its
// symlink-resolved form and what a glob expands to. A folder the call reads
// or writes recursively is a violation when it holds a protected path
// (searched on the file system, or reasoned from the rules without one). A
// part of the call the analysis cannot see through is a violation when a
// rule denies an op it may do. Bash calls are denied for the op `bash` and
// for the op their command implies; a bash command that does not parse
// yields one KindBashParse violation. Check never panics on any input.
func (m *Matcher) Check(c Call) (out []Violation) {
	defer func() {
		if r := recover(); r != nil { // never fail open on a bug
			out = []Violation{{Kind: KindUnverifiable, Tool: c.Tool, Op: OpRead, Detail: fmt.Sprintf("internal error while analysing the call: %v", r), Source: m.rules.Source, RuleIndex: -1}}
		}
	}()
	if c.Args == nil {
		c.Args = map[string]any{}
	}
	kind := classifyTool(c.Tool)
	an := m.analyzeTool(c)
	shell := kind == kindBash || kind == kindPwsh
	command := ""
	if shell {
		command = firstString(c.Args, "command", "cmd", "script", "code")
	}
	if an.parseErr != nil {
		return []Violation{{Kind: KindBashParse, Tool: c.Tool, Op: OpBash, Raw: command, Command: command,
			Detail: an.parseErr.Error(), Source: m.rules.Source, RuleIndex: -1}}
	}
	seen := map[string]bool{}
	add := func(v Violation) {
		key := string(v.Kind) + "\x00" + v.Raw + "\x00" + string(v.Op) + "\x00" + v.Rule + "\x00" + v.Detail + "\x00" + strconv.FormatBool(v.Meta)
		if seen[key] {
			return
		}
		seen[key] = true
		v.Tool = c.Tool
		if shell {
			v.Command = command
		}
		out = append(out, v)
	}
	for _, t := range an.targets {
		ops := t.ops
		if shell {
			ops |= SetBash
		}
		// a name below a folder a cd named at run time (unknownCwd) is
		// first read as below any folder, then also as inside any
		// protected folder, for every op (a read too: `cd "$x"; cat a`
		// may read ~/.ssh/a; see unknownCwd)
		cdt := t
		t.path = plainUnknown(t.path)
		var v Violation
		var ok bool
		if t.rec {
			v, ok = m.matchFolder(t, ops)
			switch {
			case !ok || v.Kind != KindFolder || !shell:
			case strings.HasPrefix(t.via, "grep"):
				v.Excludes = m.grepExcludesFor(t, ops, v)
			case t.hint == hintGitClean:
				v.Excludes = m.cleanExcludesFor(t, ops, v)
			}
		} else {
			v, ok = m.matchTarget(t, ops)
		}
		if !ok && cdt.path != t.path {
			// a write or edit first (the rules it may land in), then a
			// read (the folder may be .git/ or ~/.ssh/: `cd "$x"; cat
			// id_rsa`), then the bare mention a bash rule denies
			for _, set := range [...]OpSet{ops & setModify, ops & SetRead, ops & SetBash} {
				if set == 0 {
					continue
				}
				if cdt.rec {
					v, ok = m.matchFolder(cdt, set)
				} else {
					v, ok = m.matchTarget(cdt, set)
				}
				if ok {
					break
				}
			}
			v.CdUnknown = ok && v.Kind != KindUnverifiable
			v.CdProgram = v.CdUnknown && cdt.program && !cdt.rec
		}
		if ok {
			v.HomeSet = t.homeSet && v.Kind == KindDeny && !v.CdUnknown
			v.Meta = shell && t.ops == SetBash && v.Kind == KindDeny
			add(v)
		}
	}
	for _, u := range an.unknowns {
		ops := u.ops
		if shell {
			ops |= SetBash
		}
		if v, ok := m.unverifiable(u, ops); ok {
			add(v)
		}
	}
	rank := func(v Violation) int {
		switch {
		case v.CdUnknown && (v.Op == OpWrite || v.Op == OpEdit):
			return 0 // a name that may land in a protected folder: as a direct hit
		case v.CdUnknown && !v.CdProgram:
			return 2 // one that may be read there: after a folder it reads
		case v.CdUnknown:
			return 3 // a program run there: after what it names
		}
		return map[Kind]int{KindDeny: 0, KindFolder: 1, KindUnverifiable: 4}[v.Kind]
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return !out[i].Meta && out[j].Meta // a read first: the reason names what reads
	})
	return out
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

// unverifiable turns an unknown use into a violation when some rule denies
// one of its ops.
func (m *Matcher) unverifiable(u unknownUse, ops OpSet) (Violation, bool) {
	if m.denies&ops == 0 {
		return Violation{}, false
	}
	v := Violation{Kind: KindUnverifiable, Raw: u.raw, Detail: u.why, Source: m.rules.Source, RuleIndex: -1}
	for _, op := range allOps() {
		if !ops.Has(op) || m.denies&op.Bit() == 0 {
			continue
		}
		for i := range m.rules.Entries {
			e := &m.rules.Entries[i]
			if e.Deny.Has(op) {
				v.Op, v.Rule, v.RuleIndex, v.RuleSource = op, e.Path, i, e.Source
				break
			}
		}
		break
	}
	for i := range m.rules.Entries {
		if m.rules.Entries[i].Deny.Has(v.Op) {
			v.Rules = append(v.Rules, m.rules.Entries[i].Path)
		}
	}
	if strings.Contains(u.why, homeSetWhy) {
		// an unknown home: the rules below the home first (any rule may
		// be hit, those are the ones a `~` names)
		sort.SliceStable(v.Rules, func(i, j int) bool { return m.homeRule(v.Rules[i]) && !m.homeRule(v.Rules[j]) })
	}
	return v, true
}

// homeRule reports whether a rule's path lies below the home folder.
func (m *Matcher) homeRule(p string) bool {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "$HOME/") || strings.HasPrefix(p, "${HOME}/") {
		return true
	}
	h := strings.TrimSuffix(m.env.Home, "/")
	return h != "" && strings.HasPrefix(p, h+"/")
}

// deniedOps returns the union of ops ∩ deny over every entry matching p, and
// the indexes of those entries. wild also counts pure wildcards (`*`) as
// naming a bare entry where the reasoning without a file system assumes it
// lives (the cwd).
func (m *Matcher) deniedOps(p string, pattern, dotOK bool, ops OpSet, wild bool) (OpSet, []int) {
	return m.deniedNaming(p, pattern, dotOK, ops, wild, "")
}

// deniedNaming is deniedOps over the entries whose name (last segment) the
// glob naming could match; every entry when naming is "".
func (m *Matcher) deniedNaming(p string, pattern, dotOK bool, ops OpSet, wild bool, naming string) (OpSet, []int) {
	ps := m.split(p, pattern, dotOK)
	var denied OpSet
	var hits []int
	for i := range m.entries {
		c := &m.entries[i]
		if c.entry.Deny&ops == 0 {
			continue
		}
		if naming != "" && !m.names(c, naming) {
			continue
		}
		if matchEntry(c, ps, inside, false) || (wild && pattern && c.atCwd != nil && matchEntry(c.atCwd, ps, inside, true)) {
			denied |= c.entry.Deny & ops
			hits = append(hits, i)
		}
	}
	return denied, hits
}

// matchTarget matches one target on its own, its resolved path and, for a
// glob, the files it expands to.
func (m *Matcher) matchTarget(t target, ops OpSet) (Violation, bool) {
	fsys := m.env.FS
	win := m.env.windows()
	// a name a fill makes from its source's glob is matched by the rules
	// (fills.go), as without a disk
	denied, hits := m.deniedNaming(t.path, t.pattern, t.dotOK, ops, fsys == nil || t.fills, t.naming)
	resolved, expanded := "", ""
	if fsys != nil && !t.pattern {
		for _, q := range []string{t.path, t.physical} {
			if q == "" {
				continue
			}
			if r, changed, ok := resolveLinks(fsys, q, win); ok && (changed || q != t.path) && r != t.path {
				d2, h2 := m.deniedOps(r, false, false, ops, false)
				if d2&^denied != 0 {
					resolved = r
				}
				denied |= d2
				hits = append(hits, h2...)
			}
		}
	}
	if fsys != nil && t.pattern && denied == 0 {
		files, complete := globDisk(fsys, t.path, win, t.dotOK)
		for _, f := range files {
			d2, h2 := m.deniedOps(f, false, false, ops, false)
			if d2 != 0 && resolved == "" {
				resolved = f
			}
			denied |= d2
			hits = append(hits, h2...)
			if r, changed, ok := resolveLinks(fsys, f, win); ok && changed {
				d3, h3 := m.deniedOps(r, false, false, ops, false)
				if d3 != 0 && resolved == "" {
					resolved, expanded = r, f
				}
				denied |= d3
				hits = append(hits, h3...)
			}
		}
		if !complete {
			d2, h2 := m.deniedNaming(t.path, true, t.dotOK, ops, true, t.naming)
			denied |= d2
			hits = append(hits, h2...)
		}
	}
	if denied == 0 {
		return Violation{}, false
	}
	v := Violation{Kind: KindDeny, Raw: t.raw, Path: t.path, Resolved: resolved, Expanded: expanded, Loader: t.loader, Unmodelled: t.unmodelled}
	m.nameRule(&v, denied, hits)
	return v, true
}

// nameRule fills the op and rule fields of a violation: the first op in
// report order, the first entry in rule order that denies it.
func (m *Matcher) nameRule(v *Violation, denied OpSet, hits []int) {
	v.Source, v.RuleIndex = m.rules.Source, -1
	v.Op = denied.first()
	seenRule := map[int]bool{}
	for _, i := range hits {
		e := &m.rules.Entries[i]
		if !e.Deny.Has(v.Op) || seenRule[i] {
			continue
		}
		seenRule[i] = true
		if v.RuleIndex < 0 || i < v.RuleIndex {
			v.RuleIndex, v.Rule, v.RuleSource = i, e.Path, e.Source
		}
	}
	for i := range m.rules.Entries {
		if seenRule[i] {
			v.Rules = append(v.Rules, m.rules.Entries[i].Path)
		}
	}
}

// matchFolder checks a recursive operation on a folder: the folder itself,
// then what it holds.
func (m *Matcher) matchFolder(t target, ops OpSet) (Violation, bool) {
	if t.tracked {
		return m.matchTracked(t, ops)
	}
	direct := t
	direct.rec = false
	if t.shellGlob {
		direct.dotOK = false // the shell's wildcards skip hidden names
	}
	if v, ok := m.matchTarget(direct, ops); ok {
		return v, true
	}
	fsys := m.env.FS
	win := m.env.windows()
	if fsys != nil {
		if v, ok := m.fillsByRules(t, ops); ok {
			return v, true
		}
	}
	if fsys != nil && t.pattern && t.shellGlob {
		// a shell glob: each folder it expands to on the disk is recursed
		files, complete := globDisk(fsys, t.path, win, false)
		if !complete || len(files) > maxGlobFolders {
			return m.folderUnknown(t, ops, "the glob expands to too many folders to search for protected paths")
		}
		for _, f := range files {
			sub := t
			sub.path, sub.pattern, sub.shellGlob = f, false, false
			if v, ok := m.matchFolder(sub, ops); ok {
				return v, true
			}
		}
		return Violation{}, false
	}
	if fsys != nil && !t.pattern {
		dir := t.path
		if r, _, ok := resolveLinks(fsys, dir, win); ok {
			dir = r
		}
		if dir != t.path {
			rt := t
			rt.path = dir
			if v, ok := m.fillsByRules(rt, ops); ok {
				v.Path = t.path
				return v, true
			}
		}
		fi, err := fsys.Lstat(dir)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			return Violation{}, false // nothing there to read or overwrite
		case err != nil:
			return m.folderUnknown(t, ops, "the folder cannot be listed")
		case !fi.IsDir():
			return Violation{}, false
		}
		// an absolute or home rule below the folder: is it there?
		if v, ok := m.anchoredBelow(t, dir, ops); ok {
			return v, true
		}
		if !m.walkNeeded(ops, t) {
			return Violation{}, false // no rule the recursion could reach needs a search
		}
		found, denied, hits, complete := m.walk(dir, t, ops)
		if !complete && !t.dotOK && !m.needsWalk(ops, t, false) {
			// only hidden names are protected and the search skips them:
			// past the walk's bound, only the ignore files of the folder and
			// its parents can whitelist one (below it they are not read)
			found, denied, hits, complete = m.walkHiddenTop(dir, t, ops)
		}
		if found != "" {
			v := Violation{Kind: KindFolder, Raw: t.raw, Path: t.path, Holds: found, Via: t.via, Writes: t.ops&SetRead == 0, Lists: t.lists}
			m.nameRule(&v, denied, hits)
			return v, true
		}
		if !complete {
			return m.folderUnknown(t, ops, "the folder holds too many files to search for protected paths")
		}
		return Violation{}, false
	}
	return m.folderByRules(t, ops)
}

// folderByRules checks a recursive operation on a folder by the rules
// alone (no disk, or a write that fills the folder: fills.go).
func (m *Matcher) folderByRules(t target, ops OpSet) (Violation, bool) {
	// reason from the rules: a folder that is an ancestor of a rule's path
	// (a bare rule is taken to live at the cwd); a recursion that honours
	// .gitignore is taken to skip hidden names, which repositories ignore
	// (.env*) or it skips (.git)
	dotOK := t.dotOK && !(t.vcsAware && t.gitIgnores)
	ps := m.split(t.path, t.pattern, dotOK)
	ps.shellGlob = t.shellGlob
	psAll := m.split(t.path, t.pattern, t.dotOK) // for absolute and home rules: no repository ignores them
	var denied OpSet
	var hits []int
	holds := ""
	for i := range m.entries {
		c := &m.entries[i]
		if c.entry.Deny&ops == 0 {
			continue
		}
		cc := c
		if c.bare {
			cc = c.atCwd
		}
		if cc == nil {
			continue
		}
		if c.bare && m.env.CaseSensitive && len(c.segs) == 2 && excludedEverywhere(t.exclude, c.segs[1], c.dir) {
			continue // the program's own exclude skips that name at any depth
		}
		filtered := len(t.filter) > 0 && !c.dir && filterMatches(t.filter, cc.segs[len(cc.segs)-1], cc.segs[len(cc.segs)-1], m.env.CaseSensitive)
		if len(t.filter) > 0 && !filtered {
			continue
		}
		// a glob that matches a hidden name searches it (ripgrep's
		// overrides come before its hidden rule; see walk)
		pe := ps
		if !c.bare {
			pe = psAll
		}
		if filtered && !dotOK {
			pe = m.split(t.path, t.pattern, true)
		}
		if !matchEntry(cc, pe, holds_, false) {
			continue
		}
		denied |= c.entry.Deny & ops
		hits = append(hits, i)
		if holds == "" {
			holds = strings.Join(cc.segs, "/")
			if c.bare {
				holds = joinDir(cleanCwd(m.env), strings.TrimPrefix(c.entry.Path, "./"))
			}
		}
	}
	if denied == 0 {
		return Violation{}, false
	}
	v := Violation{Kind: KindFolder, Raw: t.raw, Path: t.path, Holds: strings.TrimSuffix(holds, "/"), Via: t.via, Writes: t.ops&SetRead == 0, Lists: t.lists}
	m.nameRule(&v, denied, hits)
	return v, true
}

// anchoredBelow finds an absolute or home rule (without globs) whose path
// lies below dir, is reached by the recursion and exists on the disk.
func (m *Matcher) anchoredBelow(t target, dir string, ops OpSet) (Violation, bool) {
	fsys := m.env.FS
	ps := m.split(dir, false, t.dotOK)
	for i := range m.entries {
		c := &m.entries[i]
		if c.bare || !c.ok || c.entry.Deny&ops == 0 || hasGlobSeg(c) {
			continue
		}
		if !matchEntry(c, ps, holds_, false) {
			continue
		}
		p := strings.TrimSuffix(NormalizePath(Env{Cwd: "/", Home: m.env.Home}, strings.TrimSuffix(c.entry.Path, "/")), "/")
		if m.env.windows() {
			p, _ = normalize(m.env, strings.TrimSuffix(c.entry.Path, "/"), spellRule, false)
		}
		if _, err := fsys.Lstat(p); err != nil {
			continue
		}
		if len(t.filter) > 0 && !filterMatches(t.filter, p, p[strings.LastIndexByte(p, '/')+1:], m.env.CaseSensitive) {
			continue
		}
		v := Violation{Kind: KindFolder, Raw: t.raw, Path: t.path, Holds: p, Via: t.via, Writes: t.ops&SetRead == 0, Lists: t.lists}
		m.nameRule(&v, c.entry.Deny&ops, []int{i})
		return v, true
	}
	return Violation{}, false
}

func hasGlobSeg(c *compiled) bool {
	for _, g := range c.globs {
		if g {
			return true
		}
	}
	return false
}

// walkNeeded reports whether searching a folder can find anything the
// rules protect for ops: a bare rule whose name the recursion reaches
// (hidden names only when it reads them), an absolute rule with a glob, or
// symlinks it follows.
func (m *Matcher) walkNeeded(ops OpSet, t target) bool { return m.needsWalk(ops, t, true) }

// needsWalk is walkNeeded; hidden counts the hidden names a search skips
// (they may be whitelisted).
func (m *Matcher) needsWalk(ops OpSet, t target, hidden bool) bool {
	if t.follow != followNone {
		return true
	}
	for i := range m.entries {
		c := &m.entries[i]
		if !c.ok || c.entry.Deny&ops == 0 {
			continue
		}
		if !c.bare {
			if hasGlobSeg(c) {
				return true
			}
			continue
		}
		if t.dotOK || len(c.segs) < 2 || !strings.HasPrefix(c.segs[1], ".") {
			return true
		}
		if hidden && m.env.FS != nil {
			// a hidden name the search skips, unless an ignore file
			// whitelists it (or ripgrep's config adds --hidden)
			return true
		}
	}
	return false
}

// maxGlobFolders bounds the expansions of a recursed shell glob searched
// one by one (more: unverifiable).
const maxGlobFolders = 256

// holds_ is the match mode for folders (named apart from the local
// variable it would shadow).
const holds_ = holds

func (m *Matcher) folderUnknown(t target, ops OpSet, why string) (Violation, bool) {
	return m.unverifiable(unknownUse{raw: t.raw, why: t.via + ": " + why, ops: ops}, ops)
}

// walk searches a folder breadth first for a protected path the recursion
// reaches: a file (or folder) an entry protects for ops, filtered by the
// recursion's name filters, or a symlink to one.
func (m *Matcher) walk(root string, t target, ops OpSet) (found string, denied OpSet, hits []int, complete bool) {
	fsys := m.env.FS
	win := m.env.windows()
	type dir struct {
		path      string
		protected bool // inside a protected folder: a filtered file here is a hit
		prot      OpSet
		protHits  []int
	}
	queue := []dir{{path: root}}
	unhide := m.newUnhider()
	var gi *gitIgnorer
	if t.vcsAware && t.gitIgnores {
		gi = m.newGitIgnorer()
	}
	visited := 0
	links := 0
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		ents, err := fsys.ReadDir(d.path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return "", 0, nil, false
		}
		for _, e := range ents {
			visited++
			if visited > maxWalkEntries {
				return "", 0, nil, false
			}
			name := e.Name()
			p := strings.TrimSuffix(d.path, "/") + "/" + name
			rel := strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")
			// a hidden name is skipped unless an ignore file whitelists it
			// or the search's own glob matches it: ripgrep's overrides
			// (`-g`, the Grep tool's glob) come before its hidden rule, so
			// `--glob '*env'` searches .env
			if !t.dotOK && strings.HasPrefix(name, ".") && !unhide.reaches(d.path, name) && !(len(t.filter) > 0 && m.passes(t, rel, name, false)) {
				continue
			}
			isDir := e.IsDir()
			if t.vcsAware && ((isDir && isVCSFolder(name)) || (gi != nil && gi.ignored(p, isDir))) {
				continue
			}
			if excluded(t.exclude, rel, name, isDir || e.Type()&fs.ModeSymlink != 0) {
				continue // the program's own exclude skips it (and all below it)
			}
			if e.Type()&fs.ModeSymlink != 0 {
				if t.follow == followNone {
					continue
				}
				links++
				if links > maxLinkTargets {
					return "", 0, nil, false
				}
				if r, _, ok := resolveLinks(fsys, p, win); ok {
					if dd, hh := m.deniedOps(r, false, false, ops, false); dd != 0 && m.passes(t, rel, name, false) {
						return p + " -> " + r, dd, hh, true
					}
					// a link to a folder that holds a protected path (by the rules)
					if t.follow != followAll {
						continue
					}
					if v, ok := m.matchFolder(target{raw: p, path: r, dotOK: true, rec: true, ops: ops, follow: followNone, fills: t.fills}, ops); ok && v.Kind != KindUnverifiable && len(t.filter) == 0 {
						return p + " -> " + v.Holds, opOf(v), []int{v.RuleIndex}, true
					}
				}
				continue
			}
			dd, hh := m.deniedOps(p, false, false, ops, false)
			switch {
			case dd != 0 && !isDir && m.passes(t, rel, name, d.protected):
				return p, dd, hh, true
			case dd != 0 && isDir && len(t.filter) == 0:
				return p, dd, hh, true
			case d.protected && !isDir && m.passes(t, rel, name, true):
				return p, d.prot, d.protHits, true
			}
			if isDir {
				nd := dir{path: p, protected: d.protected, prot: d.prot, protHits: d.protHits}
				if dd != 0 {
					nd.protected, nd.prot, nd.protHits = true, dd, hh
				}
				queue = append(queue, nd)
			}
		}
	}
	return "", 0, nil, true
}

func opOf(v Violation) OpSet { return v.Op.Bit() }

// passes reports whether a file reached by a recursion passes its name
// filters (no filters: every file).
func (m *Matcher) passes(t target, rel, name string, _ bool) bool {
	if len(t.filter) == 0 {
		return true
	}
	return filterMatches(t.filter, rel, name, m.env.CaseSensitive)
}

// filterMatches matches a file against include globs: a glob without `/`
// matches the name, one with `/` the path below the folder.
func filterMatches(filter []string, rel, name string, caseSensitive bool) bool {
	for _, f := range filter {
		f = foldKey(strings.TrimPrefix(strings.TrimPrefix(f, "path:"), "./"), caseSensitive)
		target := foldKey(name, caseSensitive)
		if strings.Contains(f, "/") {
			target = foldKey(rel, caseSensitive)
			f = strings.TrimPrefix(f, "**/")
			if ok, _ := doublestar.Match("**/"+f, target); ok {
				return true
			}
		}
		if ok, _ := doublestar.Match(strings.ReplaceAll(f, unknownStr, "*"), target); ok {
			return true
		}
	}
	return false
}

// walkHiddenTop looks for a protected hidden name directly in root that
// the ignore files of root or its parents whitelist.
func (m *Matcher) walkHiddenTop(root string, t target, ops OpSet) (string, OpSet, []int, bool) {
	ents, err := m.env.FS.ReadDir(root)
	if err != nil {
		return "", 0, nil, false
	}
	unhide := m.newUnhider()
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || !unhide.reaches(root, name) {
			continue
		}
		p := strings.TrimSuffix(root, "/") + "/" + name
		if dd, hh := m.deniedOps(p, false, false, ops, false); dd != 0 && m.passes(t, name, name, false) {
			return p, dd, hh, true
		}
	}
	return "", 0, nil, true
}

// matchTracked checks a git command that prints the content of what git
// tracks (git diff, git show, git log -p) below a folder: a protected path
// in the repository's index may be printed. Without the disk the index is
// not known (repository history is not covered, see the docs).
func (m *Matcher) matchTracked(t target, ops OpSet) (Violation, bool) {
	fsys := m.env.FS
	writes := t.ops&SetRead == 0
	if !t.pattern && strings.ContainsAny(t.path, "*?[") && fsys != nil && !strings.ContainsRune(t.path, unknownRune) {
		// a folder below a glob cd's (its path keeps the glob): the
		// folders it expands to, and the name as it is (what git prints
		// there too: `cd /tmp/dem[o] && git diff`)
		files, complete := globDisk(fsys, t.path, m.env.windows(), false)
		if !complete || len(files) > maxGlobFolders {
			return m.folderUnknown(t, ops, "the repository is named by a pattern that expands to too many folders to read what git tracks there")
		}
		for _, f := range append(files, t.path) {
			sub := t
			sub.path = f
			if v, ok := m.matchTrackedAt(sub, ops, writes); ok {
				return v, true
			}
		}
		return Violation{}, false
	}
	if writes && t.pattern {
		// a folder named by a pattern (`cd /tmp/dem[o] && git
		// checkout-index -a`; pass 33): a glob is expanded on the disk,
		// each folder's repository checked; one with parts computed when
		// the command runs may be any folder, anything below written
		if fsys == nil || strings.ContainsRune(t.path, unknownRune) {
			t.tracked = false
			return m.matchFolder(t, ops)
		}
		files, complete := globDisk(fsys, t.path, m.env.windows(), false)
		if !complete || len(files) > maxGlobFolders {
			return m.folderUnknown(t, ops, "the repository is named by a pattern that expands to too many folders to read what git tracks there")
		}
		for _, f := range files {
			sub := t
			sub.path, sub.pattern, sub.shellGlob = f, false, false
			if v, ok := m.matchTrackedAt(sub, ops, writes); ok {
				return v, true
			}
		}
		return Violation{}, false
	}
	if writes && fsys == nil && t.repoWide {
		// without the disk the repository's top and its index are not
		// known (pass 33); below a named folder the index's files are
		// not checked (documented: Not covered)
		return m.folderUnknown(t, ops, "without the disk the repository and what its index tracks are not known")
	}
	if fsys == nil || t.pattern {
		// without the disk what git tracks is not known, its reads not
		// checked (documented: Not covered)
		return Violation{}, false
	}
	return m.matchTrackedAt(t, ops, writes)
}

// matchTrackedAt is matchTracked for a folder named without a pattern,
// read from the disk.
func (m *Matcher) matchTrackedAt(t target, ops OpSet, writes bool) (Violation, bool) {
	fsys := m.env.FS
	g := m.newGitIgnorer()
	root := g.repo(t.path)
	if root == "" {
		return Violation{}, false // not a repository: git prints nothing of it
	}
	x := g.index(root)
	if !x.ok {
		return m.folderUnknown(t, ops, "the repository's index cannot be read, so what git tracks is not known")
	}
	if b, exists, ok := readSmallFile(fsys, strings.TrimSuffix(root, "/")+"/.git/config", maxIndexFile); exists && (!ok || bytes.Contains(bytes.ToLower(b), []byte("worktree")) || bytes.Contains(bytes.ToLower(b), []byte("include"))) {
		// core.worktree (or an included file) puts the work tree elsewhere:
		// the index's paths are not below the repository's folder
		return m.folderUnknown(t, ops, "the repository's configuration sets (or may include) another work tree, so where git's files are is not known")
	}
	prefix := strings.TrimSuffix(root, "/") + "/"
	if t.repoWide {
		t.path = strings.TrimSuffix(root, "/")
	}
	if writes {
		// a symbolic link git writes points where its blob says, which
		// pruner does not read: a later write through it may reach a
		// protected file (pass 33)
		for _, rel := range x.links {
			if p := prefix + rel; p == t.path || strings.HasPrefix(p, strings.TrimSuffix(t.path, "/")+"/") {
				return m.folderUnknown(t, ops, "the index holds "+rel+" as a symbolic link, whose target pruner cannot read (a later write through it may reach a protected file)")
			}
		}
	}
	for _, rel := range x.paths {
		p := prefix + rel
		if p != t.path && !strings.HasPrefix(p, strings.TrimSuffix(t.path, "/")+"/") {
			continue
		}
		if dd, hh := m.deniedOps(p, false, false, ops, false); dd != 0 {
			v := Violation{Kind: KindFolder, Raw: t.raw, Path: t.path, Holds: p, Via: t.via, Tracked: true, Writes: writes}
			m.nameRule(&v, dd, hh)
			return v, true
		}
	}
	return Violation{}, false
}

// showWord shows a call's word in a reason: in backquotes when it holds
// quotes or backslashes (a shell word as typed: `"print(open(\".env\"))"`
// reads better than its Go quoting), else Go-quoted (which also shows
// control characters).
func showWord(s string) string {
	if strings.ContainsAny(s, "\"\\") && !strings.ContainsAny(s, "`\n\r\t") && strconv.Quote(s) == "\""+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)+"\"" {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// namesWord reports whether text holds the word raw (its quotes left
// out) as a word of its own: not inside a longer name (`h` in `hooks`).
func namesWord(text, raw string) bool {
	w := strings.Trim(raw, "'\"` ")
	if w == "" {
		return false
	}
	inName := func(b byte) bool {
		return b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for from := 0; ; {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !inName(text[i-1]) || !inName(w[0])) && (end == len(text) || !inName(text[end]) || !inName(w[len(w)-1])) {
			return true
		}
		from = i + 1
	}
}
