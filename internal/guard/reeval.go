package guard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Values bash evaluates again. A variable's text is code where bash reads it
// as an arithmetic expression or as a variable name: a name in arithmetic
// is evaluated recursively, and a subscript in the text (a[$(cmd)]) has its
// expansions performed — x='a[$(cat .env)]'; echo $((x)) runs cat. The
// contexts: $((…)), ((…)), let, for ((…)), array indices, ${s:off:len},
// [[ … -eq … ]], and the name operands of local/declare/typeset, printf
// -v, read, wait -p, test -v, [[ -v ]], unset, ${!x} and declare -n. A
// prompt expansion ${x@P} runs the command substitutions in x. A known
// value is read for those; a value computed when the command runs is
// unverifiable there, unless it is a number bash or a counting program
// computed.

// maxArithDepth bounds the names followed through values.
const maxArithDepth = 8

// reevalStmt checks the contexts of one statement (not the statements
// nested in it: each is checked when the walk reaches it, with the
// variables of that moment).
func (a *shellAnalyzer) reevalStmt(s *syntax.Stmt) {
	syntax.Walk(s, func(n syntax.Node) bool {
		if a.full {
			return false
		}
		switch x := n.(type) {
		case *syntax.Stmt:
			return x == s
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.ArithmExp:
			a.arithExpr(x.X, "$((…))")
		case *syntax.ArithmCmd:
			a.arithExpr(x.X, "((…))")
		case *syntax.LetClause:
			a.cdpathLost = true // let may assign CDPATH (cdpathUnset)
			for _, e := range x.Exprs {
				a.arithExpr(e, "let")
			}
		case *syntax.CallExpr:
			a.reevalCall(x)
		case *syntax.ForClause:
			if c, ok := x.Loop.(*syntax.CStyleLoop); ok {
				for _, e := range []syntax.ArithmExpr{c.Init, c.Cond, c.Post} {
					if e != nil {
						a.arithExpr(e, "for ((…))")
					}
				}
			}
		case *syntax.Assign:
			if x.Index != nil && x.Name != nil && !a.assocs[x.Name.Value] {
				a.arithExpr(x.Index, x.Name.Value+"[…]=")
			}
			if x.Name != nil && x.Value != nil && a.ints[x.Name.Value] {
				a.arithWordCheck(x.Value, x.Name.Value+"= (declared -i)")
			}
		case *syntax.DeclClause:
			a.reevalDecl(x)
		case *syntax.ParamExp:
			a.reevalParam(x)
		case *syntax.Word:
			if a.zsh {
				a.zshWord(x)
			}
		case *syntax.ExtGlob:
			// zsh reads *(…) and ?(…) as a glob qualifier, which may run code
			if (x.Op == syntax.GlobZeroOrMore || x.Op == syntax.GlobZeroOrOne) && x.Pattern != nil && zshQualifierRuns(x.Pattern.Value) {
				a.unknown(x.Op.String()+x.Pattern.Value+")", "a zsh glob qualifier may run code (e:…:, +func)", SetRead|setModify)
			}
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, e := range []syntax.TestExpr{x.X, x.Y} {
					if w, ok := e.(*syntax.Word); ok {
						a.arithWordCheck(w, "[[ … "+x.Op.String()+" … ]]")
					}
				}
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsVarSet {
				if w, ok := x.X.(*syntax.Word); ok {
					a.nameWordCheck(w, "[[ -v … ]]")
				}
			}
		}
		return true
	})
}

// reevalParam: an index, a slice's offset and length, ${!x} and ${x@P}.
func (a *shellAnalyzer) reevalParam(p *syntax.ParamExp) {
	if p.Param == nil {
		return
	}
	name := p.Param.Value
	if p.Index != nil && !a.assocs[name] {
		a.arithExpr(p.Index, "${"+name+"[…]}")
	}
	if p.Slice != nil {
		for _, e := range []syntax.ArithmExpr{p.Slice.Offset, p.Slice.Length} {
			if e != nil {
				a.arithExpr(e, "${"+name+":…}")
			}
		}
	}
	if p.Excl && p.Names == 0 && p.Index == nil && !positional(name) {
		// ${!x}: x's value is a name, its subscript evaluated
		if v, ok := a.lookup(name); ok {
			a.report(a.nameUnsafe(v, 0), "${!"+name+"}")
		} else if a.envUntrusted && !numericParam(name) {
			a.report("a variable name from the environment of a shell the command starts (x=… sh -c sets it): a subscript in it (a[$(…)]) runs a command", "${!"+name+"}")
		}
	}
	prompt := p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P")
	why := "${" + name + "@P}"
	if p.Flags != nil && strings.ContainsAny(p.Flags.Value, "e%") {
		// zsh's ${(e)x} expands the value again, ${(%)x} as a prompt
		prompt, why = true, "${("+p.Flags.Value+")"+name+"}"
	}
	if prompt && len(a.paramValues(name)) == 0 && a.envUntrusted && !numericParam(name) {
		a.unknown(why, "a prompt expansion of $"+name+", which the command may set", SetRead|setModify)
		return
	}
	if prompt {
		// ${x@P}: the value is expanded as a prompt (command substitutions run)
		for _, v := range a.paramValues(name) {
			if !v.known && !v.empty {
				if !(v.f.posOnly || v.f.envDir) {
					a.unknown(why, "a prompt expansion of a value computed when the command runs (it may run commands)", SetRead|setModify)
					return
				}
				continue
			}
			if strings.ContainsAny(v.f.s, "$`") {
				a.unknown(why, "a prompt expansion runs the expansions in the value "+quoteShort(v.f.s), SetRead|setModify)
				return
			}
		}
	}
}

// paramValues is what $name may hold (its alternatives listed).
func (a *shellAnalyzer) paramValues(name string) []pval {
	v, ok := a.lookup(name)
	if !ok {
		if arr, ok := a.arrays[name]; ok {
			return arr
		}
		return nil // the environment
	}
	if len(v.alts) > 0 {
		return v.alts
	}
	return []pval{v}
}

// reevalDecl: local/declare/typeset NAME[SUB]=… evaluate SUB; -n makes a
// name reference (its value a name).
func (a *shellAnalyzer) reevalDecl(c *syntax.DeclClause) {
	variant := ""
	if c.Variant != nil {
		variant = c.Variant.Value
	}
	assoc, integer, nameref := false, false, false
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if t := as.Value.Lit(); strings.HasPrefix(t, "-") {
				assoc = assoc || strings.Contains(t, "A")
				integer = integer || strings.Contains(t, "i")
				nameref = nameref || strings.Contains(t, "n")
			}
		}
	}
	for _, as := range c.Args {
		if as.Name != nil && assoc {
			a.assocs[as.Name.Value] = true
		}
		if as.Name != nil && integer {
			a.ints[as.Name.Value] = true
		}
		if nameref {
			a.cdpathLost = true // the name may be CDPATH's
		}
		if as.Name != nil && as.Value != nil && (nameref || a.ints[as.Name.Value]) {
			if nameref {
				a.nameWordCheck(as.Value, variant+" -n "+as.Name.Value)
			} else {
				a.arithWordCheck(as.Value, variant+" -i "+as.Name.Value)
			}
		}
		if as.Naked && as.Name == nil && as.Value != nil && !strings.HasPrefix(as.Value.Lit(), "-") {
			// a computed word: NAME or NAME=VALUE when it runs
			if variant == "export" || variant == "readonly" {
				continue // they take no subscripts
			}
			a.nameWordCheck(as.Value, variant)
		}
	}
}

// reevalCall: builtins whose operands are variable names.
func (a *shellAnalyzer) reevalCall(c *syntax.CallExpr) {
	if len(c.Args) == 0 {
		return
	}
	if len(c.Assigns) > 0 {
		// x=… CMD: CMD (a builtin, a function, eval) sees x
		untrusted := a.envUntrusted
		a.envUntrusted = true
		defer func() { a.envUntrusted = untrusted }()
	}
	name := c.Args[0].Lit()
	args := c.Args[1:]
	if name == "let" || name == "getopts" {
		a.cdpathLost = true // they set variables the analysis does not follow
	}
	switch name {
	case "let":
		for _, w := range args {
			a.arithWordCheck(w, "let")
		}
	case "printf", "wait":
		opt := "-v"
		if name == "wait" {
			opt = "-p"
		}
		for i := 0; i < len(args); i++ {
			t := args[i].Lit()
			if t == "--" {
				return
			}
			switch {
			case t == opt && i+1 < len(args):
				a.nameWordCheck(args[i+1], name+" "+opt)
				i++
			case t != "" && !strings.HasPrefix(t, "-"):
				return
			case t == "":
				// a computed word: -vNAME with the name inline, or an operand
				for _, f := range a.resolve(args[i], false) {
					lead := f.lead
					if !f.pattern() {
						lead = f.s
					}
					if strings.HasPrefix(lead, opt) || f.pattern() && lead == "" {
						v := pval{f: f}
						if !f.pattern() {
							v = knownVal(strings.TrimPrefix(f.s, opt))
						}
						if r := a.nameUnsafe(v, 0); r != "" {
							a.report(r, name+" "+a.text(args[i]))
							return
						}
					}
				}
				return
			}
		}
	case "print":
		// zsh's print -P expands prompt sequences (and, with PROMPT_SUBST,
		// the command substitutions in its arguments)
		for i, w := range args {
			t := w.Lit()
			if t == "--" || t == "-" || !strings.HasPrefix(t, "-") {
				return
			}
			if strings.Contains(t, "P") {
				for _, w := range args[i+1:] {
					for _, f := range a.resolve(w, false) {
						if f.pattern() && (f.unk || f.dyn) || strings.ContainsAny(f.s, "$`") {
							a.unknown("print -P", "print -P expands its arguments as prompts (with PROMPT_SUBST, the command substitutions in them)", SetRead|setModify)
							return
						}
					}
				}
				return
			}
		}
	case "test", "[":
		for i := 0; i+1 < len(args); i++ {
			if args[i].Lit() == "-v" {
				a.nameWordCheck(args[i+1], name+" -v")
			}
		}
	case "read", "mapfile", "readarray", "unset", "getopts":
		for i, w := range args {
			t := w.Lit()
			if strings.HasPrefix(t, "-") {
				continue
			}
			if name == "getopts" && i == 0 {
				continue // the option string
			}
			if i > 0 && (name == "read" || name == "mapfile" || name == "readarray") && optTakesValue(args[i-1].Lit()) {
				continue
			}
			a.nameWordCheck(w, name)
			if name == "getopts" {
				return
			}
		}
	}
}

// optTakesValue: read/mapfile options whose value is the next word.
func optTakesValue(t string) bool {
	if !strings.HasPrefix(t, "-") || len(t) < 2 {
		return false
	}
	last := t[len(t)-1]
	return strings.ContainsRune("dinNptuCcOs", rune(last)) && !strings.HasPrefix(t, "--")
}

// nameWordCheck: a word bash reads as a variable name (NAME or NAME=…).
func (a *shellAnalyzer) nameWordCheck(w *syntax.Word, ctx string) {
	for _, f := range a.resolve(w, false) {
		v := pval{f: f, known: !f.pattern()}
		if v.known {
			t, _, _ := strings.Cut(f.s, "=")
			v = knownVal(t)
		} else if i := strings.IndexByte(f.lead, '='); i >= 0 {
			v = knownVal(f.lead[:i])
		}
		if r := a.nameUnsafe(v, 0); r != "" {
			a.report(r, ctx+" "+a.text(w))
			return
		}
	}
}

// arithWordCheck: a word whose expanded text bash evaluates as arithmetic.
func (a *shellAnalyzer) arithWordCheck(w *syntax.Word, ctx string) {
	a.report(a.arithWord(w, 0), ctx)
}

func (a *shellAnalyzer) report(why, ctx string) {
	if why != "" {
		a.unknown(ctx, why, SetRead|setModify)
	}
}

// arithExpr checks the words of an arithmetic expression (nested $((…))
// and $(…) are checked where the walk meets them).
func (a *shellAnalyzer) arithExpr(e syntax.ArithmExpr, ctx string) {
	done := false
	syntax.Walk(e, func(n syntax.Node) bool {
		if done {
			return false
		}
		if w, ok := n.(*syntax.Word); ok {
			if r := a.arithWord(w, 0); r != "" {
				a.report(r, ctx)
				done = true
			}
			return false
		}
		return true
	})
}

// arithWord says why a word's text in arithmetic may run a command ("" when
// it cannot).
func (a *shellAnalyzer) arithWord(w *syntax.Word, depth int) string {
	for _, p := range w.Parts {
		if r := a.arithPart(p, depth); r != "" {
			return r
		}
	}
	return ""
}

func (a *shellAnalyzer) arithPart(p syntax.WordPart, depth int) string {
	switch x := p.(type) {
	case *syntax.Lit:
		return a.arithText(x.Value, depth)
	case *syntax.SglQuoted:
		return a.arithText(x.Value, depth)
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			if r := a.arithPart(q, depth); r != "" {
				return r
			}
		}
	case *syntax.ArithmExp:
		return "" // an integer; its own words are checked where it stands
	case *syntax.ParamExp:
		if x.Length || x.Param == nil {
			return ""
		}
		name := x.Param.Value
		if _, set := a.vars[name]; !set && numericParam(name) && x.Index == nil && x.Exp == nil && x.Repl == nil && !x.Excl && x.Names == 0 {
			return "" // $?, $$, $#, $RANDOM…: numbers
		}
		for _, v := range a.param(x) {
			if r := a.arithUnsafe(v, depth); r != "" {
				return r
			}
		}
		if _, set := a.vars[name]; !set && x.Index == nil {
			for _, v := range a.arrays[name] { // $arr is its first element
				if r := a.arithUnsafe(v, depth); r != "" {
					return r
				}
			}
		}
	case *syntax.CmdSubst:
		if numericSubst(x, a.src) {
			return ""
		}
		return a.arithUnsafe(a.cmdSubstValue(x), depth)
	default:
		return "arithmetic over an expansion the analysis does not evaluate"
	}
	return ""
}

// arithUnsafe: a value bash evaluates as arithmetic.
func (a *shellAnalyzer) arithUnsafe(v pval, depth int) string {
	if depth > maxArithDepth {
		return "arithmetic over names nested too deeply to follow"
	}
	if len(v.alts) > 0 {
		for _, w := range v.alts {
			if r := a.arithUnsafe(w, depth); r != "" {
				return r
			}
		}
		return ""
	}
	if v.empty || v.num {
		return ""
	}
	if !v.known || v.f.pattern() {
		if v.f.posOnly || v.f.envDir && !a.envUntrusted {
			return "" // bound where it is passed; the environment's
		}
		return "arithmetic over " + whyOr(v.f.why, "a value") + ", computed when the command runs: bash evaluates its text, and a subscript in it (a[$(…)]) runs a command"
	}
	return a.arithText(v.f.s, depth)
}

// arithText: text bash evaluates as an arithmetic expression — names in it
// are evaluated in turn, and expansions in a subscript are performed.
func (a *shellAnalyzer) arithText(t string, depth int) string {
	if strings.ContainsAny(t, "$`") {
		return "arithmetic over the text " + quoteShort(t) + ": bash performs the expansions in a subscript (a[$(…)] runs a command)"
	}
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			for i < len(t) && (isIdentByte(t[i]) || t[i] == '#' || t[i] == '@') {
				i++
			}
		case isIdentByte(c):
			j := i
			for j < len(t) && isIdentByte(t[j]) {
				j++
			}
			name := t[i:j]
			i = j
			if r := a.nameValueUnsafe(name, depth+1); r != "" {
				return r
			}
		default:
			i++
		}
	}
	return ""
}

// nameValueUnsafe: the value of a name arithmetic evaluates.
func (a *shellAnalyzer) nameValueUnsafe(name string, depth int) string {
	if depth > maxArithDepth {
		return "arithmetic over names nested too deeply to follow"
	}
	if v, ok := a.lookup(name); ok {
		return a.arithUnsafe(v, depth)
	}
	arr, ok := a.arrays[name]
	for _, v := range arr {
		if r := a.arithUnsafe(v, depth); r != "" {
			return r
		}
	}
	if !ok && a.envUntrusted && !numericParam(name) {
		return "arithmetic over $" + name + " from the environment of a shell the command starts (x=… sh -c sets it)"
	}
	return ""
}

// nameUnsafe: a value bash reads as a variable name; a subscript in it is
// evaluated.
func (a *shellAnalyzer) nameUnsafe(v pval, depth int) string {
	if len(v.alts) > 0 {
		for _, w := range v.alts {
			if r := a.nameUnsafe(w, depth); r != "" {
				return r
			}
		}
		return ""
	}
	if v.empty {
		return ""
	}
	if !v.known || v.f.pattern() {
		if v.f.posOnly || v.f.envDir && !a.envUntrusted || v.num {
			return ""
		}
		return "a variable name computed when the command runs (" + whyOr(v.f.why, "a value") + "): a subscript in it (a[$(…)]) runs a command"
	}
	t := v.f.s
	if base, _, _ := strings.Cut(t, "["); base == "DIRSTACK" {
		a.dirStackSet()
	}
	if base, _, _ := strings.Cut(t, "["); base == "BASH_ALIASES" || base == "BASH_CMDS" {
		return base + " is bash's alias or command hash table: an element set makes a command name run other text or another program"
	}
	i := strings.IndexByte(t, '[')
	if i < 0 {
		return ""
	}
	sub := t[i+1:]
	if j := strings.LastIndexByte(sub, ']'); j >= 0 {
		sub = sub[:j]
	}
	if a.assocs[t[:i]] && !strings.ContainsAny(sub, "$`") {
		return ""
	}
	return a.arithText(sub, depth)
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func whyOr(why, dflt string) string {
	if why == "" {
		return dflt
	}
	return why
}

func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return "'" + s + "'"
}

// numericWord: an assignment's value that is a number bash computes or a
// counting program prints ($((…)), ${#x}, $(wc -l < f)).
func numericWord(w *syntax.Word, src string) bool {
	if w == nil || len(w.Parts) == 0 {
		return false
	}
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.ArithmExp:
		case *syntax.ParamExp:
			if !x.Length || x.Param == nil {
				return false
			}
		case *syntax.CmdSubst:
			if !numericSubst(x, src) {
				return false
			}
		case *syntax.Lit:
			for i := 0; i < len(x.Value); i++ {
				if c := x.Value[i]; c < '0' || c > '9' {
					return false
				}
			}
		case *syntax.DblQuoted:
			if !numericWord(&syntax.Word{Parts: x.Parts}, src) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// numericSubst: a $(…) whose output is a number and nothing else (names
// in it would be evaluated in turn): its last command is wc reading stdin,
// nproc, tput cols/lines, date or stat with a format of numeric
// directives, seq over numbers, or grep -c over one file.
func numericSubst(x *syntax.CmdSubst, src string) bool {
	if len(x.Stmts) != 1 || x.Stmts[0].Cmd == nil {
		return false
	}
	cmd := x.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok || (b.Op != syntax.Pipe && b.Op != syntax.PipeAll) || b.Y == nil {
			break
		}
		cmd = b.Y.Cmd
	}
	ce, ok := cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return false
	}
	var args []string
	lits := true
	for _, w := range ce.Args[1:] {
		t, ok := plainWord(w)
		lits = lits && ok
		args = append(args, t)
	}
	switch ce.Args[0].Lit() {
	case "wc":
		for _, t := range args {
			if !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "--files0") {
				return false
			}
		}
		return lits
	case "nproc":
		return lits
	case "tput":
		return lits && len(args) == 1 && (args[0] == "cols" || args[0] == "lines" || args[0] == "colors")
	case "seq":
		for _, t := range args {
			if _, err := strconv.ParseFloat(t, 64); err != nil && t != "-w" {
				return false
			}
		}
		return lits
	case "date", "stat":
		if !lits {
			return false
		}
		format := false
		for i, t := range args {
			f, ok := "", false
			switch {
			case ce.Args[0].Lit() == "date" && strings.HasPrefix(t, "+"):
				f, ok = t[1:], true
			case ce.Args[0].Lit() == "stat" && (t == "-c" || t == "--format" || t == "--printf") && i+1 < len(args):
				f, ok = args[i+1], true
			case ce.Args[0].Lit() == "stat" && (strings.HasPrefix(t, "--format=") || strings.HasPrefix(t, "--printf=")):
				_, f, _ = strings.Cut(t, "=")
				ok = true
			case ce.Args[0].Lit() == "stat" && strings.HasPrefix(t, "-c") && len(t) > 2:
				f, ok = t[2:], true
			}
			if ok {
				if !numericFormat(f, ce.Args[0].Lit()) {
					return false
				}
				format = true
			}
		}
		return format
	case "grep":
		c, operands := false, 0
		for i, t := range args {
			w := ce.Args[i+1]
			if _, ok := plainWord(w); !ok {
				if len(w.Parts) != 1 {
					return false
				}
				if _, dq := w.Parts[0].(*syntax.DblQuoted); !dq {
					return false // may split into several files (name:count)
				}
			}
			switch {
			case t == "-c" || t == "--count":
				c = true
			case t == "-i" || t == "-v" || t == "-w" || t == "-x" || t == "-E" || t == "-F" || t == "-h" || t == "-ci" || t == "-ic" || t == "-cv" || t == "-vc":
				c = c || strings.Contains(t, "c")
			case strings.HasPrefix(t, "-"):
				return false
			default:
				operands++
			}
		}
		return c && operands <= 2
	}
	return false
}

// plainWord: a word's text when it is literal (quotes removed).
func plainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	t := b.String()
	return t, !strings.ContainsAny(t, "\\`$")
}

// numericFormat: a date or stat format whose directives print numbers
// (and only digits and punctuation around them).
func numericFormat(f, prog string) bool {
	dirs := "sYmdHMSNjuwyeIklCGgVU"
	if prog == "stat" {
		dirs = "sYXZWibhugaBo"
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '%' {
			i++
			for i < len(f) && strings.IndexByte("-_0^#", f[i]) >= 0 {
				i++
			}
			if i >= len(f) || strings.IndexByte(dirs, f[i]) < 0 {
				return false
			}
			continue
		}
		if !(c >= '0' && c <= '9' || strings.IndexByte(" :-/._,\t\n+", c) >= 0) {
			return false
		}
	}
	return true
}

// zshWord: a zsh word with a glob qualifier that may run code.
func (a *shellAnalyzer) zshWord(w *syntax.Word) {
	var lits []string
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			lits = append(lits, x.Value)
		case *syntax.SglQuoted:
			if len(lits) > 0 {
				lits = append(lits, x.Value)
			}
		case *syntax.DblQuoted:
			if len(lits) > 0 {
				lits = append(lits, "\"\"")
			}
		}
	}
	if zshQualifierCode(lits) {
		a.unknown(a.text(w), "a zsh glob qualifier may run code (e:…:, +func)", SetRead|setModify)
	}
}
