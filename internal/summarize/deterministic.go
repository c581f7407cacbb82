package summarize

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Deterministic summarises b without a model: one bullet per call, led by
// its `[[N:tool]]` label — the tool and its key argument (path, command,
// pattern, …), OK or ERROR with the exit code, the size — and, as budget
// allows, sub-bullets with error lines verbatim, the first and last
// meaningful lines, the paths and the identifiers defined in the output.
// The same batch always gives the same bytes.
func Deterministic(b Batch) string {
	var out []string
	for i, c := range b.Calls {
		out = append(out, callSummary(i+1, c, b.Cwd)...)
	}
	return strings.Join(out, "\n")
}

const (
	maxKeyArg    = 100 // chars of the key argument on the header line
	maxLine      = 120 // chars of a quoted output line
	maxErrLines  = 3
	maxPaths     = 6
	maxNames     = 8
	budgetDivide = 20 // sub-bullets take at most 1/20 of the result's size
)

func callSummary(n int, c Call, cwd string) []string {
	key := keyArg(c.ToolName, c.Args, cwd)
	lines := strings.Split(c.Result, "\n")
	exit, aborted := exitStatus(lines)
	head := "- " + Label(n, c.ToolName) + " " + c.ToolName
	if key != "" {
		head += " " + key
	}
	status := "OK"
	if c.IsError {
		status = "ERROR"
	}
	switch {
	case aborted:
		status += ", aborted"
	case exit != "":
		status += ", exit " + exit
	}
	size := JSLen(c.Result)
	if size == 0 {
		head += " — " + status + "; no text output"
		return []string{head}
	}
	head += " — " + status + "; " + strconv.Itoa(len(lines)) + " lines, " + strconv.Itoa(size) + " chars"
	out := []string{head}

	budget := size / budgetDivide
	add := func(s string) bool {
		if JSLen(s) > budget {
			return false
		}
		out = append(out, s)
		budget -= JSLen(s)
		return true
	}
	meaningful := meaningfulLines(lines)
	shown := map[string]bool{}
	quote := func(kind, line string) {
		if l := clip(line, maxLine); !shown[l] {
			shown[l] = true
			add("  - " + kind + ": " + l)
		}
	}
	if c.IsError || !isFileTool(c.ToolName, c.Args) {
		errs := errorLines(lines)
		if len(errs) == 0 && c.IsError && len(meaningful) > 0 {
			errs = meaningful[:1]
		}
		for i, e := range errs {
			if i == 0 && c.IsError && JSLen(e) > budget {
				budget = JSLen("  - error: " + clip(e, maxLine)) // an error's first line is always kept
			}
			quote("error", e)
		}
	}
	paths := func() {
		if ps := pathsIn(c.Result, key, cwd); len(ps) > 0 {
			add("  - paths: " + strings.Join(ps, ", "))
		}
	}
	names := func() {
		if ns := namesIn(c.Result); len(ns) > 0 {
			add("  - defines: " + strings.Join(ns, ", "))
		}
	}
	switch {
	case len(meaningful) == 1:
		quote("only", meaningful[0])
		paths()
	case len(meaningful) > 1 && isFileTool(c.ToolName, c.Args):
		// a file: how it starts and ends, what it defines
		quote("first", meaningful[0])
		quote("last", meaningful[len(meaningful)-1])
		names()
		paths()
	case len(meaningful) > 1:
		// a command's output: how it ended matters most (its first line is
		// mostly the command or a banner echoed)
		quote("last", meaningful[len(meaningful)-1])
		paths()
		names()
	}
	return out
}

// keyArgNames are the argument keys that say what a call was about, in the
// order they are looked for.
var keyArgNames = []string{"command", "cmd", "path", "file_path", "filePath", "pattern", "query", "url", "glob", "name"}

// keyArg returns the call's key argument for the header line: the first of
// keyArgNames holding a string (with offset/limit for reads), or the
// arguments themselves when short.
func keyArg(tool, args, cwd string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range keyArgNames {
		s, ok := m[k].(string)
		if !ok || s == "" {
			continue
		}
		s = relative(oneLine(s), cwd)
		out := "`" + clip(s, maxKeyArg) + "`"
		if k == "path" || k == "file_path" || k == "filePath" {
			var extra []string
			for _, x := range []string{"offset", "limit"} {
				if v, ok := m[x].(float64); ok {
					extra = append(extra, x+"="+strconv.FormatFloat(v, 'f', -1, 64))
				}
			}
			if len(extra) > 0 {
				out += " (" + strings.Join(extra, ", ") + ")"
			}
		}
		return out
	}
	if len(m) == 0 {
		return ""
	}
	if JSLen(args) <= 80 {
		return "`" + args + "`"
	}
	return ""
}

// isFileTool reports calls whose output is file content (a read), where
// words like "error" are code, not failures.
func isFileTool(tool, args string) bool {
	switch strings.ToLower(tool) {
	case "read", "read_file", "view", "cat":
		return true
	}
	return false
}

var exitRE = regexp.MustCompile(`^(?:Command exited with code|[Ee]xit code:?|[Ee]xit status:?|exited with code) (-?\d+)\.?$`)

// exitStatus finds the exit code a shell tool reports on its last
// meaningful line ("Command exited with code N"), or "Command aborted".
func exitStatus(lines []string) (code string, aborted bool) {
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-4; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		if m := exitRE.FindStringSubmatch(l); m != nil {
			return m[1], false
		}
		if l == "Command aborted" || l == "(command cancelled)" {
			return "", true
		}
		return "", false
	}
	return "", false
}

// meaningfulLines are the trimmed lines holding a letter or digit, without
// the exit-status line.
func meaningfulLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if len(t) < 2 || exitRE.MatchString(t) || !strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		out = append(out, t)
	}
	return out
}

var errorRE = regexp.MustCompile(`(?i)(\b(error|errors|err!|fail|failed|failure|fatal|panic|exception|traceback|cannot|could not|couldn't|not found|no such file|denied|refused|undefined|segmentation fault|timed out)\b|^[✗×✘]|^E\d{3,}|^FAIL)`)

// errorLines returns up to maxErrLines distinct lines that report a
// failure, verbatim (trimmed), in order.
func errorLines(lines []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || seen[t] || exitRE.MatchString(t) || !errorRE.MatchString(t) {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == maxErrLines {
			break
		}
	}
	return out
}

var pathRE = regexp.MustCompile(`(?:^|[\s"'(\[=:])((?:~|\.{1,2})?/?(?:[\w@+.-]+/)+[\w@+.-]*[\w])`)

// pathsIn returns up to maxPaths distinct path-like tokens of text (with a
// "/" in them, not URLs), in order of appearance, leaving out skip.
func pathsIn(text, skip, cwd string) []string {
	var out []string
	seen := map[string]bool{strings.Trim(skip, "`"): true}
	for _, m := range pathRE.FindAllStringSubmatchIndex(text, -1) {
		p := text[m[2]:m[3]]
		if m[2] >= 3 && text[m[2]-3:m[2]] == "://" || strings.HasPrefix(text[m[3]:], "://") {
			continue
		}
		if !strings.Contains(p, ".") && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			continue // "and/or", "input/output": words, not paths
		}
		if seen[p] || len(p) < 4 || len(p) > 200 {
			continue
		}
		seen[p] = true
		if r := relative(p, cwd); r != p {
			if seen[r] {
				continue
			}
			seen[r] = true
			p = r
		}
		out = append(out, p)
		if len(out) == maxPaths {
			break
		}
	}
	return out
}

var defRE = regexp.MustCompile(`(?m)^[\t ]*(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:func|function|def|class|interface|type|struct|enum|trait|fn)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)`)

// namesIn returns up to maxNames distinct identifiers defined in text
// (functions, types, classes), in order.
func namesIn(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range defRE.FindAllStringSubmatch(text, -1) {
		n := m[1]
		if len(n) < 3 || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
		if len(out) == maxNames {
			break
		}
	}
	return out
}

// clip shortens s to at most n chars (UTF-16 units), ending in "…".
func clip(s string, n int) string {
	if JSLen(s) <= n {
		return s
	}
	return jsPrefix(s, n-1) + "…"
}

// oneLine folds a multi-line argument (a heredoc command) onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// relative shortens a path or command under cwd for the summary: a path
// in cwd loses the cwd prefix, a command loses a leading "cd <cwd> && ".
func relative(s, cwd string) string {
	cwd = strings.TrimRight(cwd, "/")
	if cwd == "" {
		return s
	}
	for _, p := range []string{"cd " + cwd + " && ", "cd " + cwd + "; ", `cd "` + cwd + `" && `} {
		if strings.HasPrefix(s, p) {
			return s[len(p):]
		}
	}
	if strings.HasPrefix(s, cwd+"/") && len(s) > len(cwd)+1 {
		return s[len(cwd)+1:]
	}
	return s
}
