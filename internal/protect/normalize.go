package protect

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Env is the environment a tool call is judged in: the directory relative
// paths are resolved against, the home directory `~`/`$HOME` expand to, and
// how symlinks and letter case are treated. The zero value is usable: cwd "/",
// no home expansion, no symlink resolution, case-insensitive matching.
type Env struct {
	// Cwd is the absolute working directory of the call: the session header's
	// `cwd` in check mode, the event's `cwd` (or --cwd) in hook mode. A Windows
	// path (`C:\proj`, `\\?\C:\proj`) switches on Windows normalisation.
	Cwd string
	// Home is the home directory `~`, `~/`, `$HOME` and `${HOME}` expand to,
	// in rules as in calls. Empty disables home expansion.
	Home string
	// CaseSensitive turns off the default case-insensitive matching.
	CaseSensitive bool
	// Resolver, when non-nil, maps a normalised absolute path to its
	// symlink-resolved form; a call is then matched on both forms.
	Resolver Resolver
}

// Resolver resolves symbolic links in a normalised absolute path (forward
// slashes). It returns the resolved path and true, or ("", false) when nothing
// could be resolved. Implementations must not panic and must resolve the
// longest existing prefix of a path that does not exist yet.
type Resolver interface {
	Resolve(p string) (string, bool)
}

// OSResolver resolves symlinks on the local file system with
// filepath.EvalSymlinks, walking up to the longest existing prefix for paths
// that do not exist. Windows-form paths are only resolved on Windows.
type OSResolver struct{}

// Resolve implements Resolver.
func (OSResolver) Resolve(p string) (string, bool) {
	return resolveOS(p, nil)
}

// CachingResolver is an OSResolver that remembers every path (and parent
// directory) it resolved; safe for concurrent use. `check` shares one over
// all sessions, where the same directories recur in every call.
type CachingResolver struct {
	cache sync.Map // string → cached
}

type cachedResolve struct {
	path string
	ok   bool
}

// NewCachingResolver returns an empty CachingResolver.
func NewCachingResolver() *CachingResolver { return &CachingResolver{} }

// Resolve implements Resolver.
func (c *CachingResolver) Resolve(p string) (string, bool) { return resolveOS(p, &c.cache) }

// Glob implements Globber.
func (c *CachingResolver) Glob(pattern string) []string { return OSResolver{}.Glob(pattern) }

func resolveOS(p string, cache *sync.Map) (string, bool) {
	if p == "" || strings.ContainsRune(p, unknownRune) {
		return "", false
	}
	if isWindowsAbs(p) != (runtime.GOOS == "windows") {
		return "", false
	}
	return resolveNative(filepath.FromSlash(p), cache, 0)
}

// resolveNative resolves the longest existing prefix of native path p.
func resolveNative(p string, cache *sync.Map, depth int) (string, bool) {
	if cache != nil {
		if v, ok := cache.Load(p); ok {
			c := v.(cachedResolve)
			return c.path, c.ok
		}
	}
	out, ok := "", false
	if r, err := filepath.EvalSymlinks(p); err == nil {
		out, ok = filepath.ToSlash(r), true
	} else if parent := filepath.Dir(p); parent != p && depth < 4096 {
		if r, pok := resolveNative(parent, cache, depth+1); pok {
			out, ok = strings.TrimSuffix(r, "/")+"/"+filepath.Base(p), true
		}
	}
	if cache != nil {
		cache.Store(p, cachedResolve{out, ok})
	}
	return out, ok
}

// Globber is implemented by Resolvers that can list the existing files a
// pattern path (doublestar syntax, forward slashes) matches. Check matches
// each listed file too, so `mv theme/*` is caught when theme/node_modules
// exists even though a bare `*` alone names no protected file.
type Globber interface {
	Glob(pattern string) []string
}

// maxGlobMatches caps the files one pattern expands to.
const maxGlobMatches = 256

// Glob implements Globber on the local file system. Patterns with `**` or
// unknown expansions are not expanded (they could walk a whole tree).
func (OSResolver) Glob(pattern string) []string {
	if runtime.GOOS == "windows" || !strings.HasPrefix(pattern, "/") || strings.Contains(pattern, "**") || strings.ContainsRune(pattern, unknownRune) {
		return nil
	}
	var out []string
	_ = doublestar.GlobWalk(os.DirFS("/"), strings.TrimPrefix(pattern, "/"), func(p string, _ fs.DirEntry) error {
		out = append(out, "/"+p)
		if len(out) >= maxGlobMatches {
			return fs.SkipAll
		}
		return nil
	})
	return out
}

// unknownRune marks, inside a bash word, characters produced by an expansion
// whose value is unknown (`$FOO`, `$(cmd)`): it matches any run of characters
// within a segment. A whole segment equal to unknownSeg matches any number of
// segments.
const unknownRune = '\uFFFC'

const unknownSeg = string(unknownRune) + string(unknownRune)

// IsWindowsPath reports whether p is written in a Windows form: a drive
// letter (`C:\`, `c:/`), a `\\?\` or `\\.\` prefix, or a UNC path `\\server\share`.
func IsWindowsPath(p string) bool {
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isWindowsAbs reports whether a normalised path has a drive (`c:/...`) or a
// UNC root (`//server/share`).
func isWindowsAbs(p string) bool {
	return len(p) >= 2 && isLetter(p[0]) && p[1] == ':' || strings.HasPrefix(p, "//")
}

// normMode selects the spelling rules of a path before normalisation.
type normMode uint8

const (
	// modeTool: a file tool's path argument as pi and Claude Code open it:
	// `\` is a separator, one leading `@` is dropped, `~` and `$HOME` expand.
	modeTool normMode = iota
	// modeShell: a bash word after quote removal and expansion (done by the
	// analyser); `\` is a separator only on Windows, nothing else expands.
	modeShell
	// modeRule: a rule entry; `~`, `$HOME` expand, `\` is a separator.
	modeRule
)

// NormalizePath returns the absolute, cleaned, forward-slash form of a file
// tool's path argument as the tool would open it: `\` → `/`, one leading `@`
// stripped, `~`, `~/`, `$HOME`, `${HOME}` (and `%USERPROFILE%` for Windows)
// expanded to env.Home, relative paths joined to env.Cwd, `.`, `..` and `//`
// folded, `\\?\` prefixes dropped. The empty string gives "". It never fails;
// letter case is kept (matching folds it).
func NormalizePath(env Env, p string) string {
	return normalize(env, p, modeTool, false)
}

// normalize implements NormalizePath for the given spelling mode. A pattern
// path keeps its backslashes: they are glob escapes put there by the caller.
func normalize(env Env, p string, mode normMode, pattern bool) string {
	if p == "" {
		return ""
	}
	win := IsWindowsPath(env.Cwd) || IsWindowsPath(env.Home)
	if !pattern && (mode != modeShell || win) {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if mode == modeTool && strings.HasPrefix(p, "@") {
		p = p[1:]
	}
	p = stripWinPrefix(p)
	if mode != modeShell {
		p = expandHome(p, env.Home)
	}
	cwd := cleanCwd(env.Cwd)
	switch {
	case isWindowsAbs(p):
	case len(p) >= 2 && isLetter(p[0]) && p[1] == ':':
		// unreachable: a drive always satisfies isWindowsAbs
	case strings.HasPrefix(p, "/"):
		if win && isWindowsAbs(cwd) && !strings.HasPrefix(cwd, "//") {
			p = cwd[:2] + p // rooted path on the cwd's drive
		}
	default:
		p = cwd + "/" + p
	}
	out := cleanAbs(p)
	if win && strings.HasPrefix(out, "/") && !strings.HasPrefix(out, "//") && len(cwd) >= 2 && isLetter(cwd[0]) && cwd[1] == ':' {
		out = cwd[:2] + out // a rooted path lands on the cwd's drive
	}
	return out
}

// stripWinPrefix drops `//?/` and `//./` prefixes (after `\` → `/`), turning
// `//?/UNC/server/share` into `//server/share`.
func stripWinPrefix(p string) string {
	for _, pre := range []string{"//?/", "//./", "/??/"} {
		if strings.HasPrefix(p, pre) {
			rest := p[len(pre):]
			if len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/") {
				return "//" + rest[4:]
			}
			return rest
		}
	}
	return p
}

// expandHome expands a leading `~`, `$HOME`, `${HOME}` or `%USERPROFILE%`.
func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	for _, pre := range []string{"~", "${HOME}", "$HOME", "%USERPROFILE%", "%HOME%"} {
		if strings.HasPrefix(p, pre) && (len(p) == len(pre) || p[len(pre)] == '/') {
			return strings.ReplaceAll(home, `\`, "/") + p[len(pre):]
		}
	}
	return p
}

// cleanCwd normalises the call's working directory; "" becomes "/".
func cleanCwd(cwd string) string {
	if cwd == "" {
		return "/"
	}
	cwd = stripWinPrefix(strings.ReplaceAll(cwd, `\`, "/"))
	if !strings.HasPrefix(cwd, "/") && !isWindowsAbs(cwd) {
		cwd = "/" + cwd
	}
	return cleanAbs(cwd)
}

// cleanAbs folds `.`, `..` and repeated slashes of an absolute path, keeping
// a drive (`c:`) or UNC (`//server/share`) volume.
func cleanAbs(p string) string {
	vol := ""
	switch {
	case len(p) >= 2 && isLetter(p[0]) && p[1] == ':':
		vol, p = strings.ToLower(p[:1])+":", p[2:]
	case strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///"):
		rest := strings.TrimLeft(p, "/")
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) >= 2 {
			vol = "//" + parts[0] + "/" + parts[1]
			p = ""
			if len(parts) == 3 {
				p = parts[2]
			}
		}
	}
	c := path.Clean("/" + p)
	if vol != "" && c == "/" {
		return vol + "/"
	}
	return vol + c
}

// splitSegs splits a normalised absolute path into its segments; the first
// segment is "" for a POSIX root, "c:" for a drive, "//server/share" for UNC.
func splitSegs(p string) []string {
	if strings.HasPrefix(p, "//") {
		rest := strings.TrimLeft(p, "/")
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) >= 2 {
			out := []string{"//" + parts[0] + "/" + parts[1]}
			if len(parts) == 3 && parts[2] != "" {
				out = append(out, strings.Split(parts[2], "/")...)
			}
			return out
		}
	}
	segs := strings.Split(p, "/")
	if len(segs) > 1 && segs[len(segs)-1] == "" {
		segs = segs[:len(segs)-1]
	}
	return segs
}
