package guard

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// compiled is an Entry prepared for one Env: its pattern segments (folded
// for matching), with a leading "**" for bare entries. A bare entry also
// gets atCwd, its path anchored at the cwd: where reasoning without a file
// system assumes the protected file lives (a project's `.env` is at its
// root).
type compiled struct {
	entry *Entry
	segs  []string
	globs []bool // segs[i] holds glob syntax
	bare  bool   // matched at any depth (no leading `/` or `~/`)
	dir   bool   // written with a trailing `/`: a directory
	file  bool   // Entry.File: nothing below it is the entry's
	ok    bool   // false: the entry cannot match in this Env (`~` without a home)
	atCwd *compiled
}

// Matcher matches calls against Rules in one Env. Build it with
// Rules.Matcher; it is safe for concurrent use (it holds no mutable state).
type Matcher struct {
	rules   *Rules
	env     Env
	entries []compiled
	denies  OpSet // union of every entry's deny ops
}

// Matcher compiles the rules for env: home entries are expanded with
// env.Home, Windows spellings folded when env.Cwd is a Windows path.
func (r *Rules) Matcher(env Env) *Matcher {
	cwd := cleanCwd(env)
	if env.FS != nil {
		// a file system that does not hold the call's volume (a Windows
		// session checked on Linux)
		// (or has no such cwd: the call did not run on it) knows nothing
		// about it
		vol, _ := splitVolume(cwd, env.windows())
		if _, err := env.FS.Lstat(vol + "/"); err != nil {
			env.FS = nil
		} else if !cwdIsDir(env.FS, cwd, env.windows()) {
			env.FS = nil
		}
	}
	m := &Matcher{rules: r, env: env, entries: make([]compiled, len(r.Entries))}
	for i := range r.Entries {
		m.entries[i] = compileEntry(&r.Entries[i], env, cwd)
		m.denies |= r.Entries[i].Deny
	}
	return m
}

// cwdIsDir reports whether the normalised absolute path p is a folder
// on fsys once its symlinks are resolved: a cwd reached through a symlink
// (macOS's /tmp, a linked checkout, `ln -s ~ /tmp/h && cd /tmp/h`) is a
// folder the calls run in; reading it with Lstat alone turned the disk off
// for every call there (symlinks, folder searches).
func cwdIsDir(fsys FS, p string, win bool) bool {
	if fi, err := fsys.Lstat(p); err == nil && fi.IsDir() {
		return true
	}
	r, changed, ok := resolveLinks(fsys, p, win)
	if !ok || !changed {
		return false
	}
	fi, err := fsys.Lstat(r)
	return err == nil && fi.IsDir()
}

// CwdIsDir is cwdIsDir for a cwd as given (normalised first).
func CwdIsDir(fsys FS, cwd string) bool {
	env := Env{Cwd: cwd}
	return cwdIsDir(fsys, cleanCwd(env), env.windows())
}

// Env returns the environment the matcher was built for.
func (m *Matcher) Env() Env { return m.env }

// Rules returns the rules the matcher was built from.
func (m *Matcher) Rules() *Rules { return m.rules }

// isAnchored reports whether a rule path is absolute or home-relative
// (matched by prefix) rather than bare (matched as segments at any depth).
func isAnchored(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(p, "/"), p == "~", strings.HasPrefix(p, "~/"), hasDrive(p):
		return true
	}
	for _, pre := range homePrefixes()[1:] {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	for _, pre := range homePrefixesFold() {
		if len(p) >= len(pre) && strings.EqualFold(p[:len(pre)], pre) {
			return true
		}
	}
	return false
}

func compileEntry(e *Entry, env Env, cwd string) compiled {
	c := compiled{entry: e, ok: true, file: e.File}
	p := strings.ReplaceAll(e.Path, `\`, "/")
	c.dir = strings.HasSuffix(p, "/")
	if isAnchored(p) {
		if env.Home == "" && !strings.HasPrefix(p, "/") && !hasDrive(p) {
			c.ok = false
			return c
		}
		n, _ := normalize(env, p, spellRule, true)
		c.segs = splitSegs(n)
	} else {
		p = strings.TrimPrefix(p, "./")
		c.bare = true
		c.segs = []string{"**"}
		for s := range strings.SplitSeq(p, "/") {
			if s != "" && s != "." {
				c.segs = append(c.segs, s)
			}
		}
		at := compiled{entry: e, ok: true, dir: c.dir, file: c.file}
		at.segs = append(splitSegs(escapeGlob(cwd)), c.segs[1:]...)
		c.atCwd = &at
		foldSegs(&at, env.CaseSensitive)
	}
	foldSegs(&c, env.CaseSensitive)
	return c
}

func foldSegs(c *compiled, caseSensitive bool) {
	c.globs = make([]bool, len(c.segs))
	for i, s := range c.segs {
		s = foldKey(s, caseSensitive)
		c.segs[i] = s
		c.globs[i] = strings.ContainsAny(s, "*?[{")
	}
}

// pathSegs is a normalised path split for matching; pattern paths hold
// doublestar syntax with literal metacharacters escaped by `\`.
type pathSegs struct {
	segs    []string
	pattern bool
	// dotOK: globs may match a leading `.` (dotglob, `rg --hidden`, a tool
	// that lists hidden files).
	dotOK bool
	// shellGlob: the path's own wildcards are the shell's, which match a
	// leading `.` only literally, whatever dotOK says of what lies below
	// (a recursion into `*` reads hidden names below each match).
	shellGlob bool
}

func (m *Matcher) split(p string, pattern, dotOK bool) pathSegs {
	segs := splitSegs(p)
	for i, s := range segs {
		segs[i] = foldKey(s, m.env.CaseSensitive)
		if pattern {
			segs[i] = bracketClasses(segs[i])
		}
	}
	return pathSegs{segs: segs, pattern: pattern, dotOK: dotOK}
}

// matchMode says what a match must show.
type matchMode uint8

const (
	// inside: the path is the entry's path or lies inside it.
	inside matchMode = iota
	// holds: the path is the entry's path, lies inside it, or is one of its
	// ancestors (a folder that holds it).
	holds
)

// matchEntry reports whether the entry names the path or one of its
// ancestors (mode inside), or also a descendant (mode holds). For pattern
// paths it reports whether the pattern could match such a path.
func matchEntry(c *compiled, ps pathSegs, mode matchMode, wild bool) bool {
	if !c.ok {
		return false
	}
	if mode == inside && !literalsPresent(c, ps) {
		return false
	}
	return matchTable(c, ps, mode, wild)
}

// literalsPresent is false only when matchTable cannot match the path in
// mode inside, where every entry segment but `**` must be matched by a path
// segment: for a plain path (no pattern), a literal entry segment (no glob
// syntax) only by an equal segment, so each must be one of the path's; for
// a pattern path, whose unknown runs and `**` may stand for the entry's
// folders, the last entry segment, when literal, must still be matched: by
// a `**`, a glob, or an equal name (an unknown run never matches it). Most calls name none of the
// protected names, and this answers them without the table
// (TestLiteralsPresentIsExact).
func literalsPresent(c *compiled, ps pathSegs) bool {
	if ps.pattern {
		last := len(c.segs) - 1
		if last < 0 || c.globs[last] || c.segs[last] == "**" {
			return true
		}
		name := c.segs[last]
		for _, s := range ps.segs {
			switch {
			case s == name:
				return true
			case s == unknownSeg:
				// stands for folders, never for the entry's own name
			case s == unknownCwd:
				if c.dir {
					return true // a working folder named at run time may be the entry's folder
				}
			case special(s) && (hasMeta(s) || unescapeGlob(s) == name):
				return true // a glob (or `**`) is left to the table
			}
		}
		return false
	}
	path := ps.segs
	// the last segments first: the protected name, the rarest
	for i := len(c.segs) - 1; i >= 0; i-- {
		p := c.segs[i]
		if c.globs[i] || p == "**" {
			continue
		}
		found := false
		for _, s := range path {
			if s == p {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// special reports whether s holds a byte of glob syntax, an escape or the
// first byte of an unknown character: a segment without one is a plain name.
func special(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '*', '?', '[', unknownStr[0]:
			return true
		}
	}
	return false
}

// matchTable is matchEntry's dynamic programme over entry and path segments.
func matchTable(c *compiled, ps pathSegs, mode matchMode, wild bool) bool {
	pat, path := c.segs, ps.segs
	np, ns := len(pat), len(path)
	// reach[i*(ns+1)+j]: pat[:i] can match path[:j]. It is called for
	// every entry and every path the analysis meets: a short path's table
	// stays on the stack.
	var buf [256]bool
	var reach []bool
	if n := (np + 1) * (ns + 1); n <= len(buf) {
		reach = buf[:n]
	} else {
		reach = make([]bool, n)
	}
	idx := func(i, j int) int { return i*(ns+1) + j }
	reach[0] = true
	for i := 0; i <= np; i++ {
		for j := 0; j <= ns; j++ {
			if !reach[idx(i, j)] {
				continue
			}
			if i == np {
				if !c.file || zeroSegs(ps, j) {
					return true // the entry is consumed: path[:j] is the entry, the rest is inside it
				}
				continue // a program file holds nothing: a path below it is not the entry
			}
			if mode == holds && j == ns && j > 0 && !c.bare && (ps.dotOK || !dotSegs(pat[i:])) {
				return true // the path is consumed: it is an ancestor of the entry
			}
			if pat[i] == "**" {
				reach[idx(i+1, j)] = true
				if j < ns {
					reach[idx(i, j+1)] = true
				}
				continue
			}
			if j == ns {
				continue
			}
			seg := path[j]
			if ps.pattern && (isUnknownSeg(seg) || seg == "**") {
				reach[idx(i, j+1)] = true // zero segments
				// An unknown run of directories may stand for directories
				// but not for the protected name itself, unless it is a
				// working folder named at run time (unknownCwd) with a
				// name below it: that folder may be a directory entry's
				// own (`cd "$x"; echo > e.ts` may write in .pi/extensions/);
				// a `**` glob does not descend into dot directories unless
				// dot files are in.
				if isUnknownSeg(seg) && i < np-1 || seg == unknownCwd && i == np-1 && c.dir && j < ns-1 ||
					seg == "**" && (ps.dotOK && !ps.shellGlob || !(strings.HasPrefix(pat[i], ".") && !c.globs[i])) {
					reach[idx(i+1, j)] = true // absorb one more entry segment
				}
				continue
			}
			if ps.pattern && !wild && pureWildcard(seg) && !c.globs[i] && c.bare {
				// `dir/*` names everything in dir, not a bare protected
				// name (see atCwd for the reasoning that does count it)
				continue
			}
			if i == np-1 && j < ns-1 && !c.dir && ps.pattern && strings.ContainsRune(seg, unknownRune) {
				// an unknown folder name is not taken to be a protected file
				// with something inside it (`$X/README.md` is not `.env/…`)
				continue
			}
			if segMatch(pat[i], c.globs[i], seg, ps.pattern, ps.dotOK && !ps.shellGlob) {
				reach[idx(i+1, j+1)] = true
			}
		}
	}
	return false
}

// zeroSegs reports whether the path's segments from j on may be none at
// all (a pattern's `**` or unknown runs), so that it may end at j.
func zeroSegs(ps pathSegs, j int) bool {
	for _, s := range ps.segs[j:] {
		if !ps.pattern || !isUnknownSeg(s) && s != "**" {
			return false
		}
	}
	return true
}

// segMatch matches one entry segment p against one path segment s. When
// sPattern is set, s is a glob: it matches when it could expand to p, with the
// shell rule that a leading `.` must be matched literally (unless dotOK).
func segMatch(p string, pGlob bool, s string, sPattern, dotOK bool) bool {
	if !sPattern || !hasMeta(s) {
		lit := s
		if sPattern {
			lit = unescapeGlob(s)
		}
		if !pGlob {
			return p == lit
		}
		return doublestar.MatchUnvalidated(p, lit)
	}
	sp := strings.ReplaceAll(s, unknownStr, "*")
	valid := doublestar.ValidatePattern(sp)
	if !pGlob {
		if !dotOK && strings.HasPrefix(p, ".") && startsWithGlob(s) {
			return false
		}
		if !valid {
			return true // a pattern the analysis cannot read could match anything
		}
		return doublestar.MatchUnvalidated(sp, p)
	}
	if doublestar.MatchUnvalidated(p, unescapeGlob(s)) {
		return true
	}
	if !valid {
		return true
	}
	// both are globs: they may overlap; test the entry's literal skeleton
	// against the path pattern and the reverse
	return doublestar.MatchUnvalidated(sp, globSkeleton(p)) || doublestar.MatchUnvalidated(p, globSkeleton(sp)) || overlapByWildcards(p, sp)
}

// globSkeleton replaces each wildcard of a pattern by a plausible literal
// (`*` by nothing, `?` by `x`), escapes removed: a string the pattern matches.
func globSkeleton(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '*':
		case '?':
			b.WriteByte('x')
		case '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			set := p[i+1 : i+1+j]
			set = strings.TrimLeft(set, "!^")
			if set != "" {
				b.WriteByte(set[0])
			} else {
				b.WriteByte('x')
			}
			i += j + 1
		case '{':
			j := strings.IndexByte(p[i+1:], '}')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			alt, _, _ := strings.Cut(p[i+1:i+1+j], ",")
			b.WriteString(alt)
			i += j + 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// overlapByWildcards reports whether two glob segments could match a common
// name, judged by their literal prefixes and suffixes (conservative: true
// when neither rules the other out).
func overlapByWildcards(a, b string) bool {
	pa, sa := litEnds(a)
	pb, sb := litEnds(b)
	if !strings.HasPrefix(pa, pb) && !strings.HasPrefix(pb, pa) {
		return false
	}
	if !strings.HasSuffix(sa, sb) && !strings.HasSuffix(sb, sa) {
		return false
	}
	return true
}

// litEnds returns the literal text before the first and after the last
// metacharacter of a glob.
func litEnds(p string) (prefix, suffix string) {
	i := strings.IndexAny(p, "*?[{\\")
	if i < 0 {
		return p, p
	}
	j := strings.LastIndexAny(p, "*?]}")
	return p[:i], p[j+1:]
}

// pureWildcard reports whether a pattern segment holds only `*`, `?` and
// unknown-expansion markers: it then names no file in particular.
func pureWildcard(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '*' && r != '?' && r != unknownRune {
			return false
		}
	}
	return true
}

func startsWithGlob(s string) bool {
	return s != "" && (s[0] == '*' || s[0] == '?' || s[0] == '[')
}

// bracketClasses rewrites bracket expressions doublestar cannot read
// (POSIX classes `[[:punct:]]`, a leading `]`, equivalence classes) as `?`:
// any one character, which over-approximates them.
func bracketClasses(s string) string {
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			b.WriteByte(c)
			i++
			b.WriteByte(s[i])
			continue
		}
		if c != '[' {
			b.WriteByte(c)
			continue
		}
		// find the end of the bracket expression the shell's way
		j := i + 1
		if j < len(s) && (s[j] == '!' || s[j] == '^') {
			j++
		}
		if j < len(s) && s[j] == ']' {
			j++
		}
		odd := false
		for j < len(s) && s[j] != ']' {
			if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '=' || s[j+1] == '.') {
				odd = true
				if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
					j += k + 4
					continue
				}
			}
			j++
		}
		if j >= len(s) {
			b.WriteString(`\[`) // no closing bracket: a literal `[`
			continue
		}
		expr := s[i : j+1]
		if odd || strings.HasPrefix(expr, "[]") || strings.HasPrefix(expr, "[!]") || strings.HasPrefix(expr, "[^]") {
			b.WriteByte('?')
		} else {
			b.WriteString(expr)
		}
		i = j
	}
	return b.String()
}

// dotSegs reports whether any segment starts with a literal `.` (a hidden
// name that a recursion skipping hidden files does not reach).
func dotSegs(segs []string) bool {
	for _, s := range segs {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}
