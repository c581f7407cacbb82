package guard

import (
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Env is the world a call is judged in: the directory relative paths are
// resolved against, the home directory `~`/`$HOME` expand to, how letter
// case is treated, and the file system the analysis may look at. The zero
// value is usable: cwd "/", no home expansion, case-insensitive matching, no
// file system (the analysis then reasons from the rules alone).
type Env struct {
	// Cwd is the absolute working directory of the call: the session header's
	// `cwd` in check mode, the event's `cwd` (or --cwd) in hook mode. A Windows
	// path (`C:\proj`, `\\?\C:\proj`) switches on Windows path rules.
	Cwd string
	// Home is the home directory `~`, `~/`, `$HOME` and `${HOME}` expand to,
	// in rules as in calls. Empty disables home expansion.
	Home string
	// CaseSensitive turns off the default case-insensitive matching.
	CaseSensitive bool
	// FS, when non-nil, is the file system the calls would run on: symlinks
	// are resolved through it, globs expanded, and folders a recursive
	// command would read are searched for protected paths. Nil means the
	// machine is not known (check on another machine's sessions).
	FS FS
	// RipgrepConfig: RIPGREP_CONFIG_PATH is set where the call runs, so
	// ripgrep's flags (--hidden among them) are not what the command says:
	// searches that skip hidden names by default are taken to reach them.
	RipgrepConfig bool
}

// windows reports whether the call runs on Windows (by the look of its cwd
// or home).
func (e Env) windows() bool { return IsWindowsPath(e.Cwd) || IsWindowsPath(e.Home) }

// unknownRune marks, inside a path, characters produced by something whose
// value is unknown (`$FOO`, `$(cmd)`, an 8.3 short name): it matches any run
// of characters within a segment, a leading `.` included. A whole segment
// equal to unknownSeg matches any number of segments.
const unknownRune = '\uFFFC'

const (
	unknownStr = string(unknownRune)
	unknownSeg = unknownStr + unknownStr
	// unknownCwd is the unknownSeg of a working folder a `cd` (or a tool's
	// own folder option) named only when the command runs: an unknown run
	// of directories that may also be the whole folder of a directory rule
	// (`cd "$x"; echo > e.ts` may write in .pi/extensions/), which an
	// unknownSeg never is (`$OUT/e.ts` is not taken to be below one). It
	// starts with unknownSeg, so a test for one (strings.Contains,
	// HasPrefix) holds for it too; a segment compares equal to it, not to
	// unknownSeg (isUnknownSeg holds for both).
	unknownCwd = unknownSeg + unknownStr
)

// isUnknownSeg reports whether a path segment is an unknown run of
// directories (unknownSeg or unknownCwd).
func isUnknownSeg(s string) bool { return s == unknownSeg || s == unknownCwd }

// plainUnknown turns each unknownCwd of p into an unknownSeg: the path as
// the analysis reads a computed folder that is not a working folder.
func plainUnknown(p string) string { return strings.ReplaceAll(p, unknownCwd, unknownSeg) }

// unknownCwdOf marks a working folder whose first segment (after its
// volume) is an unknown run of directories (a cd to a computed folder)
// with unknownCwd.
func unknownCwdOf(dir string, win bool) string {
	vol, rest := splitVolume(dir, win)
	if rest == "/"+unknownSeg || strings.HasPrefix(rest, "/"+unknownSeg+"/") {
		return vol + "/" + unknownCwd + rest[1+len(unknownSeg):]
	}
	return dir
}

// IsWindowsPath reports whether p is written in a Windows form: a drive
// letter (`C:\`, `c:/`), a `\\?\` or `\\.\` prefix, or a UNC path `\\server\share`.
func IsWindowsPath(p string) bool {
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func hasDrive(p string) bool { return len(p) >= 2 && isLetter(p[0]) && p[1] == ':' }

// isAbsNorm reports whether a normalised path is absolute: `/…`, `c:/…` or
// a UNC `//server/share…`.
func isAbsNorm(p string) bool {
	return strings.HasPrefix(p, "/") || hasDrive(p)
}

// spelling selects the rules a path is written in.
type spelling uint8

const (
	// spellTool: a file tool's path argument as pi and Claude Code open it:
	// `\` is a separator, one leading `@` is dropped, `~` and `$HOME` expand,
	// `file://` URLs are decoded.
	spellTool spelling = iota
	// spellShell: a shell word after quote removal and expansion (done by
	// the analyser); `\` is a separator only on Windows, nothing expands.
	spellShell
	// spellRule: a rule entry; `~`, `$HOME` expand, `\` is a separator.
	spellRule
)

// NormalizePath returns the absolute, cleaned, forward-slash form of a file
// tool's path argument as the tool would open it: `\` → `/`, one leading `@`
// stripped, `~`, `~/`, `$HOME`, `${HOME}` (and `%USERPROFILE%` on Windows)
// expanded to env.Home, relative paths joined to env.Cwd, `.`, `..` and
// repeated slashes folded (`//etc` is `/etc` on POSIX; a UNC root only on
// Windows), `\\?\` prefixes dropped, `file://` URLs decoded. The empty
// string gives "". It never fails; letter case is kept (matching folds it).
func NormalizePath(env Env, p string) string {
	n, _ := normalize(env, p, spellTool, false)
	return n
}

// normalize returns the normalised form of p and whether it is a pattern
// (pattern paths hold doublestar syntax with literal metacharacters
// escaped; pattern says p already is one).
func normalize(env Env, p string, sp spelling, pattern bool) (string, bool) {
	if p == "" {
		return "", pattern
	}
	win := env.windows()
	if !pattern && (sp != spellShell || win) {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if sp == spellTool && strings.HasPrefix(p, "@") {
		p = p[1:]
	}
	if sp == spellTool {
		if u, ok := fileURLPath(p, win); ok {
			p = u
			if pattern {
				p = escapeGlob(p)
			}
		}
	}
	if win {
		var unknownVol bool
		p, unknownVol = stripWinPrefix(p)
		if unknownVol {
			p, pattern = unknownVolume(env, p, pattern)
		}
	}
	if sp != spellShell {
		p = expandHome(p, env.Home)
	}
	cwd := cleanCwd(env)
	switch {
	case win && hasDrive(p) && (len(p) == 2 || p[2] != '/'):
		// `C:foo`: relative to the current directory of drive C
		if strings.EqualFold(p[:1], cwd[:1]) && hasDrive(cwd) {
			p = joinDir(cwd, p[2:])
		} else {
			p = p[:2] + "/" + unknownSeg + "/" + escIf(p[2:], pattern)
			pattern = true
		}
	case win && hasDrive(p):
	case win && strings.HasPrefix(p, "//"):
	case strings.HasPrefix(p, "/"):
		if win && hasDrive(cwd) {
			p = cwd[:2] + p // rooted path on the cwd's drive
		}
	default:
		if pattern && strings.HasPrefix(p, unknownSeg+"/") {
			p = "/" + p
		} else {
			p = joinDir(cwd, p)
		}
	}
	if win {
		p = adminShare(p)
		var short bool
		p, short = winSegments(p, pattern)
		pattern = pattern || short
	}
	return cleanAbs(p, win), pattern
}

// adminShare turns a UNC path to an administrative share (`\\host\c$\x`,
// `\\localhost\C$\x`) into the drive it exposes (`c:/x`): the host may be
// this machine under any of its names.
func adminShare(p string) string {
	if !strings.HasPrefix(p, "//") {
		return p
	}
	parts := strings.SplitN(strings.TrimLeft(p, "/"), "/", 3)
	if len(parts) >= 2 && len(parts[1]) == 2 && isLetter(parts[1][0]) && parts[1][1] == '$' {
		rest := ""
		if len(parts) == 3 {
			rest = parts[2]
		}
		return strings.ToLower(parts[1][:1]) + ":/" + rest
	}
	return p
}

// joinDir joins a relative path to a directory without doubling the slash
// (`/` + `x` is `/x`, never `//x`, which Windows reads as a share).
func joinDir(dir, rel string) string {
	return strings.TrimSuffix(dir, "/") + "/" + rel
}

func escIf(s string, pattern bool) string {
	if pattern {
		return s
	}
	return escapeGlob(s)
}

// unknownVolume turns a path on a volume the analysis cannot place
// (`\\?\Volume{…}\x`, `\\?\GLOBALROOT\…`) into a pattern anywhere on the
// cwd's drive.
func unknownVolume(env Env, p string, pattern bool) (string, bool) {
	_, rest, _ := strings.Cut(p, "/")
	drive := "c:"
	if c := cleanCwd(env); hasDrive(c) {
		drive = c[:2]
	}
	return drive + "/" + unknownSeg + "/" + escIf(rest, pattern), true
}

// fileURLPath decodes a `file:` URL (`file:///x`, `file://localhost/x`,
// `file:///C:/x`, percent escapes) to a path; ok is false for anything else.
func fileURLPath(p string, win bool) (string, bool) {
	if len(p) < 5 || !strings.EqualFold(p[:5], "file:") {
		return "", false
	}
	rest := p[5:]
	host := ""
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			host, rest = rest, "/"
		} else {
			host, rest = rest[:i], rest[i:]
		}
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	dec, err := url.PathUnescape(rest)
	if err != nil {
		dec = rest
	}
	if len(dec) >= 3 && dec[0] == '/' && hasDrive(dec[1:]) {
		dec = dec[1:] // file:///C:/x
	}
	if host != "" && !strings.EqualFold(host, "localhost") && win {
		return "//" + host + dec, true
	}
	return dec, true
}

// stripWinPrefix drops `//?/`, `//./` and `/??/` prefixes (after `\` → `/`),
// turning `//?/UNC/server/share` into `//server/share`. unknownVol reports a
// prefixed path that names no drive or share (`//?/Volume{…}/x`).
func stripWinPrefix(p string) (string, bool) {
	for _, pre := range []string{"//?/", "//./", "/??/"} {
		if len(p) >= len(pre) && strings.EqualFold(p[:len(pre)], pre) {
			rest := p[len(pre):]
			if len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/") {
				return "//" + rest[4:], false
			}
			return rest, !hasDrive(rest)
		}
	}
	return p, false
}

// homePrefixes are the spellings of the home directory at the start of a
// path: shell and pi forms (exact case), then Windows and PowerShell forms
// (any case).
func homePrefixes() []string { return []string{"~", "${HOME}", "$HOME"} }

func homePrefixesFold() []string {
	return []string{"%USERPROFILE%", "%HOME%", "$env:USERPROFILE", "$env:HOME", "${env:USERPROFILE}", "${env:HOME}"}
}

// expandHome expands a leading `~`, `$HOME`, `${HOME}`, `%USERPROFILE%` or
// PowerShell's `$env:USERPROFILE`.
func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	h := strings.ReplaceAll(home, `\`, "/")
	at := func(pre string, fold bool) bool {
		if len(p) < len(pre) || (len(p) > len(pre) && p[len(pre)] != '/') {
			return false
		}
		if fold {
			return strings.EqualFold(p[:len(pre)], pre)
		}
		return p[:len(pre)] == pre
	}
	for _, pre := range homePrefixes() {
		if at(pre, false) {
			return h + p[len(pre):]
		}
	}
	for _, pre := range homePrefixesFold() {
		if at(pre, true) {
			return h + p[len(pre):]
		}
	}
	return p
}

// cleanCwd normalises the call's working directory; "" becomes "/".
func cleanCwd(env Env) string {
	cwd := env.Cwd
	if cwd == "" {
		return "/"
	}
	if cwd[0] == '/' && !strings.Contains(cwd, `\`) && !IsWindowsPath(env.Home) && isCleanRest(cwd) {
		return cwd
	}
	win := env.windows()
	if win {
		cwd, _ = stripWinPrefix(strings.ReplaceAll(cwd, `\`, "/"))
	}
	if !strings.HasPrefix(cwd, "/") && !(win && hasDrive(cwd)) {
		cwd = "/" + cwd
	}
	return cleanAbs(cwd, win)
}

// isShortName reports whether a segment is a Windows 8.3 short name
// (`PROGRA~1`, `ENV~1`, `GITIGN~1.TXT`), which may stand for any long name
// in its directory.
func isShortName(s string) bool {
	base, ext, hasExt := strings.Cut(s, ".")
	if hasExt && (len(ext) > 3 || strings.ContainsAny(ext, "./~")) {
		return false
	}
	stem, num, ok := strings.Cut(base, "~")
	if !ok || len(stem) < 1 || len(stem) > 6 || strings.ContainsAny(stem, "./~") || len(num) < 1 || len(num) > 6 {
		return false
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return false
		}
	}
	return true
}

// winSegments applies Windows' own name rules to every segment after the
// volume: trailing dots and spaces are dropped (`.env.` and `.env ` open
// `.env`), an alternate data stream suffix is dropped (`.env::$DATA`,
// `.env:x` belong to `.env`), and an 8.3 short name becomes an unknown
// name (short reports that the path became a pattern).
func winSegments(p string, pattern bool) (string, bool) {
	vol, rest := splitVolume(p, true)
	if rest == "" {
		return p, false
	}
	segs := strings.Split(rest, "/")
	short := false
	for i, s := range segs {
		if s == "" || s == "." || s == ".." {
			continue
		}
		if j := strings.IndexByte(s, ':'); j >= 0 {
			s = s[:j]
		}
		if t := strings.TrimRight(s, ". "); t != "" {
			s = t
		}
		if isShortName(s) {
			if !pattern && !short {
				// escape the segments done so far: the path becomes a pattern
				for k := range i {
					segs[k] = escapeGlob(segs[k])
				}
				vol = escapeGlob(vol)
			}
			short = true
			s = unknownStr
		} else if short && !pattern {
			s = escapeGlob(s)
		}
		segs[i] = s
	}
	return vol + strings.Join(segs, "/"), short
}

// splitVolume splits an absolute path into its volume (`c:`, `//server/share`
// on Windows, "" on POSIX) and the rest, which starts with `/` (or is "").
func splitVolume(p string, win bool) (vol, rest string) {
	switch {
	case win && hasDrive(p):
		return strings.ToLower(p[:1]) + ":", p[2:]
	case win && strings.HasPrefix(p, "//"):
		parts := strings.SplitN(strings.TrimLeft(p, "/"), "/", 3)
		if len(parts) >= 2 && parts[1] != "" {
			vol = "//" + parts[0] + "/" + parts[1]
			if len(parts) == 3 {
				rest = "/" + parts[2]
			}
			return vol, rest
		}
		return "//" + strings.TrimLeft(p, "/"), ""
	}
	return "", p
}

// cleanAbs folds `.`, `..` and repeated slashes of an absolute path, keeping
// a drive (`c:`) or, on Windows, a UNC (`//server/share`) volume. On POSIX
// any run of leading slashes is the root. An unknownSeg absorbs a `..` that
// follows it (an unknown run of directories minus one is still unknown).
func cleanAbs(p string, win bool) string {
	vol, rest := splitVolume(p, win)
	if isCleanRest(rest) {
		if rest == "" {
			return vol + "/"
		}
		return vol + rest
	}
	var out []string
	for s := range strings.SplitSeq(rest, "/") {
		switch s {
		case "", ".":
		case "..":
			if n := len(out); n > 0 && !isUnknownSeg(out[n-1]) {
				out = out[:n-1]
			}
		default:
			out = append(out, s)
		}
	}
	return vol + "/" + strings.Join(out, "/")
}

// isCleanRest reports whether the part of a path after its volume is
// already clean: `/`, or `/a/b` with no empty, `.` or `..` segment and no
// trailing slash.
func isCleanRest(rest string) bool {
	if rest == "/" {
		return true
	}
	if rest == "" || rest[0] != '/' || rest[len(rest)-1] == '/' {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] != '/' {
			continue
		}
		// rest[i] starts a segment
		j := i + 1
		if j < len(rest) && rest[j] == '/' {
			return false
		}
		if j < len(rest) && rest[j] == '.' && (j+1 == len(rest) || rest[j+1] == '/' || rest[j+1] == '.' && (j+2 == len(rest) || rest[j+2] == '/')) {
			return false
		}
	}
	return true
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

// foldKey is the form names are compared in: Unicode NFC (macOS stores
// NFD; pi retries NFD spellings), the spaces pi's path helpers turn into
// ASCII spaces, the apostrophe pi swaps for U+2019, and lower case unless
// the match is case-sensitive.
func foldKey(s string, caseSensitive bool) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = norm.NFC.String(s)
		s = strings.Map(func(r rune) rune {
			switch {
			case r == '\u00A0', r >= '\u2000' && r <= '\u200A', r == '\u202F', r == '\u205F', r == '\u3000':
				return ' '
			case r == '\u2019':
				return '\''
			case !caseSensitive && r >= utf8.RuneSelf:
				// the case a case-insensitive file system compares in:
				// NTFS upper-cases (ſ, U+017F, is S there; ı, U+0131,
				// is I), APFS folds (ſ is s, the Kelvin sign K):
				// `.pi/ſettings.json` opens .pi/settings.json
				return unicode.ToLower(unicode.ToUpper(r))
			}
			return r
		}, s)
	}
	if !caseSensitive {
		s = strings.ToLower(s)
	}
	return s
}

// escapeGlob escapes doublestar metacharacters in a literal string.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unescapeGlob removes the `\` escapes of a pattern.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// alternates returns other spellings under which a tool path may reach a
// file, beyond its normal form: the path with its `@` kept (Claude Code does
// not strip it), MSYS and WSL drive forms on Windows (`/c/x`, `/mnt/c/x`,
// `/cygdrive/c/x`, which pi turns into `C:\x`), and on POSIX the
// `/proc/self/root` and `/proc/<pid>/cwd` views of the file system.
func alternates(env Env, raw string, sp spelling, pattern bool) []string {
	var out []string
	win := env.windows()
	p := raw
	if !pattern && (sp != spellShell || win) {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if sp == spellTool && strings.HasPrefix(p, "@") && len(p) > 1 {
		out = append(out, "./"+escIf(p, pattern))
	}
	if t := strings.TrimSpace(p); sp == spellTool && t != p && t != "" {
		// a tool that trims its path argument opens the trimmed one
		out = append(out, t)
	}
	if win {
		if drive, rest, ok := msysDrive(p); ok {
			out = append(out, drive+":/"+rest)
		}
		if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "//?/") && !strings.HasPrefix(p, "//./") {
			// a share of this machine may expose any folder of its drive
			parts := strings.SplitN(strings.TrimLeft(p, "/"), "/", 3)
			if len(parts) == 3 {
				drive := "c:"
				if c := cleanCwd(env); hasDrive(c) {
					drive = c[:2]
				}
				out = append(out, drive+"/"+unknownSeg+"/"+escIf(parts[2], pattern))
			}
		}
	} else if pid, view, rest, ok := procView(p); ok {
		switch {
		case view == "root":
			out = append(out, "/"+rest)
		case pid == "self" || pid == "thread-self":
			out = append(out, unknownSeg+"/"+escIf(rest, pattern), "./"+rest)
		default:
			out = append(out, unknownSeg+"/"+escIf(rest, pattern))
		}
	}
	return out
}

// msysDrive reads the Git Bash, MSYS and WSL drive forms `/c/x`,
// `/mnt/c/x`, `/cygdrive/c/x`.
func msysDrive(p string) (drive, rest string, ok bool) {
	q, found := strings.CutPrefix(p, "/")
	if !found {
		return "", "", false
	}
	if r, cut := strings.CutPrefix(q, "mnt/"); cut {
		q = r
	} else if r, cut := strings.CutPrefix(q, "cygdrive/"); cut {
		q = r
	}
	if q == "" || !isLetter(q[0]) || (len(q) > 1 && q[1] != '/') {
		return "", "", false
	}
	if len(q) > 2 {
		rest = q[2:]
	}
	return q[:1], rest, true
}

// procSpelling maps the other ways to name a process's views onto
// `/proc/<pid>/…`: `/dev/fd` is a link to `/proc/self/fd` (so
// `/dev/fd/../cwd` is `/proc/self/cwd`), a thread's `/proc/<pid>/task/<tid>/`
// has its process's cwd and root, and `fd/..` is the process's folder.
func procSpelling(p string) string {
	if r, ok := strings.CutPrefix(p, "/dev/fd"); ok && (r == "" || r[0] == '/') {
		p = "/proc/self/fd" + r
	}
	if !strings.HasPrefix(p, "/proc/") {
		return p
	}
	p = path.Clean(p)
	segs := strings.Split(p[1:], "/")
	for len(segs) >= 5 && segs[2] == "task" {
		segs = append(segs[:2], segs[4:]...)
	}
	return "/" + strings.Join(segs, "/")
}

// procView reads `/proc/<pid|self|thread-self>/<root|cwd>/rest` (in any
// spelling procSpelling knows); a pid computed when the command runs
// (`/proc/$$/cwd`) is some process's.
func procView(p string) (pid, view, rest string, ok bool) {
	p = procSpelling(p)
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	if !strings.HasPrefix(p, "/") || len(segs) < 3 || segs[0] != "proc" || (segs[2] != "root" && segs[2] != "cwd") {
		return "", "", "", false
	}
	pid = segs[1]
	if pid != "self" && pid != "thread-self" && !strings.ContainsRune(pid, unknownRune) && !strings.ContainsAny(pid, "*?[") {
		for i := 0; i < len(pid); i++ {
			if pid[i] < '0' || pid[i] > '9' {
				return "", "", "", false
			}
		}
	}
	return pid, segs[2], strings.Join(segs[3:], "/"), true
}

// percentDecoded returns s with its URL percent escapes decoded, then
// decoded again (a server may decode twice), each step that changes it;
// invalid escapes are kept as written. An HTTP server started in the
// command serves `/%2eenv` as `.env`.
func percentDecoded(s string) []string {
	var out []string
	for range 2 {
		if !strings.Contains(s, "%") {
			break
		}
		var b strings.Builder
		changed := false
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				changed = true
				continue
			}
			b.WriteByte(s[i])
		}
		if !changed {
			break
		}
		s = b.String()
		out = append(out, s)
	}
	return out
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
