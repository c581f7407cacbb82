package guard

import (
	"regexp"
	"strconv"
	"strings"
)

// awk output redirections whose target is not one string literal (pass
// 21): `print > f` (a variable, set by -v f=…, an operand f=… or the
// code), `print > ARGV[1]`, `print > FILENAME` (the operand files),
// `print > "out/" $1` (an expression). The literal targets are read as
// paths by the code scan; pipes (`print | EXPR`) by awkComputedCommand.

// awkTarget is one redirection's target: kind "literal", "operand"
// (FILENAME, ARGV[…]), "var" (name), or "expr".
type awkTarget struct {
	kind, name string
	// suffix, for an operand target: a string literal joined to it
	// (`print > FILENAME ".bak"`): the file written is the operand's name
	// followed by suffix (pass 22)
	suffix string
}

// awkRedirects lists the targets of the output redirections (> and >>)
// of the print and printf statements of masked awk code (literals
// blanked, quotes kept).
func awkRedirects(masked, prog string) []awkTarget {
	var out []awkTarget
	end := func(k int) bool {
		k = skipSpace(masked, k)
		return k >= len(masked) || strings.IndexByte(";\n}|)", masked[k]) >= 0
	}
	for i := 0; i < len(masked) && len(out) < maxCodePieces; i++ {
		if !strings.HasPrefix(masked[i:], "print") || i > 0 && isIdent(masked[i-1]) {
			continue
		}
		j := i + len("print")
		if strings.HasPrefix(masked[j:], "f") {
			j++
		}
		if j < len(masked) && isIdent(masked[j]) {
			continue
		}
		depth := 0
	scan:
		for ; j < len(masked); j++ {
			switch ch := masked[j]; {
			case ch == '(' || ch == '[':
				depth++
			case ch == ')' || ch == ']':
				depth--
				if depth < 0 {
					break scan
				}
			case depth == 0 && (ch == ';' || ch == '\n' || ch == '}' || ch == '|'):
				break scan
			case ch == '"':
				if e := strings.IndexByte(masked[j+1:], '"'); e >= 0 {
					j += e + 1
				}
			case depth == 0 && ch == '>':
				k := j + 1
				if k < len(masked) && masked[k] == '>' {
					k++
				}
				k = skipSpace(masked, k)
				t := awkTarget{kind: "expr"}
				switch {
				case k < len(masked) && masked[k] == '"':
					if e := strings.IndexByte(masked[k+1:], '"'); e >= 0 && end(k+e+2) {
						t.kind = "literal"
					}
				case k < len(masked) && isIdent(masked[k]) && !(masked[k] >= '0' && masked[k] <= '9'):
					e := k
					for e < len(masked) && isIdent(masked[e]) {
						e++
					}
					name := masked[k:e]
					after := -1 // where the operand's name ends
					switch {
					case name == "FILENAME":
						after = e
					case name == "ARGV":
						after = awkIndexEnd(masked, e)
					}
					switch {
					case after >= 0 && end(after):
						t = awkTarget{kind: "operand", name: name}
					case after >= 0:
						// joined to more text (`print > FILENAME ".json"`:
						// concatenation binds tighter than `>` in awk): one
						// plain string literal is a suffix of the operand's
						// name, anything else an expression (pass 22)
						if sfx, ok := awkLiteralSuffix(masked, prog, after, end); ok {
							t = awkTarget{kind: "operand", name: name, suffix: sfx}
						}
					case end(e):
						t = awkTarget{kind: "var", name: name}
					}
				}
				out = append(out, t)
				break scan
			}
		}
		i = j
	}
	return out
}

// awkOutputs checks the redirections of the awk programs: a target named
// by FILENAME or ARGV makes the operand files written (the result), one
// that joins a literal to them the operands' names with that suffix; one
// named by a variable is the -v/operand values given to it (vars), or
// the literals the code assigns it (read as paths by the code scan); any
// other is unverifiable.
func (c *cmd) awkOutputs(progs []string, raws []string, vars map[string][]field) (writesOperands bool, suffixes []string) {
	for n, prog := range progs {
		masked := maskSpans(prog, scanCode(prog, "awk").spans)
		for _, t := range awkRedirects(masked, prog) {
			switch t.kind {
			case "literal":
			case "operand":
				if t.suffix != "" {
					suffixes = append(suffixes, t.suffix)
				} else {
					writesOperands = true
				}
			case "var":
				vals, given := vars[t.name]
				for _, v := range vals {
					c.fileField(raws[n], v, setModify)
				}
				if lits, none := awkAssignsLiteralsOnly(masked, t.name); !lits && !(none && given) {
					c.a.unknown(raws[n], "the awk code writes to a file named by the variable "+t.name+" (`print > "+t.name+"`), which the analysis cannot see", SetRead|setModify)
				}
			default:
				c.a.unknown(raws[n], "the awk code writes to a file named by an expression computed when it runs (`print > EXPR`)", SetRead|setModify)
			}
		}
	}
	return writesOperands, suffixes
}

// awkAssignsLiteralsOnly: lits, every assignment to name in the masked
// code is of one string literal (and there is one); none, the code never
// changes name (its value is what -v or an operand gives).
func awkAssignsLiteralsOnly(masked, name string) (lits, none bool) {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(name) + `\s*(\[[^\]]*\]\s*)?([-+*/%^]?=)([^=]|$)`)
	locs := re.FindAllStringSubmatchIndex(masked, -1)
	q := regexp.QuoteMeta(name)
	// getline var, split/sub/gsub/match into it, for (var in …), var++
	other := regexp.MustCompile(`getline\s+` + q + `\b|\b(split|sub|gsub|gensub|match|patsplit)\s*\([^)]*\b` + q + `\b|for\s*\(\s*` + q + `\s+in\b|` + q + `\s*(\+\+|--)|(\+\+|--)\s*` + q + `\b`).MatchString(masked)
	if other {
		return false, false
	}
	if len(locs) == 0 {
		return false, true
	}
	for _, l := range locs {
		if masked[l[6]:l[7]] != "=" {
			return false, false
		}
		k := skipSpace(masked, l[7])
		if k >= len(masked) || masked[k] != '"' {
			return false, false
		}
		e := strings.IndexByte(masked[k+1:], '"')
		if e < 0 {
			return false, false
		}
		if r := skipSpace(masked, k+e+2); r < len(masked) && strings.IndexByte(";\n}", masked[r]) < 0 {
			return false, false
		}
	}
	return true, false
}

// awkIndexEnd: masked[e:] is a subscript `[…]` (after blanks); the
// index just past its `]`, or -1.
func awkIndexEnd(masked string, e int) int {
	k := skipSpace(masked, e)
	if k >= len(masked) || masked[k] != '[' {
		return -1
	}
	depth := 0
	for ; k < len(masked); k++ {
		switch masked[k] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return -1
}

// awkLiteralSuffix: after k (blanks skipped) comes one string literal
// that ends the target; its text (from the unmasked prog), without
// escapes.
func awkLiteralSuffix(masked, prog string, k int, end func(int) bool) (string, bool) {
	k = skipSpace(masked, k)
	if k >= len(masked) || masked[k] != '"' || len(prog) != len(masked) {
		return "", false
	}
	e := strings.IndexByte(masked[k+1:], '"')
	if e < 0 || !end(k+e+2) {
		return "", false
	}
	lit := prog[k+1 : k+1+e]
	if strings.ContainsAny(lit, "\\\"") {
		return "", false
	}
	return lit, true
}

// awkSuffixed: the operand args[i] joined to each suffix (`print >
// FILENAME ".json"` on .pi/settings writes .pi/settings.json) is written.
func (c *cmd) awkSuffixed(i int, suffixes []string) {
	f := c.args[i].f
	for _, sfx := range suffixes {
		if f.pattern() {
			c.a.unknown(c.args[i].raw, "the awk code writes to the name of an operand known only when the command runs, followed by "+strconv.Quote(sfx), SetRead|setModify)
			continue
		}
		c.fileField(c.args[i].raw, litField(f.s+sfx), setModify)
	}
}
