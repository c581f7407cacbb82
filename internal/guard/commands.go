package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one field of a simple command and the source text of its word.
type arg struct {
	f   field
	raw string
}

// cmd is one simple command being analysed: its fields (args[0] is the
// command name) and its stdin. done marks the fields already given a role;
// the rest are checked as words when the command is finished.
type cmd struct {
	a    *shellAnalyzer
	name string
	args []arg
	in   source
	done []bool
	out  *source // what the command writes to stdout, when a handler knows
}

func (a *shellAnalyzer) call(c *syntax.CallExpr, in source) source {
	if len(c.Assigns) > 0 && len(c.Args) > 0 {
		// the command's own variables (x=… f, x=… eval …): not the
		// environment's where it evaluates them again (reevalStmt)
		untrusted := a.envUntrusted
		a.envUntrusted = true
		defer func() { a.envUntrusted = untrusted }()
	}
	a.cmdEnv, a.cmdEnvNames = a.cmdEnv[:0], a.cmdEnvNames[:0]
	for _, as := range c.Assigns {
		a.assign(as, len(c.Args) == 0)
		if len(c.Args) > 0 && as.Value != nil {
			// the command's own environment (make reads it as variables)
			if v := a.resolve(as.Value, true); len(v) == 1 && !v[0].pattern() {
				a.cmdEnv = append(a.cmdEnv, v[0].s)
			} else {
				a.cmdEnv = append(a.cmdEnv, unknownStr)
			}
			name := ""
			if as.Name != nil {
				name = as.Name.Value
			}
			a.cmdEnvNames = append(a.cmdEnvNames, name)
		}
	}
	var args []arg
	// words with alternative values: the command is walked once per
	// choice (its arguments then are exact), as well as with all of them
	var lists [][]arg
	lists = append(lists, nil)
	for _, w := range c.Args {
		a.seen[w] = true
		raw := a.text(w)
		fs := a.expandWord(w)
		for _, f := range fs {
			args = append(args, arg{f: f, raw: raw})
		}
		if lists != nil {
			if ch := a.choiceLists(w); ch != nil && len(lists)*len(ch) <= maxChoiceLists {
				var next [][]arg
				for _, l := range lists {
					for _, alt := range ch {
						nl := append([]arg(nil), l...)
						for _, f := range alt {
							nl = append(nl, arg{f: f, raw: raw})
						}
						next = append(next, nl)
					}
				}
				lists = next
			} else if ch != nil {
				lists = nil // too many: the fields side by side only
			} else {
				for i := range lists {
					for _, f := range fs {
						lists[i] = append(lists[i], arg{f: f, raw: raw})
					}
				}
			}
		}
		a.walkSubst(w)
	}
	if len(args) == 0 {
		return source{}
	}
	if len(lists) > 1 {
		for _, l := range lists {
			if len(l) > 0 {
				a.command(l, in)
			}
		}
		a.command(args, in)
		return dynSource("a command with arguments that differ between paths")
	}
	// a prefix IFS=… is the IFS the command (read) splits with
	for _, as := range c.Assigns {
		if as.Name != nil && as.Name.Value == "IFS" && len(c.Args) > 0 {
			ifs, unset := a.ifs, a.ifsUnset
			v := knownVal("")
			if as.Value != nil {
				if fs := a.resolve(as.Value, true); len(fs) == 1 {
					v = fieldVal(fs[0])
				}
			}
			if v.known {
				a.ifs, a.ifsUnset = v.f.s, false
			} else {
				a.ifs, a.ifsUnset = "", false
				a.ifsUnknown = true
			}
			defer func() { a.ifs, a.ifsUnset, a.ifsUnknown = ifs, unset, false }()
		}
	}
	return a.command(args, in)
}

// command analyses args as one simple command with stdin in and returns
// what it writes to stdout.
func (a *shellAnalyzer) command(args []arg, in source) source {
	if a.full || len(args) == 0 {
		return dynSource("")
	}
	c := &cmd{a: a, args: args, in: in, done: make([]bool, len(args))}
	before := min(a.stmtStart, len(a.out.targets)) // not the statement's own redirections
	head := args[0]
	c.done[0] = true
	if head.f.onlyUnk || head.f.dyn || head.f.unk || head.f.glob {
		c.dynamicCommand()
		return dynSource("a command named when it runs")
	}
	nt := len(a.out.targets)
	a.value(head.raw, head.f, SetRead) // the program run names a file
	c.name = baseName(head.f)
	a.programTargets(nt, head.f, c.name)
	if a.probe != nil && c.name == "__probe" {
		fs := make([]field, 0, len(args)-1)
		for _, ar := range args[1:] {
			fs = append(fs, ar.f)
		}
		a.probe(fs)
	}
	if n := a.linkedProgram(head.f); n != "" {
		c.name = n // ./node linked to /bin/sh is sh
	}
	if strings.Contains(head.f.s, "/") {
		// a program run by its path (a bare name is looked up in PATH)
		if s, ok := a.writtenFile(head.f); ok {
			c.runScript(head.raw, s, in, "sh")
		}
	}
	if body, ok := a.aliases[c.name]; ok && a.depth < maxScriptDepth {
		// an alias (with expand_aliases) runs its text in the command's
		// place, the words after it appended (aliases.go)
		a.script(aliasText(body, args[1:], a.aliases), head.raw, in)
	}
	if compiles(c.name, args) {
		// a compiler's output is a program built from sources the analysis
		// reads where they are written (see sourcesOf), not text a shell
		// could run: running it is running a program (not a script)
		a.noContent = true
	}
	fromTargets := len(a.out.targets)
	handled := c.dispatch()
	a.noContent = false
	if how := removesSources(c.name, c.args); how != "" {
		c.deletesRead(fromTargets, how)
	}
	c.loadsWrittenSources(before)
	c.loadsWrittenRC(before)
	c.finish()
	if in.rd != nil && c.name != "read" && !c.noStdin() {
		in.rd.dirty = true // it may have read some of the stream
	}
	if !handled {
		return dynSource(c.name)
	}
	return a.produce(c)
}

// programTargets marks the targets from n on, those of a command's name,
// as the program it runs: a program started in a folder a cd named at run
// time may read any file there (a Makefile, package.json, its listing).
// A shell builtin's or a function's bare name is looked up in the shell,
// not in that folder, and reads nothing by itself (what its operands name
// is checked on its own): it stays an ordinary name there, as gate30 read
// every name after such a cd (`cd "$x" && cd /tmp`, `cd "$x" || exit`).
func (a *shellAnalyzer) programTargets(n int, head field, name string) {
	builtin := !strings.Contains(head.s, "/") && (shellBuiltin(name) || a.funcs[name])
	for i := n; i < len(a.out.targets); i++ {
		if builtin {
			a.out.targets[i].path = plainUnknown(a.out.targets[i].path)
		} else {
			a.out.targets[i].program = true
		}
	}
}

// shellBuiltin reports whether bash runs name (a bare command name) as a
// builtin or keyword rather than a program found through PATH.
func shellBuiltin(name string) bool {
	switch name {
	case ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete",
		"compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
		"false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout",
		"mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
		"shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
		"unalias", "unset", "wait":
		return true
	}
	return false
}

// dynamicCommand handles a command whose name is unknown (`$CMD x`,
// `$(echo cat) x`): it may be any program, eval or a shell, so every
// argument is a file and a script.
func (c *cmd) dynamicCommand() {
	head := c.args[0]
	c.a.unknown(head.raw, "the command to run is computed when it runs", SetRead|setModify)
	for i := 1; i < len(c.args); i++ {
		ar := c.args[i]
		c.done[i] = true
		c.a.value(ar.raw, ar.f, SetRead|setModify)
		if !ar.f.pattern() {
			c.a.script(ar.f.s, ar.raw, source{})
		}
	}
}

// finish checks the fields no role took as words (every word is a path).
func (c *cmd) finish() {
	for i, ar := range c.args {
		if !c.done[i] {
			c.done[i] = true
			c.a.value(ar.raw, ar.f, SetRead)
		}
	}
}

// file gives args[i] the role of a file opened with ops.
func (c *cmd) file(i int, ops OpSet) {
	if i < 0 || i >= len(c.args) || c.done[i] {
		return
	}
	c.done[i] = true
	c.fileField(c.args[i].raw, c.args[i].f, ops)
}

func (c *cmd) fileField(raw string, f field, ops OpSet) {
	c.a.value(raw, f, ops)
	if f.onlyUnk && !f.posOnly {
		c.a.unknown(raw, unknownWhy(f)+" and "+c.name+" opens it as a file", ops)
	}
}

// unknownWhy says what made a field unknown.
func unknownWhy(f field) string {
	w := f.why
	if w == "" {
		w = "a value"
	}
	return "`" + w + "` is only known when the command runs"
}

// word gives args[i] the role of a plain word (checked as a path, read).
func (c *cmd) word(i int) {
	if i < 0 || i >= len(c.args) || c.done[i] {
		return
	}
	c.done[i] = true
	c.a.value(c.args[i].raw, c.args[i].f, SetRead)
}

// script gives args[i] the role of shell script text.
func (c *cmd) script(i int, in source) {
	if i < 0 || i >= len(c.args) || c.done[i] {
		return
	}
	c.done[i] = true
	c.scriptField(c.args[i].raw, c.args[i].f, in)
}

func (c *cmd) scriptField(raw string, f field, in source) {
	c.a.value(raw, f, SetRead)
	if f.pattern() && (f.unk || f.dyn) {
		c.a.unknown(raw, "the script "+c.name+" runs is computed when the command runs", SetRead|setModify)
		return
	}
	c.a.script(f.text(), raw, in)
}

// code gives args[i] the role of interpreter code in lang.
func (c *cmd) code(i int, lang string) {
	if i < 0 || i >= len(c.args) || c.done[i] {
		return
	}
	c.done[i] = true
	c.codeField(c.args[i].raw, c.args[i].f, lang)
}

func (c *cmd) codeField(raw string, f field, lang string) {
	if f.pattern() && (f.unk || f.dyn) {
		c.a.unknown(raw, "the code "+c.name+" runs is computed when the command runs", SetRead|setModify)
		c.a.codeText(unescapeGlob(strings.ReplaceAll(f.s, "/"+unknownSeg+"/", " ")), raw, lang)
		return
	}
	c.a.codeText(f.text(), raw, lang)
}

// rec gives args[i] the role of a folder read (or written) recursively.
func (c *cmd) rec(i int, ops OpSet, dotOK bool, filter []string, via string, follow uint8) {
	if i < 0 || i >= len(c.args) {
		return
	}
	c.done[i] = true
	ar := c.args[i]
	c.a.value(ar.raw, ar.f, ops) // the folder itself
	c.a.addRec(ar.raw, ar.f, ops, dotOK, filter, via, follow)
}

// recCwd records a recursive operation on the current directory.
func (c *cmd) recCwd(ops OpSet, dotOK bool, filter []string, via string, follow uint8) {
	c.a.addRec(".", litField("."), ops, dotOK, filter, via, follow)
}

// wrap analyses args[k:] as the command a wrapper runs.
func (c *cmd) wrap(k int) {
	for i := k; i < len(c.args); i++ {
		c.done[i] = true
	}
	if k < len(c.args) {
		c.a.command(c.args[k:], c.in)
	}
}

// runScript analyses what a shell or interpreter runs from a stream or a
// file written earlier in the command.
func (c *cmd) runScript(raw string, s source, in source, lang string) {
	switch s.kind {
	case srcText:
		if strings.ContainsRune(s.text, unknownRune) {
			c.a.unknown(raw, "the script "+c.name+" reads is computed when the command runs", SetRead|setModify)
		}
		if lang == "sh" {
			c.a.script(strings.ReplaceAll(s.text, unknownStr, " "), raw, in)
		} else {
			c.a.codeText(strings.ReplaceAll(s.text, unknownStr, " "), raw, lang)
		}
	case srcFile:
		if w, ok := c.a.writtenFile(litField(s.file)); ok && w.kind != srcFile {
			c.runScript(raw, w, in, lang)
		}
		// a script that exists on disk is a program that opens files by
		// itself: not followed (documented)
	case srcNames, srcDyn:
		why := s.why
		if why == "" {
			why = "a pipe"
		}
		c.a.unknown(raw, c.name+" runs a script read from "+why+", which the analysis cannot see", SetRead|setModify)
	}
}

// copied records what cp, mv and install leave in their destination: the
// source's content (a file written earlier in the command, or one on the
// disk, which a script run from it is like), for one source and one
// destination the analysis can name; anything else stays unknown content.
func (c *cmd) copied(o opts) {
	saved := append([]bool(nil), c.done...)
	p := c.parse(1, o)
	copy(c.done, saved) // parse marks `--`; the roles are runSpec's
	if len(p.vals) > 0 && p.has("-t", "--target-directory") || len(p.operands) != 2 {
		return
	}
	src, dst := c.args[p.operands[0]].f, c.args[p.operands[1]].f
	if src.pattern() || dst.pattern() || p.has("-r", "-R", "-a", "--recursive", "--archive") {
		return
	}
	sp, _ := c.a.norm(src.s, false)
	dp, _ := c.a.norm(dst.s, false)
	dir := strings.HasSuffix(dst.s, "/")
	if !dir && c.a.env.FS != nil {
		if info, err := c.a.env.FS.Lstat(dp); err == nil && info.IsDir() {
			dir = true
		}
	}
	if dir {
		dp = strings.TrimSuffix(dp, "/") + "/" + path.Base(sp)
	}
	if st, ok := c.streamFrom(src, c.args[p.operands[0]].raw, true); ok {
		c.a.wrote(dp, st) // cp /dev/stdin x.sh: what the stream carries
		return
	}
	if prior, ok := c.a.writtenBefore(sp, false, min(c.a.stmtStart, len(c.a.out.targets))); ok {
		c.a.wrote(dp, prior) // what the command wrote to the source before
		return
	}
	c.a.wrote(dp, source{kind: srcFile, file: sp})
}

// compiles reports whether a command compiles sources into a program:
// C compilers (not -E, which prints the preprocessed text), go build and
// install, rustc, javac, kotlinc, swiftc, zig build.
func compiles(name string, args []arg) bool {
	switch name {
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "tcc":
		for _, ar := range args[1:] {
			if t := optText(ar.f); t == "-E" || t == "-S" || strings.HasPrefix(t, "-save-temps") {
				return false
			}
		}
		return true
	case "rustc", "javac", "kotlinc", "swiftc":
		return true
	case "go":
		return len(args) > 1 && (optText(args[1].f) == "build" || optText(args[1].f) == "install")
	case "zig", "cargo":
		return len(args) > 1 && optText(args[1].f) == "build"
	}
	return false
}

// linkedProgram returns the program a command run by its path is when
// that path is a link — one the command made, or one on the disk (a
// project's ./tool -> /bin/sh) — or "".
func (a *shellAnalyzer) linkedProgram(f field) string {
	if f.pattern() || !strings.Contains(f.s, "/") {
		return ""
	}
	pick := func(to string) string {
		switch n := baseName(litField(to)); n {
		case "busybox", "toybox", "coreutils", "uutils", "multicall":
			// a multi-call binary runs the program its link is named for
			return ""
		default:
			return n
		}
	}
	for _, cwd := range a.cwds {
		p, _ := joinOrNorm(a, cwd, f.s)
		if to, ok := a.links[p]; ok && to != p {
			return pick(to)
		}
		if a.env.FS != nil && !a.win && !strings.ContainsRune(p, unknownRune) {
			// follow the links one by one: the last name before a
			// multi-call binary is the program it runs (conservatively)
			name, cur := "", p
			for hop := 0; hop < 16; hop++ {
				to, err := a.env.FS.ReadLink(cur)
				if err != nil {
					break
				}
				if !strings.HasPrefix(to, "/") {
					to = path.Join(path.Dir(cur), to)
				}
				if n := pick(to); n != "" {
					name = n
				} else {
					break
				}
				cur = path.Clean(to)
			}
			if name != "" {
				return name
			}
		}
	}
	return ""
}

// writtenFile returns what the command wrote to the file f names, when it
// wrote it earlier in the same command: the text a redirection or tee
// wrote, or unknown content for every other writer (cp, mv, install, dd,
// curl -o, sed -i, an archive extracted into a folder, a write to a name
// computed at run time, …): every write the analysis records as a target
// counts, so no writer can leave a script it later runs unseen.
func (a *shellAnalyzer) writtenFile(f field) (source, bool) {
	if f.onlyUnk && !f.posOnly {
		return source{}, false
	}
	var ps []string
	if f.pattern() {
		p, _ := a.norm(f.s, true)
		ps = append(ps, p)
	} else {
		for _, cwd := range a.cwds {
			p, _ := joinOrNorm(a, cwd, f.s)
			ps = append(ps, p)
		}
	}
	for _, p := range ps {
		if to, ok := a.links[p]; ok && to != p {
			// a link made in the command: what its target holds
			if s, ok := a.writtenPath(to, false); ok {
				return s, true
			}
		}
		if s, ok := a.writtenPath(p, f.pattern()); ok {
			return s, true
		}
	}
	return source{}, false
}

// writtenPath looks p up among the files the command wrote: the newest
// write wins (a known text recorded after the last other writer).
func (a *shellAnalyzer) writtenPath(p string, pattern bool) (source, bool) {
	return a.writtenBefore(p, pattern, len(a.out.targets))
}

// writtenBefore is writtenPath as it was when the command had recorded n
// targets.
func (a *shellAnalyzer) writtenBefore(p string, pattern bool, n int) (source, bool) {
	last := -1
	for i := min(n, len(a.out.targets)) - 1; i >= 0; i-- {
		if t := &a.out.targets[i]; t.ops.Has(OpWrite) && !t.meta && writes(t, p, pattern) {
			last = i
			break
		}
	}
	if !pattern {
		s, ok := a.written[p]
		if !ok {
			for w, ws := range a.written {
				if strings.EqualFold(w, p) && (!ok || ws.at > s.at) {
					s, ok = ws, true // another case of the name (a case-insensitive disk)
				}
			}
		}
		if ok && s.at > last && s.at <= n {
			return s, true
		}
	}
	if last < 0 {
		return source{}, false
	}
	t := a.out.targets[last]
	why := "a file the command writes first (" + strings.TrimSpace(t.raw) + ")"
	if t.rec {
		why = "a folder the command writes into first (" + t.via + ")"
	}
	return dynSource(why), true
}

// writes reports whether the write target t may write the file p.
func writes(t *target, p string, pattern bool) bool {
	switch {
	case t.rec:
		if pattern {
			return true
		}
		if t.pattern {
			return matchWritten(t.path+"/**", p) || matchWritten(t.path, p)
		}
		return strings.EqualFold(p, t.path) || len(p) > len(t.path) && strings.EqualFold(p[:len(t.path)+1], t.path+"/")
	case t.pattern:
		return pattern || matchWritten(t.path, p)
	case pattern:
		return matchWritten(p, t.path)
	}
	// the file, or a file written into the folder (cp a.txt src/)
	return strings.EqualFold(p, t.path) || len(p) > len(t.path) && strings.EqualFold(p[:len(t.path)+1], t.path+"/")
}

// matchWritten matches a path against a target's pattern (its unknown
// runs as wildcards); a pattern it cannot read matches.
func matchWritten(pat, p string) bool {
	g := strings.ReplaceAll(strings.ReplaceAll(pat, unknownSeg, "**"), unknownStr, "*")
	ok, err := doublestar.Match(strings.ToLower(g), strings.ToLower(p))
	return ok || err != nil
}

// valScriptFile gives an option value the role of a file of commands in
// lang (awk -f, sed -f, make -f, …): read as that language when the
// command wrote it or it is a stream (see scriptFrom).
func (c *cmd) valScriptFile(v optHit, lang string) {
	f, ok := c.valField(v)
	c.valFile(v, SetRead)
	if !ok {
		return
	}
	if s, ok := c.scriptFrom(f, v.raw, true); ok {
		c.runScript(v.raw, s, source{}, lang)
	}
}

// loadsWritten reads, in lang, the files a program loads by itself from
// its working directory or home (a Makefile, ~/.sqliterc, package.json)
// when the command wrote them before it runs.
func (c *cmd) loadsWritten(lang string, names ...string) {
	for _, n := range names {
		if s, ok := c.a.writtenFile(litField(n)); ok {
			c.runScript(c.args[0].raw, s, source{}, lang)
			return // the first one found is the one loaded
		}
	}
}

// opts describes a command's options for parsing.
type opts struct {
	short string   // short options that take a value
	long  []string // long options that take a value
	posix bool     // options end at the first operand
	// digits: short options whose optional value is the digits attached
	// to them, the cluster going on after them (perl -0777pi, -l0);
	// attached: short options whose optional value is the rest of the
	// cluster, never the next argument (perl -i.bak, -x)
	digits, attached string
}

// optHit is one option and its value.
type optHit struct {
	name string
	oi   int    // index of the option's arg
	vi   int    // index of the value's own arg (-1: inline or none)
	val  *field // inline value (`-ffile`, `--file=x`)
	raw  string
}

type parsed struct {
	flags    map[string]bool
	vals     []optHit
	operands []int
}

func (p parsed) has(names ...string) bool {
	for _, n := range names {
		if p.flags[n] {
			return true
		}
	}
	return false
}

// values returns the option values given to any of names.
func (p parsed) values(names ...string) []optHit {
	var out []optHit
	for _, v := range p.vals {
		for _, n := range names {
			if v.name == n {
				out = append(out, v)
			}
		}
	}
	return out
}

func (o opts) takesLong(name string) bool {
	for _, l := range o.long {
		if l == name {
			return true
		}
	}
	return false
}

// parse reads options from args[from:]: flags, option values and operands.
func (c *cmd) parse(from int, o opts) parsed {
	p := parsed{flags: map[string]bool{}}
	dd := false
	for i := from; i < len(c.args); i++ {
		f := c.args[i].f
		t := optText(f)
		if dd || !strings.HasPrefix(t, "-") || t == "-" || f.onlyUnk {
			p.operands = append(p.operands, i)
			if o.posix {
				dd = true
			}
			continue
		}
		if t == "--" {
			c.done[i] = true
			dd = true
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, _, hasEq := strings.Cut(t, "=")
			p.flags[name] = true
			if o.takesLong(name) || hasEq {
				if hasEq {
					v := subField(f, len(name)+1)
					p.vals = append(p.vals, optHit{name: name, oi: i, vi: -1, val: &v, raw: c.args[i].raw})
				} else if i+1 < len(c.args) {
					p.vals = append(p.vals, optHit{name: name, oi: i, vi: i + 1, raw: c.args[i+1].raw})
					i++
				}
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			ch := t[j]
			p.flags["-"+string(ch)] = true
			if strings.IndexByte(o.digits, ch) >= 0 {
				k := j + 1
				if k < len(t) && (t[k] == 'x' || t[k] == 'X') {
					k++
				}
				for k < len(t) && strings.IndexByte("0123456789abcdefABCDEF", t[k]) >= 0 && !(t[j+1] != 'x' && t[j+1] != 'X' && (t[k] > '9')) {
					k++
				}
				if k > j+1 {
					v := subField(f, j+1)
					if !f.pattern() {
						v = litField(t[j+1 : k])
					}
					p.vals = append(p.vals, optHit{name: "-" + string(ch), oi: i, vi: -1, val: &v, raw: c.args[i].raw})
				}
				j = k - 1
				continue
			}
			if strings.IndexByte(o.attached, ch) >= 0 {
				if j+1 < len(t) {
					v := subField(f, j+1)
					p.vals = append(p.vals, optHit{name: "-" + string(ch), oi: i, vi: -1, val: &v, raw: c.args[i].raw})
				}
				break
			}
			if strings.IndexByte(o.short, ch) < 0 {
				continue
			}
			name := "-" + string(ch)
			if j+1 < len(t) || (f.pattern() && j+1 == len(t) && len(unescapeGlob(f.s)) > len(t)) {
				v := subField(f, j+1)
				p.vals = append(p.vals, optHit{name: name, oi: i, vi: -1, val: &v, raw: c.args[i].raw})
			} else if i+1 < len(c.args) {
				p.vals = append(p.vals, optHit{name: name, oi: i, vi: i + 1, raw: c.args[i+1].raw})
				i++
			}
			break
		}
	}
	return p
}

// valFile gives an option value the role of a file opened with ops.
func (c *cmd) valFile(v optHit, ops OpSet) {
	if v.vi >= 0 {
		c.file(v.vi, ops)
		return
	}
	c.fileField(v.raw, *v.val, ops)
}

func (c *cmd) valField(v optHit) (field, bool) {
	if v.vi >= 0 {
		if v.vi < len(c.args) {
			return c.args[v.vi].f, true
		}
		return field{}, false
	}
	return *v.val, true
}

func (c *cmd) valCode(v optHit, lang string) {
	if v.vi >= 0 {
		c.code(v.vi, lang)
		return
	}
	c.codeField(v.raw, *v.val, lang)
}

func (c *cmd) valScript(v optHit) {
	if v.vi >= 0 {
		c.script(v.vi, source{})
		return
	}
	c.scriptField(v.raw, *v.val, source{})
}

// valWord checks an option value as a plain word.
func (c *cmd) valWord(v optHit) {
	if v.vi >= 0 {
		c.word(v.vi)
		return
	}
	c.a.value(v.raw, *v.val, SetRead)
}

// valText returns an option value's text ("" when unknown).
func (c *cmd) valText(v optHit) string {
	f, ok := c.valField(v)
	if !ok || f.pattern() {
		return ""
	}
	return f.s
}

// spec is a table-driven description of a command that reads or writes its
// operands.
type spec struct {
	opts
	files    map[string]OpSet  // options whose value is a file
	progs    map[string]string // options whose value is a file of code, by language (make -f, jq -f)
	code     map[string]string // options whose value is code, by language
	scripts  []string          // options whose value is a shell command
	filters  []string          // options whose value limits a recursion to names
	patterns []string          // options whose value is a name pattern, never opened (--exclude)
	recFiles []string          // options whose value is also read in full when it is a folder (diff --from-file)
	lists    []string          // options whose value is a file of names the command reads (sort --files0-from)
	ops      OpSet             // ops of the operands
	skip     int               // leading operands that are not files
	skipCode string            // the skipped operand is code in this language
	noSkip   []string          // options that, given, mean no operand is skipped (grep -e)
	last     OpSet             // ops of the last operand when there are two or more (cp)
	rec      []string          // flags that make operands recursive
	recAll   bool              // recursive without a flag
	hidden   []string          // flags that take hidden names into a recursion
	hideDots bool              // a recursion skips hidden names unless a hidden flag is given
	recOps   OpSet             // ops of a recursion (default: the operands' ops)
	chdir    []string          // options whose value is the directory to work in
	dflt     bool              // no operand: the current directory (recursive tools)
	inplace  []string          // flags that turn operands into writes (sed -i)
	follows  []string          // flags that make a recursion follow symlinks
	noFollow []string          // flags that stop it (zip -y)
	followBy uint8             // what a recursion follows without those flags
	// meta: the operands' metadata only is read (stat); metaWith: flags
	// that make it so (ls -d): they are touched (the bash op), not read
	// (a glob operand still is: its expansion lists the folder)
	meta     bool
	metaWith []string
	// names: a recursion prints names, not content (ls -R, tree): the
	// reason says it lists them
	names bool
}

// runSpec applies a spec to the command's arguments.
func (c *cmd) runSpec(s *spec, from int) parsed {
	p := c.parse(from, s.opts)
	for _, v := range p.vals {
		switch {
		case contains(s.recFiles, v.name) || contains(s.lists, v.name):
			c.listOrFolder(v, contains(s.lists, v.name))
			c.valFile(v, SetRead)
		case s.progs[v.name] != "":
			c.valScriptFile(v, s.progs[v.name])
		case s.files[v.name] != 0:
			c.valFile(v, s.files[v.name])
		case s.code[v.name] != "":
			c.valCode(v, s.code[v.name])
		case contains(s.scripts, v.name):
			c.valScript(v)
		case contains(s.patterns, v.name):
			c.patternValue(v)
		case contains(s.chdir, v.name):
			if f, ok := c.valField(v); ok {
				c.valWord(v)
				c.a.chdir(f)
			}
		default:
			c.valWord(v)
		}
	}
	ops := s.ops
	if ops == 0 {
		ops = SetRead
	}
	if len(s.inplace) > 0 && p.has(s.inplace...) {
		ops |= setModify
	}
	if (s.meta || len(s.metaWith) > 0 && p.has(s.metaWith...)) && !s.recAll && !(len(s.rec) > 0 && p.has(s.rec...)) {
		// metadata, no content: the path is touched (the bash op), not read
		ops = SetBash
	}
	var filter []string
	for _, v := range p.values(s.filters...) {
		t := c.valText(v)
		if f, ok := c.valField(v); ok && f.glob && !f.unk && !f.dyn {
			// an unquoted glob (`--include=*.go`) matches no file named so
			// and stays as written; one that does gives names it covers
			t = f.text()
		}
		if t != "" && !strings.HasPrefix(t, "!") {
			filter = append(filter, t)
		} else if t == "" {
			filter = append(filter, "*")
		}
	}
	operands := p.operands
	skip := s.skip
	if len(s.noSkip) > 0 && p.has(s.noSkip...) {
		skip = 0
	}
	for k := 0; k < skip && k < len(operands); k++ {
		if s.skipCode != "" {
			c.code(operands[k], s.skipCode)
		} else {
			c.word(operands[k])
		}
	}
	if skip < len(operands) {
		operands = operands[skip:]
	} else {
		operands = nil
	}
	rec := s.recAll || (len(s.rec) > 0 && p.has(s.rec...))
	dotOK := !s.hideDots || p.has(s.hidden...)
	follow := s.followBy
	if len(s.follows) > 0 && p.has(s.follows...) {
		follow = followAll
	}
	if len(s.noFollow) > 0 && p.has(s.noFollow...) {
		follow = followNone
	}
	if s.names {
		defer func(n int) {
			for k := n; k < len(c.a.out.targets); k++ {
				if t := &c.a.out.targets[k]; t.rec {
					t.lists = true
				}
			}
		}(len(c.a.out.targets))
	}
	if rec && len(operands) == 0 && s.dflt {
		c.recCwd(recOps(s, ops), dotOK, filter, c.name, follow)
	}
	for k, i := range operands {
		o := ops
		if s.last != 0 && k == len(operands)-1 && len(operands) > 1 {
			o = s.last
		}
		if rec && (s.last == 0 || k < len(operands)-1) {
			c.rec(i, recOps(s, o), dotOK, filter, c.name+" "+recFlag(p, s), follow)
			continue
		}
		if o == SetBash && c.args[i].f.glob {
			o = SetRead // a glob's expansion lists its folder (ls -d .git/*)
		}
		c.file(i, o)
	}
	return p
}

func recOps(s *spec, ops OpSet) OpSet {
	if s.recOps != 0 {
		return s.recOps
	}
	return ops
}

func recFlag(p parsed, s *spec) string {
	for _, f := range s.rec {
		if p.flags[f] {
			return f
		}
	}
	return "(recursive)"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// responseFiles: compilers, linkers, binutils and the JDK's tools read
// more arguments from an @FILE, with quotes of their own (echo '-E
// -include .e""nv' > r; gcc @r -x c /dev/null printed .env). A response
// file the command wrote (or one computed when it runs) is unverifiable;
// one on the disk is the project's (not followed, as scripts on the disk).
func (c *cmd) responseFiles() {
	switch programName(c.name) {
	case "gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "clang-cpp", "tcc", "ld", "ld.bfd", "ld.gold", "ld.lld",
		"lld", "as", "gas", "ar", "nm", "objdump", "objcopy", "strip", "readelf", "size", "strings", "addr2line",
		"javac", "java", "javadoc", "jar", "kotlinc", "rustc", "csc", "mcs", "dotnet", "nasm", "yasm", "gfortran",
		"x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc", "arm-none-eabi-gcc", "emcc", "zig", "swiftc", "ghc":
	default:
		return
	}
	for i := 1; i < len(c.args); i++ {
		f := c.args[i].f
		if t := optText(f); !strings.HasPrefix(t, "@") || len(t) < 2 {
			continue
		}
		rest := subField(f, 1)
		if rest.pattern() && (rest.unk || rest.dyn) {
			c.a.unknown(c.args[i].raw, c.name+" reads arguments from a response file named when the command runs", SetRead|setModify)
			continue
		}
		if w, ok := c.a.writtenFile(rest); ok {
			if w.kind == srcNames {
				// names find printed (find src -name '*.java' > srcs;
				// javac @srcs): each a file it reads
				for _, n := range w.names {
					c.a.addRec(c.args[i].raw, n, SetRead, true, nil, c.name+" "+c.args[i].raw, followNone)
				}
				continue
			}
			c.a.unknown(c.args[i].raw, c.name+" reads arguments from a response file the command writes (@FILE: options and names the analysis does not read)", SetRead|setModify)
		}
	}
}

// dispatch runs the handler for c.name; false means the command is not
// known (every argument is then a file).
func (c *cmd) dispatch() bool {
	a := c.a
	if defs := a.funcDefs[c.name]; len(defs) > 0 {
		// a function runs in place of a command of that name; the command
		// is also analysed below (the definition may not have run)
		c.callFunction(defs)
	}
	c.homeByName() // homeset.go
	c.responseFiles()
	c.selfLoaded()
	c.codeOptions()
	c.moreWrites()     // picmd.go
	c.installEnvDirs() // installenv36.go
	if c.name == "history" {
		c.historyFile()
	}
	if names, ok := toolFolderOpts()[c.name]; ok {
		defer c.a.pushDirs(nil)()
		c.toolFolders(names)
	}
	switch c.name {
	// --- words only: these never open their arguments
	case "echo", "printf", "true", "false", ":", "kill", "pkill", "pgrep", "killall", "sleep",
		"exit", "return", "shift", "wait", "jobs", "fg", "bg", "disown", "pwd", "seq", "expr",
		"test", "[", "which", "type", "hash", "local", "readonly", "let", "umask", "ulimit",
		"printenv", "id", "whoami", "hostname", "uname", "tput", "clear", "reset", "yes", "nproc",
		"ps", "uptime", "free", "basename", "dirname", "realpath", "readlink", "getopts", "caller",
		"dirs", "popd", "unset", "break", "continue", "times", "logname", "groups", "arch", "tty",
		"locale", "history", "sync", "lsof", "netstat", "ss", "ping", "dig", "nslookup", "host",
		"whereis", "apropos", "man", "info", "help", "compgen", "complete", "bind", "enable",
		"shopt", "set", "export", "declare", "typeset", "mktemp", "getconf", "uuidgen":
		if c.name == "mktemp" {
			c.mktempMakes()
		}
		if c.name == "printf" {
			p := c.parse(1, opts{short: "v"})
			for _, v := range p.values("-v") {
				c.valWord(v)
			}
			c.printfAssign(p)
		}
		if c.name == "test" || c.name == "[" {
			c.testOperands()
		}
		if c.name == "history" {
			// history -s ARGS adds them as a command line (fc and history
			// expansion run it)
			for i := 1; i < len(c.args); i++ {
				if optText(c.args[i].f) == "-s" {
					var parts []string
					for _, ar := range c.args[i+1:] {
						parts = append(parts, ar.f.text())
					}
					a.script(strings.Join(parts, " "), c.args[i].raw, source{})
					break
				}
			}
		}
		if c.name == "popd" {
			// back to where a pushd left (any of them; the user's own
			// stack is empty in a new shell)
			for _, d := range a.dirStack {
				a.cwds = joinCwds(a.cwds, d)
			}
		}
		if c.name == "set" || c.name == "shopt" {
			// history expansion (set -H, set -o histexpand) rewrites the
			// lines after it (cat .exnv, then ^x^ or !!:s/x// ran cat .env)
			for i := 1; i < len(c.args); i++ {
				t := optText(c.args[i].f)
				if c.name == "set" && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "H") ||
					t == "histexpand" && i > 1 && (c.name == "set" && optText(c.args[i-1].f) == "-o" || c.name == "shopt" && !shoptUnsets(c.args)) ||
					c.args[i].f.pattern() && c.name == "set" && i > 1 && optText(c.args[i-1].f) == "-o" {
					a.unknown(c.args[i].raw, "history expansion (set -H) rewrites the command lines after it (!!, ^old^new), which the analysis does not follow", SetRead|setModify)
					break
				}
			}
		}
		if c.name == "set" {
			c.setPositional() // set -- ARGS rebinds $1…
			for _, ar := range c.args[1:] {
				if t := optText(ar.f); t == "-a" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "a") || t == "allexport" {
					a.allExport = true
				}
			}
		}
		if c.name == "shift" {
			c.shiftPositional()
		}
		if c.name == "compgen" || c.name == "complete" || c.name == "hash" {
			c.commandOptions()
		}
		if c.name == "unset" {
			c.unsetBuiltin()
		}
		if c.name == "man" {
			c.manPager()
		}
		if c.name == "shopt" || c.name == "set" {
			for _, ar := range c.args {
				if t := strings.ToLower(ar.f.text()); strings.Contains(t, "dotglob") || strings.Contains(t, "globdots") {
					a.dotglob = true
				}
				if cdableIn(ar.f.text()) {
					a.cdable = true
				}
				if optionIn(ar.f.text(), "autocd") {
					a.noNarrow = true
				}
				if c.name == "shopt" && ar.f.pattern() {
					// an option named when it runs may be any of them
					a.dotglob, a.cdable, a.noNarrow = true, true, true
				}
			}
		}
		return true
	case "read", "mapfile", "readarray":
		if c.name != "read" {
			// mapfile -C CALLBACK runs CALLBACK as a command every -c lines
			p := c.parse(1, opts{short: "dnOsuCc"})
			for _, v := range p.values("-C") {
				c.optScript(v)
			}
		}
		c.readBuiltin()
		return true
	case "fc":
		// fc -l lists the history; fc -s [OLD=NEW] [CMD] and fc [-e
		// EDITOR] run a command from it again (set -o history; history -s
		// 'cat .e""nv'; fc -s cat), edited or with a substitution: not
		// followed
		for i := 1; i < len(c.args); i++ {
			c.word(i)
			if t := optText(c.args[i].f); strings.HasPrefix(t, "-") && strings.Contains(t, "l") && !strings.HasPrefix(t, "--") {
				return true
			}
		}
		a.unknown(c.args[0].raw, "fc runs a command from the shell's history again (edited, or with a substitution), which the analysis does not follow", SetRead|setModify)
		return true
	case "cd", "pushd":
		p := c.parse(1, opts{posix: true})
		if a.cdHomeSet(c, p.operands) {
			return true
		}
		if c.name == "pushd" && (len(p.operands) == 0 || len(p.operands) == 1 && isStackIndex(optText(c.args[p.operands[0]].f))) {
			// pushd, pushd +N/-N: rotate to a folder of the stack (one a
			// pushd left, or a DIRSTACK element the command set)
			for _, d := range a.dirStack {
				a.cwds = joinCwds(a.cwds, d)
			}
			a.cdOther = true
		}
		if len(p.operands) == 0 {
			if a.home() != "" {
				a.chdir(litField(a.home()))
			} else {
				a.chdir(dynVal(a.homeWhy(), false).f)
			}
			return true
		}
		i := p.operands[0]
		c.word(i)
		if c.name == "pushd" {
			a.dirStack = append(a.dirStack, append([]string(nil), a.cwds...))
		}
		dests := a.chdir(c.args[i].f)
		if f := c.args[i].f; len(c.args) == 2 && i == 1 && !f.pattern() && f.s != "" && !strings.ContainsRune("-+~", rune(f.s[0])) {
			// `cd DIR` with one known operand (not -, zsh's +N/-N or ~):
			// when it succeeds the shell is in one of dests (see andOr;
			// a word with alternatives walks the cd once per value)
			a.cdDests = append(a.cdDests, dests...)
		} else {
			a.cdOther = true
		}
		return true
	case "eval":
		c.evalBuiltin()
		return true
	case "source", ".":
		a.cdpathLost = true // the file may set CDPATH
		c.sourceBuiltin()
		return true
	case "trap":
		p := c.parse(1, opts{posix: true})
		if len(p.operands) > 0 {
			a.noNarrow = true // a DEBUG or RETURN trap may cd before any later command
			// the action runs later (at exit, on a signal), with the
			// positional parameters of that moment: unknown
			pos, known, tail, decl := a.pos, a.posKnown, a.posTail, a.posDecl
			a.pos, a.posKnown, a.posTail, a.posDecl = nil, false, false, false
			// variables the command sets after the trap are the action's
			// too: one not set yet is not the environment's (reevalStmt)
			untrusted := a.envUntrusted
			a.envUntrusted = true
			defer func() { a.envUntrusted = untrusted }()
			c.script(p.operands[0], source{})
			// it runs later (on exit, on a signal): read again at the end
			if f := c.args[p.operands[0]].f; !f.pattern() {
				a.later(nil, f.s, c.args[p.operands[0]].raw, source{})
			}
			a.pos, a.posKnown, a.posTail, a.posDecl = pos, known, tail, decl
		}
		return true
	case "alias":
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			c.done[i] = true
			if t := optText(f); strings.Contains(t, "=") {
				name, _, _ := strings.Cut(t, "=")
				c.scriptField(c.args[i].raw, subField(f, len(name)+1), source{})
				if v := subField(f, len(name)+1); !v.pattern() {
					a.aliases[name] = v.s // read again where it is used
				}
			}
		}
		return true
	case "command", "builtin":
		p := c.parse(1, opts{posix: true})
		if p.has("-v", "-V") {
			return true
		}
		if len(p.operands) > 0 {
			c.wrap(p.operands[0])
		}
		return true
	case "exec":
		p := c.parse(1, opts{short: "a", posix: true})
		if len(p.operands) > 0 {
			c.wrap(p.operands[0])
		}
		return true
	case "time", "nohup", "setsid", "chronic", "unbuffer", "caffeinate", "fakeroot", "proxychains",
		"proxychains4", "torsocks", "catchsegv", "nice", "ionice", "stdbuf", "taskset", "numactl",
		"prlimit", "unshare", "nsenter", "firejail", "valgrind", "systemd-run", "entr", "doas",
		"sudo", "chroot", "timeout", "flock", "strace", "ltrace", "env", "runuser", "su", "script", "chrt",
		"watch", "busybox", "npx", "bunx", "pnpx", "uvx", "pipx", "xvfb-run", "dbus-run-session",
		"sg", "gosu", "su-exec", "tini", "dumb-init", "with-contenv", "direnv", "op", "aws-vault",
		"dotenv", "doppler", "infisical", "sops":
		c.wrapper()
		return true
	case "xargs":
		c.xargs()
		return true
	case "find":
		c.find()
		return true
	case "parallel", "sem":
		c.parallel()
		return true
	case "gdb", "cgdb", "gdb-multiarch", "lldb":
		c.debugger()
		return true
	case "fd", "fdfind":
		c.fd()
		return true
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "rbash", "yash", "posh", "oksh", "loksh", "elvish", "nu", "xonsh",
		"lksh", "pdksh", "ksh93", "osh", "oil", "ysh", "rc", "es", "ion", "nushell", "murex", "ngs":
		c.foreignShell()
		c.shell()
		return true
	case "python", "python2", "python3", "pypy", "pypy3", "ipython", "py":
		c.interp("python")
		return true
	case "node", "nodejs", "bun", "deno", "tsx", "ts-node", "esno", "qjs", "d8", "jsc", "rhino":
		c.buildOutputs() // node --diagnostic-dir, --redirect-warnings
		c.interp("js")
		return true
	case "perl", "perl5":
		c.interp("perl")
		return true
	case "ruby", "irb", "jruby":
		c.interp("ruby")
		return true
	case "php":
		c.interp("php")
		return true
	case "tclsh", "wish", "expect", "jimsh":
		// Tcl: bare words and [command substitution] build names and
		// command lines the code reading does not model
		c.interp("unmodelled:" + c.name)
		return true
	case "lua", "luajit", "Rscript", "R", "julia", "osascript", "groovy", "scala", "kotlin",
		"elixir", "erl", "escript", "swift", "guile", "racket", "sbcl", "clojure", "bb", "ghci", "runghc",
		"jshell", "raku", "perl6":
		c.ownCodeFlags()
		c.interp("generic")
		return true
	case "m4", "gm4":
		// m4's input (files, stdin) is macro code: syscmd/esyscmd run
		// commands, include/undivert read files, names built by macros
		c.interp("unmodelled:m4")
		return true
	case "pwsh", "powershell", "pwsh-preview":
		c.powershell()
		return true
	case "cmd":
		c.cmdExe()
		return true
	case "awk", "gawk", "mawk", "nawk", "busybox-awk", "original-awk", "onetrue-awk", "bwk-awk":
		c.awk()
		return true
	case "sed", "gsed":
		c.sed()
		return true
	case "grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep", "ggrep":
		c.grep()
		return true
	case "rg", "ripgrep":
		c.rg()
		return true
	case "cpp", "gcc", "g++", "cc", "c++", "clang", "clang++", "tcc", "as", "gas", "nasm", "yasm",
		"x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc", "arm-none-eabi-gcc", "clang-cpp", "mcpp":
		c.compiler()
		return true
	case "ugrep", "ug":
		c.ugrep()
		return true
	case "jar":
		c.jar()
		return true
	case "pax":
		c.pax()
		return true
	case "ack", "ack-grep":
		c.ack()
		return true
	case "ag", "pt", "sift":
		c.searcher()
		return true
	case "tar", "gtar", "bsdtar":
		c.tar()
		return true
	case "zip":
		c.zip()
		return true
	case "unzip", "7z", "7za", "7zr", "unrar", "cpio", "ar", "bsdcpio":
		c.extract()
		if c.name == "unrar" {
			c.extractors() // unrar x ARCHIVE DIR/ (extractors.go)
		}
		return true
	case "unar", "dtrx", "aunpack", "atool", "cabextract", "dpkg-deb", "lha", "arj", "uudecode", "unshar":
		c.extractors() // extractors.go
		return true
	case "cp", "gcp":
		o := opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup", "--reflink", "--sparse", "--preserve", "--no-preserve"}}
		c.runSpec(&spec{opts: o,
			files: map[string]OpSet{"-t": setModify, "--target-directory": setModify},
			last:  setModify, rec: []string{"-r", "-R", "-a", "--recursive", "--archive"}, recOps: SetRead,
			follows: []string{"-L", "--dereference"}}, 1)
		c.copyDest()
		c.cpLinkSources(o)
		c.placed(o,
			c.flagged(o, "-r", "-R", "-a", "--recursive", "--archive"), c.name, false)
		c.copied(o)
		return true
	case "mv", "gmv":
		// a folder moved takes everything below it along: each source is
		// read and written in full, like rm -r (mv ~/.pi/agent elsewhere
		// takes the gate's settings away; mv ~ /tmp/h, the keys below it
		// out from under their rules); the destination is written, not
		// recursed — unless -t names it, when every operand is a source
		sp := &spec{opts: opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}},
			files: map[string]OpSet{"-t": setModify, "--target-directory": setModify}, ops: SetRead | setModify,
			recAll: true, last: setModify}
		if p := c.parse(1, sp.opts); p.has("-t", "--target-directory") {
			sp.last = 0
		}
		c.runSpec(sp, 1)
		c.placed(opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}}, true, c.name, false)
		c.copied(opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}})
		return true
	case "mount", "bindfs":
		c.mount()
		return true
	case "lndir":
		c.lndir()
		return true
	case "ln", "gln", "link":
		a.noContent = true // a link holds what its target holds (links)
		defer func() { a.noContent = false }()
		c.placed(opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}}, true, c.name, true)
		c.ln()
		return true
	case "install", "ginstall":
		c.runSpec(&spec{opts: opts{short: "mogtS", long: []string{"--mode", "--owner", "--group", "--target-directory", "--suffix"}},
			files: map[string]OpSet{"-t": setModify, "--target-directory": setModify}, last: setModify}, 1)
		if !c.flagged(opts{short: "mogtS", long: []string{"--mode", "--owner", "--group", "--target-directory", "--suffix"}}, "-d", "--directory") {
			c.placed(opts{short: "mogtS", long: []string{"--mode", "--owner", "--group", "--target-directory", "--suffix"}}, false, c.name, false)
		}
		c.copied(opts{short: "mogtS", long: []string{"--mode", "--owner", "--group", "--target-directory", "--suffix"}})
		return true
	case "rsync":
		c.rsync()
		return true
	case "lftp":
		c.lftp()
		return true
	case "sftp":
		c.sftp()
		return true
	case "scp":
		for _, v := range c.runSpec(&spec{opts: opts{short: "iFoPcSlJDX", long: nil},
			files:    map[string]OpSet{"-i": SetRead, "-F": SetRead},
			patterns: []string{"-o"}, // read below
			scripts:  []string{"-S"}, last: setModify, rec: []string{"-r"}, recOps: SetRead, followBy: followAll}, 1).values("-o") {
			c.sshOption(v)
		}
		c.placed(opts{short: "iFoPcSlJDX"}, c.flagged(opts{short: "iFoPcSlJDX"}, "-r"), "scp", false)
		return true
	case "rm", "grm", "unlink", "shred", "srm", "trash", "trash-put", "rmdir":
		a.noContent = true
		defer func() { a.noContent = false }()
		c.runSpec(&spec{opts: opts{short: "nu", long: []string{"--interactive", "--iterations", "--size", "--random-source"}},
			ops: setModify, rec: []string{"-r", "-R", "--recursive"}}, 1)
		return true
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "chcon", "setfattr":
		a.noContent = true
		defer func() { a.noContent = false }()
		s := &spec{opts: opts{short: "nvx", long: []string{"--reference", "--from"}},
			files: map[string]OpSet{"--reference": SetRead}, ops: setModify, skip: 1, noSkip: []string{"--reference"},
			rec: []string{"-R", "--recursive"}}
		if c.name == "setfattr" || c.name == "setfacl" {
			s.skip = 0
			s.opts.short = "nvxmMX"
		}
		c.runSpec(s, 1)
		return true
	case "touch", "truncate", "mkdir", "mkfifo", "mknod", "fallocate", "xattr":
		if c.name != "truncate" && c.name != "fallocate" {
			a.noContent = true
			defer func() { a.noContent = false }()
		}
		c.runSpec(&spec{opts: opts{short: "rdtmsZlo", long: []string{"--reference", "--date", "--mode", "--size", "--time", "--context"}},
			files: map[string]OpSet{"-r": SetRead, "--reference": SetRead}, ops: setModify}, 1)
		return true
	case "tee", "sponge":
		before := len(a.out.targets)
		p := c.runSpec(&spec{opts: opts{long: []string{"--output-error"}}, ops: setModify}, 1)
		// the files hold what tee reads: its stdin
		for _, i := range p.operands {
			if f := c.args[i].f; !f.pattern() {
				n, _ := a.norm(f.s, false)
				if p.has("-a", "--append") {
					a.wrote(n, a.appended(n, c.in, before))
				} else {
					a.wrote(n, c.in)
				}
			}
		}
		return true
	case "dd":
		for i := 1; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			switch {
			case strings.HasPrefix(t, "of="):
				c.done[i] = true
				c.fileField(c.args[i].raw, subField(c.args[i].f, 3), setModify)
			case strings.HasPrefix(t, "if="):
				c.done[i] = true
				c.fileField(c.args[i].raw, subField(c.args[i].f, 3), SetRead)
			}
		}
		return true
	case "patch", "gpatch":
		c.patch()
		return true
	case "git":
		c.git()
		return true
	case "curl":
		c.curl()
		return true
	case "wget", "wget2":
		c.wget()
		return true
	case "aria2c":
		c.aria2c()
		return true
	case "http", "https", "xh", "xhs":
		c.httpie()
		return true
	case "yt-dlp", "youtube-dl", "yt-dlp_linux":
		c.ytdlp()
		return true
	case "lwp-download", "axel", "gdown":
		c.namedDownload()
		return true
	case "ssh", "mosh", "autossh":
		c.ssh()
		return true
	case "docker-compose":
		if optText(c.args[len(c.args)-1].f) == "config" {
			a.value(c.args[0].raw, litField(".env"), SetRead)
		}
		c.docker()
		return true
	case "docker", "podman", "nerdctl", "finch":
		c.docker()
		return true
	case "make", "gmake", "bmake":
		p := c.runSpec(&spec{opts: opts{short: "fCIjloWE", long: []string{"--file", "--makefile", "--directory", "--include-dir", "--jobs", "--load-average", "--old-file", "--what-if", "--eval"}},
			progs: map[string]string{"-f": "make", "--file": "make", "--makefile": "make"},
			code:  map[string]string{"-E": "make", "--eval": "make"},
			chdir: []string{"-C", "--directory"}, skip: 1 << 20}, 1)
		if !p.has("-f", "--file", "--makefile") {
			// make reads these from its directory by itself
			c.loadsWritten("make", "GNUmakefile", "makefile", "Makefile")
		}
		// VAR=VALUE operands and the environment are make variables: a
		// recipe may run one as a command ($(CC), $(SHELL))
		vals := append([]string(nil), a.cmdEnv...)
		for _, i := range p.operands {
			if t := optText(c.args[i].f); strings.Contains(t, "=") {
				name, v, _ := strings.Cut(t, "=")
				if c.args[i].f.pattern() {
					v = unknownStr
				}
				vals = append(vals, v)
				if strings.TrimRight(strings.TrimSpace(name), ":?+") == "SHELL" {
					// make SHELL=PROG: PROG runs every recipe
					a.shellVar([]field{subField(c.args[i].f, len(name)+1)}, c.args[i].raw, "make's SHELL")
				}
			}
		}
		for _, v := range vals {
			if strings.ContainsRune(v, unknownRune) {
				a.unknown(c.args[0].raw, "make gets a variable computed when the command runs, which a recipe may run", SetRead|setModify)
				continue
			}
			a.looseScript(v, c.args[0].raw)
		}
		return true
	case "hyperfine", "tmux", "screen", "byobu", "nodemon", "at", "batch", "crontab", "concurrently", "xterm", "gnome-terminal", "konsole",
		"kitty", "alacritty", "wezterm", "tcpdump", "less", "more", "most":
		c.runners()
		return true
	case "sqlite3", "sqlite", "sqlcipher", "psql", "mysql", "mariadb", "dc", "gnuplot", "duckdb", "octave", "octave-cli",
		"maxima", "gp", "clisp", "sage", "bc":
		c.commandLang()
		return true
	case "vi", "vim", "nvim", "ex", "view", "vimdiff", "gvim", "nano", "pico", "emacs", "emacsclient", "ed", "red", "kak", "micro", "joe", "mcedit", "hx", "helix", "code", "codium", "subl", "gedit", "kate",
		"code-insiders", "cursor", "windsurf", "zed", "zeditor", "idea", "pycharm", "webstorm", "goland", "clion", "rider",
		"phpstorm", "rubymine", "fleet", "lapce", "atom", "mate", "xed", "sublime_text", "nautilus", "thunar", "dolphin", "nemo", "pcmanfm":
		c.editor()
		return true
	case "jq", "gojq", "jaq", "yq":
		c.jqNamedFiles() // first: their FILE is not the filter
		c.runSpec(&spec{opts: opts{short: "fLs", long: []string{"--from-file", "--indent", "--arg", "--argjson", "--slurpfile", "--rawfile", "--args", "--jsonargs", "--tab"}},
			files: map[string]OpSet{"--slurpfile": SetRead, "--rawfile": SetRead},
			progs: map[string]string{"-f": "jq", "--from-file": "jq"},
			skip:  1, skipCode: "jq", noSkip: []string{"-f", "--from-file"}}, 1)
		return true
	case "gofmt", "goimports", "rustfmt", "black", "isort", "autopep8", "yapf", "stylua", "shfmt", "clang-format", "prettier", "dprint", "biome", "eslint", "standard":
		p := c.parse(1, opts{short: "o", long: []string{"--config", "--ignore-path", "--log-level", "--plugin", "--parser", "-style", "--style", "--ext", "--format", "--rulesdir"}})
		ops := SetRead
		if p.has("-w", "-i", "--write", "--fix", "-l") || c.name == "black" || c.name == "isort" || c.name == "rustfmt" || c.name == "autopep8" && p.has("--in-place") || c.name == "yapf" && p.has("-i") ||
			c.name == "dprint" && len(p.operands) > 0 && optText(c.args[p.operands[0]].f) == "fmt" {
			ops |= setModify
		}
		for _, v := range p.vals {
			c.valWord(v)
		}
		for _, i := range p.operands {
			c.file(i, ops)
			if ops.Has(OpWrite) {
				c.rewritesBelow(i) // prettier --write ., gofmt -w .
			}
		}
		if ops.Has(OpWrite) {
			c.formatsCwd(p.operands) // eslint --fix, dprint fmt
		}
		return true
	case "go", "cargo", "rustc", "rustup", "npm", "pnpm", "yarn", "pip", "pip3", "uv", "poetry", "pipenv",
		"pytest", "tox", "nox", "mvn", "gradle", "gradlew", "dotnet", "gh", "helm", "terraform", "tofu",
		"kubectl", "brew", "apt", "apt-get", "apt-cache", "dpkg", "yum", "dnf", "pacman", "apk", "systemctl",
		"journalctl", "service", "launchctl", "tsc", "vitest", "jest", "mocha", "playwright", "cypress",
		"webpack", "vite", "esbuild", "rollup", "turbo", "nx", "lerna", "bazel", "bazelisk", "cmake", "ninja",
		"meson", "mypy", "pyright", "ruff", "flake8", "pylint", "shellcheck", "golangci-lint", "staticcheck",
		"mix", "gem", "bundle", "rake", "rails", "composer", "cabal", "stack", "zig", "swiftc", "xcodebuild",
		"htop", "top", "lsblk", "df", "umount", "ip", "ifconfig", "nc", "ncat", "netcat", "socat",
		"telnet", "openssl", "gpg", "gpg2", "age", "redis-cli", "mongosh",
		"aws", "gcloud", "az", "heroku", "vercel", "netlify", "fly", "flyctl", "wrangler", "firebase",
		"supabase", "hugo", "jekyll", "pre-commit", "lefthook", "husky", "commitlint", "changeset", "just",
		"task", "air", "reflex", "pm2", "forever", "goreleaser", "ko", "skaffold", "tilt", "kind",
		"minikube", "k3d", "k9s", "kubectx", "kubens", "stern", "kustomize", "argocd", "flux", "istioctl",
		"vault", "consul", "nomad", "packer", "vagrant", "ansible", "ansible-playbook", "pulumi", "cdk",
		"sam", "serverless", "sls", "ollama", "llm",
		"railway", "eb", "now", "surge", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "pixi", "mise", "asdf",
		"devbox", "rtx", "volta", "fnm", "nvm",
		"cloc", "tokei", "scc", "yamllint", "markdownlint", "markdownlint-cli2", "rubocop", "stylelint",
		"bandit", "vulture", "pycodestyle", "pydocstyle", "cppcheck", "tflint":
		if c.name == "dpkg" || c.name == "gem" {
			c.extractors() // dpkg -x ARCHIVE DIR, gem unpack (extractors.go)
		}
		c.buildToolCommands()
		c.installDirs()
		if c.runnerSubcommand() { // npm exec, pnpm dlx, uv run, poetry run, …: a wrapper
			return true
		}
		c.devCodeOptions()
		c.buildOutputs() // tsc --outDir, go test -coverprofile, …
		c.scaffolds()    // cargo new DIR, npm init, go mod init
		c.ruffWrites()
		c.cloudCopy() // aws s3 sync, kubectl cp, …: folders read in full
		c.deployCommand()
		c.serverCommand()
		c.devTool()
		return true
	}
	if a.funcs[c.name] {
		if _, ok := a.funcDefs[c.name]; ok {
			// the body, walked with the arguments bound (above), says what
			// they are
			for i := 1; i < len(c.args); i++ {
				c.word(i)
			}
			return true
		}
		c.generic()
		return true
	}
	if sp := fileSpec(c.name); sp != nil {
		c.runSpec(sp, 1)
		c.derivedOutputs(sp.opts)
		if c.name == "javac" {
			c.buildOutputs() // javac -d DIR
		}
		return true
	}
	if isTransferTool(c.name) {
		c.transferTool()
		return true
	}
	if dirs, ok := isFileServer(c.name); ok {
		c.fileServer(dirs...)
		return true
	}
	c.serverCommand() // caddy file-server, twistd web, browser-sync
	c.buildOutputs()  // c8 --reports-dir, nyc --report-dir, coverage html -d
	c.unmodelledFolders()
	for i := 1; i < len(c.args); i++ {
		if f := c.args[i].f; !c.done[i] && !f.pattern() {
			a.textTokens(c.args[i].raw, f.s, SetRead)
		}
	}
	// a program the analysis does not model may write what it is given
	// (fails closed): its operands are writes too, the reason saying so
	c.genericOps(SetRead|setModify, c.name)
	return false
}

// generic handles a command the analysis does not know: every argument,
// and every `--opt=value` value, is a file it may open.
func (c *cmd) generic() { c.genericOps(SetRead, "") }

// genericOps is generic with the operands' ops; unmodelled names the
// program for the reason when it is one the analysis does not model.
func (c *cmd) genericOps(ops OpSet, unmodelled string) {
	from := len(c.a.out.targets)
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		f := c.args[i].f
		t := optText(f)
		c.done[i] = true
		switch {
		case strings.HasPrefix(t, "-") && strings.Contains(t, "="):
			name, _, _ := strings.Cut(t, "=")
			c.a.value(c.args[i].raw, f, ops)
			c.fileField(c.args[i].raw, subField(f, len(name)+1), ops)
		case strings.HasPrefix(t, "-") && len(t) > 1 && !f.pattern():
			c.a.value(c.args[i].raw, f, ops)
		default:
			c.fileField(c.args[i].raw, f, ops)
		}
	}
	if unmodelled != "" {
		for i := from; i < len(c.a.out.targets); i++ {
			c.a.out.targets[i].unmodelled = unmodelled
		}
	}
	c.embedded()
}

// embedded finds commands inside the arguments of a command the analysis
// does not follow (`docker exec c sh -c '…'`, `uv run python -c '…'`): a
// shell or interpreter name followed by its code option.
func (c *cmd) embedded() {
	for i := 1; i+1 < len(c.args); i++ {
		n := baseName(c.args[i].f)
		nx := optText(c.args[i+1].f)
		switch {
		case isShellName(n) && strings.HasPrefix(nx, "-") && strings.Contains(nx, "c") && !strings.HasPrefix(nx, "--"):
			if i+2 < len(c.args) {
				c.scriptField(c.args[i+2].raw, c.args[i+2].f, source{})
			}
		case interpLang(n) != "" && (nx == "-c" || nx == "-e" || nx == "-E" || nx == "--eval" || nx == "-p" || nx == "-r"):
			if i+2 < len(c.args) {
				c.codeField(c.args[i+2].raw, c.args[i+2].f, interpLang(n))
			}
		}
	}
}

// buildToolCommands: build tools' options whose value is a command they
// run — go's -exec (go run -exec "sh -c 'cat .e\"\"nv' --" x.go printed
// .env) and -toolexec, split the way go splits them (quotes group, no
// escapes); cargo's --config of a runner or wrapper is unverifiable.
func (c *cmd) buildToolCommands() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch c.name {
		case "go":
			opt, _, eq := strings.Cut(t, "=")
			name := strings.TrimLeft(opt, "-")
			if name != "exec" && name != "toolexec" || len(opt)-len(name) > 2 {
				continue
			}
			f, raw, next, ok := c.optValue(i, opt, eq)
			if !ok {
				continue
			}
			i = next
			if f.pattern() {
				c.a.unknown(raw, "go "+name+" runs a command computed when the command runs", SetRead|setModify)
				continue
			}
			c.a.script(argvLine(goSplit(f.s)), raw, source{})
		case "npm", "pnpm", "yarn":
			// --script-shell PROG runs the package's scripts (read as sh)
			if opt, _, eq := strings.Cut(t, "="); opt == "--script-shell" {
				if f, raw, next, ok := c.optValue(i, opt, eq); ok {
					c.a.shellVar([]field{f}, raw, c.name+" --script-shell")
					i = next
				}
			}
		case "cargo":
			if (t == "--config" || strings.HasPrefix(t, "--config=")) && i+1 <= len(c.args) {
				v := strings.TrimPrefix(t, "--config=")
				if t == "--config" && i+1 < len(c.args) {
					v = optText(c.args[i+1].f)
				}
				if strings.Contains(v, "runner") || strings.Contains(v, "wrapper") || strings.Contains(v, "linker") || c.args[i].f.pattern() {
					c.a.unknown(c.args[i].raw, "cargo --config sets a program cargo runs (a runner, wrapper or linker)", SetRead|setModify)
				}
			}
		}
	}
}

// goSplit splits a command line as go's -exec and -toolexec do: at
// blanks, with '…' and "…" grouping (no escapes).
func goSplit(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return out
		}
		if q := s[0]; q == '\'' || q == '"' {
			j := strings.IndexByte(s[1:], q)
			if j < 0 {
				return append(out, s[1:])
			}
			out = append(out, s[1:1+j])
			s = s[2+j:]
			continue
		}
		j := strings.IndexAny(s, " \t\n\r")
		if j < 0 {
			return append(out, s)
		}
		out = append(out, s[:j])
		s = s[j:]
	}
}

// argvLine is a shell command line that runs argv exactly (each word
// single-quoted).
func argvLine(argv []string) string {
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// shoptUnsets: shopt -u (with -o: set +o) turns the options off.
func shoptUnsets(args []arg) bool {
	for _, ar := range args[1:] {
		if t := optText(ar.f); strings.HasPrefix(t, "-") && strings.Contains(t, "u") {
			return true
		}
	}
	return false
}

// isStackIndex: +N or -N, a position in the directory stack.
func isStackIndex(t string) bool {
	return len(t) > 1 && (t[0] == '+' || t[0] == '-') && strings.Trim(t[1:], "0123456789") == ""
}

func isShellName(n string) bool {
	switch n {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "busybox":
		return true
	}
	return false
}

func interpLang(n string) string {
	switch {
	case strings.HasPrefix(n, "python"), n == "pypy", n == "pypy3":
		return "python"
	case n == "node", n == "nodejs", n == "bun", n == "deno":
		return "js"
	case n == "perl":
		return "perl"
	case n == "ruby":
		return "ruby"
	case n == "php":
		return "php"
	case n == "pwsh", n == "powershell":
		return "pwsh"
	}
	return ""
}

// devTool handles build tools and package managers: their arguments are
// targets, packages and flags, opened (if at all) by the tool itself. Words
// are checked; a few options name files.
func (c *cmd) devTool() {
	p := c.parse(1, opts{short: "oCfc", long: []string{"--output", "--outfile", "--outdir", "--out-dir", "--file", "--filename", "--kubeconfig", "--config", "--env-file", "--values", "--var-file", "--from-file", "--from-env-file", "--directory", "--prefix", "--modfile", "--overlay", "--input", "--password-file", "--key", "--cert", "--cacert", "-out", "-in", "-inkey", "--manifest-path"}})
	for _, v := range p.vals {
		switch v.name {
		case "-o", "--output", "--outfile", "--outdir", "--out-dir", "-out":
			c.valFile(v, setModify)
		case "-f", "--file", "--filename", "--kubeconfig", "--config", "--env-file", "--values", "--var-file", "--from-file", "--from-env-file", "--modfile", "--overlay", "--input", "--password-file", "--key", "--cert", "--cacert", "-in", "-inkey", "--manifest-path":
			c.valFile(v, SetRead)
		case "-C", "--directory", "--prefix":
			if f, ok := c.valField(v); ok && (c.name == "go" || c.name == "make" || c.name == "npm" || c.name == "pnpm" || c.name == "git") {
				c.valWord(v)
				c.a.chdir(f)
			} else {
				c.valWord(v)
			}
		default:
			c.valWord(v)
		}
	}
	if c.name == "openssl" {
		c.opensslOps(p)
	}
	c.embedded()
}

// devCodeOptions: dev tools that run code or a command given as an
// argument — rake -e/-p/-E (Ruby: rake -e 'puts File.read(…)' read .env),
// rails runner CODE (Ruby), mix run -e / mix eval (Elixir, not modelled),
// mongosh/mongo --eval (JavaScript), ansible's -a (the shell, command
// and raw modules run it; another module's arguments are not modelled),
// vagrant ssh -c (a command in the machine, whose /vagrant is the
// project), pm2 start 'CMD ARGS' (run by bash).
func (c *cmd) devCodeOptions() {
	if c.name == "socat" || c.name == "nc" || c.name == "ncat" || c.name == "netcat" {
		c.netRunsShell()
	}
	first := -1 // the first operand
	for i := 1; i < len(c.args); i++ {
		if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
			first = i
			break
		}
	}
	sub := ""
	if first > 0 {
		sub = optText(c.args[first].f)
	}
	switch c.name {
	case "rake":
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			t := optText(f)
			switch {
			case t == "--":
				return
			case t == "--execute" || t == "--execute-print" || t == "--execute-continue":
				c.code(i+1, "ruby")
				i++
			case strings.HasPrefix(t, "--execute=") || strings.HasPrefix(t, "--execute-print=") || strings.HasPrefix(t, "--execute-continue="):
				n, _, _ := strings.Cut(t, "=")
				c.done[i] = true
				c.codeField(c.args[i].raw, subField(f, len(n)+1), "ruby")
			case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
				// a cluster of short options (OptionParser: -qe CODE): e, p
				// and E take the code, f I r R j T D W another value
				for j := 1; j < len(t); j++ {
					if strings.IndexByte("epE", t[j]) >= 0 {
						c.done[i] = true
						if j+1 < len(t) {
							c.codeField(c.args[i].raw, subField(f, j+1), "ruby")
						} else {
							c.code(i+1, "ruby")
							i++
						}
						break
					}
					if strings.IndexByte("fIrRjTDWg", t[j]) >= 0 {
						break
					}
				}
			}
		}
	case "rails":
		if sub != "runner" && sub != "r" {
			return
		}
		for i := first + 1; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			if t == "-e" || t == "--environment" {
				i++
				continue
			}
			if strings.HasPrefix(t, "-") {
				continue
			}
			c.code(i, "ruby")
			return
		}
	case "mix":
		for i := 1; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			if sub == "eval" || (sub == "run" && (t == "-e" || t == "--eval" || strings.HasPrefix(t, "--eval="))) {
				c.a.unknown(c.args[i].raw, "mix "+sub+" runs Elixir code, a language the analysis does not model", SetRead|setModify)
				return
			}
		}
	case "mongosh":
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			switch t := optText(f); {
			case t == "--eval":
				c.code(i+1, "js")
				i++
			case strings.HasPrefix(t, "--eval="):
				c.done[i] = true
				c.codeField(c.args[i].raw, subField(f, len("--eval=")), "js")
			}
		}
	case "ansible":
		p := c.parse(1, opts{short: "aMmiuflbkKtTePcBo", long: []string{"--args", "--module-name", "--inventory", "--user", "--forks", "--limit", "--become-user", "--become-method", "--tree", "--extra-vars", "--connection", "--timeout", "--background", "--poll", "--module-path", "--private-key", "--vault-password-file", "--playbook-dir", "--task-timeout"}})
		module := "command"
		for _, v := range p.values("-m", "--module-name") {
			module = strings.TrimPrefix(strings.TrimPrefix(c.valText(v), "ansible.builtin."), "ansible.legacy.")
		}
		for _, v := range p.values("-a", "--args") {
			switch module {
			case "shell", "command", "raw":
				c.valScript(v)
			default:
				c.a.unknown(v.raw, "ansible's "+module+" module: its arguments are not modelled (they may name files to read or commands to run)", SetRead|setModify)
			}
		}
	case "nc", "ncat", "netcat":
		// -e PROG / --exec: a program line, -c / --sh-exec: a shell command
		// run on the connection; --lua-exec FILE: Lua code
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			t := optText(f)
			switch {
			case t == "-e" || t == "--exec" || t == "-c" || t == "--sh-exec":
				c.script(i+1, source{})
				i++
			case strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--sh-exec="):
				n, _, _ := strings.Cut(t, "=")
				c.done[i] = true
				c.scriptField(c.args[i].raw, subField(f, len(n)+1), source{})
			case t == "--lua-exec" || strings.HasPrefix(t, "--lua-exec="):
				c.a.unknown(c.args[i].raw, c.name+" --lua-exec runs Lua code, a language the analysis does not model", SetRead|setModify)
			case len(t) > 2 && t[0] == '-' && t[1] != '-' && (t[1] == 'e' || t[1] == 'c'):
				c.done[i] = true
				c.scriptField(c.args[i].raw, subField(f, 2), source{})
			}
		}
	case "socat":
		// an address EXEC:PROG or SYSTEM:CMD runs a program or a shell
		// command; its options follow a comma
		for i := 1; i < len(c.args); i++ {
			f := c.args[i].f
			t := optText(f)
			n, _, ok := strings.Cut(t, ":")
			if !ok {
				continue
			}
			switch strings.ToUpper(n) {
			case "EXEC", "SYSTEM":
				c.done[i] = true
				rest := subField(f, len(n)+1)
				c.scriptField(c.args[i].raw, rest, source{})
				if !rest.pattern() && strings.ContainsAny(rest.s, ",'\"\\") {
					// options after a comma, or socat's own quoting
					if cmdText, _, _ := strings.Cut(rest.s, ","); cmdText != rest.s {
						c.scriptField(c.args[i].raw, litField(cmdText), source{})
					}
					if strings.ContainsAny(rest.s, "'\"\\") {
						c.a.unknown(c.args[i].raw, "socat's "+n+" address with quotes or escapes socat reads itself", SetRead|setModify)
					}
				}
			}
		}
	case "pm2":
		// pm2 start 'CMD ARGS': a command line with spaces runs in bash
		if sub != "start" {
			return
		}
		for i := first + 1; i < len(c.args); i++ {
			if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
				if f := c.args[i].f; f.pattern() || strings.ContainsAny(f.s, " \t\n;&|") {
					c.script(i, source{})
				}
				return
			}
		}
	case "vagrant":
		if sub != "ssh" {
			return
		}
		for i := first + 1; i < len(c.args); i++ {
			f := c.args[i].f
			switch t := optText(f); {
			case t == "-c" || t == "--command":
				c.script(i+1, source{})
				i++
			case strings.HasPrefix(t, "--command="):
				c.done[i] = true
				c.scriptField(c.args[i].raw, subField(f, len("--command=")), source{})
			case t == "--":
				// the rest goes to ssh: a command line for the machine
				var ops []int
				for k := i + 1; k < len(c.args); k++ {
					ops = append(ops, k)
				}
				c.joinedScript(ops)
				return
			}
		}
	}
}

// netRunsShell: nc -e sh, ncat --sh-exec bash, socat … EXEC:sh — a shell
// or interpreter whose commands come from the connection (a listener the
// command starts may send them): not seen, unverifiable.
func (c *cmd) netRunsShell() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		v := ""
		switch {
		case (t == "-e" || t == "--exec" || t == "-c" || t == "--sh-exec") && i+1 < len(c.args) && c.name != "socat":
			v = optText(c.args[i+1].f)
		case strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--sh-exec="):
			_, v, _ = strings.Cut(t, "=")
		case len(t) > 2 && t[0] == '-' && t[1] != '-' && (t[1] == 'e' || t[1] == 'c') && c.name != "socat":
			v = t[2:]
		case c.name == "socat":
			n, rest, ok := strings.Cut(t, ":")
			if u := strings.ToUpper(n); ok && (u == "EXEC" || u == "SYSTEM") {
				v, _, _ = strings.Cut(rest, ",")
			}
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		if interpreterReadsStdin(path.Base(fs[0])) && (len(fs) == 1 || strings.HasPrefix(fs[1], "-") && fs[1] != "-c" && fs[1] != "-e") {
			c.a.unknown(c.args[i].raw, c.name+" runs "+fs[0]+" with its commands from the connection", SetRead|setModify)
		}
	}
}

// interpreterReadsStdin: a shell or interpreter that runs the commands
// on its stdin when given no script.
func interpreterReadsStdin(n string) bool {
	switch strings.TrimRight(n, "0123456789.") {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "csh", "tcsh", "python", "perl", "ruby", "node", "php", "lua", "tclsh", "wish", "irb", "pwsh", "osascript", "bc", "dc", "sqlite", "psql", "mysql", "gdb", "ed", "ex", "vim", "awk":
		return true
	}
	return false
}

func (c *cmd) opensslOps(p parsed) {
	for i := 1; i < len(c.args); i++ {
		switch optText(c.args[i].f) {
		case "-in", "-inkey", "-key", "-CAfile", "-cert", "-kfile", "-pass":
			c.file(i+1, SetRead)
		case "-out":
			c.file(i+1, setModify)
		}
	}
	_ = p
}

// fileSpec returns the spec of a command that opens its operands, or nil.
func fileSpec(name string) *spec {
	switch name {
	case "cat", "tac", "nl", "more", "less", "most", "pg", "bat", "batcat", "strings", "rev",
		"fold", "fmt", "pr", "expand", "unexpand", "column", "colrm", "wc", "md5sum", "sha1sum", "sha224sum",
		"sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "shasum", "md5", "base64", "base32",
		"basenc", "xxd", "od", "hexdump", "hd", "file", "stat", "du", "ls", "dir", "vdir", "tree", "exa", "eza",
		"lsd", "diff", "cmp", "sdiff", "diff3", "colordiff", "delta", "comm", "join", "paste", "cut", "sort",
		"uniq", "head", "tail", "split", "csplit", "shuf", "tsort", "iconv", "dos2unix", "unix2dos", "zcat",
		"bzcat", "xzcat", "zstdcat", "lz4cat", "zless", "zmore", "bzless", "xzless", "gzip", "gunzip", "bzip2",
		"bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "compress", "uncompress", "lzip", "lunzip", "plzip", "lzma", "unlzma", "lzop", "brotli", "unbrotli", "pigz", "unpigz", "pbzip2", "lbzip2", "unlz4", "bzip3", "bunzip3", "open", "xdg-open",
		"start", "explorer", "lp", "lpr", "mail", "mutt", "sendmail", "pbcopy", "xclip", "xsel",
		"wl-copy", "sponge", "tr", "look", "exiftool", "identify", "convert", "magick", "ffmpeg",
		"ffprobe", "pdftotext", "pandoc", "jless", "fx", "glow", "mdcat", "hexyl", "readelf", "objdump",
		"nm", "ldd", "otool", "gcc", "g++", "cc", "c++", "clang", "clang++", "javac", "java", "kotlinc", "tcc":
		s := &spec{}
		switch name {
		case "head", "tail":
			s.opts = opts{short: "ncs", long: []string{"--lines", "--bytes", "--pid", "--sleep-interval", "--max-unchanged-stats"}}
		case "cut":
			s.opts = opts{short: "bcdf", long: []string{"--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"}}
		case "sort":
			s.opts = opts{short: "ktSTo", long: []string{"--key", "--field-separator", "--buffer-size", "--temporary-directory", "--output", "--files0-from", "--parallel", "--batch-size", "--compress-program", "--random-source", "--sort"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify, "--files0-from": SetRead, "--random-source": SetRead}
			s.scripts = []string{"--compress-program"}
			s.lists = []string{"--files0-from"} // sort prints the files a list names
		case "uniq":
			s.opts = opts{short: "fsw", long: []string{"--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"}}
			s.last = setModify
		case "split", "csplit":
			s.opts = opts{short: "lbnaCtf", long: []string{"--lines", "--bytes", "--number", "--suffix-length", "--line-bytes", "--separator", "--filter", "--prefix", "--additional-suffix", "--suffix-format", "--digits"}}
			s.last = setModify
			s.scripts = []string{"--filter"}
		case "diff", "colordiff":
			s.opts = opts{short: "xXIUCFLDS", long: []string{"--exclude", "--exclude-from", "--ignore-matching-lines", "--unified", "--context", "--label", "--from-file", "--to-file", "--starting-file", "--new-group-format", "--changed-group-format", "--line-format", "--color", "--palette", "--width", "--horizon-lines"}}
			s.files = map[string]OpSet{"-X": SetRead, "--exclude-from": SetRead, "--from-file": SetRead, "--to-file": SetRead}
			// two folders are compared file by file (-N/--new-file prints
			// the files only one has): a folder operand is read, -r or not
			s.recAll = true
			s.recOps = SetRead
			s.followBy = followAll
			s.recFiles = []string{"--from-file", "--to-file"} // a folder compared with each operand
		case "sdiff":
			s.opts = opts{short: "oWwI", long: []string{"--output", "--width", "--ignore-matching-lines", "--diff-program"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify}
			s.scripts = []string{"--diff-program"}
		case "less", "more", "most", "pg":
			// -o/-O/--log-file FILE copy the input to FILE; -k FILE is a key file
			s.opts = opts{short: "oObhjkpPtTxyz", long: []string{"--log-file", "--LOG-FILE", "--lesskey-file", "--tag", "--pattern", "--prompt", "--tabs", "--shift", "--window", "--max-back-scroll"}}
			s.files = map[string]OpSet{"-o": setModify, "-O": setModify, "--log-file": setModify, "--LOG-FILE": setModify, "-k": SetRead, "--lesskey-file": SetRead}
		case "du":
			s.opts = opts{short: "dBXt", long: []string{"--max-depth", "--block-size", "--exclude-from", "--exclude", "--threshold", "--time-style", "--files0-from"}}
			s.files = map[string]OpSet{"-X": SetRead, "--exclude-from": SetRead, "--files0-from": SetRead}
		case "ls", "dir", "vdir", "exa", "eza", "lsd":
			s.opts = opts{short: "wTI", long: []string{"--width", "--tabsize", "--ignore", "--hide", "--sort", "--time", "--time-style", "--format", "--color", "--block-size", "--quoting-style", "--indicator-style", "--level"}}
			s.rec = []string{"-R", "--recursive", "--tree"}
			s.hideDots, s.hidden = true, []string{"-a", "-A", "--all", "--almost-all"}
			s.dflt = true
			s.names = true
			if name == "ls" || name == "dir" || name == "vdir" {
				s.metaWith = []string{"-d", "--directory"} // the entries themselves, not a folder's names
			}
		case "tree":
			s.opts = opts{short: "LPIoH", long: []string{"--filelimit", "--timefmt", "--charset", "--sort"}}
			s.files = map[string]OpSet{"-o": setModify}
			s.recAll, s.dflt, s.names = true, true, true
			s.hideDots, s.hidden = true, []string{"-a"}
		case "xxd":
			s.opts = opts{short: "lscgoC", long: nil}
			s.last = setModify
		case "od", "hexdump", "hd":
			s.opts = opts{short: "AjNtwnse", long: nil}
		case "iconv":
			s.opts = opts{short: "fto", long: []string{"--from-code", "--to-code", "--output"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify}
		case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "compress", "uncompress", "lzip", "lunzip", "plzip", "lzma", "unlzma", "lzop", "brotli", "unbrotli", "pigz", "unpigz", "pbzip2", "lbzip2", "unlz4", "bzip3", "bunzip3", "dos2unix", "unix2dos":
			s.opts = opts{short: "SbTo", long: []string{"--suffix", "--threads", "--output"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify}
			s.ops = SetRead | setModify // replaced in place
			s.rec = []string{"-r", "--recursive"}
			s.followBy = followAll
		case "tr":
			s.skip = 1 << 20 // tr reads stdin only
		case "stat":
			// GNU's -c/--format/--printf and BSD's -f/-t take a format: a
			// file's status is printed (its size at most), never its content
			s.opts = opts{short: "cft", long: []string{"--format", "--printf"}}
			s.meta = true
		case "file":
			s.opts = opts{short: "mfFeP", long: []string{"--magic-file", "--files-from", "--separator", "--exclude", "--parameter"}}
			s.files = map[string]OpSet{"-m": SetRead, "-f": SetRead, "--magic-file": SetRead, "--files-from": SetRead}
		case "nl":
			s.opts = opts{short: "bdfhilnsvw", long: nil}
		case "fold", "fmt":
			s.opts = opts{short: "wpg", long: []string{"--width", "--prefix", "--goal"}}
		case "column":
			s.opts = opts{short: "csoNROdWHE", long: []string{"--separator", "--output-separator", "--table-columns", "--output-width"}}
		case "paste", "join":
			s.opts = opts{short: "dtjeo12av", long: []string{"--delimiters"}}
		case "pr":
			s.opts = opts{short: "hlwWoNSsenicd", long: []string{"--header", "--length", "--width"}}
		case "base64", "base32", "basenc":
			// BSD's -o/--output FILE and -i/--input FILE (GNU's -i,
			// --ignore-garbage, then reads the next operand: a read too)
			s.opts = opts{short: "wio", long: []string{"--wrap", "--input", "--output"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify, "-i": SetRead, "--input": SetRead}
		case "shuf":
			s.opts = opts{short: "niro", long: []string{"--head-count", "--input-range", "--output", "--random-source"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify}
		case "bat", "batcat":
			s.opts = opts{short: "lHmrd", long: []string{"--language", "--highlight-line", "--map-syntax", "--theme", "--style", "--line-range", "--tabs", "--wrap", "--terminal-width", "--diff-context", "--pager", "--color", "--italic-text", "--decorations", "--paging", "--file-name"}}
			s.scripts = []string{"--pager"} // bat runs its pager command
		case "gcc", "g++", "cc", "c++", "clang", "clang++", "tcc":
			s.opts = opts{short: "oIDLlUxWfmOgstze", long: nil}
			s.files = map[string]OpSet{"-o": setModify}
		case "javac", "java", "kotlinc":
			s.opts = opts{short: "dshp", long: []string{"-cp", "-classpath", "--class-path", "-d", "--module-path", "-sourcepath"}}
		case "convert", "magick", "ffmpeg", "ffprobe":
			s.ops = SetRead
		case "pandoc":
			s.opts = opts{short: "oftsV", long: []string{"--output", "--from", "--to", "--template", "--css", "--metadata", "--variable", "--lua-filter", "--filter", "--defaults", "--resource-path"}}
			s.files = map[string]OpSet{"-o": setModify, "--output": setModify, "--template": SetRead, "--defaults": SetRead, "--lua-filter": SetRead}
		}
		return s
	}
	return nil
}

// unsetBuiltin forgets the variables `unset` names: their values are then
// the environment's (unknown), except IFS, which expands to nothing while
// splitting returns to blanks. A name only known at run time may be IFS.
func (c *cmd) unsetBuiltin() {
	a := c.a
	funcs := false
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if ar.f.unk || ar.f.dyn {
			a.anyVarChanged("unset of a name computed when the command runs")
			continue
		}
		if strings.HasPrefix(t, "-") {
			funcs = funcs || strings.Contains(t, "f")
			continue
		}
		if funcs {
			continue
		}
		if name, _, ok := strings.Cut(t, "["); ok {
			// an element: the array is no longer known
			delete(a.arrays, name)
			a.vars[name] = dynVal("$"+name, true)
			continue
		}
		delete(a.vars, t)
		delete(a.arrays, t)
		if t == "CDPATH" {
			// known unset: a relative cd after it enters ./DIR
			// (cdTargets), whatever the environment's CDPATH was
			a.vars[t] = knownVal("")
		}
		if t == "IFS" {
			a.ifs, a.ifsDyn = " \t\n", false
			a.ifsUnset = true
		}
	}
}

// fileTestOps are test's operators that look at a file's metadata (type,
// permissions, size, times), never its content; the binary ones compare
// two files' times or identity.
var fileTestOps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-e": true, "-a": true, "-f": true, "-d": true, "-c": true, "-b": true, "-p": true,
		"-S": true, "-L": true, "-h": true, "-k": true, "-g": true, "-u": true, "-G": true, "-O": true, "-N": true,
		"-r": true, "-w": true, "-x": true, "-s": true}
})

var fileTestBinOps = map[string]bool{"-nt": true, "-ot": true, "-ef": true}

// testOperands gives the operands of test's file operators (`test -f
// .env`, `[ a -nt b ]`) the role of a metadata access: the bash op, not a
// read (a glob's expansion lists its folder: a read). Every other word
// stays a word.
func (c *cmd) testOperands() {
	meta := func(i int) {
		if i > 0 && i < len(c.args) && !c.done[i] {
			c.done[i] = true
			ops := SetBash
			if c.args[i].f.glob {
				ops = SetRead // a glob's expansion lists its folder
			}
			c.fileField(c.args[i].raw, c.args[i].f, ops)
		}
	}
	for k := 1; k < len(c.args); k++ {
		f := c.args[k].f
		if f.pattern() {
			continue
		}
		switch {
		case fileTestOps()[f.s] && k+1 < len(c.args):
			c.done[k] = true
			meta(k + 1)
			k++
		case fileTestBinOps[f.s] && k+1 < len(c.args):
			c.done[k] = true
			meta(k - 1)
			meta(k + 1)
			k++
		}
	}
}

// optScript reads an option's value as a shell command.
func (c *cmd) optScript(v optHit) {
	if v.vi >= 0 {
		c.script(v.vi, source{})
	} else if v.val != nil {
		c.scriptField(v.raw, *v.val, source{})
	}
}

// commandOptions: compgen -C CMD runs CMD and -F FUNC runs a function to
// make its words (complete only registers them, for an interactive shell,
// where -C and -F run later); hash -p PATH NAME makes NAME run PATH.
func (c *cmd) commandOptions() {
	p := c.parse(1, opts{short: "ACFGPSWXopt"})
	if c.name == "hash" {
		if len(p.values("-p")) > 0 {
			c.a.unknown(c.args[0].raw+" -p", "hash -p makes a command name run another program", SetRead|setModify)
		}
		return
	}
	for _, v := range p.values("-C") {
		c.optScript(v)
	}
	if c.name == "compgen" && len(p.values("-F")) > 0 {
		c.a.unknown("compgen -F", "compgen -F runs a shell function the analysis does not follow there", SetRead|setModify)
	}
}

// mount: a bind mount (--bind, --rbind, -B, -R, --move, -o bind) or bindfs
// shows SRC's files under DST, like a folder link made in the command: a
// later recursion of DST reads SRC (mount --bind . /mnt; grep -r x /mnt).
// Other mounts whose options name folders (overlay's lowerdir=…) are not
// modelled; a device or a file system by type mounts no project folder.
func (c *cmd) mount() {
	p := c.parse(1, opts{short: "oOtLUTNS", long: []string{"--options", "--types", "--label", "--uuid", "--fstab", "--namespace", "--source", "--target", "--test-opts", "--target-prefix", "--mkdir"}})
	bind := c.name == "bindfs" || p.has("--bind", "-B", "--rbind", "-R", "--move", "-M")
	for _, v := range p.values("-o", "--options") {
		t := ""
		if v.val != nil {
			t = v.val.text()
		} else if v.vi >= 0 {
			t = c.args[v.vi].f.text()
			c.done[v.vi] = true
		}
		if strings.Contains(t, "bind") || strings.Contains(t, "move") {
			bind = true
		}
		if strings.Contains(t, "dir=") || strings.ContainsRune(t, unknownRune) {
			c.a.unknown(c.args[0].raw, "mount options that name folders ("+t+") are not modelled", SetRead|setModify)
		}
	}
	ops := p.operands
	if c.name == "bindfs" {
		// bindfs [options] SRC DST: its -o options are mount's
		if len(ops) < 2 {
			return
		}
		ops = ops[len(ops)-2:]
	}
	if !bind || len(ops) != 2 {
		for _, i := range ops {
			c.done[i] = true
		}
		return
	}
	// the source is seen again at the mount point: a write there is a
	// write of it (making a link counts as a write of its target)
	c.rec(ops[0], SetRead|setModify, true, nil, c.name+" (a bind mount)", followAll)
	c.file(ops[1], setModify)
	sf, df := c.args[ops[0]].f, c.args[ops[1]].f
	if df.pattern() {
		c.a.unknown(c.args[ops[1]].raw, "a bind mount on a folder computed when the command runs", SetRead|setModify)
		return
	}
	dp, _ := c.a.norm(df.s, false)
	if sf.pattern() {
		c.a.links[dp] = "/" + unknownSeg
		return
	}
	sp, _ := c.a.norm(sf.s, false)
	c.a.links[dp] = sp
}

// foreignShell: shells whose syntax is not the POSIX/bash family's (fish
// expands .e{n}v to .env, rc joins .e^nv, nu and elvish are languages of
// their own): the commands they are given (-c, stdin) are read as bash
// for their paths, and are unverifiable besides.
func (c *cmd) foreignShell() {
	switch c.name {
	case "fish", "csh", "tcsh", "elvish", "nu", "nushell", "xonsh", "ysh", "rc", "es", "ion", "murex", "ngs":
	default:
		return
	}
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if t == "-c" || t == "--command" || strings.HasPrefix(t, "--command=") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'c') {
			c.a.unknown(c.args[0].raw, c.name+"'s syntax is not bash's: the commands it is given are not analysed", SetRead|setModify)
			return
		}
	}
	if c.in.kind != srcNone {
		c.a.unknown(c.args[0].raw, c.name+"'s syntax is not bash's: the commands it reads on stdin are not analysed", SetRead|setModify)
	}
}

// ownCodeFlags: code options the generic interpreter reading does not
// parse — guile -c EXPR, erl/escript -eval EXPR (one dash, a long name).
func (c *cmd) ownCodeFlags() {
	for i := 1; i+1 < len(c.args); i++ {
		t := optText(c.args[i].f)
		if t == "--" {
			return
		}
		if c.name == "guile" && t == "-c" || (c.name == "erl" || c.name == "escript") && t == "-eval" {
			c.done[i], c.done[i+1] = true, true
			f := c.args[i+1].f
			if f.pattern() && (f.unk || f.dyn) {
				c.a.unknown(c.args[i+1].raw, "the code "+c.name+" runs is computed when the command runs", SetRead|setModify)
			} else {
				c.a.codeText(f.s, c.args[i+1].raw, "generic")
			}
			i++
		}
	}
}
