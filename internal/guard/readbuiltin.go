package guard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The read builtin, as bash runs it: one record up to the delimiter (-d,
// a newline by default; -n N stops earlier, -N N reads exactly N
// characters and does not split), backslash escapes and line
// continuations unless -r, words split on IFS (the IFS of a prefix
// assignment too) with the rest of the record to the last name, REPLY
// unsplit. Successive reads of one stream take successive records; a
// `while read` loop over known text walks its body once per record. What
// is not modelled (another command read part of the stream, -u, text not
// ASCII, an IFS computed at run time) is unknown.

// readState is how far the reads of one stream got.
type readState struct {
	off   int
	dirty bool // another command may have read part of the stream
	ok    bool // the last read found its delimiter (its status was 0)
}

// readsNoStdin lists builtins that never read stdin (a stream shared by
// a block stays exact across them).
func readsNoStdin(name string) bool {
	switch name {
	case "echo", "printf", "true", "false", ":", "test", "[", "local", "export", "declare", "typeset",
		"set", "shift", "unset", "cd", "pwd", "break", "continue", "return", "exit", "__probe":
		return true
	}
	return false
}

// noStdin reports whether the command surely leaves stdin unread: a
// builtin that never reads it, or a file reader given files (none `-`).
func (c *cmd) noStdin() bool {
	if readsNoStdin(c.name) {
		return true
	}
	if fileSpec(c.name) == nil || c.name == "tr" {
		return false
	}
	files := 0
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if t == "-" || ar.f.onlyUnk {
			return false
		}
		if !strings.HasPrefix(t, "-") {
			files++
		}
	}
	return files > 0
}

// readBuiltin: `read [opts] [NAME…]`, `mapfile`/`readarray ARR`.
func (c *cmd) readBuiltin() {
	a := c.a
	p := c.parse(1, opts{short: "adinNptuC"})
	raw, arr := p.has("-r"), ""
	delim, limit, exact := "\n", -1, false
	known := c.name == "read" && !a.ifsUnknown && !a.ifsDyn
	for _, v := range p.vals {
		c.valWord(v)
		f, ok := c.valField(v)
		if !ok || f.pattern() {
			known = false
			continue
		}
		switch v.name {
		case "-d":
			delim = f.s
			if delim == "" {
				delim = "\x00"
			}
			delim = delim[:1]
		case "-n", "-N":
			n, err := strconv.Atoi(f.s)
			if err != nil || n < 0 {
				known = false
			}
			limit, exact = n, v.name == "-N"
		case "-a":
			arr = f.s
		case "-u", "-t":
			known = false // another file descriptor; a timeout (-t 0 reads nothing)
		}
	}
	var names []string
	for _, i := range p.operands {
		c.done[i] = true
		if n := optText(c.args[i].f); n != "" && !c.args[i].f.pattern() {
			names = append(names, n)
		} else {
			a.anyVarChanged("read into a name computed when the command runs")
			known = false
		}
	}
	if c.name != "read" {
		// mapfile ARR: the lines (unknown here, not split)
		for _, n := range names {
			delete(a.vars, n)
			a.arrays[n] = []pval{dynVal("a line read from stdin", false)}
		}
		return
	}
	var rec []rune
	var esc []bool
	ok := false
	in := c.in
	switch {
	case !known:
	case in.kind == srcNone:
		ok = true // nothing to read: empty values
	case in.kind == srcText && !strings.ContainsRune(in.text, unknownRune) && isASCII(in.text) && (in.rd == nil || !in.rd.dirty):
		text := in.text
		if in.rd != nil {
			text = text[min(in.rd.off, len(text)):]
		}
		var n int
		var found bool
		rec, esc, n, found = readRecord(text, delim[0], limit, exact, raw)
		if in.rd != nil {
			in.rd.off += n
			in.rd.ok = found
		}
		ok = true
	case in.kind == srcNames && len(in.names) == 1 && len(names) <= 1 && arr == "":
		// one name per line (find's output): the name's pattern
		f := in.names[0]
		set := func(n string) { a.vars[n] = pval{f: f}; a.special(n) }
		if len(names) == 0 {
			set("REPLY")
		}
		for _, n := range names {
			set(n)
		}
		return
	}
	unknownAll := func() {
		v := dynVal("a line read from stdin", true)
		if len(names) == 0 && arr == "" {
			a.vars["REPLY"] = v
		}
		for _, n := range names {
			a.vars[n] = v
			a.special(n)
		}
		if arr != "" {
			delete(a.vars, arr)
			a.arrays[arr] = []pval{v}
		}
	}
	if !ok {
		unknownAll()
		return
	}
	ifs := a.ifs
	if a.ifsUnset {
		ifs = " \t\n"
	}
	switch {
	case arr != "":
		words := readSplit(rec, esc, ifs, -1)
		var vals []pval
		for _, w := range words {
			vals = append(vals, knownVal(w))
		}
		delete(a.vars, arr)
		a.arrays[arr] = vals
	case len(names) == 0:
		a.vars["REPLY"] = knownVal(string(rec))
	case exact:
		// -N: no splitting; the first name gets it all
		a.vars[names[0]] = knownVal(string(rec))
		for _, n := range names[1:] {
			a.vars[n] = knownVal("")
		}
	default:
		words := readSplit(rec, esc, ifs, len(names))
		if words == nil {
			unknownAll()
			return
		}
		for i, n := range names {
			v := ""
			if i < len(words) {
				v = words[i]
			}
			a.vars[n] = knownVal(v)
		}
	}
	for _, n := range names {
		a.special(n)
	}
}

// readRecord takes one record from text: up to delim (not kept), at most
// limit characters (limit < 0: no limit; exact: delim ignored), with
// backslash escapes (escaped characters marked) unless raw. n is the
// bytes consumed; found reports the delimiter (or the count) was reached.
func readRecord(text string, delim byte, limit int, exact, raw bool) (rec []rune, esc []bool, n int, found bool) {
	i := 0
	for i < len(text) {
		if limit >= 0 && len(rec) >= limit {
			return rec, esc, i, true
		}
		ch := text[i]
		if ch == delim && !exact {
			return rec, esc, i + 1, true
		}
		if ch == '\\' && !raw {
			if i+1 < len(text) {
				if text[i+1] == '\n' {
					i += 2 // a line continuation
					continue
				}
				rec = append(rec, rune(text[i+1]))
				esc = append(esc, true)
				i += 2
				continue
			}
			i++
			continue
		}
		rec = append(rec, rune(ch))
		esc = append(esc, false)
		i++
	}
	if limit >= 0 && len(rec) >= limit {
		return rec, esc, i, true
	}
	return rec, esc, i, false
}

// readSplit splits a record into at most names words as read does (names
// < 0: every word, for -a): IFS white space trimmed, each other IFS
// character a delimiter, the rest of the record to the last name. nil
// when the result is not modelled.
func readSplit(rec []rune, esc []bool, ifs string, names int) []string {
	isIFS := func(k int) bool { return !esc[k] && strings.ContainsRune(ifs, rec[k]) }
	isWS := func(k int) bool { return isIFS(k) && isIFSSpace(rec[k]) }
	k := 0
	for k < len(rec) && isWS(k) {
		k++
	}
	// delimiter skips ws* [nws] ws* from k
	delimiter := func(k int) int {
		for k < len(rec) && isWS(k) {
			k++
		}
		if k < len(rec) && isIFS(k) && !isWS(k) {
			k++
			for k < len(rec) && isWS(k) {
				k++
			}
		}
		return k
	}
	field := func(k int) (string, int) {
		start := k
		for k < len(rec) && !isIFS(k) {
			k++
		}
		return string(rec[start:k]), k
	}
	var out []string
	for k < len(rec) {
		if names > 0 && len(out) == names-1 {
			// the last name: the rest, unless only delimiters follow its
			// first word
			f, e := field(k)
			if delimiter(e) >= len(rec) {
				out = append(out, f)
				return out
			}
			end := len(rec)
			for end > k && isWS(end-1) {
				end--
			}
			out = append(out, string(rec[k:end]))
			return out
		}
		f, e := field(k)
		out = append(out, f)
		k = delimiter(e)
	}
	return out
}

// readLoop walks `while read …; do BODY; done` over known text: the body
// once per record the read takes (its status 0), as bash runs it; false
// when the loop is not of that shape.
func (a *shellAnalyzer) readLoop(c *syntax.WhileClause, in source) bool {
	if c.Until || len(c.Cond) != 1 || in.kind != srcText || strings.ContainsRune(in.text, unknownRune) {
		return false
	}
	call, ok := c.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[0].Lit() != "read" || len(c.Cond[0].Redirs) > 0 {
		return false
	}
	in.rd = &readState{}
	for iter := 0; iter < maxLoopValues; iter++ {
		before := in.rd.off
		a.stmts(c.Cond, in)
		if !in.rd.ok || in.rd.dirty {
			if in.rd.dirty {
				a.stmts(c.Do, in) // the values are unknown now: one more walk
			}
			return true
		}
		a.stmts(c.Do, in)
		if in.rd.off == before {
			break
		}
	}
	// more records than walked: the rest are unknown
	in.rd.dirty = true
	a.stmts(c.Cond, in)
	a.stmts(c.Do, in)
	return true
}
