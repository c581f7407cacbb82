package guard

import (
	"bytes"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// vcsFolders are the version-control folders git never adds and Claude
// Code's Grep excludes.
var vcsFolders = [...]string{".git", ".svn", ".hg", ".bzr", ".jj", ".sl"}

func isVCSFolder(name string) bool {
	for _, v := range vcsFolders {
		if name == v {
			return true
		}
	}
	return false
}

// gitIgnorer answers whether git (and ripgrep, which reads the same files
// in a repository) surely ignores a path: a recursion that honours
// .gitignore (git add, git stash -u, Claude Code's Grep) skips it. It
// answers yes only when it can show it: the path lies in a repository (a
// `.git` above it), a line of a .gitignore between the repository's root
// and the path matches the path or a folder above it, and no ignore file
// on the way (.gitignore, .ignore, .rgignore) has a `!` line that could
// take it back, an escape it does not read, or cannot be read. A project's
// files can make it answer no (deny more), never yes for a file git reads.
type gitIgnorer struct {
	m     *Matcher
	files map[string]*ignoreFile // folder → its ignore lines
	repos map[string]string      // folder → its repository's root ("" none)
}

type ignoreFile struct {
	pats   []ignorePat
	unsure bool // a negation, an escape, or unreadable
}

type ignorePat struct {
	pat      string // doublestar syntax, relative to the file's folder when anchored
	dirOnly  bool   // a trailing `/`: folders only
	anchored bool   // a `/` at the start or in the middle
}

func (m *Matcher) newGitIgnorer() *gitIgnorer {
	return &gitIgnorer{m: m, files: map[string]*ignoreFile{}, repos: map[string]string{}}
}

// repo returns the root of the repository dir lies in ("" for none).
func (g *gitIgnorer) repo(dir string) string {
	if r, ok := g.repos[dir]; ok {
		return r
	}
	r := ""
	if _, err := g.m.env.FS.Lstat(strings.TrimSuffix(dir, "/") + "/.git"); err == nil {
		r = dir
	} else if parent := path.Dir(dir); parent != dir && dir != "" && dir != "." {
		r = g.repo(parent)
	}
	g.repos[dir] = r
	return r
}

// ignored reports whether p (a folder when isDir) is surely ignored.
func (g *gitIgnorer) ignored(p string, isDir bool) bool {
	dir := path.Dir(p)
	root := g.repo(dir)
	if root == "" || !strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/") {
		return false
	}
	// the ignore files on the way, from the root down to p's folder
	var dirs []string
	for d := dir; ; d = path.Dir(d) {
		dirs = append(dirs, d)
		if d == root || d == path.Dir(d) {
			break
		}
	}
	files := make([]*ignoreFile, len(dirs))
	for i, d := range dirs {
		f := g.file(d)
		if f.unsure {
			return false
		}
		files[i] = f
	}
	// p or a folder above it (below the root) matched by a line of a file
	// in a folder above that entry
	for c, cDir := p, isDir; c != root && strings.HasPrefix(c, strings.TrimSuffix(root, "/")+"/"); c, cDir = path.Dir(c), true {
		for i, d := range dirs {
			if !strings.HasPrefix(c, strings.TrimSuffix(d, "/")+"/") {
				continue
			}
			rel := strings.TrimPrefix(c, strings.TrimSuffix(d, "/")+"/")
			for _, pt := range files[i].pats {
				if pt.dirOnly && !cDir {
					continue
				}
				target := rel
				if !pt.anchored {
					target = path.Base(rel)
				}
				if ok, err := doublestar.Match(pt.pat, target); ok && err == nil {
					return true
				}
			}
		}
	}
	return false
}

// file reads the ignore lines of dir's .gitignore, and whether any of
// dir's ignore files could take a path back.
func (g *gitIgnorer) file(dir string) *ignoreFile {
	if f, ok := g.files[dir]; ok {
		return f
	}
	f := &ignoreFile{}
	g.files[dir] = f
	fsys := g.m.env.FS
	for _, n := range [...]string{".gitignore", ".ignore", ".rgignore"} {
		p := strings.TrimSuffix(dir, "/") + "/" + n
		fi, err := fsys.Lstat(p)
		if err != nil {
			continue
		}
		fr, ok := fsys.(FileReader)
		if !ok || fi.Size() > maxIgnoreFile || !fi.Mode().IsRegular() {
			f.unsure = true
			return f
		}
		b, err := fr.ReadFile(p)
		if err != nil {
			f.unsure = true
			return f
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			l := strings.TrimRight(string(line), "\r")
			if strings.HasPrefix(l, "!") || strings.Contains(l, `\`) {
				f.unsure = true
				return f
			}
			l = strings.TrimRight(l, " \t")
			if l == "" || strings.HasPrefix(l, "#") || n != ".gitignore" {
				continue
			}
			pt := ignorePat{}
			if strings.HasSuffix(l, "/") {
				pt.dirOnly = true
				l = strings.TrimRight(l, "/")
			}
			if strings.Contains(l, "/") {
				pt.anchored = true
				l = strings.TrimPrefix(l, "/")
			}
			if l == "" || !doublestar.ValidatePattern(l) {
				continue
			}
			pt.pat = l
			f.pats = append(f.pats, pt)
		}
	}
	return f
}
