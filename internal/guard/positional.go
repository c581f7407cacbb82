package guard

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the shell state that scopes values: positional
// parameters ($1…, "$@", "$*", $#) bound by `set --`, function calls and
// `sh -c`; function bodies walked at each call with their arguments; the
// variables a subshell, a pipeline element, a command substitution or a
// child shell sets, which do not outlive it; `local` inside a function.
// The rule is the evaluator's: a value it claims to know is the value bash
// computes, anything else is unknown.

// maxFuncCalls bounds the function calls walked in one command;
// maxFuncDefs the definitions of one name kept (a call walks each).
const (
	maxFuncCalls = 64
	maxFuncDefs  = 8
)

// funcDef is a function the command defines: its body and the script text
// its positions refer to.
type funcDef struct {
	body *syntax.Stmt
	src  string
}

// savedVar is a variable's state before a `local` (or a scope) changed it.
type savedVar struct {
	v      pval
	had    bool
	arr    []pval
	hadArr bool
}

// scope is the part of the analyser's state a subshell or a child shell
// does not hand back: variables, arrays, IFS, positional parameters.
type scope struct {
	vars     map[string]pval
	arrays   map[string][]pval
	ifs      string
	ifsUnset bool
	ifsDyn   bool
	pos      []field
	posKnown bool
	posTail  bool
	posDecl  bool
}

func (a *shellAnalyzer) saveScope() scope {
	arrs := make(map[string][]pval, len(a.arrays))
	for k, v := range a.arrays {
		arrs[k] = v
	}
	return scope{vars: copyMap(a.vars), arrays: arrs, ifs: a.ifs, ifsUnset: a.ifsUnset, ifsDyn: a.ifsDyn,
		pos: a.pos, posKnown: a.posKnown, posTail: a.posTail, posDecl: a.posDecl}
}

func (a *shellAnalyzer) restoreScope(s scope) {
	// copies: a saved scope may be restored more than once
	arrs := make(map[string][]pval, len(s.arrays))
	for k, v := range s.arrays {
		arrs[k] = v
	}
	a.vars, a.arrays, a.ifs, a.ifsUnset, a.ifsDyn = copyMap(s.vars), arrs, s.ifs, s.ifsUnset, s.ifsDyn
	a.pos, a.posKnown, a.posTail, a.posDecl = s.pos, s.posKnown, s.posTail, s.posDecl
}

// subshell runs fn in a subshell: what it assigns is forgotten after.
func (a *shellAnalyzer) subshell(fn func()) {
	s := a.saveScope()
	before := append([]string(nil), a.cwds...)
	fn()
	a.restoreScope(s)
	// the candidate folders a cd inside added stay (an over-approximation),
	// but a computed one is no longer where a name written after the
	// subshell lands: `(cd "$x" && make); echo > out` writes ./out
	cwds := make([]string, 0, len(a.cwds))
	for i, c := range a.cwds {
		if strings.Contains(c, unknownCwd) && !slices.Contains(before, c) {
			c = plainUnknown(c)
		}
		if !slices.Contains(a.cwds[i+1:], c) && !slices.Contains(cwds, c) {
			cwds = append(cwds, c)
		}
	}
	a.cwds = cwds
}

// maybeSubshell runs fn where bash runs it in a subshell and zsh (or bash
// with lastpipe) in the current shell (the last command of a pipeline):
// a variable it changes is unknown after.
func (a *shellAnalyzer) maybeSubshell(fn func()) {
	s := a.saveScope()
	fn()
	for k, v := range a.vars {
		if old, ok := s.vars[k]; !ok || !samePval(old, v) {
			s.vars[k] = dynVal("$"+k+" (set in a pipeline: a subshell in bash, not in zsh)", true)
			if k == "IFS" {
				s.ifs, s.ifsDyn = " \t\n", true
			}
		}
	}
	for k := range a.arrays {
		if _, ok := s.arrays[k]; !ok {
			delete(s.arrays, k)
			s.vars[k] = dynVal("$"+k+" (set in a pipeline)", true)
		}
	}
	a.restoreScope(s)
}

func samePval(x, y pval) bool {
	if len(x.alts) > 0 || len(y.alts) > 0 {
		return sameVals(x.alts, y.alts)
	}
	return x.known == y.known && x.empty == y.empty && x.f.s == y.f.s && x.f.dyn == y.f.dyn && x.f.unk == y.f.unk && x.f.glob == y.f.glob
}

// childShell runs fn as a new shell process (`sh -c`): it sees the
// exported variables only (the others come from its environment:
// unknown), IFS is reset, its positional parameters are pos (known when
// posKnown), and nothing it assigns comes back.
func (a *shellAnalyzer) childShell(pos []field, posKnown, posTail bool, fn func()) {
	s := a.saveScope()
	for k := range a.vars {
		if !a.exportedVar(k) {
			delete(a.vars, k)
		}
	}
	a.arrays = map[string][]pval{}
	delete(a.vars, "IFS")
	a.ifs, a.ifsUnset, a.ifsDyn = " \t\n", false, false
	a.pos, a.posKnown, a.posTail, a.posDecl = pos, posKnown, posTail, false
	untrusted := a.envUntrusted
	a.envUntrusted = true // its environment may hold what the command put there
	fn()
	a.envUntrusted = untrusted
	a.restoreScope(s)
}

// exportedVar reports whether a variable the command set is in the
// environment of the programs it runs.
func (a *shellAnalyzer) exportedVar(name string) bool {
	return a.allExport || a.exported[name]
}

// declWalk walks a function body where it is defined: its literal paths
// are checked; its $1… are the arguments of a call, checked with them
// bound at each call (callFunction); nothing it assigns is kept.
func (a *shellAnalyzer) declWalk(body *syntax.Stmt, in source) {
	s := a.saveScope()
	// functions it defines exist once it is called (the call walk
	// defines them then)
	defs := make(map[string][]funcDef, len(a.funcDefs))
	for k, v := range a.funcDefs {
		defs[k] = v
	}
	defer func() { a.funcDefs = defs }()
	locals := a.locals
	a.locals = map[string]savedVar{}
	a.posDecl, a.posKnown, a.pos, a.posTail = true, false, nil, false
	a.stmt(body, in)
	a.locals = locals
	a.restoreScope(s)
}

// callFunction walks a function's body for one call, its arguments bound
// to $1…; the variables it declares local get their values back after.
func (c *cmd) callFunction(defs []funcDef) {
	a := c.a
	raw := c.args[0].raw
	if a.calls >= maxFuncCalls || a.depth >= maxScriptDepth {
		a.unknown(raw, "too many function calls to analyse", SetRead|setModify)
		return
	}
	if a.active[c.name] {
		a.unknown(raw, "a function that calls itself: its arguments are only known when it runs", SetRead|setModify)
		return
	}
	if a.calls+len(defs) > maxFuncCalls {
		a.unknown(raw, "too many function calls to analyse", SetRead|setModify)
		return
	}
	a.calls += len(defs)
	a.depth++
	a.active[c.name] = true
	pos, known, tail := bindArgs(c.args[1:])
	savePos, saveKnown, saveTail, saveDecl := a.pos, a.posKnown, a.posTail, a.posDecl
	a.pos, a.posKnown, a.posTail = pos, known, tail
	if !saveDecl {
		a.posDecl = false
	}
	locals := a.locals
	a.locals = map[string]savedVar{}
	prevSrc := a.src
	for _, def := range defs {
		a.src = def.src
		a.stmt(def.body, c.in)
	}
	a.src = prevSrc
	for k, sv := range a.locals {
		delete(a.vars, k)
		delete(a.arrays, k)
		if sv.had {
			a.vars[k] = sv.v
		}
		if sv.hadArr {
			a.arrays[k] = sv.arr
		}
		if k == "IFS" {
			a.special("IFS")
			if !sv.had {
				a.ifs = " \t\n"
			}
		}
	}
	a.locals = locals
	a.pos, a.posKnown, a.posTail, a.posDecl = savePos, saveKnown, saveTail, saveDecl
	delete(a.active, c.name)
	a.depth--
}

// noteLocal records, inside a function call, a variable declared local.
func (a *shellAnalyzer) noteLocal(name string) {
	if a.locals == nil || name == "" {
		return
	}
	if _, ok := a.locals[name]; ok {
		return
	}
	v, had := a.vars[name]
	arr, hadArr := a.arrays[name]
	a.locals[name] = savedVar{v: v, had: had, arr: arr, hadArr: hadArr}
}

// bindArgs turns the fields of a command's arguments into positional
// parameters: known while no field may stand for several (an unquoted
// glob, an unquoted value that may split), unknown from the first that
// may.
func bindArgs(args []arg) (pos []field, known, tail bool) {
	for _, ar := range args {
		if ar.f.multi {
			return pos, true, true
		}
		pos = append(pos, ar.f)
	}
	return pos, true, false
}

// setPositional handles `set [opts] [--] ARGS`: ARGS become $1….
func (c *cmd) setPositional() {
	a := c.a
	for i := 1; i < len(c.args); i++ {
		f := c.args[i].f
		t := optText(f)
		if f.pattern() && (f.unk || f.dyn) && !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			// an option or an argument: only known when it runs
			a.pos, a.posKnown, a.posTail = nil, false, false
			return
		}
		switch {
		case t == "--" || t == "-":
			a.pos, a.posKnown, a.posTail = bindArgs(c.args[i+1:])
			return
		case (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) && strings.Contains(t, "o"):
			i++ // -o NAME, -euo NAME
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
		default:
			a.pos, a.posKnown, a.posTail = bindArgs(c.args[i:])
			return
		}
	}
}

// shiftPositional handles `shift [N]`.
func (c *cmd) shiftPositional() {
	a := c.a
	n := 1
	if len(c.args) > 1 {
		f := c.args[1].f
		v, err := strconv.Atoi(f.text())
		if f.pattern() || err != nil || v < 0 {
			a.pos, a.posKnown, a.posTail = nil, false, false
			return
		}
		n = v
	}
	if !a.posKnown {
		return
	}
	if n > len(a.pos) {
		if a.posTail {
			a.pos, a.posKnown, a.posTail = nil, false, false
		}
		return // bash: shift fails, nothing moves
	}
	a.pos = a.pos[n:]
}

// posValue is the value of a positional or special parameter ($1, $#, $@
// with an operator) as far as it is known.
func (a *shellAnalyzer) posValue(name, why string) pval {
	if !a.posKnown {
		if name == "#" {
			return unkVal(why)
		}
		v := envVal(why)
		v.f.posOnly = a.posDecl
		v.split = true
		return v
	}
	switch name {
	case "#":
		if a.posTail {
			return unkVal(why)
		}
		return knownVal(strconv.Itoa(len(a.pos)))
	case "@", "*":
		if len(a.pos) == 1 && !a.posTail {
			return fieldVal(a.pos[0])
		}
		if len(a.pos) == 0 && !a.posTail {
			return knownVal("")
		}
		return dynVal(why, true)
	}
	n, _ := strconv.Atoi(name)
	if n >= 1 && n <= len(a.pos) {
		return fieldVal(a.pos[n-1])
	}
	if a.posTail {
		return dynVal(why, true)
	}
	return knownVal("")
}

// allPositional expands a bare "$@", $@, "$*" or $* when the positional
// parameters are known; false when the resolver must treat it as one
// value.
func (r *resolver) allPositional(x *syntax.ParamExp, quoted bool) bool {
	a := r.a
	if x.Param == nil || x.Exp != nil || x.Slice != nil ||
		x.Repl != nil || x.Length || x.Width || x.Excl || x.Names != 0 || x.IsSet || len(x.Modifiers) > 0 || x.Flags != nil {
		return false
	}
	all := x.Param.Value
	var vals []pval
	switch {
	case x.Index != nil:
		// "${a[@]}", "${a[*]}" of an array the command set
		arr, ok := a.arrays[x.Param.Value]
		all = wordLit(x.Index)
		if !ok || all != "@" && all != "*" || all == "*" && quoted && a.ifsDyn {
			return false
		}
		vals = append(vals, arr...)
	case all == "@" || all == "*":
		if !a.posKnown || a.posTail || all == "*" && quoted && a.ifsDyn {
			return false
		}
		vals = make([]pval, len(a.pos))
		for i, f := range a.pos {
			vals[i] = fieldVal(f)
		}
	default:
		return false
	}
	if all == "*" && quoted {
		// "$*": joined by the first character of IFS
		sep := " "
		if a.ifsUnset {
			sep = " "
		} else if a.ifs == "" {
			sep = ""
		} else {
			sep = a.ifs[:1]
		}
		var b fieldBuilder
		b.winBackslah = a.win
		for i, v := range vals {
			if i > 0 {
				b.lit(sep)
			}
			b.pat(v.f)
		}
		r.value(fieldVal(b.field()), true)
		return true
	}
	if len(vals) == 0 {
		return true // no field from "$@" alone; nothing added to a longer word
	}
	for i, v := range vals {
		if i > 0 && quoted {
			r.forceBoundary()
		} else if i > 0 {
			r.split = true
		}
		r.value(v, quoted)
	}
	return true
}

// forceBoundary ends the fields being built even when they are empty (a
// quoted "$@" element is a field of its own, empty or not).
func (r *resolver) forceBoundary() {
	r.split = false
	for _, fb := range r.alts {
		r.done = append(r.done, fb.field())
	}
	r.alts = []*fieldBuilder{r.newBuilder()}
	for _, fb := range r.alts {
		fb.started = true
	}
}

// noPositional reports whether a double-quoted word part is a bare "$@"
// with no positional parameters: it makes no field at all.
func (a *shellAnalyzer) noPositional(q *syntax.DblQuoted) bool {
	if len(q.Parts) != 1 {
		return false
	}
	x, ok := q.Parts[0].(*syntax.ParamExp)
	if !ok || x.Param == nil || x.Exp != nil || x.Slice != nil || x.Repl != nil || x.Length || x.Excl {
		return false
	}
	if x.Index != nil {
		arr, ok := a.arrays[x.Param.Value]
		return ok && len(arr) == 0 && wordLit(x.Index) == "@"
	}
	return x.Param.Value == "@" && a.posKnown && !a.posTail && len(a.pos) == 0
}

// argsAt returns the command's arguments at the indexes.
func (c *cmd) argsAt(idx []int) []arg {
	out := make([]arg, 0, len(idx))
	for _, i := range idx {
		out = append(out, c.args[i])
	}
	return out
}

// printfAssign handles `printf -v NAME FORMAT ARGS`: NAME gets the text
// printf would print (unknown when it is not modelled).
func (c *cmd) printfAssign(p parsed) {
	vs := p.values("-v")
	if len(vs) == 0 {
		return
	}
	a := c.a
	f, ok := c.valField(vs[len(vs)-1])
	name := f.s
	if !ok || f.pattern() {
		a.anyVarChanged("printf -v with a name computed when the command runs")
		return
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		delete(a.arrays, name[:i])
		a.vars[name[:i]] = dynVal("$"+name[:i], true)
		return
	}
	val := dynVal("$"+name+" (printf -v)", true)
	var texts []string
	known := true
	for _, i := range p.operands {
		if c.args[i].f.pattern() || c.args[i].f.multi {
			known = false
		}
		texts = append(texts, c.args[i].f.text())
	}
	if known && len(texts) > 0 {
		if out, ok := printfFormat(texts[0], texts[1:]); ok {
			val = knownVal(out)
		}
	}
	delete(a.arrays, name)
	a.vars[name] = val
	a.special(name)
}

// anyVarChanged: a command assigned (or unset) a variable whose name is
// only known when it runs: every variable, IFS included, is unknown after.
func (a *shellAnalyzer) anyVarChanged(why string) {
	for k := range a.vars {
		a.vars[k] = dynVal("$"+k+" ("+why+")", true)
	}
	for k := range a.arrays {
		delete(a.arrays, k)
		a.vars[k] = dynVal("$"+k+" ("+why+")", true)
	}
	for _, k := range []string{"IFS", "HOME", "PWD", "OLDPWD"} {
		a.vars[k] = dynVal("$"+k+" ("+why+")", true)
	}
	a.homeChanged()
	a.ifs, a.ifsDyn, a.ifsUnset = " \t\n", true, false
}

// mergeScopes sets the state to what the outcomes (the ways a branch,
// a loop or a `&&` may end) agree on: a variable they leave differently
// (or unset in some) is unknown, and so are IFS and the positional
// parameters when they differ.
func (a *shellAnalyzer) mergeScopes(outcomes ...scope) {
	if len(outcomes) == 0 {
		return
	}
	m := outcomes[0]
	m.vars = copyMap(m.vars)
	arrs := make(map[string][]pval, len(m.arrays))
	for k, v := range m.arrays {
		arrs[k] = v
	}
	m.arrays = arrs
	for _, o := range outcomes[1:] {
		for k, v := range m.vars {
			if w, ok := o.vars[k]; !ok || !samePval(v, w) {
				m.vars[k] = altVal(k, v, w, ok)
			}
		}
		for k := range o.vars {
			if _, ok := m.vars[k]; !ok {
				m.vars[k] = dynVal("$"+k+" (set on some paths through the command)", true)
			}
		}
		for k, v := range m.arrays {
			if w, ok := o.arrays[k]; !ok || !sameVals(v, w) {
				delete(m.arrays, k)
				m.vars[k] = dynVal("$"+k+" (set on some paths through the command)", true)
			}
		}
		for k := range o.arrays {
			if _, ok := m.arrays[k]; !ok {
				m.vars[k] = dynVal("$"+k+" (set on some paths through the command)", true)
			}
		}
		if m.ifs != o.ifs || m.ifsUnset != o.ifsUnset || o.ifsDyn {
			m.ifs, m.ifsUnset, m.ifsDyn = " \t\n", false, true
		}
		if m.posKnown != o.posKnown || m.posTail != o.posTail || !sameFields(m.pos, o.pos) {
			m.pos, m.posKnown, m.posTail = nil, false, false
		}
	}
	for k, v := range m.vars {
		if _, isArr := m.arrays[k]; isArr && v.f.dyn {
			delete(m.arrays, k)
		}
	}
	a.restoreScope(m)
}

func sameVals(x, y []pval) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !samePval(x[i], y[i]) {
			return false
		}
	}
	return true
}

func sameFields(x, y []field) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].s != y[i].s || x[i].pattern() != y[i].pattern() || x[i].multi != y[i].multi {
			return false
		}
	}
	return true
}

// andOr walks `x && y` / `x || y` and returns the states it ends in when
// it succeeds and when it fails: y runs from x's success (&&) or failure
// (||), so `cd d && f=x && cat $f` reads x. at, when not nil, is where
// the shell is when the list succeeds: a plain `cd DIR` that succeeded
// left it in one of the folders DIR leads to, not where it was, so
// `cd src && grep -r x .` recurses src only (after the list the shell may
// be in either: a.cwds holds both again).
func (a *shellAnalyzer) andOr(c *syntax.BinaryCmd, in source) (succ, fail scope, at []string) {
	part := func(st *syntax.Stmt) (scope, scope, []string) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && len(st.Redirs) == 0 && !st.Negated && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
			return a.andOr(b, in)
		}
		var at []string
		if a.plainCd(st) {
			a.cdDests, a.cdOther = nil, false
			a.stmt(st, in)
			if !a.cdOther {
				at = a.cdDests
			}
			a.cdDests, a.cdOther = nil, false
		} else {
			a.stmt(st, in)
		}
		s := a.saveScope()
		return s, s, at
	}
	sx, fx, ax := part(c.X)
	if c.Op == syntax.AndStmt {
		a.restoreScope(sx)
		all := a.cwds
		if ax != nil && !a.full {
			a.cwds = append([]string(nil), ax...)
		}
		sy, fy, ay := part(c.Y)
		if ax != nil && !a.full {
			if ay == nil {
				ay = a.cwds // where y left the shell, from where the cd led
			}
			a.cwds = joinCwds(all, a.cwds)
		}
		a.mergeScopes(fx, fy)
		return sy, a.saveScope(), ay
	}
	a.restoreScope(fx)
	sy, fy, _ := part(c.Y)
	a.mergeScopes(sx, sy)
	return a.saveScope(), fy, nil
}

// plainCd reports whether st is `cd WORD` or `pushd WORD` run as the
// builtin: not negated, in the background, prefixed by assignments, nor
// shadowed by a function or an alias the command defines, and no trap or
// autocd may move the shell where the analysis does not see it.
func (a *shellAnalyzer) plainCd(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(ce.Assigns) > 0 || len(ce.Args) != 2 {
		return false
	}
	name := ce.Args[0].Lit()
	if name != "cd" && name != "pushd" || a.funcs[name] || a.noNarrow {
		return false
	}
	_, alias := a.aliases[name]
	return !alias
}

// joinCwds is the candidate working folders of both lists: all, then those
// of more it does not hold, the last of more last (the one $PWD names).
func joinCwds(all, more []string) []string {
	out := append([]string(nil), all...)
	for _, d := range more {
		if !slices.Contains(out, d) && len(out) < maxCwds {
			out = append(out, d)
		} else if !slices.Contains(out, d) && !slices.Contains(out, "/"+unknownCwd) {
			out = append(out, "/"+unknownCwd)
		}
	}
	if len(more) > 0 {
		last := more[len(more)-1]
		if i := slices.Index(out, last); i >= 0 && i != len(out)-1 {
			out = append(append(out[:i:i], out[i+1:]...), last)
		}
	}
	return out
}

// altVal is a variable two paths leave differently: the alternatives when
// both are values the analysis holds (not unknown, at most four), else
// unknown.
func altVal(name string, v, w pval, wSet bool) pval {
	out := dynVal("$"+name+" (set on some paths through the command)", true)
	var alts []pval
	for _, x := range []pval{v, w} {
		switch {
		case len(x.alts) > 0:
			alts = append(alts, x.alts...)
		case x.f.dyn && !x.known:
			return out
		default:
			alts = append(alts, x)
		}
	}
	if !wSet || len(alts) > 4 {
		return out
	}
	out.alts = alts
	return out
}
