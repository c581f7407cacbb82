package guard

import "strings"

// zsh's word syntax the analysis does not evaluate. Claude Code runs a
// Bash call in the user's shell, zsh on macOS, so a word means what zsh
// makes of it too:
//   - in a script that parsed as zsh only, `(…)` in an unquoted word is a
//     glob group or qualifier (`.e(n)v`, `.env(.)`, `.e?v(N)` match
//     `.env`); a qualifier may run code (`*(e:'cmd':)`, `*(+func)`);
//   - `$~x` globs x's value in zsh (bash reads the text as it stands).
// Each is a glob that may match anything, a hidden name included; a
// qualifier that may run code is unverifiable (see reevalStmt).

// zshGlob handles zsh glob syntax at s[i] for one field and returns the
// bytes it took (0: none).
func (r *resolver) zshGlob(fb *fieldBuilder, s string, i int) int {
	c := s[i]
	switch {
	case r.a.extGlob && (i > 0 && c == '#' || c == '^' || i > 0 && c == '~'):
		fb.unknownChars("a zsh extended glob operator", false)
		fb.glob, fb.multi, fb.dotOK = true, true, true
		if c == '#' {
			return 1
		}
		return len(s) - i // ^x negates, ~x excludes: what is left may be anything
	case c == '$' && i+1 < len(s) && s[i+1] == '~':
		j := i + 2
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		if j == i+2 {
			return 0
		}
		fb.unknownChars("$~"+s[i+2:j]+" (zsh globs the value)", false)
		fb.glob, fb.multi, fb.dotOK = true, true, true
		return j - i
	case c == '(' && r.a.zsh:
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '(' {
				depth++
			} else if s[j] == ')' {
				depth--
				if depth == 0 {
					j++
					break
				}
			}
		}
		fb.unknownChars("a zsh glob group or qualifier", false)
		fb.glob, fb.multi, fb.dotOK = true, true, true
		return j - i
	}
	return 0
}

// zshQualifierCode: an unquoted `(` in a zsh word whose group may be a
// glob qualifier that runs code (e:…:, e'…', +func).
func zshQualifierCode(lits []string) bool {
	rest := strings.Join(lits, "")
	i := strings.IndexByte(rest, '(')
	if i < 0 {
		return false
	}
	q := rest[i+1:]
	return strings.ContainsAny(q, "e+")
}

// zshQualifierRuns: qualifiers that run code — e with a delimiter (e:…:,
// e'…') or +NAME.
func zshQualifierRuns(q string) bool {
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '+':
			return true
		case 'e':
			if i+1 < len(q) && !isIdentByte(q[i+1]) && q[i+1] != '|' && q[i+1] != ')' {
				return true
			}
		}
	}
	return false
}

// optionText is a script's text as zsh matches option names: case and
// underscores do not count (setopt G_LOB_DOTS is GLOB_DOTS).
func optionText(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "_", "")
}

// extGlobIn: the script may turn on zsh's EXTENDED_GLOB, under which #, ^
// and ~ in a word are glob operators (.en#v, .e^x match .env).
func extGlobIn(s string) bool {
	return strings.Contains(optionText(s), "extendedglob")
}
