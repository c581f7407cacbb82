package guard

import (
	"bytes"
	"encoding/binary"
	"path"
	"sort"
	"strings"
	"unicode"

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
// `.git` folder above it) whose index it can read and which does not track
// the path (nor, for a folder, anything below it), a line of a .gitignore
// between the repository's root and the path matches the path or a folder
// above it, and no ignore file
// on the way (.gitignore, .ignore, .rgignore) has a `!` line that could
// take it back, an escape it does not read, or cannot be read. A project's
// files can make it answer no (deny more), never yes for a file git reads.
type gitIgnorer struct {
	fsys    FS
	files   map[string]*ignoreFile // folder → its ignore lines
	repos   map[string]string      // folder → its repository's root ("" none)
	indexes map[string]*gitIndex   // repository root → the paths git tracks
}

// gitIndex is what a repository's index says git tracks (paths relative
// to the root, sorted); ok is false when it cannot be read.
type gitIndex struct {
	paths []string
	// links are the paths the index holds as symbolic links (mode
	// 120000): git writes a link whose target is in a blob pruner does
	// not read (gitrees.go)
	links []string
	ok    bool
}

// has reports whether p (relative) is tracked, or for a folder whether a
// tracked path lies below it.
func (x *gitIndex) has(p string, isDir bool) bool {
	i := sort.SearchStrings(x.paths, p)
	if i < len(x.paths) && x.paths[i] == p {
		return true
	}
	if !isDir {
		return false
	}
	j := sort.SearchStrings(x.paths, p+"/")
	return j < len(x.paths) && strings.HasPrefix(x.paths[j], p+"/")
}

// maxIndexFile bounds what is read of a repository's index; a bigger one
// counts as unreadable.
const maxIndexFile = 64 << 20

// index reads root's .git/index: a file git tracks is staged by git add
// and printed by git diff whatever .gitignore says.
func (g *gitIgnorer) index(root string) *gitIndex {
	if x, ok := g.indexes[root]; ok {
		return x
	}
	x := &gitIndex{}
	g.indexes[root] = x
	fsys := g.fsys
	dot := strings.TrimSuffix(root, "/") + "/.git"
	if fi, err := fsys.Lstat(dot); err != nil || !fi.IsDir() {
		return x // a worktree's or submodule's `.git` file: its index is elsewhere
	}
	b, exists, ok := readSmallFile(fsys, dot+"/index", maxIndexFile)
	if !exists {
		x.ok = true // no index: nothing tracked yet
		return x
	}
	if !ok {
		return x
	}
	paths, links, ok := parseGitIndexModes(b)
	if !ok {
		return x
	}
	sort.Strings(paths)
	x.paths, x.links, x.ok = paths, links, true
	return x
}

// parseGitIndex returns the paths of a git index file (versions 2–4); ok
// is false for anything it cannot read to the last entry.
func parseGitIndex(b []byte) (paths []string, ok bool) {
	paths, _, ok = parseGitIndexModes(b)
	return paths, ok
}

// parseGitIndexModes is parseGitIndex with the paths whose entries are
// symbolic links (mode 120000).
func parseGitIndexModes(b []byte) (paths, links []string, ok bool) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, nil, false
	}
	ver := binary.BigEndian.Uint32(b[4:8])
	n := binary.BigEndian.Uint32(b[8:12])
	if ver < 2 || ver > 4 || uint64(n) > uint64(len(b))/62 {
		return nil, nil, false
	}
	off, prev := 12, ""
	for k := uint32(0); k < n; k++ {
		start := off
		if off+62 > len(b) {
			return nil, nil, false
		}
		flags := binary.BigEndian.Uint16(b[off+60 : off+62])
		off += 62
		if flags&0x4000 != 0 { // extended flags
			if ver < 3 || off+2 > len(b) {
				return nil, nil, false
			}
			off += 2
		}
		var name string
		if ver == 4 {
			strip, m := indexVarint(b[off:])
			if m == 0 || strip > uint64(len(prev)) {
				return nil, nil, false
			}
			off += m
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, nil, false
			}
			name = prev[:len(prev)-int(strip)] + string(b[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, nil, false
			}
			name = string(b[off : off+end])
			off += end
			off += 8 - (off-start)%8 // one to eight NULs: the entry ends on a multiple of 8
			if off > len(b) {
				return nil, nil, false
			}
		}
		if name == "" {
			return nil, nil, false
		}
		paths = append(paths, name)
		if binary.BigEndian.Uint32(b[start+24:start+28])&0o170000 == 0o120000 {
			links = append(links, name)
		}
		prev = name
	}
	return paths, links, true
}

// indexVarint reads the offset encoding of index version 4's path
// prefixes; m is 0 when b ends inside it or it overflows.
func indexVarint(b []byte) (v uint64, m int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v = uint64(c & 127)
	m = 1
	for c&128 != 0 {
		if m >= len(b) || m > 9 {
			return 0, 0
		}
		v++
		c = b[m]
		v = v<<7 + uint64(c&127)
		m++
	}
	return v, m
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

func (m *Matcher) newGitIgnorer() *gitIgnorer { return newGitIgnorer(m.env.FS) }

func newGitIgnorer(fsys FS) *gitIgnorer {
	return &gitIgnorer{fsys: fsys, files: map[string]*ignoreFile{}, repos: map[string]string{}, indexes: map[string]*gitIndex{}}
}

// repo returns the root of the repository dir lies in ("" for none).
func (g *gitIgnorer) repo(dir string) string {
	if r, ok := g.repos[dir]; ok {
		return r
	}
	r := ""
	if _, err := g.fsys.Lstat(strings.TrimSuffix(dir, "/") + "/.git"); err == nil {
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
	// a file git tracks is staged and shown whatever .gitignore says
	x := g.index(root)
	if !x.ok || x.has(strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/"), isDir) {
		return false
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
	fsys := g.fsys
	for _, n := range [...]string{".gitignore", ".ignore", ".rgignore"} {
		b, exists, ok := readSmallFile(fsys, strings.TrimSuffix(dir, "/")+"/"+n, maxIgnoreFile)
		if !exists {
			continue
		}
		if !ok {
			f.unsure = true
			return f
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			l := strings.TrimRight(string(line), "\r")
			if strings.HasPrefix(l, "!") || strings.Contains(l, `\`) {
				f.unsure = true
				return f
			}
			// git trims trailing spaces only: any other blank (a tab, a
			// form feed, a no-break space) is part of the pattern, which
			// this reader does not follow: unsure
			l = strings.TrimRight(l, " ")
			if strings.ContainsFunc(l, func(r rune) bool { return r != ' ' && (unicode.IsSpace(r) || !unicode.IsPrint(r)) }) {
				f.unsure = true
				return f
			}
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

// readSmallFile reads a regular file of at most max bytes through fsys's
// FileReader: exists is false when it is not there; ok is false when it is
// there but cannot be read (no FileReader, too big, not a regular file, an
// error) — the callers then count it as unsure.
func readSmallFile(fsys FS, p string, max int64) (b []byte, exists, ok bool) {
	fi, err := fsys.Lstat(p)
	if err != nil {
		return nil, false, false
	}
	fr, isReader := fsys.(FileReader)
	if !isReader || fi.Size() > max || !fi.Mode().IsRegular() {
		return nil, true, false
	}
	b, err = fr.ReadFile(p)
	if err != nil {
		return nil, true, false
	}
	return b, true, true
}
