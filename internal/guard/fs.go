package guard

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// FS is the read-only view of a file system the analysis consults: file
// metadata, symlink targets and directory listings. Names are normalised
// absolute paths (forward slashes; `c:/…` on Windows). ReadLink returns the
// link's target with forward slashes. Implementations must be safe for
// concurrent use; errors are treated as "does not exist" only when they
// match fs.ErrNotExist, as "cannot be known" otherwise.
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	ReadLink(name string) (string, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// IOFS adapts an io/fs file system whose root is "/" (fstest.MapFS in
// tests, os.DirFS("/") on a POSIX host): the name "/a/b" is "a/b" in fsys.
// fsys must implement fs.ReadLinkFS for symlinks to be seen; without it
// Lstat falls back to Stat and ReadLink fails.
func IOFS(fsys fs.FS) FS { return ioFS{fsys} }

type ioFS struct{ fsys fs.FS }

func (f ioFS) name(p string) (string, error) {
	if hasDrive(p) || strings.HasPrefix(p, "//") {
		return "", fs.ErrNotExist // a POSIX tree holds no Windows volumes
	}
	n := strings.TrimPrefix(path.Clean("/"+p), "/")
	if n == "" {
		n = "."
	}
	return n, nil
}

func (f ioFS) Lstat(p string) (fs.FileInfo, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	if l, ok := f.fsys.(fs.ReadLinkFS); ok {
		return l.Lstat(n)
	}
	return fs.Stat(f.fsys, n)
}

func (f ioFS) ReadLink(p string) (string, error) {
	n, err := f.name(p)
	if err != nil {
		return "", err
	}
	if l, ok := f.fsys.(fs.ReadLinkFS); ok {
		return l.ReadLink(n)
	}
	return "", errors.ErrUnsupported
}

func (f ioFS) ReadFile(p string) ([]byte, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	return fs.ReadFile(f.fsys, n)
}

func (f ioFS) ReadDir(p string) ([]fs.DirEntry, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(f.fsys, n)
}

// Limits of what the analysis asks of the file system.
const (
	maxLinkHops     = 255   // symlinks followed while resolving one path
	maxGlobMatches  = 4096  // names one glob may expand to
	maxWalkEntries  = 50000 // entries a folder search may visit
	maxLinkTargets  = 64    // symlinks found by one folder search that are resolved
	maxGlobSegments = 64    // pattern segments expanded on disk
)

// resolveLinks returns the symlink-resolved form of the normalised absolute
// path p: every existing prefix is resolved (like realpath), the part that
// does not exist yet is appended as it is. changed is false when nothing
// was resolved; ok is false when resolution failed (a loop, an I/O error).
func resolveLinks(fsys FS, p string, win bool) (out string, changed, ok bool) {
	vol, rest := splitVolume(p, win)
	segs := splitRel(rest)
	done := vol // resolved prefix without a trailing slash ("" is the POSIX root)
	hops := 0
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		switch s {
		case "", ".":
			continue
		case "..":
			if j := strings.LastIndexByte(done, '/'); j >= len(vol) {
				done = done[:j]
			}
			continue
		}
		next := done + "/" + s
		fi, err := fsys.Lstat(next)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return p, false, false
			}
			tail := strings.Join(segs[i:], "/")
			return cleanAbs(done+"/"+tail, win), changed, true
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		hops++
		if hops > maxLinkHops {
			return p, false, false
		}
		target, err := fsys.ReadLink(next)
		if err != nil {
			return p, false, false
		}
		target = strings.ReplaceAll(target, `\`, "/")
		if win {
			target, _ = stripWinPrefix(target) // junctions read as \??\C:\…
		}
		changed = true
		remaining := append(splitRel(target), segs[i+1:]...)
		if isAbsNorm(target) || (win && strings.HasPrefix(target, "//")) {
			tv, trest := splitVolume(cleanAbs(target, win), win)
			if tv == "" && win {
				tv = vol // rooted target on the link's drive
			}
			vol, done = tv, tv
			remaining = append(splitRel(trest), segs[i+1:]...)
		}
		segs = remaining
		i = -1
	}
	if done == vol {
		done += "/"
	}
	return done, changed, true
}

func splitRel(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(strings.Trim(p, "/"), "/")
}

// globDisk lists the existing paths a pattern path may expand to, following
// the shell's rule that a wildcard does not match a leading `.` unless
// dotglob. complete is false when the listing was cut short (too many
// names, an unreadable directory, a `**` or unknown run of directories).
func globDisk(fsys FS, pattern string, win, dotglob bool) (out []string, complete bool) {
	vol, rest := splitVolume(pattern, win)
	segs := splitRel(rest)
	if len(segs) > maxGlobSegments {
		return nil, false
	}
	cur := []string{vol}
	for i, seg := range segs {
		if isUnknownSeg(seg) || seg == "**" {
			return nil, false
		}
		if !hasMeta(seg) {
			lit := unescapeGlob(seg)
			for j := range cur {
				cur[j] += "/" + lit
			}
			continue
		}
		pat := strings.ReplaceAll(seg, unknownStr, "*")
		dotOK := dotglob || strings.Contains(seg, unknownStr) || strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, `\.`)
		var next []string
		for _, dir := range cur {
			d := dir
			if d == vol {
				d += "/"
			}
			ents, err := fsys.ReadDir(d)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				return nil, false
			}
			for _, e := range ents {
				name := e.Name()
				if strings.HasPrefix(name, ".") && !dotOK {
					continue
				}
				if ok, _ := doublestar.Match(pat, name); !ok {
					if ok2, _ := doublestar.Match(strings.ToLower(pat), strings.ToLower(name)); !ok2 {
						continue
					}
				}
				if i < len(segs)-1 && !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
					continue
				}
				next = append(next, dir+"/"+name)
				if len(next) > maxGlobMatches {
					return nil, false
				}
			}
		}
		cur = next
	}
	if len(cur) == 1 && cur[0] == vol {
		return nil, true
	}
	// the literal tail of the last segment may not exist
	for _, p := range cur {
		if _, err := fsys.Lstat(p); err == nil {
			out = append(out, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
	}
	return out, true
}

// hasMeta reports whether a pattern segment has an unescaped glob
// metacharacter or an unknown-expansion marker.
func hasMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return strings.ContainsRune(s, unknownRune)
}
