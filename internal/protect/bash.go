package protect

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep the analysis of hostile input bounded.
const (
	maxScriptDepth = 8    // nested `bash -c`, `eval`, here-doc scripts
	maxTargets     = 4096 // paths collected from one command
	maxCwds        = 16   // candidate working directories after `cd`
	maxBraceFields = 64   // words produced by one brace expansion
)

// ParseError is returned by AnalyzeBash when a command does not parse as
// bash (nor as zsh). In hook mode it denies the call (fail closed).
type ParseError struct {
	Err error
}

func (e *ParseError) Error() string { return "bash command does not parse: " + e.Err.Error() }

func (e *ParseError) Unwrap() error { return e.Err }

// BashPath is one path a bash command touches, as found by AnalyzeBash.
type BashPath struct {
	// Word is the shell word as written in the command (or script fragment).
	Word string
	// Path is the normalised absolute path; a Pattern path is a doublestar
	// glob (literal metacharacters escaped) that may match several files.
	Path    string
	Pattern bool
	// Op is read, or write for redirect targets and tee/cp/mv/sed -i targets.
	Op Op
}

// AnalyzeBash parses a bash command with mvdan.cc/sh and returns every path
// its words may name: arguments of every command in every list, pipeline,
// subshell, command substitution, `bash -c`/`sh -c`/`eval` payload and
// here-document script; redirect targets; here-string and here-doc words; the
// value after `@` and after `=` (`curl -d @f`, `--file=f`). Quotes and
// escapes are removed, `~`, `$HOME`, `${HOME}`, `$PWD` and variables assigned
// earlier in the command expand, braces expand, relative words are resolved
// against env.Cwd and every directory a `cd` may have entered. Words with glob
// characters or unknown expansions are returned as patterns.
//
// A command that does not parse returns a *ParseError.
func AnalyzeBash(env Env, command string) ([]BashPath, error) {
	ts, err := analyzeBash(env, command)
	out := make([]BashPath, len(ts))
	for i, t := range ts {
		out[i] = BashPath{Word: t.raw, Path: t.path, Pattern: t.pattern, Op: t.op}
	}
	return out, err
}

type shellAnalyzer struct {
	env     Env
	cwds    []string
	vars    map[string]wordVal
	targets []target
	seen    map[*syntax.Word]bool
	src     string // the script being walked, for word text
	depth   int
}

// wordVal is a word after quote removal and expansion: s holds doublestar
// syntax (literal metacharacters escaped) when glob or unknown is set, else
// plain text.
type wordVal struct {
	s       string
	glob    bool // unquoted glob characters
	unknown bool // contains an expansion whose value is unknown
	onlyUnk bool // nothing but unknown expansions (and slashes)
}

func (v wordVal) pattern() bool { return v.glob || v.unknown }

func analyzeBash(env Env, command string) ([]target, error) {
	a := &shellAnalyzer{
		env:  env,
		cwds: []string{cleanCwd(env.Cwd)},
		vars: map[string]wordVal{},
		seen: map[*syntax.Word]bool{},
	}
	f, err := parseShell(command)
	if err != nil {
		return nil, &ParseError{Err: err}
	}
	a.file(f, command)
	return a.targets, nil
}

func parseShell(src string) (f *syntax.File, err error) {
	defer func() { // the parser must never take the process down
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("parser panic: %v", r)
		}
	}()
	f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err == nil {
		return f, nil
	}
	if fz, errz := syntax.NewParser(syntax.Variant(syntax.LangZsh)).Parse(strings.NewReader(src), ""); errz == nil {
		return fz, nil
	}
	return nil, err
}

// file walks a parsed script: first in order (cd, variables, ops), then every
// word not yet seen (test clauses, for lists, case patterns, arithmetic).
func (a *shellAnalyzer) file(f *syntax.File, src string) {
	prev := a.src
	a.src = src
	a.stmts(f.Stmts)
	syntax.Walk(f, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok && !a.seen[w] {
			a.word(w, OpRead)
		}
		return len(a.targets) < maxTargets
	})
	a.src = prev
}

// script parses and walks a nested script (`bash -c`, eval, here-doc). A
// payload that does not parse is split into whitespace-separated tokens.
func (a *shellAnalyzer) script(src string) {
	if a.depth >= maxScriptDepth || len(a.targets) >= maxTargets {
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	f, err := parseShell(src)
	if err != nil {
		a.tokens(src, OpRead)
		return
	}
	a.file(f, src)
}

// tokens checks each whitespace-separated token of text (quotes trimmed).
func (a *shellAnalyzer) tokens(text string, op Op) {
	for _, tok := range strings.Fields(text) {
		tok = strings.Trim(tok, `"'`+"`;|&()<>")
		if tok != "" {
			a.value(tok, wordVal{s: tok}, op)
		}
	}
}

func (a *shellAnalyzer) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *shellAnalyzer) stmt(s *syntax.Stmt) {
	if s == nil || len(a.targets) >= maxTargets {
		return
	}
	shellCmd := false
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		name := path.Base(a.resolve(c.Args[0]).s)
		shellCmd = isShell(name)
	}
	for _, r := range s.Redirs {
		a.redirect(r, shellCmd)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		a.call(c)
	case *syntax.BinaryCmd:
		a.stmt(c.X)
		a.stmt(c.Y)
	case *syntax.Subshell:
		a.stmts(c.Stmts)
	case *syntax.Block:
		a.stmts(c.Stmts)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			a.stmts(ic.Cond)
			a.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		a.stmts(c.Cond)
		a.stmts(c.Do)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			var vals []wordVal
			for _, w := range wi.Items {
				vals = append(vals, a.word(w, OpRead)...)
			}
			if wi.Name != nil {
				if len(vals) == 1 {
					a.vars[wi.Name.Value] = vals[0]
				} else {
					delete(a.vars, wi.Name.Value)
				}
			}
		}
		a.stmts(c.Do)
	case *syntax.CaseClause:
		for _, it := range c.Items {
			a.stmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		a.stmt(c.Body)
	case *syntax.DeclClause:
		for _, as := range c.Args {
			a.assign(as, true)
		}
	case *syntax.TimeClause:
		a.stmt(c.Stmt)
	case *syntax.CoprocClause:
		a.stmt(c.Stmt)
	}
}

func isShell(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "busybox":
		return true
	}
	return false
}

func (a *shellAnalyzer) redirect(r *syntax.Redirect, shellCmd bool) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Word != nil {
			a.seen[r.Word] = true // the delimiter
		}
		if r.Hdoc != nil {
			a.seen[r.Hdoc] = true
			body := a.resolve(r.Hdoc)
			if shellCmd {
				a.script(unescapeGlob(body.s))
			}
			a.tokens(unescapeGlob(body.s), OpRead)
			a.walkSubst(r.Hdoc)
		}
	case syntax.WordHdoc:
		if r.Word != nil {
			for _, v := range a.word(r.Word, OpRead) {
				if shellCmd {
					a.script(v.s)
				}
				a.tokens(unescapeGlob(v.s), OpRead)
			}
		}
	case syntax.DplIn, syntax.DplOut:
		if r.Word == nil {
			return
		}
		v := a.resolve(r.Word)
		if _, err := strconv.Atoi(v.s); err == nil || v.s == "-" || strings.HasSuffix(v.s, "-") {
			a.seen[r.Word] = true
			return
		}
		a.word(r.Word, OpWrite)
	case syntax.RdrIn:
		if r.Word != nil {
			a.word(r.Word, OpRead)
		}
	default: // >, >>, >|, &>, &>>, <>
		if r.Word != nil {
			a.word(r.Word, OpWrite)
		}
	}
}

// walkSubst walks command substitutions inside a word without checking the
// word itself.
func (a *shellAnalyzer) walkSubst(w *syntax.Word) {
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			a.stmts(x.Stmts)
			return false
		case *syntax.ProcSubst:
			a.stmts(x.Stmts)
			return false
		}
		return true
	})
}

func (a *shellAnalyzer) assign(as *syntax.Assign, persist bool) {
	if as == nil {
		return
	}
	if as.Value != nil {
		vals := a.word(as.Value, OpRead)
		if as.Name != nil && persist {
			if len(vals) == 1 && !as.Append {
				a.vars[as.Name.Value] = vals[0]
			} else {
				delete(a.vars, as.Name.Value)
			}
		}
	}
	if as.Array != nil {
		for _, el := range as.Array.Elems {
			if el.Value != nil {
				a.word(el.Value, OpRead)
			}
		}
		if as.Name != nil {
			delete(a.vars, as.Name.Value)
		}
	}
}

// arg is one field of a simple command after brace expansion.
type arg struct {
	val wordVal
	w   *syntax.Word
}

func (a *shellAnalyzer) call(c *syntax.CallExpr) {
	for _, as := range c.Assigns {
		a.assign(as, len(c.Args) == 0)
	}
	var args []arg
	for _, w := range c.Args {
		a.seen[w] = true
		for _, v := range a.expandWord(w) {
			args = append(args, arg{val: v, w: w})
		}
		a.walkSubst(w)
	}
	if len(args) == 0 {
		return
	}
	ops := make([]Op, len(args))
	for i := range ops {
		ops[i] = OpRead
	}
	k := skipWrappers(args)
	if k < len(args) {
		a.semantics(args, k, ops)
	}
	for i, ar := range args {
		a.value(a.text(ar.w), ar.val, ops[i])
	}
}

// skipWrappers returns the index of the command run by wrappers such as
// sudo, env, xargs, nohup, timeout, time, command, exec.
func skipWrappers(args []arg) int {
	k := 0
	for k < len(args) {
		name := path.Base(args[k].val.s)
		withArg := map[string]bool{}
		switch name {
		case "sudo", "doas":
			withArg = map[string]bool{"-u": true, "-g": true, "-C": true, "-D": true, "-h": true, "-p": true, "-r": true, "-t": true, "-U": true}
		case "env":
			withArg = map[string]bool{"-u": true, "-C": true, "-S": true}
		case "xargs":
			withArg = map[string]bool{"-I": true, "-n": true, "-P": true, "-d": true, "-a": true, "-L": true, "-s": true, "-E": true}
		case "nice":
			withArg = map[string]bool{"-n": true}
		case "timeout":
			withArg = map[string]bool{"-s": true, "-k": true}
		case "stdbuf", "nohup", "time", "command", "builtin", "exec", "caffeinate", "unbuffer", "chronic", "setsid":
		default:
			return k
		}
		k++
		positional := 0
		for k < len(args) {
			s := args[k].val.s
			switch {
			case name == "env" && strings.Contains(s, "=") && !strings.HasPrefix(s, "-"):
				k++
				continue
			case strings.HasPrefix(s, "-") && s != "-":
				k++
				if withArg[s] && k < len(args) {
					k++
				}
				continue
			case name == "timeout" && positional == 0:
				positional++
				k++
				continue
			}
			break
		}
	}
	return k
}

// semantics refines ops for the command at args[k] and follows cd, shell
// payloads and eval.
func (a *shellAnalyzer) semantics(args []arg, k int, ops []Op) {
	name := path.Base(args[k].val.s)
	rest := args[k+1:]
	operands := func() []int {
		var idx []int
		dd := false
		for i, ar := range rest {
			s := ar.val.s
			if !dd && s == "--" {
				dd = true
				continue
			}
			if !dd && strings.HasPrefix(s, "-") && s != "-" {
				continue
			}
			idx = append(idx, k+1+i)
		}
		return idx
	}
	setOps := func(idx []int, op Op) {
		for _, i := range idx {
			ops[i] = op
		}
	}
	switch name {
	case "cd", "pushd":
		dir := "~"
		if o := operands(); len(o) > 0 {
			dir = args[o[0]].val.s
			if args[o[0]].val.pattern() {
				return
			}
		}
		if dir == "-" {
			return
		}
		a.chdir(dir)
	case "eval":
		parts := make([]string, 0, len(rest))
		for _, ar := range rest {
			parts = append(parts, unescapeGlob(ar.val.s))
		}
		a.script(strings.Join(parts, " "))
	case "tee":
		setOps(operands(), OpWrite)
	case "mv", "touch", "truncate", "shred":
		setOps(operands(), OpWrite)
	case "cp", "ln", "install", "rsync", "scp":
		o := operands()
		if len(o) > 1 {
			ops[o[len(o)-1]] = OpWrite
		}
		for i, ar := range rest {
			s := ar.val.s
			if (s == "-t" || s == "--target-directory") && i+1 < len(rest) {
				ops[k+2+i] = OpWrite
			}
			if strings.HasPrefix(s, "--target-directory=") {
				ops[k+1+i] = OpWrite
			}
		}
	case "sed", "perl", "gsed":
		inPlace := false
		for _, ar := range rest {
			s := ar.val.s
			if strings.HasPrefix(s, "--in-place") || (strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "i")) {
				inPlace = true
			}
		}
		if inPlace {
			setOps(operands(), OpWrite)
		}
	case "dd":
		for i, ar := range rest {
			if strings.HasPrefix(ar.val.s, "of=") {
				ops[k+1+i] = OpWrite
			}
		}
	default:
		if isShell(name) {
			for i, ar := range rest {
				s := ar.val.s
				if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s[1:], "c") {
					if i+1 < len(rest) {
						a.script(unescapeGlob(rest[i+1].val.s))
					}
					return
				}
			}
		}
	}
}

// chdir adds the directories a `cd dir` may lead to.
func (a *shellAnalyzer) chdir(dir string) {
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		dir = a.env.Home + dir[1:]
	}
	var next []string
	for _, cwd := range a.cwds {
		env := a.env
		env.Cwd = cwd
		next = append(next, normalize(env, dir, modeShell, false))
	}
	for _, d := range next {
		dup := false
		for _, c := range a.cwds {
			if c == d {
				dup = true
				break
			}
		}
		if !dup && len(a.cwds) < maxCwds {
			a.cwds = append(a.cwds, d)
		}
	}
}

// text returns the source text of a word.
func (a *shellAnalyzer) text(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	s, e := int(w.Pos().Offset()), int(w.End().Offset())
	if s >= 0 && e <= len(a.src) && s <= e {
		return a.src[s:e]
	}
	return ""
}

// word checks every field of w with op and returns the fields.
func (a *shellAnalyzer) word(w *syntax.Word, op Op) []wordVal {
	if w == nil || a.seen[w] {
		return nil
	}
	a.seen[w] = true
	vals := a.expandWord(w)
	raw := a.text(w)
	for _, v := range vals {
		a.value(raw, v, op)
	}
	a.walkSubst(w)
	return vals
}

// value records the paths a resolved field may name: the field itself, the
// part after a leading `@`, after the first `=` or `=@`, and the parts of a
// `a:b` list (not URLs).
func (a *shellAnalyzer) value(raw string, v wordVal, op Op) {
	if v.onlyUnk || v.s == "" {
		return
	}
	cands := []string{v.s}
	add := func(s string) {
		s = strings.TrimPrefix(s, "@")
		if s != "" && s != v.s {
			cands = append(cands, s)
		}
	}
	if strings.HasPrefix(v.s, "@") {
		add(v.s[1:])
	}
	if i := strings.Index(v.s, "="); i >= 0 {
		add(v.s[i+1:])
	}
	if i := strings.Index(v.s, "=@"); i >= 0 {
		add(v.s[i+2:])
	}
	if strings.Contains(v.s, ":") && !strings.Contains(v.s, "://") {
		for _, part := range strings.Split(v.s, ":") {
			if part != v.s {
				add(part)
			}
		}
	}
	for _, c := range cands {
		a.candidate(raw, c, v, op)
	}
}

func (a *shellAnalyzer) candidate(raw, c string, v wordVal, op Op) {
	pat := v.pattern()
	if pat && strings.HasPrefix(c, string(unknownRune)) {
		// an unknown expansion at the start may be an absolute path
		first, rest, _ := strings.Cut(c, "/")
		if strings.Trim(first, string(unknownRune)) == "" {
			c = rest // `$(npm root -g)/x`: the unknown part is all directories
		}
		c = "/" + unknownSeg + "/" + c
	}
	cwds := a.cwds
	if strings.HasPrefix(c, "/") || (len(c) >= 2 && isLetter(c[0]) && c[1] == ':') {
		cwds = cwds[:1]
	}
	for _, cwd := range cwds {
		if len(a.targets) >= maxTargets {
			return
		}
		env := a.env
		env.Cwd = cwd
		a.targets = append(a.targets, target{
			raw:     raw,
			path:    normalize(env, c, modeShell, pat),
			op:      op,
			pattern: pat,
			shell:   true,
		})
	}
}

// expandWord performs brace expansion and then resolve on each field.
func (a *shellAnalyzer) expandWord(w *syntax.Word) []wordVal {
	words := []*syntax.Word{w}
	if hasBraceLit(w) {
		cp := copyWord(w)
		if syntax.SplitBraces(cp) {
			if ws := expandBraces(cp); len(ws) > 0 && len(ws) <= maxBraceFields {
				words = ws
			}
		}
	}
	out := make([]wordVal, 0, len(words))
	for _, x := range words {
		out = append(out, a.resolve(x))
	}
	return out
}

func hasBraceLit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// copyWord copies the top-level parts (SplitBraces rewrites them in place).
func copyWord(w *syntax.Word) *syntax.Word {
	cp := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			lc := *l
			cp.Parts[i] = &lc
		} else {
			cp.Parts[i] = p
		}
	}
	return cp
}

func expandBraces(w *syntax.Word) (out []*syntax.Word) {
	defer func() {
		if r := recover(); r != nil {
			out = nil
		}
	}()
	for x := range expand.BracesSeq(nil, w) {
		out = append(out, x)
		if len(out) > maxBraceFields {
			return nil
		}
	}
	return out
}

// resolve removes quotes and expands what can be known of a word.
func (a *shellAnalyzer) resolve(w *syntax.Word) wordVal {
	var b strings.Builder
	var v wordVal
	lits := 0 // characters that are not unknown expansions or slashes
	win := IsWindowsPath(a.env.Cwd)
	writeLit := func(s string) {
		for _, r := range s {
			if r == '\\' && win {
				r = '/'
			}
			switch r {
			case '*', '?', '[', ']', '{', '}', '\\':
				b.WriteByte('\\')
			}
			b.WriteRune(r)
			if r != '/' {
				lits++
			}
		}
	}
	writeVal := func(x wordVal) {
		if x.pattern() {
			b.WriteString(x.s)
			v.glob = v.glob || x.glob
			v.unknown = v.unknown || x.unknown
			if !x.onlyUnk {
				lits++
			}
			return
		}
		writeLit(x.s)
	}
	unknown := func() {
		b.WriteRune(unknownRune)
		v.unknown = true
	}
	var part func(p syntax.WordPart, quoted bool, first bool)
	part = func(p syntax.WordPart, quoted bool, first bool) {
		switch x := p.(type) {
		case *syntax.Lit:
			s := x.Value
			if quoted {
				writeLit(unescapeDQ(s))
				return
			}
			if first && strings.HasPrefix(s, "~") {
				end := strings.IndexByte(s, '/')
				if end < 0 {
					end = len(s)
				}
				switch s[:end] {
				case "~":
					if a.env.Home != "" {
						writeLit(a.env.Home)
						s = s[end:]
					}
				case "~+":
					writeLit(a.cwds[0])
					s = s[end:]
				}
			}
			for i := 0; i < len(s); i++ {
				c := s[i]
				switch c {
				case '\\':
					if i+1 < len(s) {
						i++
						if s[i] != '\n' {
							writeLit(s[i : i+1])
						}
					}
				case '*', '?', '[':
					b.WriteByte(c)
					v.glob = true
					lits++
				case ']':
					b.WriteByte(c)
					lits++
				default:
					// copy the whole rune
					j := i + 1
					for j < len(s) && s[j] >= 0x80 && s[j] < 0xC0 {
						j++
					}
					writeLit(s[i:j])
					i = j - 1
				}
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				writeLit(unescapeANSI(x.Value))
			} else {
				writeLit(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q, true, false)
			}
		case *syntax.ParamExp:
			if val, ok := a.param(x); ok {
				writeVal(val)
			} else {
				unknown()
			}
		case *syntax.ExtGlob:
			b.WriteByte('*')
			v.glob = true
		default: // CmdSubst, ProcSubst, ArithmExp, BraceExp
			unknown()
		}
	}
	for i, p := range w.Parts {
		part(p, false, i == 0)
	}
	v.s = b.String()
	if !v.pattern() {
		v.s = unescapeGlob(v.s)
	}
	v.onlyUnk = v.unknown && lits == 0
	return v
}

// param expands $HOME, $PWD and variables assigned earlier in the command.
func (a *shellAnalyzer) param(p *syntax.ParamExp) (wordVal, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.NestedParam != nil {
		return wordVal{}, false
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		default:
			return wordVal{}, false
		}
	}
	switch p.Param.Value {
	case "HOME":
		if a.env.Home != "" {
			return wordVal{s: a.env.Home}, true
		}
	case "PWD":
		return wordVal{s: a.cwds[len(a.cwds)-1]}, true
	}
	if v, ok := a.vars[p.Param.Value]; ok {
		return v, true
	}
	return wordVal{}, false
}

// unescapeDQ removes the backslashes bash removes inside double quotes.
func unescapeDQ(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeANSI interprets the escapes of a $'…' string.
func unescapeANSI(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i = j - 1
			} else {
				b.WriteString(`\x`)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
