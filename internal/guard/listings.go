package guard

import (
	"io/fs"
	"sort"
	"strings"
)

// What `ls` prints for files named by literal words or plain globs, read
// with the disk: the names as the shell's expansion spells them, sorted.
// A folder among them (ls lists its content), options that change the
// output, an order a locale could change, no disk: unknown.

// lsOutput is ls's output as text, or false.
func (a *shellAnalyzer) lsOutput(c *cmd) (source, bool) {
	fsys := a.env.FS
	if fsys == nil || len(a.cwds) != 1 || strings.ContainsRune(a.cwd(), unknownRune) || a.win {
		return source{}, false
	}
	dirOK := false
	var names []string
	for _, ar := range c.args[1:] {
		f := ar.f
		t := optText(f)
		if !f.pattern() && strings.HasPrefix(t, "-") && t != "-" {
			switch t {
			case "-1", "-d", "--directory", "-d1", "-1d":
				dirOK = dirOK || strings.Contains(t, "d")
				continue
			}
			return source{}, false
		}
		if f.unk || f.dyn || f.dotOK {
			return source{}, false
		}
		if !f.glob {
			names = append(names, f.s)
			continue
		}
		p, _ := a.norm(f.s, true)
		found, complete := globDisk(fsys, p, false, a.dotglob)
		if !complete {
			return source{}, false
		}
		if len(found) == 0 {
			return source{}, false // no match: ls reports the pattern missing
		}
		rel := strings.TrimSuffix(a.cwd(), "/") + "/"
		for _, x := range found {
			if !strings.HasPrefix(unescapeGlob(f.s), "/") {
				if !strings.HasPrefix(x, rel) {
					return source{}, false
				}
				x = strings.TrimPrefix(x, rel)
			}
			names = append(names, x)
		}
	}
	if len(names) == 0 {
		return source{}, false // the current folder's listing
	}
	for _, n := range names {
		p, _ := a.norm(n, false)
		fi, err := fsys.Lstat(p)
		if err != nil || (fi.Mode()&fs.ModeSymlink != 0) || (fi.IsDir() && !dirOK) || !plainName(n) {
			return source{}, false
		}
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if dictKey(names[i-1]) >= dictKey(names[i]) {
			return source{}, false // a locale's collation may order them otherwise
		}
	}
	return source{kind: srcText, text: strings.Join(names, "\n") + "\n"}, true
}

// plainName reports whether ls and git print a name as it is (no quoting
// of special characters).
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c >= 0x7f || strings.IndexByte("\"'\\$`*?[]{}()<>|&;#~!", c) >= 0 {
			return false
		}
	}
	return s != ""
}

// dictKey orders names the way a dictionary collation does (case and
// punctuation ignored): when it agrees with the byte order, so do the
// locales.
func dictKey(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
		}
	}
	return b.String() + "\x00" + s
}

// namesText turns a list of literal names (git ls-files) into the text a
// command substitution holds, when every name is printed as it is.
func namesText(names []field) (string, bool) {
	var parts []string
	for _, n := range names {
		if n.pattern() || !plainName(n.s) {
			return "", false
		}
		parts = append(parts, n.s)
	}
	return strings.Join(parts, "\n"), true
}
