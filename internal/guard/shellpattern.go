package guard

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// Shell patterns in parameter expansions (${x#p}, ${x%p}, ${x/p/r},
// ${x^^p}) are matched as bash matches them, with the pattern compiler of
// mvdan.cc/sh (the parser's own library): quoted parts are literal,
// unquoted expanded values are patterns. A pattern the analysis cannot
// build exactly (an unknown value in it, extended globs, a long value)
// makes the expansion unknown.

// maxPatternValue bounds the values patterns are applied to (the matching
// tries every substring).
const maxPatternValue = 512

// shellMatcher matches whole strings against one shell pattern.
type shellMatcher struct {
	re *regexp.Regexp
}

func (m shellMatcher) match(s string) bool { return m.re.MatchString(s) }

// patternWord builds the pattern text of w; false when a part of it is
// not known exactly.
func (a *shellAnalyzer) patternWord(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	var add func(p syntax.WordPart, quoted bool) bool
	add = func(p syntax.WordPart, quoted bool) bool {
		switch x := p.(type) {
		case *syntax.Lit:
			if quoted {
				b.WriteString(pattern.QuoteMeta(unescapeDQ(x.Value), 0))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.SglQuoted:
			v := x.Value
			if x.Dollar {
				v = unescapeANSI(v)
			}
			b.WriteString(pattern.QuoteMeta(v, 0))
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if !add(q, true) {
					return false
				}
			}
		case *syntax.ParamExp:
			vals := a.param(x)
			if len(vals) != 1 || !vals[0].known {
				return false
			}
			if quoted {
				b.WriteString(pattern.QuoteMeta(vals[0].f.s, 0))
			} else {
				b.WriteString(vals[0].f.s)
			}
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !add(p, false) {
			return "", false
		}
	}
	return b.String(), true
}

// compileShellPattern compiles a bash pattern (extglob off): false for one
// the analysis does not take as exact.
func (a *shellAnalyzer) compileShellPattern(pat string) (shellMatcher, bool) {
	if a.nocase || strings.Contains(pat, "(") && strings.ContainsAny(pat, "@!+*?") {
		return shellMatcher{}, false // nocasematch, extended globs: not modelled
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return shellMatcher{}, false
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return shellMatcher{}, false
	}
	return shellMatcher{re: re}, true
}

// trimShellPattern implements ${x#p}, ${x##p}, ${x%p}, ${x%%p}.
func trimShellPattern(s string, m shellMatcher, op syntax.ParExpOperator) string {
	switch op {
	case syntax.RemSmallPrefix:
		for i := 0; i <= len(s); i++ {
			if m.match(s[:i]) {
				return s[i:]
			}
		}
	case syntax.RemLargePrefix:
		for i := len(s); i >= 0; i-- {
			if m.match(s[:i]) {
				return s[i:]
			}
		}
	case syntax.RemSmallSuffix:
		for i := len(s); i >= 0; i-- {
			if m.match(s[i:]) {
				return s[:i]
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= len(s); i++ {
			if m.match(s[i:]) {
				return s[:i]
			}
		}
	}
	return s
}

// replaceShellPattern implements ${x/p/r}, ${x//p/r}, ${x/#p/r},
// ${x/%p/r}: the longest match at the leftmost place (anchored at the
// start or the end for # and %), every one for //.
func replaceShellPattern(s string, m shellMatcher, to string, all, start, end bool) string {
	switch {
	case start:
		for j := len(s); j >= 0; j-- {
			if m.match(s[:j]) {
				return to + s[j:]
			}
		}
		return s
	case end:
		for i := 0; i <= len(s); i++ {
			if m.match(s[i:]) {
				return s[:i] + to
			}
		}
		return s
	}
	var b strings.Builder
	i := 0
	replaced := false
	for i < len(s) {
		j := -1
		for k := len(s); k > i; k-- {
			if m.match(s[i:k]) {
				j = k
				break
			}
		}
		if j < 0 || (replaced && !all) {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(to)
		i = j
		replaced = true
		if !all {
			b.WriteString(s[i:])
			return b.String()
		}
	}
	return b.String()
}

// caseShellPattern implements ${x^p}, ${x^^p}, ${x,p}, ${x,,p}: the
// characters the pattern matches (every one without a pattern) change case.
func caseShellPattern(s string, m *shellMatcher, op syntax.ParExpOperator) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i : i+1]
		if (m == nil || m.match(c)) && (i == 0 || op == syntax.UpperAll || op == syntax.LowerAll) {
			if op == syntax.UpperFirst || op == syntax.UpperAll {
				c = strings.ToUpper(c)
			} else {
				c = strings.ToLower(c)
			}
		}
		b.WriteString(c)
	}
	return b.String()
}

// isASCII reports whether s is ASCII (byte and character offsets agree,
// case changes are the locale's in every locale).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
