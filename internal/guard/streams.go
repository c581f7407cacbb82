package guard

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scriptFrom returns what a program reads as a script (or a file of
// commands) from the path f names when that path is not a plain file on
// the disk: stdin (`-` when dash, /dev/stdin, /dev/fd/0, /proc/self/fd/0),
// another descriptor the command redirected (`/dev/fd/3 3<<<…`), a process
// substitution (`<(echo …)`, the text it prints), another device or /proc
// file (unknown), or a file the command wrote earlier (see writtenFile).
// ok is false for a file the disk shows (a script on disk is not
// followed) and for a path computed at run time (its callers report it).
func (c *cmd) scriptFrom(f field, raw string, dash bool) (source, bool) {
	a := c.a
	if f.pattern() {
		if s, ok := a.procSubstOutput(raw); ok {
			return s, true
		}
		if p := unescapeGlob(f.s); strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") {
			return dynSource("a stream (" + raw + ")"), true
		}
		return a.writtenFile(f)
	}
	t := f.text()
	if t == "-" && dash {
		return c.in, true
	}
	if n, ok := fdPath(t); ok {
		if n == "0" {
			return c.in, true
		}
		if s, ok := a.fds[n]; ok {
			return s, true
		}
		return dynSource("file descriptor " + n), true
	}
	if t == "/dev/null" {
		return source{kind: srcText}, true
	}
	if strings.HasPrefix(t, "/dev/") || strings.HasPrefix(t, "/proc/") {
		return dynSource("the stream " + t), true
	}
	if s, ok := a.writtenFile(f); ok {
		return s, true
	}
	// a link the command made to a stream (ln -s /dev/stdin x.sh)
	if n, _ := a.norm(t, false); n != "" {
		if to, ok := a.links[n]; ok && to != n {
			return c.scriptFrom(litField(to), raw, false)
		}
	}
	return source{}, false
}

// fdPath returns the descriptor a path opens: /dev/stdin (0), /dev/fd/N,
// /proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N, /dev/stdout
// and /dev/stderr.
func fdPath(p string) (string, bool) {
	switch p {
	case "/dev/stdin":
		return "0", true
	case "/dev/stdout":
		return "1", true
	case "/dev/stderr":
		return "2", true
	}
	var rest string
	switch {
	case strings.HasPrefix(p, "/dev/fd/"):
		rest = p[len("/dev/fd/"):]
	case strings.HasPrefix(p, "/proc/"):
		pid, r, ok := strings.Cut(p[len("/proc/"):], "/fd/")
		if !ok || (pid != "self" && pid != "thread-self" && !allDigits(pid)) {
			return "", false
		}
		rest = r
	default:
		return "", false
	}
	if !allDigits(rest) {
		return "", false
	}
	n, _ := strconv.Atoi(rest)
	return strconv.Itoa(n), true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// procSubstOutput returns what a process substitution `<(…)` written as a
// whole word prints, analysed as the commands it runs.
func (a *shellAnalyzer) procSubstOutput(raw string) (source, bool) {
	if !strings.HasPrefix(raw, "<(") || !strings.HasSuffix(raw, ")") || a.depth >= maxScriptDepth {
		return source{}, false
	}
	inner := raw[2 : len(raw)-1]
	f, err := parseShell(inner)
	if err != nil {
		return dynSource("a process substitution that does not parse"), true
	}
	prev := a.src
	a.src = inner
	a.depth++
	out := a.stmts(f.Stmts, source{})
	a.depth--
	a.src = prev
	if out.kind == srcText {
		return out, true
	}
	return dynSource("a process substitution (" + raw + ")"), true
}

// fdRedirect records what an input redirection of another descriptor
// (`3<<<text`, `3< file`, `4<<EOF`) gives that descriptor, for
// /dev/fd/N; it reports whether r was one.
func (a *shellAnalyzer) fdRedirect(r *syntax.Redirect, outFiles *[]target) bool {
	if r.N == nil || r.N.Value == "0" {
		return false
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
	default:
		return false
	}
	r2 := *r
	r2.N = nil
	a.fds[r.N.Value] = a.redirect(&r2, source{}, outFiles)
	return true
}
