package guard

import (
	"bytes"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// FileReader is an FS that can also read small files: the gate reads
// ignore files with it (.ignore, .rgignore, .gitignore), whose whitelist
// lines (`!.env`) make ripgrep search hidden names it skips by default.
// An FS without it, or a file it cannot read, counts as a whitelist.
type FileReader interface {
	ReadFile(name string) ([]byte, error)
}

// maxIgnoreFile bounds what is read of one ignore file; a bigger one counts
// as a whitelist.
const maxIgnoreFile = 1 << 20

// unhider answers whether a search that skips hidden names (rg without
// --hidden, Claude Code's Grep) reaches a hidden name anyway, because an
// ignore file in its folder or a parent whitelists it. Answers are kept per
// folder for one check.
type unhider struct {
	m     *Matcher
	lines map[string][]whitelist // folder → its ignore files' whitelist lines
}

type whitelist struct {
	pat string // the pattern after `!`, relative to dir when it holds `/`
	dir string
	any bool // unreadable: whitelists everything
}

func (m *Matcher) newUnhider() *unhider { return &unhider{m: m, lines: map[string][]whitelist{}} }

// reaches reports whether the hidden entry name in folder dir is searched.
func (u *unhider) reaches(dir, name string) bool {
	if u.m.env.RipgrepConfig {
		return true
	}
	p := strings.TrimSuffix(dir, "/") + "/" + name
	for d := dir; ; {
		for _, w := range u.folder(d) {
			if w.any || w.matches(p, name) {
				return true
			}
		}
		parent := path.Dir(d)
		if parent == d || d == "" || d == "." {
			return false
		}
		d = parent
	}
}

func (w whitelist) matches(p, name string) bool {
	pat := strings.TrimSuffix(w.pat, "/")
	if !strings.Contains(pat, "/") {
		ok, err := doublestar.Match(pat, name)
		return ok || err != nil
	}
	rel := strings.TrimPrefix(p, strings.TrimSuffix(w.dir, "/")+"/")
	pat = strings.TrimPrefix(pat, "/")
	ok, err := doublestar.Match(pat, rel)
	if !ok && err == nil {
		ok, err = doublestar.Match(pat+"/**", rel) // a whitelisted folder
	}
	return ok || err != nil
}

// folder returns the whitelist lines of dir's ignore files.
func (u *unhider) folder(dir string) []whitelist {
	if ws, ok := u.lines[dir]; ok {
		return ws
	}
	fsys := u.m.env.FS
	var ws []whitelist
	// the files ripgrep reads in every folder it enters and in the parents
	// of the folder it searches
	for _, n := range [...]string{".ignore", ".rgignore", ".gitignore"} {
		b, exists, ok := readSmallFile(fsys, strings.TrimSuffix(dir, "/")+"/"+n, maxIgnoreFile)
		if !exists {
			continue // absent (or unlistable: ripgrep cannot read it either)
		}
		if !ok {
			ws = append(ws, whitelist{any: true, dir: dir})
			continue
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			l := strings.TrimRight(string(line), "\r \t")
			if strings.HasPrefix(l, "!") {
				if pat := strings.TrimPrefix(l, "!"); pat != "" {
					ws = append(ws, whitelist{pat: pat, dir: dir})
				}
			}
		}
	}
	u.lines[dir] = ws
	return ws
}
