package guard

import (
	"strings"
	"sync"
)

// Program files of the command languages (pass 31): `awk -f FILE`, `gawk
// --include FILE`, `sed -f FILE`. Their code writes files (awk's `print >
// "x"`, `system()`, sed's `w x`, `e cmd`), so the file's text is read and
// analysed as that language: what the command wrote there before it runs,
// else the file on the disk. A program file the gate cannot read (no disk,
// missing, a link or special file, too big, a folder only known when the
// command runs) is unverifiable, with a reason that says so: it fails
// closed, unlike a shell or python script on the disk, which is the
// project's (see docs/protected-paths.md, Not covered).

// progText is one program file's text, and the word it came from.
type progText struct {
	text, raw string
}

// progFileTexts returns the texts of the program file option v names, in
// lang ("awk", "sed"), recording an unknown use when one cannot be read.
// The file's own path is checked as a read.
func (c *cmd) progFileTexts(v optHit, lang string) []progText {
	f, ok := c.valField(v)
	c.valFile(v, SetRead)
	if !ok {
		return nil
	}
	return c.progFieldTexts(f, v.raw, lang, true)
}

func (c *cmd) progFieldTexts(f field, raw, lang string, dash bool) []progText {
	if s, ok := c.scriptFrom(f, raw, dash); ok {
		return c.progSourceTexts(s, raw, lang)
	}
	if f.pattern() {
		c.progUnreadable(raw, lang, "its name is only known when the command runs")
		return nil
	}
	if lang == "awk" && !strings.Contains(f.s, "/") && c.envSet("AWKPATH") {
		c.progUnreadable(raw, lang, "the command sets AWKPATH, the folders gawk looks it up in")
		return nil
	}
	return c.progDiskTexts(f.s, raw, lang)
}

// progSourceTexts is progFileTexts for a stream or a file the command
// wrote.
func (c *cmd) progSourceTexts(s source, raw, lang string) []progText {
	switch s.kind {
	case srcNone:
		return nil
	case srcText:
		if strings.ContainsRune(s.text, unknownRune) {
			c.a.unknown(raw, "the "+lang+" program "+c.name+" reads is computed when the command runs", SetRead|setModify)
		}
		return []progText{{strings.ReplaceAll(s.text, unknownStr, " "), raw}}
	case srcFile:
		if w, ok := c.a.writtenFile(litField(s.file)); ok && w.kind != srcFile {
			return c.progSourceTexts(w, raw, lang)
		}
		return c.progDiskTexts(s.file, raw, lang)
	default:
		why := s.why
		if why == "" {
			why = "a pipe"
		}
		c.a.unknown(raw, c.name+" runs "+article(lang)+" program read from "+why+", which the analysis cannot see", SetRead|setModify)
		return nil
	}
}

// progDiskTexts reads the program file name (relative to each candidate
// working directory) from the disk.
func (c *cmd) progDiskTexts(name, raw, lang string) []progText {
	a := c.a
	if a.env.FS == nil || a.win {
		c.progUnreadable(raw, lang, "the disk is not consulted")
		return nil
	}
	var out []progText
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, name)
		if strings.ContainsRune(p, unknownRune) || globCwd(p) {
			c.progUnreadable(raw, lang, "its folder is only known when the command runs")
			return nil
		}
		if r, changed, ok := resolveLinks(a.env.FS, p, false); !ok {
			c.progUnreadable(raw, lang, "its links cannot be resolved")
			return nil
		} else if changed {
			p = r
		}
		b, exists, ok := readSmallFile(a.env.FS, p, maxScriptBytes)
		switch {
		case !exists:
			c.progUnreadable(raw, lang, "it does not exist yet")
			return nil
		case !ok:
			c.progUnreadable(raw, lang, "it is not a regular file pruner can read")
			return nil
		}
		out = append(out, progText{string(b), raw})
	}
	return out
}

func (c *cmd) progUnreadable(raw, lang, why string) {
	c.a.unknown(raw, "pruner cannot read the "+lang+" program file "+c.name+" runs ("+why+"), whose code may write files", SetRead|setModify)
}

// gawkLibs are the libraries gawk ships in its AWKPATH (/usr/share/awk):
// `gawk -i inplace` loads one of those when the working directory holds
// no file of that name.
var gawkLibs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"inplace": true, "assert": true, "bits2str": true, "cliff_rand": true, "ctime": true, "ftrans": true,
		"getopt": true, "gettime": true, "group": true, "have_mpfr": true, "intdiv": true, "isnumeric": true,
		"join": true, "libintl": true, "noassign": true, "ns_passwd": true, "ord": true, "passwd": true,
		"processarray": true, "quicksort": true, "readable": true, "readfile": true, "rewind": true, "round": true,
		"shellquote": true, "strtonum": true, "tocsv": true, "walkarray": true, "zerofile": true,
	}
})

// awkIncludeTexts reads `gawk -i NAME` / `--include NAME`: NAME, or
// NAME.awk, looked up in the working directory first (gawk's AWKPATH
// starts with `.`), else one of gawk's own libraries.
func (c *cmd) awkIncludeTexts(v optHit) []progText {
	f, ok := c.valField(v)
	c.valWord(v)
	if !ok {
		return nil
	}
	return c.awkInclude(f, v.raw)
}

func (c *cmd) awkInclude(f field, raw string) []progText {
	v := struct{ raw string }{raw}
	if f.pattern() {
		c.progUnreadable(v.raw, "awk", "its name is only known when the command runs")
		return nil
	}
	name := f.s
	if !strings.Contains(name, "/") && c.envSet("AWKPATH") {
		c.progUnreadable(v.raw, "awk", "the command sets AWKPATH, the folders gawk looks it up in")
		return nil
	}
	lib := gawkLibs()[strings.TrimSuffix(name, ".awk")]
	if strings.Contains(name, "/") || c.a.env.FS == nil && !lib {
		return c.progFieldTexts(f, v.raw, "awk", false)
	}
	if c.a.env.FS == nil {
		return nil // one of gawk's own (the folder's files are not known)
	}
	names := []string{name}
	if !strings.HasSuffix(name, ".awk") {
		names = append(names, name+".awk")
	}
	for _, n := range names {
		if s, ok := c.a.writtenFile(litField(n)); ok {
			return c.progSourceTexts(s, v.raw, "awk")
		}
	}
	for _, n := range names {
		for _, cwd := range c.a.cwds {
			p, _ := joinOrNorm(c.a, cwd, n)
			if strings.ContainsRune(p, unknownRune) {
				continue
			}
			if _, err := c.a.env.FS.Lstat(p); err == nil {
				return c.progDiskTexts(n, v.raw, "awk")
			}
		}
	}
	if lib {
		return nil
	}
	c.progUnreadable(v.raw, "awk", "it is not in the working directory nor one of gawk's own libraries")
	return nil
}

// gawkExtensions are the extensions gawk ships (`@load "rwarray"`, `-l
// time`): their functions take the files they open as arguments, which
// the code scan reads. Any other is native code the gate cannot read.
var gawkExtensions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"filefuncs": true, "fnmatch": true, "fork": true, "inplace": true, "intdiv": true, "ordchr": true,
		"readdir": true, "readfile": true, "revoutput": true, "revtwoway": true, "rwarray": true, "time": true,
	}
})

var awkDirective = lazyRegexp(`@(include|load)\s*"([^"\n]*)"`)

// awkDirectives follows the `@include "FILE"` directives of gawk programs
// (each file's text is more program, looked up as `-i` does) and checks
// their `@load "EXT"` ones: it returns the texts included, transitively
// (at most maxAwkIncludes files).
func (c *cmd) awkDirectives(progs []progText) []progText {
	const maxAwkIncludes = 16
	var out []progText
	queue := append([]progText(nil), progs...)
	for n := 0; len(queue) > 0; n++ {
		t := queue[0]
		queue = queue[1:]
		for _, m := range awkDirective().FindAllStringSubmatch(t.text, -1) {
			name := m[2]
			if m[1] == "load" {
				c.awkLoad(name, t.raw)
				continue
			}
			if len(out) >= maxAwkIncludes {
				c.a.unknown(t.raw, "the awk program includes more files than the analysis follows", SetRead|setModify)
				return out
			}
			c.a.value(t.raw, litField(name), SetRead)
			got := c.awkInclude(litField(name), t.raw)
			out = append(out, got...)
			queue = append(queue, got...)
		}
	}
	return out
}

// awkLoad checks a gawk extension (`-l NAME`, `@load "NAME"`): one gawk
// ships, or a shared library the gate cannot read.
func (c *cmd) awkLoad(name, raw string) {
	if gawkExtensions()[strings.TrimSuffix(name, ".so")] && !c.envSet("AWKLIBPATH") {
		return
	}
	c.a.value(raw, litField(name), SetRead)
	c.a.unknown(raw, "gawk loads the extension "+showWord(name)+", native code pruner cannot read", SetRead|setModify)
}

// envSet reports whether the command gives the environment variable name
// a value (`NAME=… cmd`, an assignment or export earlier in the command).
func (c *cmd) envSet(name string) bool {
	if _, ok := c.a.cmdEnvValue(name); ok {
		return true
	}
	_, ok := c.a.vars[name]
	return ok
}

// article is "a" or "an" before word (an awk program, a sed program).
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
