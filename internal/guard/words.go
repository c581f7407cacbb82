package guard

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// field is one word of a command after brace expansion, quote removal,
// parameter and command substitution and field splitting: what the command
// receives as one argument.
//
// A field whose value is fully known holds it as plain text in s. Otherwise
// s is a pattern (doublestar syntax, literal metacharacters escaped): glob
// characters stand for themselves, unknownRune for characters produced by an
// expansion whose value is unknown but cannot hold a `/`, and a dynamic part
// (a value that may hold anything, `/..` included) turns the whole field into
// `/<unknownSeg>/<unknownRune><rest>`: everything before the last dynamic
// part is meaningless, since it can be undone.
type field struct {
	s    string
	glob bool // unquoted glob characters
	unk  bool // unknown characters within a segment
	dyn  bool // a dynamic part
	// onlyUnk: no literal character pins the value (a dynamic part with no
	// literal after it, or unknown characters with no literal at all).
	onlyUnk bool
	// posOnly: the unknown parts are positional parameters, which a
	// function or `sh -c` receives from arguments checked where they are
	// passed.
	posOnly bool
	// why names what made the field unknown, for reasons ("$(…)", "$X").
	why string
	// lead is the literal text before the first glob or unknown part (all
	// of a known field): enough to read an option name (`--file=$X`).
	lead string
	// envDir: the last dynamic part is a value from the environment (or a
	// positional parameter, another user's home): any directory, but not
	// taken to be a protected folder by itself. `$X/.env` still names
	// `.env`; `$X/README.md` does not name `.git/README.md`.
	envDir bool
	// dotOK: the field's globs match hidden names too (find's output:
	// find's `-name '*env'` prints `.env`).
	dotOK bool
	// multi: the field may stand for several arguments (an unquoted glob,
	// an unquoted value that may split): what follows it is at an unknown
	// position.
	multi bool
	// splits: it holds a value the command computes ($(…), read) that an
	// unquoted use splits on IFS (a variable keeps this).
	splits bool
}

func (f field) pattern() bool { return f.glob || f.unk || f.dyn }

// text returns the field as literal text when it is known; for a pattern
// it returns the pattern with escapes removed (good enough to name a
// command or an option).
func (f field) text() string {
	if f.pattern() {
		return unescapeGlob(f.s)
	}
	return f.s
}

// litField returns a known field.
func litField(s string) field { return field{s: s} }

// fieldBuilder accumulates one field.
type fieldBuilder struct {
	b           strings.Builder // pattern-escaped text (since the last dynamic part)
	plain       strings.Builder // the same, unescaped (meaningful while no unknown part)
	glob        bool
	unk         bool
	dyn         bool
	lits        int // literal characters other than `/` (whole field)
	litsAfter   int // the same since the last dynamic part
	posOnly     bool
	anyUnknown  bool
	why         string
	started     bool
	winBackslah bool // `\` is a separator (Windows)
	lead        strings.Builder
	leadDone    bool
	lastEnv     bool
	dotOK       bool // a value whose globs match hidden names (field.dotOK)
	multi       bool // field.multi
	splits      bool // field.splits
}

func (fb *fieldBuilder) lit(s string) {
	fb.started = true
	if plainLit(s) {
		fb.b.WriteString(s)
		fb.plain.WriteString(s)
		if !fb.leadDone {
			fb.lead.WriteString(s)
		}
		n := len(s) - strings.Count(s, "/")
		fb.lits += n
		fb.litsAfter += n
		return
	}
	for _, r := range s {
		if r == '\\' && fb.winBackslah {
			r = '/'
		}
		switch r {
		case '*', '?', '[', ']', '{', '}', '\\':
			fb.b.WriteByte('\\')
		}
		if r == unknownRune { // a literal U+FFFC cannot be told from a marker: it stays unknown
			fb.unknownChars("", false)
			continue
		}
		fb.b.WriteRune(r)
		fb.plain.WriteRune(r)
		if !fb.leadDone {
			fb.lead.WriteRune(r)
		}
		if r != '/' {
			fb.lits++
			fb.litsAfter++
		}
	}
}

// plainLit reports whether s is ASCII with no glob metacharacter, escape
// or marker: it is written as it is.
func plainLit(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == '*', c == '?', c == '[', c == ']', c == '{', c == '}', c == '\\':
			return false
		}
	}
	return true
}

func (fb *fieldBuilder) globChar(c byte) {
	fb.started = true
	if c == '*' || c == '?' || c == '[' {
		fb.leadDone = true
	} else if !fb.leadDone {
		fb.lead.WriteByte(c)
	}
	fb.b.WriteByte(c)
	fb.plain.WriteByte(c)
	if c == '*' || c == '?' || c == '[' {
		fb.glob = true
		fb.multi = true
	}
	fb.lits++
	fb.litsAfter++
}

func (fb *fieldBuilder) note(why string, pos bool) {
	fb.leadDone = true
	if !fb.anyUnknown {
		fb.posOnly = pos
	} else if !pos {
		fb.posOnly = false
	}
	fb.anyUnknown = true
	if fb.why == "" && why != "" {
		fb.why = why
	}
}

// unknownChars adds characters of unknown value that hold no `/`.
func (fb *fieldBuilder) unknownChars(why string, pos bool) {
	fb.started = true
	fb.b.WriteRune(unknownRune)
	fb.unk = true
	fb.note(why, pos)
}

// dynamic adds a value that may hold anything.
func (fb *fieldBuilder) dynamic(why string, pos bool) {
	fb.started = true
	fb.b.Reset()
	fb.plain.Reset()
	fb.dyn = true
	fb.lastEnv = false
	fb.litsAfter = 0
	fb.note(why, pos)
}

// dynamicEnv adds a value from the environment (see field.envDir).
func (fb *fieldBuilder) dynamicEnv(why string, pos bool) {
	fb.dynamic(why, pos)
	fb.lastEnv = true
}

// pat adds a pattern fragment (an earlier resolved value).
func (fb *fieldBuilder) pat(f field) {
	fb.started = true
	fb.dotOK = fb.dotOK || f.dotOK
	if f.dyn {
		fb.dynamic(f.why, f.posOnly)
		fb.lastEnv = f.envDir
		// keep what follows the dynamic marker in f
		rest := f.s
		if i := strings.Index(rest, unknownSeg+"/"+unknownStr); i >= 0 {
			rest = rest[i+len(unknownSeg)+1+len(unknownStr):]
		} else if i := strings.Index(rest, unknownSeg); i >= 0 {
			rest = rest[i+len(unknownSeg):]
		}
		fb.b.WriteString(rest)
		n := countLits(rest)
		fb.lits += n
		fb.litsAfter += n
		fb.glob = fb.glob || f.glob
		fb.unk = fb.unk || f.unk
		return
	}
	if !f.pattern() {
		fb.lit(f.s)
		return
	}
	fb.leadDone = true
	fb.b.WriteString(f.s)
	fb.plain.WriteString(unescapeGlob(f.s))
	n := countLits(f.s)
	fb.lits += n
	fb.litsAfter += n
	fb.glob = fb.glob || f.glob
	if f.unk {
		fb.unk = true
		fb.note(f.why, f.posOnly)
	}
}

func countLits(s string) int {
	n := 0
	for _, r := range s {
		if r != '/' && r != unknownRune && r != '\\' {
			n++
		}
	}
	return n
}

func (fb *fieldBuilder) field() field {
	f := field{glob: fb.glob, unk: fb.unk, dyn: fb.dyn, posOnly: fb.posOnly && fb.anyUnknown, why: fb.why, lead: fb.lead.String(), dotOK: fb.dotOK, multi: fb.multi, splits: fb.splits}
	switch {
	case fb.dyn:
		rest := fb.b.String()
		f.s = "/" + unknownSeg + "/" + unknownStr + rest
		if fb.lastEnv && strings.HasPrefix(rest, "/") {
			f.s = "/" + unknownSeg + rest
			f.envDir = true
		}
		f.onlyUnk = fb.litsAfter == 0
	case fb.glob || fb.unk:
		f.s = fb.b.String()
		f.onlyUnk = fb.unk && fb.lits == 0
	default:
		f.s = fb.plain.String()
	}
	return f
}

// maxAlternatives caps the fields one word may expand to (brace
// expansion, `${x:-y}` alternatives).
const maxAlternatives = 64

// expandWord performs brace expansion and then resolve on each resulting
// word. A brace expansion too large to enumerate keeps each brace as
// unknown characters (or a dynamic part when an element holds a `/`): the
// word is then a pattern, never read as literal text.
func (a *shellAnalyzer) expandWord(w *syntax.Word) []field {
	words := []*syntax.Word{w}
	if hasBraceLit(w) {
		cp := copyWord(w)
		if syntax.SplitBraces(cp) {
			if ws, ok := expandBraces(cp); ok {
				// bash removes a word brace expansion leaves empty and
				// unquoted: `cp SRC {DEST,}` is `cp SRC DEST`, so DEST is
				// the destination, not a source before an empty one
				words = slices.DeleteFunc(ws, emptyUnquoted)
			} else {
				words = []*syntax.Word{cp} // BraceExp parts stay: resolve marks them
			}
		}
	}
	var out []field
	for _, x := range words {
		out = append(out, a.resolve(x, false)...)
		if len(out) > 4*maxAlternatives {
			// too many fields to list: what is left may be anything
			out = append(out, dynVal("a word with too many expansions", false).f)
			break
		}
	}
	return out
}

// emptyUnquoted reports whether w is nothing but empty literals (no
// quotes, no expansions): a word the shell drops after brace expansion.
func emptyUnquoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
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

// expandBraces enumerates a brace expansion; ok is false when it yields
// more than maxAlternatives words.
func expandBraces(w *syntax.Word) (out []*syntax.Word, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			out, ok = nil, false
		}
	}()
	for x := range expand.BracesSeq(nil, w) {
		out = append(out, x)
		if len(out) > maxAlternatives {
			return nil, false
		}
	}
	return out, true
}

// resolve removes quotes and expands what can be known of a word, splitting
// it into fields where unquoted expansions split. assignValue selects the
// rules of an assignment's value (no splitting, `~` after `:` and `=`).
func (a *shellAnalyzer) resolve(w *syntax.Word, assignValue bool) []field {
	fs, _ := a.resolveChoice(w, assignValue, nil)
	return fs
}

// resolveChoice resolves w picking the alternatives in choose (nil: all
// of them, as fields side by side) and returns the alternatives' counts.
func (a *shellAnalyzer) resolveChoice(w *syntax.Word, assignValue bool, choose []int) ([]field, []int) {
	r := resolver{a: a, assign: assignValue, choose: choose}
	r.alts = []*fieldBuilder{r.newBuilder()}
	for i := 0; i < len(w.Parts); i++ {
		p := w.Parts[i]
		if i+1 < len(w.Parts) && !assignValue {
			// `$~x` parses as the literals "$" and "~x": zsh globs x's value
			if l, ok := p.(*syntax.Lit); ok && strings.HasSuffix(l.Value, "$") {
				if n, ok := w.Parts[i+1].(*syntax.Lit); ok && len(n.Value) > 1 && n.Value[0] == '~' && isIdentByte(n.Value[1]) {
					p = &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: n.ValueEnd, Value: l.Value + n.Value}
					i++
				}
			}
		}
		r.more = i+1 < len(w.Parts)
		r.part(p, false, i == 0)
	}
	return r.finish(), r.sizes
}

// maxChoiceLists bounds the argument lists a command with alternative
// values is walked with.
const maxChoiceLists = 16

// choiceLists returns the field lists a word may give, one per choice of
// its alternatives (`$x` where x is one of two values): each is what the
// command receives on one path. nil when the word has no alternatives or
// too many to list.
func (a *shellAnalyzer) choiceLists(w *syntax.Word) [][]field {
	if hasBraceLit(w) || !hasParamExp(w) && !a.hasRepoTop(w) {
		return nil // alternatives come from parameter expansions only (and $(git rev-parse --show-toplevel))
	}
	_, sizes := a.resolveChoice(w, false, nil)
	if len(sizes) == 0 {
		return nil
	}
	total := 1
	for _, n := range sizes {
		total *= n
		if total > maxChoiceLists {
			return nil
		}
	}
	var out [][]field
	for k := 0; k < total; k++ {
		choice := make([]int, len(sizes))
		rest := k
		for i, n := range sizes {
			choice[i], rest = rest%n, rest/n
		}
		fs, _ := a.resolveChoice(w, false, choice)
		out = append(out, fs)
	}
	return out
}

// resolver expands the parts of one word into fields. alts are the
// alternative values of the field being built (`${x:-y}` with x unknown
// may be x or y); done are the fields already complete (split off).
type resolver struct {
	a      *shellAnalyzer
	assign bool
	// sizes records the alternatives met (their counts); choose, when
	// set, picks one of each instead (see choiceLists)
	sizes  []int
	choose []int
	alts   []*fieldBuilder
	done   []field
	split  bool // a field boundary is pending
	more   bool // the part being read is not the word's last
}

func (r *resolver) newBuilder() *fieldBuilder {
	return &fieldBuilder{winBackslah: r.a.win}
}

func (r *resolver) each(fn func(fb *fieldBuilder)) {
	if r.split {
		r.boundary()
	}
	for _, fb := range r.alts {
		fn(fb)
	}
}

// boundary ends the fields being built (a word split).
func (r *resolver) boundary() {
	r.split = false
	for _, fb := range r.alts {
		if fb.started {
			r.done = append(r.done, fb.field())
		}
	}
	r.alts = []*fieldBuilder{r.newBuilder()}
}

func (r *resolver) finish() []field {
	out := r.done
	for _, fb := range r.alts {
		// an unquoted empty value is no field (bash removes the word); an
		// assignment's value is one
		if fb.started || len(out) == 0 && r.assign {
			out = append(out, fb.field())
		}
	}
	return out
}

func cloneBuilder(fb *fieldBuilder) *fieldBuilder {
	cp := *fb
	cp.b = strings.Builder{}
	cp.b.WriteString(fb.b.String())
	cp.plain = strings.Builder{}
	cp.plain.WriteString(fb.plain.String())
	cp.lead = strings.Builder{}
	cp.lead.WriteString(fb.lead.String())
	return &cp
}

func (r *resolver) part(p syntax.WordPart, quoted, first bool) {
	a := r.a
	switch x := p.(type) {
	case *syntax.Lit:
		s := x.Value
		if quoted {
			r.each(func(fb *fieldBuilder) { fb.lit(unescapeDQ(s)) })
			return
		}
		if first && strings.HasPrefix(s, "~") {
			s = r.tilde(s)
		}
		if r.assign {
			s = r.tildeAfter(s)
		}
		r.unquotedLit(s)
	case *syntax.SglQuoted:
		v := x.Value
		if x.Dollar {
			v = unescapeANSI(v)
		}
		r.each(func(fb *fieldBuilder) { fb.lit(v) })
	case *syntax.DblQuoted:
		if !r.a.noPositional(x) {
			r.each(func(fb *fieldBuilder) { fb.started = true }) // "" is a field
		}
		for _, q := range x.Parts {
			r.part(q, true, false)
		}
	case *syntax.ParamExp:
		if r.allPositional(x, quoted) {
			return
		}
		vals := a.param(x)
		r.values(vals, quoted)
	case *syntax.CmdSubst:
		v := a.cmdSubstValue(x)
		if len(v.alts) > 0 {
			r.values(v.alts, quoted) // $(pwd): one of the candidate folders
		} else {
			r.values([]pval{v}, quoted)
		}
	case *syntax.ArithmExp:
		r.each(func(fb *fieldBuilder) { fb.unknownChars("$((…))", false) })
	case *syntax.ProcSubst:
		r.each(func(fb *fieldBuilder) {
			fb.lit("/dev/fd/")
			fb.unknownChars("<(…)", false)
		})
	case *syntax.ExtGlob:
		// @(…), +(…), !(…): may match anything, a leading `.` included
		r.each(func(fb *fieldBuilder) {
			fb.unknownChars("extended glob", false)
			fb.glob = true
		})
	case *syntax.BraceExp:
		// a brace expansion too large to enumerate
		slash := false
		for _, e := range x.Elems {
			if strings.Contains(e.Lit(), "/") || len(e.Parts) != 1 {
				slash = true
			}
		}
		r.each(func(fb *fieldBuilder) {
			if slash {
				fb.dynamic("brace expansion too large to enumerate", false)
			} else {
				fb.unknownChars("brace expansion too large to enumerate", false)
			}
		})
	default:
		r.each(func(fb *fieldBuilder) { fb.dynamic("expansion", false) })
	}
}

// unquotedLit adds unquoted literal text: backslash escapes, glob characters.
func (r *resolver) unquotedLit(s string) {
	if plainLit(s) && !strings.Contains(s, "(") && !strings.Contains(s, "$~") && !(r.a.extGlob && strings.ContainsAny(s, "#^~")) {
		r.each(func(fb *fieldBuilder) { fb.lit(s) })
		return
	}
	r.each(func(fb *fieldBuilder) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if r.assign && (c == '*' || c == '?' || c == '[' || c == ']') {
				fb.lit(s[i : i+1]) // an assignment's value is not globbed
				continue
			}
			if n := r.zshGlob(fb, s, i); n > 0 {
				i += n - 1
				continue
			}
			switch c {
			case '\\':
				if i+1 < len(s) {
					i++
					if s[i] != '\n' {
						fb.lit(s[i : i+1])
					}
				}
			case '*', '?':
				fb.globChar(c)
			case '[':
				if strings.IndexByte(s[i+1:], ']') >= 0 {
					fb.globChar(c)
				} else {
					fb.lit("[") // no closing bracket: a literal `[` (the test command)
				}
			case ']':
				fb.globChar(c)
			default:
				j := i + 1
				for j < len(s) && s[j] >= 0x80 && s[j] < 0xC0 {
					j++
				}
				fb.lit(s[i:j])
				i = j - 1
			}
		}
	})
}

// tilde expands a leading `~`, `~+`, `~-`, `~user`.
func (r *resolver) tilde(s string) string {
	a := r.a
	end := strings.IndexByte(s, '/')
	if end < 0 {
		end = len(s)
	}
	switch t := s[:end]; {
	case end == len(s) && r.more:
		// ~$u, ~"x": the tilde-prefix is not all literal, so bash leaves
		// the text as it is — a ~user that eval or sh -c expand later
		r.each(func(fb *fieldBuilder) { fb.dynamicEnv(t+"… (a home named when the command runs)", false) })
		return ""
	case t == "~":
		if a.home() != "" {
			r.each(func(fb *fieldBuilder) { fb.lit(a.home()) })
			return s[end:]
		}
		r.each(func(fb *fieldBuilder) { fb.dynamicEnv(a.homeWhy(), false) })
		return s[end:]
	case t == "~+":
		r.each(func(fb *fieldBuilder) { fb.lit(a.cwd()) })
		return s[end:]
	case t == "~-":
		if a.oldpwd != "" {
			r.each(func(fb *fieldBuilder) { fb.lit(a.oldpwd) })
		} else {
			r.each(func(fb *fieldBuilder) { fb.dynamicEnv("~- (the previous directory)", false) })
		}
		return s[end:]
	case len(t) > 1 && strings.IndexFunc(t[1:], func(c rune) bool {
		return !(c == '_' || c == '-' || c == '.' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	}) < 0:
		// ~user, ~+N, ~-N: another home or the directory stack
		r.each(func(fb *fieldBuilder) { fb.dynamicEnv(t, false) })
		return s[end:]
	}
	return s
}

// tildeAfter expands `~` after `=` or `:` in an assignment value
// (PATH=~/bin:~/x), as bash does.
func (r *resolver) tildeAfter(s string) string {
	h := r.a.home()
	if h == "" || !strings.Contains(s, "~") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && i > 0 && (s[i-1] == ':' || s[i-1] == '=') && (i+1 == len(s) || s[i+1] == '/' || s[i+1] == ':') {
			b.WriteString(h)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pval is one possible value of an expansion.
type pval struct {
	f     field
	known bool // f is known text
	split bool // an unquoted dynamic value may split into several fields
	empty bool // the value is empty
	// num: a number bash computed or a counting program printed ($((…)),
	// ${#x}, $(wc -l < f)): safe where bash evaluates it as arithmetic
	num bool
	// alts: a variable the paths through the command leave with
	// different values (f is then unknown): a plain $x is one of them
	alts []pval
}

// values adds the possible values of an expansion.
func (r *resolver) values(vals []pval, quoted bool) {
	if len(vals) == 0 {
		return
	}
	if len(vals) == 1 {
		r.value(vals[0], quoted)
		return
	}
	r.sizes = append(r.sizes, len(vals))
	if r.choose != nil {
		// one alternative, picked by the caller (choiceLists)
		k := 0
		if len(r.choose) > 0 {
			k, r.choose = r.choose[0], r.choose[1:]
		}
		r.value(vals[min(k, len(vals)-1)], quoted)
		return
	}
	// alternatives: fork every builder, then add one value to each copy
	before := r.alts
	if r.split {
		r.boundary()
		before = r.alts
	}
	if len(before)*len(vals) > maxAlternatives {
		r.value(pval{f: field{why: vals[0].f.why}, split: true}, quoted) // too many: unknown
		return
	}
	var next []*fieldBuilder
	var doneExtra []field
	for _, v := range vals {
		sub := resolver{a: r.a, assign: r.assign}
		for _, fb := range before {
			sub.alts = append(sub.alts, cloneBuilder(fb))
		}
		sub.value(v, quoted)
		doneExtra = append(doneExtra, sub.done...)
		next = append(next, sub.alts...)
		if sub.split {
			r.split = true
		}
	}
	// alternatives: how many fields there are, and where each is, is not
	// known (one alternative may be empty)
	for i := range doneExtra {
		doneExtra[i].multi = true
	}
	for _, fb := range next {
		fb.multi = true
	}
	r.done = append(r.done, doneExtra...)
	r.alts = next
}

func (r *resolver) value(v pval, quoted bool) {
	switch {
	case v.empty:
		r.each(func(fb *fieldBuilder) { fb.started = fb.started || quoted })
	case v.known && quoted:
		r.each(func(fb *fieldBuilder) { fb.lit(v.f.s) })
	case v.known && !r.assign && r.a.ifsDyn:
		// split by an IFS only known when the command runs
		r.value(dynVal("$IFS (computed when the command runs)", true), false)
	case v.known:
		// unquoted: split on IFS, glob characters active. A delimiter is
		// IFS white space, or one other IFS character with the white space
		// around it: that one ends a field even when it is empty
		ifs := r.a.ifs
		rs := []rune(v.f.s)
		for k := 0; k < len(rs); k++ {
			c := rs[k]
			if strings.ContainsRune(ifs, c) {
				if r.assign {
					r.each(func(fb *fieldBuilder) { fb.lit(string(c)) })
					continue
				}
				nonWS := false
				for ; k < len(rs) && strings.ContainsRune(ifs, rs[k]); k++ {
					if !isIFSSpace(rs[k]) {
						if nonWS {
							break
						}
						nonWS = true
					}
				}
				k--
				if nonWS {
					r.emitAll()
				} else {
					r.split = true
				}
				continue
			}
			switch {
			case (c == '*' || c == '?' || c == '[' || c == ']') && !r.assign:
				r.each(func(fb *fieldBuilder) { fb.globChar(byte(c)) })
			default:
				// an assignment's value is not globbed
				r.each(func(fb *fieldBuilder) { fb.lit(string(c)) })
			}
		}
	case v.f.dyn || (!v.f.pattern() && !v.known):
		why, pos := v.f.why, v.f.posOnly
		if why == "" {
			why = "expansion"
		}
		if v.split || v.f.splits {
			v.split = true
			r.each(func(fb *fieldBuilder) { fb.splits = true })
		}
		if !quoted && !r.assign {
			r.each(func(fb *fieldBuilder) { fb.multi = true })
		}
		if v.split && !quoted && !r.assign {
			// the value may hold spaces: what is before it is a field of
			// its own that ends in the unknown value, and a new one starts
			r.each(func(fb *fieldBuilder) { fb.dynamic(why, pos) })
			r.boundary()
			r.each(func(fb *fieldBuilder) { fb.dynamic(why, pos) })
			return
		}
		r.each(func(fb *fieldBuilder) { fb.pat(v.f) })
		if !v.f.dyn {
			r.each(func(fb *fieldBuilder) { fb.dynamic(why, pos) })
		}
	default:
		if !quoted && !r.assign && (v.f.unk || v.f.glob || v.f.multi) {
			r.each(func(fb *fieldBuilder) { fb.multi = true })
		}
		r.each(func(fb *fieldBuilder) { fb.pat(v.f) })
	}
}

func isIFSSpace(c rune) bool { return c == ' ' || c == '\t' || c == '\n' }

// emitAll ends the fields being built, empty ones included (a non-white
// IFS delimiter).
func (r *resolver) emitAll() {
	r.split = false
	for _, fb := range r.alts {
		r.done = append(r.done, fb.field())
	}
	r.alts = []*fieldBuilder{r.newBuilder()}
}

// dynVal is an expansion whose value may be anything.
func dynVal(why string, split bool) pval {
	return pval{f: field{dyn: true, why: why, s: "/" + unknownSeg + "/" + unknownStr, onlyUnk: true}, split: split}
}

// maxPWDAlts bounds the candidate folders $PWD expands to, one by one.
const maxPWDAlts = 8

// cwdVal is $PWD's value in the candidate working folder c: known text,
// or a pattern when c is one (a cd to a computed folder or a glob).
func cwdVal(c string) pval {
	if strings.ContainsRune(c, unknownRune) || globCwd(c) {
		return pval{f: field{s: c, unk: true, why: "$PWD"}}
	}
	return knownVal(c)
}

// envVal is an expansion from the environment (see field.envDir).
func envVal(why string) pval {
	v := dynVal(why, false)
	v.f.envDir = true
	return v
}

// unkVal is an expansion whose value is unknown text without `/`.
func unkVal(why string) pval {
	return pval{f: field{unk: true, why: why, s: unknownStr, onlyUnk: true}}
}

func knownVal(s string) pval {
	if s == "" {
		return pval{known: true, empty: true}
	}
	return pval{f: litField(s), known: true}
}

// positional reports whether name is a positional or special parameter
// bound to arguments ($1…, $@, $*).
func positional(name string) bool {
	if name == "@" || name == "*" {
		return true
	}
	_, err := strconv.Atoi(name)
	return err == nil && name != "0"
}

// numericParam reports whether a special parameter expands to a number
// ($?, $$, $!, $#, $RANDOM, …).
func numericParam(name string) bool {
	switch name {
	case "?", "$", "!", "#", "-", "RANDOM", "SRANDOM", "LINENO", "SECONDS", "BASHPID", "PPID", "UID", "EUID", "EPOCHSECONDS", "EPOCHREALTIME", "COLUMNS", "LINES", "SHLVL", "HISTCMD":
		return true
	}
	return false
}

// param expands a parameter: $HOME, $PWD, $OLDPWD, $IFS, variables assigned
// earlier in the command (with the common `${…}` operators applied), and
// gives everything else an unknown value, split or not.
func (a *shellAnalyzer) param(p *syntax.ParamExp) []pval {
	if p.Param == nil || p.NestedParam != nil || p.Width || p.IsSet || len(p.Modifiers) > 0 || p.Flags != nil {
		return []pval{dynVal("${…}", true)}
	}
	name := p.Param.Value
	why := "$" + name
	if !p.Short {
		why = "${" + name + "}"
	}
	if p.Length {
		if v, ok := a.lookup(name); ok && v.known && isASCII(v.f.s) && p.Index == nil {
			return []pval{knownVal(strconv.Itoa(len(v.f.s)))}
		}
		return []pval{unkVal(why)}
	}
	if p.Names != 0 {
		return []pval{unkVal(why)}
	}
	if p.Excl {
		// ${!x}: the variable named by x
		if v, ok := a.lookup(name); ok && v.known {
			if t, ok := a.lookup(v.f.s); ok {
				return []pval{t}
			}
		}
		return []pval{dynVal(why, true)}
	}
	var base pval
	set := true
	if p.Index != nil {
		base, set = a.arrayElem(name, p.Index, why)
	} else {
		base, set = a.lookup(name)
		if !set {
			switch {
			case positional(name) || name == "#":
				base = a.posValue(name, why)
			case numericParam(name):
				base = unkVal(why)
			case name == "0":
				base = unkVal(why)
			default:
				base = envVal(why) // the environment: unknown, not split
			}
		}
	}
	switch {
	case p.Exp != nil:
		vals := a.paramOp(p.Exp, base, set, why)
		switch p.Exp.Op {
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			// ${x:=w} assigns x when it takes w
			if !positional(name) && p.Index == nil {
				switch {
				case len(vals) == 1 && !(set && samePval(vals[0], base)):
					a.vars[name] = vals[0]
				case len(vals) > 1:
					a.vars[name] = dynVal(why, true)
				}
			}
		}
		return vals
	case p.Slice != nil:
		if name == "@" || name == "*" || p.Index != nil && (wordLit(p.Index) == "@" || wordLit(p.Index) == "*") {
			// ${@:1:2}, ${a[@]:1}: elements, not characters
			return []pval{dynVal(why, true)}
		}
		if base.known && isASCII(base.f.s) {
			if s, ok := sliceValue(base.f.s, p.Slice); ok {
				return []pval{knownVal(s)}
			}
		}
		return []pval{dynVal(why, base.split)}
	case p.Repl != nil:
		if base.known && isASCII(base.f.s) && len(base.f.s) <= maxPatternValue {
			if v, ok := a.replaceParam(base.f.s, p.Repl); ok {
				return []pval{knownVal(v)}
			}
		}
		return []pval{dynVal(why, base.split)}
	}
	if len(base.alts) > 0 {
		return base.alts
	}
	return []pval{base}
}

// lookup returns a variable's value: assigned in the command, or one of the
// variables the analysis knows ($HOME, $PWD, $OLDPWD, $IFS).
func (a *shellAnalyzer) lookup(name string) (pval, bool) {
	if v, ok := a.vars[name]; ok {
		return v, true
	}
	switch name {
	case "HOME":
		if a.home() != "" {
			return knownVal(a.home()), true
		}
	case "PWD":
		if len(a.cwds) == 1 {
			return cwdVal(a.cwds[0]), true
		}
		// one of the candidate folders (`cd .pi/extensions; echo >
		// "$PWD/e.ts"` writes in .pi/extensions, or where a failed cd left it)
		v := envVal("$PWD")
		if len(a.cwds) <= maxPWDAlts {
			for _, c := range a.cwds {
				v.alts = append(v.alts, cwdVal(c))
			}
		} else {
			v = dynVal("$PWD (one of many candidate folders)", false)
		}
		return v, true
	case "OLDPWD":
		if a.oldpwd != "" {
			return knownVal(a.oldpwd), true
		}
	case "IFS":
		if a.ifsUnset {
			return knownVal(""), true
		}
		return knownVal(a.ifs), true
	}
	return pval{}, false
}

func (a *shellAnalyzer) arrayElem(name string, idx syntax.ArithmExpr, why string) (pval, bool) {
	arr, ok := a.arrays[name]
	if !ok {
		if v, ok := a.vars[name]; ok {
			if w, ok := idx.(*syntax.Word); ok && (w.Lit() == "0" || w.Lit() == "@" || w.Lit() == "*") {
				return v, true
			}
		}
		return dynVal(why, true), false
	}
	w, ok := idx.(*syntax.Word)
	if !ok {
		return dynVal(why, true), true
	}
	switch l := w.Lit(); l {
	case "@", "*":
		if len(arr) == 1 {
			return arr[0], true
		}
		return dynVal(why, true), true
	default:
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 || n >= len(arr) {
			return dynVal(why, true), true
		}
		for _, e := range arr[:n+1] {
			if e.f.multi {
				return dynVal(why, true), true // a glob or split value before: positions unknown
			}
		}
		return arr[n], true
	}
}

// paramOp applies ${x:-w}, ${x#p}, ${x^^} and their kin.
func (a *shellAnalyzer) paramOp(e *syntax.Expansion, base pval, set bool, why string) []pval {
	word := func() []pval {
		if e.Word == nil {
			return []pval{knownVal("")}
		}
		var out []pval
		for _, f := range a.resolve(e.Word, true) {
			if f.pattern() {
				out = append(out, pval{f: f})
			} else {
				out = append(out, knownVal(f.s))
			}
		}
		if len(out) == 0 {
			out = []pval{knownVal("")}
		}
		return out
	}
	switch e.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		switch {
		case base.known && !base.empty:
			return []pval{base}
		case base.empty && set && (e.Op == syntax.DefaultUnset || e.Op == syntax.AssignUnset):
			return []pval{base}
		case base.empty || !set && !positionalOrEnv(base):
			return word()
		}
		return append([]pval{base}, word()...) // unknown: either
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return []pval{base}
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		switch {
		case base.known && !base.empty:
			return word()
		case base.empty:
			return []pval{knownVal("")}
		}
		return append([]pval{knownVal("")}, word()...)
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if base.known && isASCII(base.f.s) && len(base.f.s) <= maxPatternValue {
			if pat, ok := a.patternWord(e.Word); ok {
				if m, ok := a.compileShellPattern(pat); ok {
					return []pval{knownVal(trimShellPattern(base.f.s, m, e.Op))}
				}
			}
		}
		if base.empty && set {
			return []pval{base}
		}
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		if base.known && isASCII(base.f.s) {
			if e.Word == nil {
				return []pval{knownVal(caseShellPattern(base.f.s, nil, e.Op))}
			}
			if pat, ok := a.patternWord(e.Word); ok {
				if m, ok := a.compileShellPattern(pat); ok {
					return []pval{knownVal(caseShellPattern(base.f.s, &m, e.Op))}
				}
			}
		}
	}
	return []pval{dynVal(why, true)}
}

// replaceParam applies ${x/p/r} (and //, /#, /%) to a known value.
func (a *shellAnalyzer) replaceParam(s string, rp *syntax.Replace) (string, bool) {
	pat, ok := a.patternWord(rp.Orig)
	if !ok {
		return "", false
	}
	start, end := false, false
	switch {
	case strings.HasPrefix(pat, "#"):
		start, pat = true, pat[1:]
	case strings.HasPrefix(pat, "%"):
		end, pat = true, pat[1:]
	}
	if strings.Contains(a.text(rp.With), "&") {
		return "", false // bash 5.2's patsub_replacement puts the match in place of &
	}
	to, ok := a.literalWord(rp.With)
	if !ok {
		return "", false
	}
	if pat == "" && !start && !end {
		return s, true
	}
	m, ok := a.compileShellPattern(pat)
	if !ok {
		return "", false
	}
	return replaceShellPattern(s, m, to, rp.All, start, end), true
}

func positionalOrEnv(v pval) bool { return v.f.dyn || v.f.unk }

// literalWord returns the text of a word that holds no expansion.
func (a *shellAnalyzer) literalWord(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	fs := a.resolve(w, true)
	if len(fs) != 1 || fs[0].unk || fs[0].dyn {
		return "", false
	}
	return fs[0].text(), true
}

// sliceValue implements ${x:offset:length} for literal numbers.
func sliceValue(s string, sl *syntax.Slice) (string, bool) {
	num := func(e syntax.ArithmExpr) (int, bool) {
		switch x := e.(type) {
		case *syntax.Word:
			n, err := strconv.Atoi(x.Lit())
			return n, err == nil
		case *syntax.UnaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && x.Op == syntax.Minus {
				n, err := strconv.Atoi(w.Lit())
				return -n, err == nil
			}
		case *syntax.ParenArithm:
			if w, ok := x.X.(*syntax.Word); ok {
				n, err := strconv.Atoi(w.Lit())
				return n, err == nil
			}
			if u, ok := x.X.(*syntax.UnaryArithm); ok && u.Op == syntax.Minus {
				if w, ok := u.X.(*syntax.Word); ok {
					n, err := strconv.Atoi(w.Lit())
					return -n, err == nil
				}
			}
		}
		return 0, false
	}
	r := []rune(s)
	off, ok := num(sl.Offset)
	if !ok {
		return "", false
	}
	if off < 0 {
		off += len(r)
	}
	off = max(0, min(off, len(r)))
	end := len(r)
	if sl.Length != nil {
		n, ok := num(sl.Length)
		if !ok {
			return "", false
		}
		if n < 0 {
			end = len(r) + n
		} else {
			end = off + n
		}
		end = max(off, min(end, len(r)))
	}
	return string(r[off:end]), true
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

// unescapeANSI interprets the escapes of a $'…' string: \n and friends,
// \xHH, \uHHHH, \UHHHHHHHH, octal \NNN, control characters \cX.
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
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
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
		case 'u', 'U':
			width := 4
			if s[i] == 'U' {
				width = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+width && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 32); err == nil && j > i+1 {
				b.WriteRune(rune(n))
				i = j - 1
			} else {
				b.WriteByte('\\')
				b.WriteByte(s[i])
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

// subField returns the part of f after its first n bytes, which are literal
// (an option name such as `--file=`).
func subField(f field, n int) field {
	if !f.pattern() {
		return litField(f.s[min(n, len(f.s)):])
	}
	if f.dyn {
		out := f
		out.lead = ""
		return out
	}
	n = min(n, len(f.lead))
	skip := len(escapeGlob(f.lead[:n]))
	out := f
	out.s = f.s[min(skip, len(f.s)):]
	out.lead = f.lead[n:]
	out.onlyUnk = countLits(out.s) == 0 && (out.unk || out.dyn)
	return out
}

// optText is the text option parsing reads: the field's text when known,
// its literal lead otherwise.
func optText(f field) string {
	if !f.pattern() {
		return f.s
	}
	return f.lead
}

// wordLit is an arithmetic index's literal text ("" when it is not one).
func wordLit(e syntax.ArithmExpr) string {
	if w, ok := e.(*syntax.Word); ok {
		return w.Lit()
	}
	return ""
}

// hasParamExp reports whether a word has a parameter expansion of its
// own (not inside a command substitution).
func hasParamExp(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.ParamExp:
			return true
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.ParamExp); ok {
					return true
				}
			}
		}
	}
	return false
}

// hasRepoTop reports whether a word has a `$(git rev-parse
// --show-toplevel)` of its own whose value is one of a few folders (see
// repoTopValue): a command given it is walked once per folder.
func (a *shellAnalyzer) hasRepoTop(w *syntax.Word) bool {
	for _, p := range w.Parts {
		parts := []syntax.WordPart{p}
		if q, ok := p.(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
		for _, q := range parts {
			if x, ok := q.(*syntax.CmdSubst); ok {
				if _, ok := a.repoTopValue(x); ok {
					return true
				}
			}
		}
	}
	return false
}
