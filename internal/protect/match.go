package protect

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// compiled is an Entry prepared for one Env: its pattern segments (case
// folded unless case-sensitive), with a leading "**" for bare entries.
type compiled struct {
	entry *Entry
	segs  []string
	globs []bool // segs[i] holds glob syntax
	bare  bool   // matched at any depth (no leading `/` or `~/`)
	ok    bool   // false: the entry cannot match in this Env (e.g. `~` without a home)
}

// Matcher matches calls against Rules in one Env. Build it with
// Rules.Matcher; it is safe for concurrent use (it holds no mutable state).
type Matcher struct {
	rules   *Rules
	env     Env
	entries []compiled
}

// Matcher compiles the rules for env: home entries are expanded with
// env.Home, Windows spellings folded when env.Cwd is a Windows path.
func (r *Rules) Matcher(env Env) *Matcher {
	m := &Matcher{rules: r, env: env, entries: make([]compiled, len(r.Entries))}
	for i := range r.Entries {
		m.entries[i] = compileEntry(&r.Entries[i], env)
	}
	return m
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
	case strings.HasPrefix(p, "/"), p == "~", strings.HasPrefix(p, "~/"),
		strings.HasPrefix(p, "$HOME"), strings.HasPrefix(p, "${HOME}"), strings.HasPrefix(p, "%USERPROFILE%"):
		return true
	case len(p) >= 2 && isLetter(p[0]) && p[1] == ':':
		return true
	}
	return false
}

func compileEntry(e *Entry, env Env) compiled {
	c := compiled{entry: e, ok: true}
	p := strings.ReplaceAll(e.Path, `\`, "/")
	if isAnchored(p) {
		if env.Home == "" && (strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "%")) {
			c.ok = false
			return c
		}
		c.segs = splitSegs(normalize(env, p, modeRule, false))
	} else {
		p = strings.TrimPrefix(p, "./")
		c.bare = true
		c.segs = []string{"**"}
		for s := range strings.SplitSeq(p, "/") {
			if s != "" && s != "." {
				c.segs = append(c.segs, s)
			}
		}
	}
	c.globs = make([]bool, len(c.segs))
	for i, s := range c.segs {
		if !env.CaseSensitive {
			s = strings.ToLower(s)
			c.segs[i] = s
		}
		c.globs[i] = strings.ContainsAny(s, "*?[{")
	}
	return c
}

// pathSegs is a normalised path split for matching; pattern paths hold
// doublestar syntax with literal metacharacters escaped by `\`.
type pathSegs struct {
	segs    []string
	pattern bool
}

func (m *Matcher) split(p string, pattern bool) pathSegs {
	if !m.env.CaseSensitive {
		p = strings.ToLower(p)
	}
	return pathSegs{segs: splitSegs(p), pattern: pattern}
}

// matchEntry reports whether the entry names the path or one of its
// ancestors (the path is the protected file or lies inside it). For pattern
// paths it reports whether the pattern could match such a path.
func matchEntry(c *compiled, ps pathSegs) bool {
	if !c.ok {
		return false
	}
	pat, path := c.segs, ps.segs
	np, ns := len(pat), len(path)
	// reach[i*(ns+1)+j]: pat[:i] can match path[:j].
	reach := make([]bool, (np+1)*(ns+1))
	leadUnknown := ns > 1 && path[1] == unknownSeg
	idx := func(i, j int) int { return i*(ns+1) + j }
	reach[0] = true
	for i := 0; i <= np; i++ {
		for j := 0; j <= ns; j++ {
			if !reach[idx(i, j)] {
				continue
			}
			if i == np {
				return true // the entry is consumed: path[:j] is the entry, the rest is inside it
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
			if ps.pattern && (seg == unknownSeg || seg == "**") {
				reach[idx(i, j+1)] = true // zero segments
				// An unknown prefix (`$X/…`) may stand for directories but
				// not for the protected name itself; a `**` glob does not
				// descend into dot directories.
				if seg == unknownSeg && i < np-1 || seg == "**" && !(strings.HasPrefix(pat[i], ".") && !c.globs[i]) {
					reach[idx(i+1, j)] = true // absorb one more pattern segment
				}
				continue
			}
			if ps.pattern && pureWildcard(seg) && !c.globs[i] && (c.bare || i == np-1 && leadUnknown) {
				// `dir/*` names everything in dir, not a bare protected name;
				// `$X/$Y` names nothing in particular
				continue
			}
			if segMatch(pat[i], c.globs[i], seg, ps.pattern) {
				reach[idx(i+1, j+1)] = true
			}
		}
	}
	return false
}

// segMatch matches one entry segment p against one path segment s. When
// sPattern is set, s is a glob: it matches when it could expand to p, with the
// shell rule that a leading `.` must be matched literally.
func segMatch(p string, pGlob bool, s string, sPattern bool) bool {
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
	sp := strings.ReplaceAll(s, string(unknownRune), "*")
	valid := doublestar.ValidatePattern(sp)
	if !pGlob {
		if strings.HasPrefix(p, ".") && startsWithGlob(s) {
			return false
		}
		if !valid {
			return unescapeGlob(s) == p
		}
		return doublestar.MatchUnvalidated(sp, p)
	}
	if doublestar.MatchUnvalidated(p, s) {
		return true
	}
	return valid && doublestar.MatchUnvalidated(sp, p)
}

// hasMeta reports whether a pattern segment has an unescaped glob
// metacharacter or an unknown-expansion marker.
func hasMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return strings.ContainsRune(s, unknownRune)
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

// unescapeGlob removes the `\` escapes of a pattern segment.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
