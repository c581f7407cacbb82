package guard

import (
	"path"
	"strings"
)

// This file models the excludes of recursive programs (tar, zip, rsync,
// grep, rg) and git clean's pathspecs: what a recursion surely skips.

// cleanPathspecs returns git clean's pathspecs when each is a plain path
// (no magic `:`, no wildcard, known): the clean then stays below them. ok
// is false when there are none or one the analysis cannot place.
func cleanPathspecs(rest []arg, values []int) ([]arg, bool) {
	var out []arg
	dd := false
	skip := map[int]bool{}
	for _, k := range values {
		skip[k] = true
	}
	for k := 0; k < len(rest); k++ {
		f := rest[k].f
		t := optText(f)
		switch {
		case dd:
		case t == "--":
			dd = true
			continue
		case skip[k]:
			continue // an -e pattern (parseCleanOpts)
		case t == "-e" || t == "--exclude":
			k++
			continue
		case strings.HasPrefix(t, "-"):
			continue
		}
		if f.pattern() || t == "" || strings.HasPrefix(t, ":") || strings.ContainsAny(t, "*?[\\") {
			return nil, false
		}
		out = append(out, rest[k])
	}
	return out, len(out) > 0
}

// excludePat is a pattern a recursion surely skips: the program's own
// exclude (tar --exclude, zip -x, rsync --exclude, grep --exclude, rg -g
// '!…'). Matching is narrower than every tool's (see exclMatch), never
// wider: an exclude the analysis is unsure of is not recorded.
type excludePat struct {
	glob  string
	path  bool // matched against the path below the folder (zip -x); else against each name, at any depth
	files bool // only files are skipped (grep --exclude)
	dirs  bool // only folders are skipped, with all below them (grep --exclude-dir)
}

// excluded reports whether a recursion with exclude ex skips the entry
// rel (below its folder), named name.
func excluded(ex []excludePat, rel, name string, isDir bool) bool {
	for _, p := range ex {
		if isDir && p.files || !isDir && p.dirs {
			continue
		}
		target := name
		if p.path {
			target = rel
		}
		if exclMatch(p.glob, target) {
			return true
		}
	}
	return false
}

// excludedEverywhere reports whether ex skips the name at any depth (for
// the reasoning without the disk).
func excludedEverywhere(ex []excludePat, name string, dir bool) bool {
	for _, p := range ex {
		if p.path || dir && p.files || !dir && p.dirs {
			continue
		}
		if exclMatch(p.glob, name) {
			return true
		}
	}
	return false
}

// exclMatch matches an exclude pattern segment by segment, case-sensitively
// (the program compares the names it reads), `*` never crossing `/`, and a
// hidden name only by a segment that starts with a literal dot: narrower
// than each tool's own rules, so what it excludes the tool excludes too.
func exclMatch(glob, target string) bool {
	gs, ts := strings.Split(glob, "/"), strings.Split(target, "/")
	if len(gs) != len(ts) || glob == "" {
		return false
	}
	for i := range gs {
		if strings.HasPrefix(ts[i], ".") && !strings.HasPrefix(gs[i], ".") {
			return false
		}
		if strings.ContainsRune(gs[i], unknownRune) {
			return false
		}
		ok, err := path.Match(gs[i], ts[i])
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// patternValue gives an option value the role of a name pattern: it is
// not opened, so it is not checked as a path.
func (c *cmd) patternValue(v optHit) {
	if v.oi >= 0 && v.oi < len(c.done) {
		c.done[v.oi] = true
	}
	if v.vi >= 0 && v.vi < len(c.done) {
		c.done[v.vi] = true
	}
}

// excludeFrom records exclude patterns on the recursions added since the
// n-th target.
func (c *cmd) excludeFrom(n int, ex []excludePat) {
	if len(ex) == 0 {
		return
	}
	for i := n; i < len(c.a.out.targets); i++ {
		if c.a.out.targets[i].rec {
			c.a.out.targets[i].exclude = append(c.a.out.targets[i].exclude, ex...)
		}
	}
}

// plainExclude returns the exclude pattern an option value gives when the
// analysis is sure of it: known text without brace, extended or escape
// syntax; ok false otherwise.
func plainExclude(c *cmd, v optHit) (string, bool) {
	f, ok := c.valField(v)
	if !ok || f.unk || f.dyn || f.onlyUnk {
		return "", false
	}
	return plainPattern(f.text())
}

func plainPattern(t string) (string, bool) {
	if t == "" || strings.ContainsAny(t, "{}()|\\") || strings.ContainsRune(t, unknownRune) {
		return "", false
	}
	return t, true
}

// nameExclude turns a name pattern (rsync, rg, tar) into an excludePat:
// a trailing `/` means folders only; another `/` anchors it, which the
// analysis does not model (ok false).
func nameExclude(t string) (excludePat, bool) {
	dirs := strings.HasSuffix(t, "/")
	t = strings.TrimSuffix(t, "/")
	if t == "" || strings.Contains(t, "/") {
		return excludePat{}, false
	}
	return excludePat{glob: t, dirs: dirs}, true
}

// tarExcludes: GNU tar's --exclude=PATTERN skips members whose name, or a
// trailing run of its components, matches (folders with all below them),
// for the names given after it (args[before] is the name);
// --anchored changes that (no exclusion), --no-wildcards makes patterns
// literal (only literal ones are kept).
func (c *cmd) tarExcludes(p parsed, before int) []excludePat {
	if p.has("--anchored") {
		return nil
	}
	var ex []excludePat
	for _, v := range p.values("--exclude") {
		if v.oi >= before {
			continue // GNU tar: an exclude after a name does not apply to it
		}
		t, ok := plainExclude(c, v)
		if !ok || p.has("--no-wildcards") && strings.ContainsAny(t, "*?[") {
			continue
		}
		if e, ok := nameExclude(t); ok {
			ex = append(ex, e)
		}
	}
	return ex
}

// rsyncExcludes: --exclude=PATTERN without an inner `/` skips the names it
// matches at any depth (a trailing `/`: folders only), unless an include
// or filter rule (which comes first or merges per folder) may take it back.
func (c *cmd) rsyncExcludes(p parsed) []excludePat {
	if p.has("--include", "--include-from", "--exclude-from", "--filter", "-f", "-F", "--files-from") {
		return nil // rules the analysis does not read (a file's lines may be `+ *`)
	}
	var ex []excludePat
	for _, v := range p.values("--exclude") {
		t, ok := plainExclude(c, v)
		if !ok {
			continue
		}
		if strings.HasPrefix(t, "+") || strings.HasPrefix(t, "!") {
			// `+ PATTERN` (any modifiers) is an include rule, `!` clears
			// the list: either may take the exclusion back
			return nil
		}
		if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "-") && strings.Contains(t, " ") {
			continue
		}
		if e, ok := nameExclude(t); ok {
			ex = append(ex, e)
		}
	}
	return ex
}

// grepExcludes: --exclude=GLOB skips files whose name matches,
// --exclude-dir=GLOB folders; an --include may take one back (none kept).
func (c *cmd) grepExcludes(p parsed) []excludePat {
	if p.has("--include") {
		return nil
	}
	var ex []excludePat
	for _, name := range []string{"--exclude", "--exclude-dir"} {
		for _, v := range p.values(name) {
			t, ok := plainExclude(c, v)
			if !ok || strings.Contains(t, "/") {
				continue
			}
			ex = append(ex, excludePat{glob: t, files: name == "--exclude", dirs: name == "--exclude-dir"})
		}
	}
	return ex
}

// rgExcludes: ripgrep's -g/--glob/--iglob '!GLOB' skip what GLOB matches
// (files and folders, at any depth without a `/`); kept only when every
// glob given is such a negation (a later positive glob takes precedence).
func (c *cmd) rgExcludes(p parsed) []excludePat {
	var ex []excludePat
	for _, v := range p.values("-g", "--glob", "--iglob") {
		t, ok := plainExclude(c, v)
		if !ok || !strings.HasPrefix(t, "!") {
			return nil
		}
		t = strings.TrimPrefix(strings.TrimPrefix(t, "!"), "**/")
		if e, ok := nameExclude(t); ok {
			ex = append(ex, e)
		}
	}
	return ex
}

// zipExcludes reads zip's -x/--exclude lists (a list runs to the next
// option; -x@FILE reads the list from FILE): each pattern is matched
// against the stored path (`D/*` skips D with all below it). The
// patterns are not opened; an -i/--include list may take one back (none
// kept). exArgs are the operands that belong to the lists.
func (c *cmd) zipExcludes(p parsed) (ex []excludePat, exArgs map[int]bool) {
	exArgs = map[int]bool{}
	keep := !p.has("-i", "--include")
	add := func(raw string, f field) {
		if f.unk || f.dyn || f.onlyUnk {
			return
		}
		t, ok := plainPattern(f.text())
		if !ok || !keep {
			return
		}
		dirs := false
		if d, found := strings.CutSuffix(t, "/*"); found && !strings.ContainsAny(d, "*?[") {
			t, dirs = d, true
		}
		ex = append(ex, excludePat{glob: t, path: true, dirs: dirs})
	}
	for _, v := range p.values("-x", "--exclude") {
		c.patternValue(v)
		f, ok := c.valField(v)
		if !ok {
			continue
		}
		if t := optText(f); strings.HasPrefix(t, "@") {
			c.fileField(v.raw, subField(f, 1), SetRead) // the list's file
		} else {
			add(v.raw, f)
		}
		j := v.oi + 1
		if v.vi >= 0 {
			j = v.vi + 1
		}
		for ; j < len(c.args) && !strings.HasPrefix(optText(c.args[j].f), "-"); j++ {
			c.done[j] = true
			exArgs[j] = true
			add(c.args[j].raw, c.args[j].f)
		}
	}
	return ex, exArgs
}

// cleanOpts is what a git clean's options say: -n (dry run), -x, -X, and
// the -e/--exclude patterns (at which argument, and their text when the
// analysis knows it). Short options cluster (`-fdxe.env`: -e's value is
// the rest of the word), so a value is never read as flags.
type cleanOpts struct {
	dry, x, bigX bool
	excl         []string // the -e patterns, known text
	unsure       bool     // an -e pattern computed when it runs
	values       []int    // the arguments (of rest) that are -e values only
}

func parseCleanOpts(rest []arg) cleanOpts {
	var o cleanOpts
	val := func(k int, f field, own bool) {
		if f.unk || f.dyn || f.onlyUnk || f.pattern() {
			o.unsure = true
			return
		}
		o.excl = append(o.excl, f.text())
		if own {
			o.values = append(o.values, k)
		}
	}
	for k := 0; k < len(rest); k++ {
		f := rest[k].f
		t := optText(f)
		switch {
		case f.pattern() && (f.lead == "" || strings.HasPrefix(f.lead, "-")):
			o.unsure = true // may be an option (-X, -e '!…') computed when it runs
		case f.pattern():
		case t == "--":
			return o
		case t == "--dry-run":
			o.dry = true
		case t == "--exclude" && k+1 < len(rest):
			o.values = append(o.values, k)
			k++
			val(k, rest[k].f, true)
		case strings.HasPrefix(t, "--exclude="):
			val(k, subField(f, len("--exclude=")), true)
		case strings.HasPrefix(t, "--"):
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'n':
					o.dry = true
				case 'x':
					o.x = true
				case 'X':
					o.bigX = true
				case 'e':
					if j+1 < len(t) {
						val(k, subField(f, j+1), true)
					} else if k+1 < len(rest) {
						o.values = append(o.values, k)
						k++
						val(k, rest[k].f, true)
					}
					j = len(t)
				}
			}
		}
	}
	return o
}

// cleanExcludes are the -e patterns a git clean surely keeps: each makes
// what it matches ignored, which git clean leaves (not with -X, which
// removes only what is ignored). A `!` pattern takes one back (the last
// matching pattern wins): then none is kept, nor when one is unknown.
func (o cleanOpts) cleanExcludes() ([]excludePat, bool) {
	if o.bigX || o.unsure {
		return nil, false
	}
	var ex []excludePat
	for _, t := range o.excl {
		if strings.HasPrefix(t, "!") {
			return nil, false
		}
		t, ok := plainPattern(t)
		if !ok {
			continue
		}
		if e, ok := nameExclude(t); ok {
			ex = append(ex, e)
		}
	}
	return ex, true
}

// gitExcludeSpec reads an exclude pathspec (`:!name`, `:^name`,
// `:!:name`, `:(exclude)name`): isExcl says it is one; ok that the
// analysis models it, pat being the path it leaves out relative to the
// current folder (a trailing `/`: only a folder). Other magic (`:/` top,
// icase, glob, literal, attr) is not modelled.
func gitExcludeSpec(t string) (ex excludePat, isExcl, ok bool) {
	if !strings.HasPrefix(t, ":") {
		return excludePat{}, false, false
	}
	s := t[1:]
	switch {
	case strings.HasPrefix(s, "("):
		magic, rest, found := strings.Cut(s[1:], ")")
		if !found {
			return excludePat{}, false, false
		}
		for _, m := range strings.Split(magic, ",") {
			if m == "exclude" {
				isExcl = true
			} else {
				return excludePat{}, isExcl, false
			}
		}
		s = rest
	default:
		n := 0
		top := false
		for n < len(s) && strings.ContainsRune("!^/", rune(s[n])) {
			if s[n] == '/' {
				top = true
			} else {
				isExcl = true
			}
			n++
		}
		s = strings.TrimPrefix(s[n:], ":")
		if top {
			return excludePat{}, isExcl, false
		}
	}
	if !isExcl {
		return excludePat{}, false, false
	}
	dirs := strings.HasSuffix(s, "/")
	s = strings.TrimSuffix(s, "/")
	p, pok := plainPattern(s)
	if !pok || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return excludePat{}, true, false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return excludePat{}, true, false
		}
	}
	return excludePat{glob: p, path: true, dirs: dirs}, true, true
}

// specExcludeFrom records exclude pathspecs on the recursions added since
// the n-th target that start at the current folder, when it is the top of
// its repository (git's pathspecs are relative to the current folder; a
// command with no positive pathspec covers the whole work tree).
func (c *cmd) specExcludeFrom(n int, ex []excludePat) {
	a := c.a
	if len(ex) == 0 || a.env.FS == nil || len(a.cwds) != 1 || strings.ContainsRune(a.cwd(), unknownRune) {
		return
	}
	cwd := a.cwd()
	if repositoryOf(a.env.FS, cwd) != cwd {
		return
	}
	for i := n; i < len(a.out.targets); i++ {
		if t := &a.out.targets[i]; t.rec && t.path == cwd {
			t.exclude = append(t.exclude, ex...)
		}
	}
}
