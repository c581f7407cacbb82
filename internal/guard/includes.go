package guard

import "strings"

// This file models C preprocessors, compilers and assemblers: the files
// their sources include.

// compiler: C preprocessors, compilers and assemblers read the files their
// sources name: `#include`/`#import`/`#include_next`/`#embed` (after
// backslash-newline splicing), `.incbin`/`.include` (as), `%include`/
// `incbin` (nasm). The sources the analysis can read — stdin of known
// text, a file written earlier in the command — have their names checked
// below the current folder, each -I/-iquote/-isystem/-idirafter folder and
// the source's folder; a name made by a macro, or a source it cannot
// read (stdin from a pipe), is unverifiable. -include/-imacros FILE and
// @FILE are read. A source already on the disk is a program's own file
// and is not followed (as scripts are not).
func (c *cmd) compiler() {
	p := c.parse(1, opts{short: "oIDUxLlO", long: []string{"-include", "-imacros", "-iquote", "-isystem", "-idirafter", "-iprefix", "-isysroot", "--sysroot", "-MF", "-MT", "-MQ", "--embed-dir", "-aux-info", "--include-directory", "-Xlinker", "-Xassembler", "-Xpreprocessor"}})
	var dirs []string
	dirsKnown := true
	for _, v := range p.vals {
		switch v.name {
		case "-o", "-MF", "-aux-info":
			if c.valText(v) != "-" {
				c.valFile(v, setModify)
			}
		case "-include", "-imacros":
			c.valFile(v, SetRead)
		case "-I", "-iquote", "-isystem", "-idirafter", "--embed-dir", "--include-directory":
			c.valWord(v)
			if t := c.valText(v); t != "" {
				dirs = append(dirs, t)
			} else {
				dirsKnown = false
			}
		default:
			c.valWord(v)
		}
	}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case strings.HasPrefix(t, "@") && len(t) > 1:
			c.done[i] = true
			c.fileField(c.args[i].raw, subField(c.args[i].f, 1), SetRead) // a response file
		case strings.HasPrefix(t, "-Wp,") || strings.HasPrefix(t, "-Wa,") || strings.HasPrefix(t, "-Wl,"):
			// options passed on to the preprocessor, assembler, linker:
			// each part may be a file (-Wp,-include,FILE; -Wa,@FILE)
			c.done[i] = true
			c.a.value(c.args[i].raw, c.args[i].f, SetRead)
			if !c.args[i].f.pattern() {
				for _, part := range strings.Split(t[4:], ",") {
					c.a.value(c.args[i].raw, litField(strings.TrimPrefix(part, "@")), SetRead)
					if strings.HasPrefix(part, "-I") && len(part) > 2 {
						dirs = append(dirs, part[2:])
					}
				}
			} else {
				dirsKnown = false
			}
		case strings.HasPrefix(t, "-B"):
			// -B DIR: the compiler runs its programs (as, ld, cc1) from DIR
			for _, prog := range []string{"as", "ld", "cc1", "cc1plus", "collect2", "cpp", "lto-wrapper", "ld.gold", "ld.bfd"} {
				c.a.writtenScripts(c.args[i].raw, prog)
			}
		}
	}
	stdin := len(p.operands) == 0 && (c.name == "cpp" || c.name == "as" || c.name == "gas" || c.name == "tcc")
	for _, i := range p.operands {
		f := c.args[i].f
		if t := f.text(); !f.pattern() && (t == "-" || t == "/dev/stdin") {
			stdin = true
			c.word(i)
			continue
		}
		if w, ok := c.a.writtenFile(f); ok {
			c.includes(c.args[i].raw, w, pathDir(f.text()), dirs, dirsKnown)
		}
		c.file(i, SetRead)
	}
	if stdin {
		c.includes("(stdin)", c.in, ".", dirs, dirsKnown)
	}
}

func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i+1]
	}
	return "."
}

// includes checks the names a preprocessor or assembler source includes.
func (c *cmd) includes(raw string, s source, srcDir string, dirs []string, dirsKnown bool) {
	switch s.kind {
	case srcNone:
		return
	case srcText:
		if strings.ContainsRune(s.text, unknownRune) {
			c.a.unknown(raw, c.name+" reads a source computed when the command runs, whose #include names the analysis cannot see", SetRead)
		}
	case srcFile:
		if w, ok := c.a.written[s.file]; ok && w.kind == srcText {
			s = w
			break
		}
		return // a file on the disk: not followed
	default:
		c.a.unknown(raw, c.name+" reads a source from a pipe, whose #include names the analysis cannot see", SetRead)
		return
	}
	text := strings.ReplaceAll(strings.ReplaceAll(s.text, "\\\r\n", ""), "\\\n", "")
	if !dirsKnown {
		c.a.unknown(raw, c.name+" searches an include folder named when the command runs", SetRead)
	}
	for _, line := range strings.Split(text, "\n") {
		name, computed, ok := includeName(line)
		if !ok {
			continue
		}
		if computed {
			c.a.unknown(raw, c.name+" includes a file named by a macro ("+clip(strings.TrimSpace(line), 60)+")", SetRead)
			continue
		}
		c.a.value(raw, litField(name), SetRead)
		if !strings.HasPrefix(name, "/") {
			for _, d := range append([]string{srcDir}, dirs...) {
				c.a.value(raw, litField(strings.TrimSuffix(d, "/")+"/"+name), SetRead)
			}
		}
	}
}

// includeName reads an include directive of one (spliced) line: the name
// between quotes or angle brackets; computed when it is a macro.
func includeName(line string) (name string, computed, ok bool) {
	t := strings.TrimLeft(line, " \t")
	var rest string
	switch {
	case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "%:"), strings.HasPrefix(t, "??="):
		t = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "#"), "%:"), "??="), " \t")
		for _, d := range []string{"include_next", "include", "import", "embed"} {
			if strings.HasPrefix(t, d) {
				rest = t[len(d):]
				break
			}
		}
		if rest == "" {
			return "", false, false
		}
	case strings.HasPrefix(t, "%include"), strings.HasPrefix(t, "%incbin"):
		rest = t[len("%include"):] // both are 8 bytes long
	default:
		// as: .incbin "f", .include "f"; nasm: incbin "f" (after a label)
		low := strings.ToLower(t)
		k := -1
		for _, d := range []string{".incbin", ".include", "incbin"} {
			if j := strings.Index(low, d); j >= 0 && (k < 0 || j < k) {
				k = j
				rest = t[j+len(d):]
			}
		}
		if k < 0 {
			return "", false, false
		}
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return "", false, false
	}
	switch rest[0] {
	case '"', '\'':
		if e := strings.IndexByte(rest[1:], rest[0]); e >= 0 {
			return rest[1 : 1+e], false, true
		}
		return "", true, true
	case '<':
		if e := strings.IndexByte(rest, '>'); e >= 0 {
			return rest[1:e], false, true
		}
		return "", true, true
	}
	return "", true, true
}
