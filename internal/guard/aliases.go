package guard

import "strings"

// aliasText is the text bash runs for an alias used with arguments: the
// alias's value with the words after the name appended (`alias
// ls='cp /tmp/a'` then `ls .pi/settings.json` runs `cp /tmp/a
// .pi/settings.json`; pass 22: the value used to be read alone, and the
// words only as ls's operands). A known word is quoted back as it is; a
// pattern (a glob, a value known only at run time) is given as written,
// so that it expands in the alias's command as it would have.
//
// An alias whose value ends in a blank makes bash check the next word for
// an alias too (`alias x='cp /tmp/a '; alias y=.pi/settings.json; x y`):
// a next word the command defined as an alias is replaced by its value,
// and so on while the values end in a blank.
func aliasText(body string, args []arg, aliases map[string]string) string {
	if len(args) == 0 {
		return body
	}
	var b strings.Builder
	b.WriteString(body)
	for k := 0; k < maxScriptDepth && (strings.HasSuffix(body, " ") || strings.HasSuffix(body, "\t")); k++ {
		v, ok := aliases[args[0].f.s]
		if !ok || args[0].f.pattern() {
			break
		}
		b.WriteString(" " + v)
		body, args = v, args[1:]
		if len(args) == 0 {
			return b.String()
		}
	}
	prev := ""
	for _, ar := range args {
		if ar.f.pattern() {
			if ar.raw == prev {
				continue // one word written ("${a[@]}", $x) that gave several fields
			}
			prev = ar.raw
			b.WriteString(" " + ar.raw)
			continue
		}
		prev = ""
		b.WriteString(" " + quoteField(ar.f))
	}
	return b.String()
}
