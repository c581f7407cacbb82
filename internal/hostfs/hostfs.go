// Package hostfs is the machine's own file system as the gate sees it
// (guard.FS): file metadata, symlink targets and directory listings, read
// with the os package. It is the only place the gate's analysis touches the
// disk; guard itself does no I/O. RepoRoot and SessionFiles are the other
// host look-ups of check and stats.
package hostfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pruner-dev/pruner/internal/guard"
)

// FS reads the host's file system. The zero value is ready to use.
type FS struct{}

var _ guard.FS = FS{}

// ErrRemote is the error for a UNC path (`\\server\share\x`): the gate
// never touches one, since opening it may connect to the server (and hand it
// the user's credentials).
var ErrRemote = errors.New("a UNC path is not looked at")

// native turns a normalised path into the host's form; a path of the other
// platform's kind does not exist here.
func native(name string) (string, error) {
	if strings.HasPrefix(name, "//") {
		return "", ErrRemote
	}
	win := len(name) >= 2 && name[1] == ':'
	if win != (runtime.GOOS == "windows") {
		return "", fs.ErrNotExist
	}
	return filepath.FromSlash(name), nil
}

// Lstat implements guard.FS.
func (FS) Lstat(name string) (fs.FileInfo, error) {
	n, err := native(name)
	if err != nil {
		return nil, err
	}
	return os.Lstat(n)
}

// ReadLink implements guard.FS.
func (FS) ReadLink(name string) (string, error) {
	n, err := native(name)
	if err != nil {
		return "", err
	}
	t, err := os.Readlink(n)
	return filepath.ToSlash(t), err
}

// ReadFile implements guard.FileReader.
func (FS) ReadFile(name string) ([]byte, error) {
	n, err := native(name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(n)
}

// ReadDir implements guard.FS.
func (FS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := native(name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(n)
}

// maxCached bounds the answers a Cached remembers.
const maxCached = 1 << 16

// Cached is an FS that remembers what it read, for `check`, where the same
// folders recur in every session. Safe for concurrent use.
type Cached struct {
	lstat, link, dir sync.Map
	n                atomic.Int64
}

type cachedStat struct {
	fi  fs.FileInfo
	err error
}

type cachedLink struct {
	t   string
	err error
}

type cachedDir struct {
	ents []fs.DirEntry
	err  error
}

var _ guard.FS = (*Cached)(nil)

// NewCached returns an empty Cached.
func NewCached() *Cached { return &Cached{} }

func (c *Cached) keep() bool { return c.n.Add(1) <= maxCached }

// Lstat implements guard.FS.
func (c *Cached) Lstat(name string) (fs.FileInfo, error) {
	if v, ok := c.lstat.Load(name); ok {
		r := v.(cachedStat)
		return r.fi, r.err
	}
	fi, err := FS{}.Lstat(name)
	if c.keep() {
		c.lstat.Store(name, cachedStat{fi, err})
	}
	return fi, err
}

// ReadLink implements guard.FS.
func (c *Cached) ReadLink(name string) (string, error) {
	if v, ok := c.link.Load(name); ok {
		r := v.(cachedLink)
		return r.t, r.err
	}
	t, err := FS{}.ReadLink(name)
	if c.keep() {
		c.link.Store(name, cachedLink{t, err})
	}
	return t, err
}

// ReadFile implements guard.FileReader (not cached: ignore files are few).
func (c *Cached) ReadFile(name string) ([]byte, error) { return FS{}.ReadFile(name) }

// ReadDir implements guard.FS.
func (c *Cached) ReadDir(name string) ([]fs.DirEntry, error) {
	if v, ok := c.dir.Load(name); ok {
		r := v.(cachedDir)
		return r.ents, r.err
	}
	ents, err := FS{}.ReadDir(name)
	if c.keep() {
		c.dir.Store(name, cachedDir{ents, err})
	}
	return ents, err
}

// RepoRoot returns the nearest ancestor of dir holding a .git entry, or dir
// (made absolute). `pruner check --sarif` names files relative to it.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

// SessionFiles lists the *.jsonl files under dir, walked recursively,
// sorted: how `check` and `stats` read a directory argument. On an error
// it returns what it found before it, with the error.
func SessionFiles(dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
			found = append(found, p)
		}
		return nil
	})
	sort.Strings(found)
	return found, err
}

// Cause is err without the operation and path of an *fs.PathError, for a
// message that names the file itself ("x.jsonl: permission denied"). A
// path that does not exist is ErrNoSuchFile, so every command words it the
// same ("x.jsonl: no such file").
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNoSuchFile
	}
	return err
}

// ErrNoSuchFile is how pruner words a path that does not exist, whatever
// the command (now, stats, check, query, restore, a config or rules file):
// "PATH: no such file". It is fs.ErrNotExist to errors.Is.
var ErrNoSuchFile error = noSuchFile{}

type noSuchFile struct{}

func (noSuchFile) Error() string        { return "no such file" }
func (noSuchFile) Is(target error) bool { return target == fs.ErrNotExist }

// NoSuchFile is the error of path not existing: "PATH: no such file".
func NoSuchFile(path string) error { return fmt.Errorf("%s: %w", path, ErrNoSuchFile) }

// Unending names what st is when it is an input that may never end — a
// device (/dev/zero, /dev/urandom, a terminal given by its path) or a
// socket, which pruner would read, and spool, without bound — and is ""
// for anything else: a regular file, a pipe, a FIFO, a directory, and the
// null device (os.DevNull: an empty input, as scripts pass it).
func Unending(st fs.FileInfo) string {
	m := st.Mode()
	if m&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeSocket) == 0 {
		return ""
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return ""
	}
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a socket"
}

// StreamAlias reports the hop of name's symlink chain that names a
// process's open file rather than a file of its own — /dev/stdin,
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N —
// and "" when none does. Such a path leads to whatever the shell
// redirected (`< session.jsonl`), so a command that rewrites its input in
// place (--write, restore) must be given the file's own path: the undo
// command it prints would otherwise name the redirect, not the file.
func StreamAlias(name string) string {
	p := name
	for range 40 {
		if _, ok := guard.DescriptorPath(filepath.Clean(p)); ok {
			return p
		}
		l, err := os.Readlink(p)
		if err != nil {
			return ""
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(p), l)
		}
		p = l
	}
	return ""
}
