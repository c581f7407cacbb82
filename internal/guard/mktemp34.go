package guard

import (
	"path"
	"strings"
)

// mktempMakes records the file or folder mktemp creates when the command
// names its folder: -p DIR, --tmpdir=DIR, or a template with a `/`
// (mktemp .pi/extensions/XXXX.ts). Its name is random, so it is any name
// in that folder: a rule on a name there, or on everything below it
// (.pi/extensions/), denies the call. Made in the temporary folder ($TMPDIR
// or /tmp, no folder named), or with -u (--dry-run: nothing is made), it
// is not recorded.
func (c *cmd) mktempMakes() {
	var dir field
	dirRaw, named := "", false
	var tmpl field
	tmplSet, inTmp := false, false
	suffix := ""
	for i := 1; i < len(c.args); i++ {
		ar := c.args[i]
		t := optText(ar.f)
		switch {
		case t == "--":
			if i+1 < len(c.args) {
				tmpl, tmplSet = c.args[i+1].f, true
			}
			i = len(c.args)
		case t == "-u" || t == "--dry-run":
			return
		case t == "-p":
			if i+1 < len(c.args) {
				dir, dirRaw, named = c.args[i+1].f, c.args[i+1].raw, true
				i++
			}
		case t == "--tmpdir" || t == "-t":
			inTmp = true
		case strings.HasPrefix(t, "--suffix="):
			suffix = strings.TrimPrefix(t, "--suffix=")
		case strings.HasPrefix(t, "--tmpdir="):
			dir, dirRaw, named = trimFieldPrefix(ar.f, len("--tmpdir=")), ar.raw, true
		case strings.HasPrefix(t, "-p") && len(t) > 2 && !strings.HasPrefix(t, "--"):
			dir, dirRaw, named = trimFieldPrefix(ar.f, 2), ar.raw, true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 1:
			if strings.Contains(t, "u") {
				return
			}
			if strings.Contains(t, "t") {
				inTmp = true
			}
			if k := strings.IndexByte(t, 'p'); k > 0 {
				// -dp DIR, -dpDIR
				if k == len(t)-1 {
					if i+1 < len(c.args) {
						dir, dirRaw, named = c.args[i+1].f, c.args[i+1].raw, true
						i++
					}
				} else {
					dir, dirRaw, named = trimFieldPrefix(ar.f, k+1), ar.raw, true
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
		default:
			tmpl, tmplSet = ar.f, true
		}
	}
	if tmplSet && !named {
		ts := tmpl.text()
		if k := strings.LastIndexByte(ts, '/'); k >= 0 {
			d := ts[:k]
			if d == "" {
				d = "/"
			}
			if tmpl.pattern() {
				// a computed template ("$d"/XXXX): the file is the
				// template's own pattern
				c.newNames(func() { c.a.loadedBy("mktemp, which makes a file with a random name", tmpl, setModify) })
				return
			}
			dir, dirRaw, named = litField(d), d, true
		} else if !inTmp {
			// a template without a folder and no -t/--tmpdir/-p: the
			// working folder (GNU mktemp)
			dir, dirRaw, named = litField("."), ".", true
		}
	}
	if !named {
		// the temporary folder: $TMPDIR when the command sets it
		// (TMPDIR=.pi/extensions mktemp)
		v, ok := c.envField("TMPDIR")
		if !ok || v.s == "" {
			return
		}
		dir, dirRaw = v, "$TMPDIR"
		if !tmplSet {
			tmpl, tmplSet = litField("tmp.XXXXXXXXXX"), true
		}
	}
	if !dir.pattern() && path.Clean(dir.text()) == "/tmp" {
		// the shared temporary folder: no rule protects a random name
		// there (not a folder below it: a project in /tmp/x has its own
		// .pi/extensions, and /tmpx is another folder)
		return
	}
	where := showWord(dir.text())
	if dir.pattern() {
		where = showWord(dirRaw)
	} else {
		dir = litField(path.Clean(dir.s))
	}
	name := field{s: unknownStr, unk: true}
	if tmplSet && !tmpl.pattern() {
		name = mktempName(path.Base(tmpl.s), suffix)
	} else if !tmplSet {
		name = mktempName("tmp.XXXXXXXXXX", suffix)
	}
	c.newNames(func() {
		c.a.loadedBy("mktemp, which makes a file with a random name in "+where, joinBase(dir, name), setModify)
	})
}

// trimFieldPrefix drops the first n bytes of a literal field (an option's
// name in -pDIR, --tmpdir=DIR).
func trimFieldPrefix(f field, n int) field {
	if f.pattern() {
		t := f.text()
		if n <= len(t) {
			return field{s: unknownStr, unk: true}
		}
	}
	if n > len(f.s) {
		return litField("")
	}
	return litField(f.s[n:])
}

// mktempName is the pattern of the names mktemp makes from a template's
// last part: its last run of X's is random, what comes before and after
// (and --suffix) is kept.
func mktempName(base, suffix string) field {
	end := strings.LastIndex(base, "XXX")
	if end < 0 {
		return field{s: unknownStr, unk: true}
	}
	end += 3
	start := end - 3
	for start > 0 && base[start-1] == 'X' {
		start--
	}
	for end < len(base) && base[end] == 'X' {
		end++
	}
	return field{s: escapeGlob(base[:start]) + unknownStr + escapeGlob(base[end:]+suffix), unk: true}
}
