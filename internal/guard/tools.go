package guard

import (
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// Call is one tool call: a pi tool name (`read`, `bash`, …), a Claude Code
// one (`Read`, `Bash`, …) or any other (an MCP server's `write_file`), and
// its decoded JSON arguments.
type Call struct {
	Tool string
	Args map[string]any
}

// toolKind classifies a tool.
type toolKind uint8

const (
	kindUnknown toolKind = iota
	kindRead             // read, Read, NotebookRead
	kindList             // ls, LS: one folder's names
	kindGrep             // grep, Grep: file contents below a folder
	kindFind             // find, Glob: names below a folder
	kindWrite            // write, Write
	kindEdit             // edit, Edit, MultiEdit, NotebookEdit
	kindBash             // bash, Bash, shell
	kindPatch            // apply_patch
	kindPwsh             // powershell
	kindNone             // tools that touch no files (WebSearch, TodoWrite, …)
)

// toolWords splits a tool name into lower-case words: `mcp__fs__write_file`
// → mcp fs write file; `readFile` → read file.
func toolWords(name string) []string {
	var words []string
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ':' || r == '/' || unicode.IsSpace(r):
			if b.Len() > 0 {
				words = append(words, b.String())
				b.Reset()
			}
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			words = append(words, b.String())
			b.Reset()
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	return words
}

func classifyTool(name string) toolKind {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		// an MCP tool, mcp__SERVER__TOOL: a shell tool by its tool part is
		// read as a shell (the others stay unknown tools, whose every
		// argument is read)
		if i := strings.LastIndex(rest, "__"); i >= 0 {
			if k := classifyTool(rest[i+2:]); k == kindBash {
				return k
			}
		}
	}
	n := strings.Join(toolWords(name), "")
	switch n {
	case "read", "readfile", "notebookread", "view", "cat", "viewfile", "openfile", "readtextfile", "readmediafile", "getfilecontents":
		return kindRead
	case "ls", "list", "listdir", "listdirectory", "listfiles":
		return kindList
	case "grep", "search", "rg", "ripgrep", "searchcontent", "searchcode", "grepsearch", "codebasesearch":
		return kindGrep
	case "find", "glob", "findfiles", "filesearch", "searchfiles", "globfiles":
		return kindFind
	case "write", "writefile", "create", "createfile":
		return kindWrite
	case "edit", "multiedit", "editfile", "notebookedit", "strreplace", "strreplacebasededittool", "replace", "strreplaceeditor", "textedit", "texteditor":
		return kindEdit
	case "bash", "shell", "runshell", "shellcommand", "execcommand", "executecommand", "runcommand", "terminal", "runterminalcommand", "exec", "sh", "zsh", "localshell", "container.exec",
		"runprocess", "execute", "executeshell", "runscript", "shellexec", "executeprocess", "spawn", "runbash", "bashcommand":
		return kindBash
	case "applypatch", "patch":
		return kindPatch
	case "powershell", "pwsh", "runpowershell":
		return kindPwsh
	case "websearch", "webfetch", "todowrite", "todoread", "task", "exitplanmode", "bashoutput", "killshell",
		"killbash", "askuserquestion", "enterplanmode", "listmcpresources", "slashcommand":
		return kindNone
	}
	return kindUnknown
}

// pathKeys returns the argument names that hold one file path.
// The argument keys analyzeTool reads, by tool kind (argShapes checks the
// same keys are strings).
func shellStdinKeys() []string { return []string{"stdin", "input"} }
func shellCwdKeys() []string {
	return []string{"cwd", "workdir", "working_directory", "workingDirectory", "dir"}
}
func pwshCodeKeys() []string  { return []string{"command", "script", "cmd"} }
func searchDirKeys() []string { return []string{"path", "directory", "dir", "cwd", "root"} }
func grepFilterKeys() []string {
	return []string{"glob", "include", "file_pattern", "filePattern", "type"}
}
func findNameKeys() []string  { return []string{"glob", "pattern", "name"} }
func patchTextKeys() []string { return []string{"input", "patch", "diff", "content"} }

func pathKeys() []string {
	return []string{"path", "file_path", "filePath", "notebook_path", "notebookPath", "file", "filename", "fileName", "target_file", "targetFile"}
}

// analyzeTool returns what a tool call touches.
func (m *Matcher) analyzeTool(c Call) *analysis {
	an := &analysis{}
	args := c.Args
	kind := classifyTool(c.Tool)
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	add := func(raw string, ops OpSet) {
		an.targets = append(an.targets, m.toolTarget(raw, ops)...)
	}
	paths := func(ops OpSet) int {
		n := 0
		for _, k := range pathKeys() {
			if s, ok := args[k].(string); ok && s != "" {
				add(s, ops)
				n++
			}
			if l, ok := args[k].([]any); ok {
				for _, x := range l {
					if s, ok := x.(string); ok && s != "" {
						add(s, ops)
						n++
					}
				}
			}
		}
		if l, ok := args["paths"].([]any); ok {
			for _, x := range l {
				if s, ok := x.(string); ok {
					add(s, ops)
					n++
				}
			}
		}
		return n
	}
	switch kind {
	case kindNone:
		// still: a file: URL anywhere is a read
		m.fileURLs(an, args)
	case kindBash:
		command := ""
		for _, k := range shellCommandKeys() {
			if s := str(k); s != "" {
				command = s
				break
			}
		}
		if command == "" {
			// a shell tool whose command key is none of those: every string
			// argument may be the command line
			var parts []string
			for _, v := range args {
				if s, ok := v.(string); ok && s != "" {
					parts = append(parts, s)
				}
			}
			sort.Strings(parts)
			command = strings.Join(parts, "\n")
		}
		for _, k := range shellStdinKeys() {
			if in := str(k); in != "" && command != in {
				command += " <<< " + shellQuote(in) // what the command reads on stdin
				break
			}
		}
		joined := ""
		if a, ok := args["command"].([]any); ok { // argv form
			parts := make([]string, 0, len(a))
			raw := make([]string, 0, len(a))
			for _, x := range a {
				if s, ok := x.(string); ok {
					parts = append(parts, shellQuote(s))
					raw = append(raw, s)
				}
			}
			command = strings.Join(parts, " ")
			// a tool may also join the list into one command line (a
			// schema validator coercing ["cat .env"] to a string, a
			// wrapper running command.join(" ") through sh): that reading
			// counts too, when it parses (sh cannot run it otherwise)
			joined = strings.Join(raw, " ")
		}
		env := m.env
		if wd := firstString(args, shellCwdKeys()...); wd != "" {
			env.Cwd = NormalizePath(m.env, wd)
		}
		if command != "" {
			sh := analyzeShell(env, command)
			an.targets, an.unknowns, an.parseErr = sh.targets, sh.unknowns, sh.parseErr
		}
		if joined != "" {
			if sh := analyzeShell(env, joined); sh.parseErr == nil {
				an.targets = append(an.targets, sh.targets...)
				an.unknowns = append(an.unknowns, sh.unknowns...)
			}
		}
	case kindPwsh:
		if cmdText := firstString(args, pwshCodeKeys()...); cmdText != "" {
			out := &analysis{}
			a := newShellAnalyzer(m.env, out)
			a.codeText(cmdText, cmdText, "pwsh")
			an.targets, an.unknowns = out.targets, out.unknowns
		}
	case kindRead:
		paths(SetRead)
	case kindList:
		if paths(SetRead) == 0 {
			add(".", SetRead)
		}
	case kindGrep:
		dir := firstString(args, searchDirKeys()...)
		if dir == "" {
			dir = "."
		}
		var filter []string
		excludes, anyType := false, false
		for _, k := range grepFilterKeys() {
			if g := str(k); g != "" {
				globs := grepGlobs(g)
				if k == "type" {
					// rg --type NAME searches the names of its type's globs
					// (yaml: *.yaml and *.yml; sh: .bashrc, .profile, …); a
					// type the table does not know filters nothing
					var known bool
					if globs, known = rgTypeGlobs(g); !known {
						anyType = true
					}
				}
				for _, g := range globs {
					if strings.HasPrefix(g, "!") {
						excludes = true // ripgrep's `!GLOB` leaves names out: it names none
						continue
					}
					filter = append(filter, g)
				}
			}
		}
		if excludes && len(filter) == 0 || anyType {
			filter = nil
		}
		// pi's grep runs `rg --hidden`; so does Claude Code's Grep, which
		// excludes version-control folders (.git, .svn, .hg, .bzr, .jj,
		// .sl); both honour .gitignore (modelled for Grep: vcsAware)
		ts := m.toolTarget(dir, SetRead)
		for i := range ts {
			ts[i].rec, ts[i].dotOK, ts[i].filter, ts[i].via = true, true, filter, "the "+c.Tool+" tool" // rg: symlinks not followed
			// rg's --glob overrides every ignore rule: a file an include
			// filter matches is read even where .gitignore ignores it
			ts[i].vcsAware, ts[i].gitIgnores = c.Tool == "Grep", c.Tool == "Grep" && len(filter) == 0
		}
		an.targets = append(an.targets, m.toolTarget(dir, SetRead)...)
		an.targets = append(an.targets, ts...)
		for _, g := range filter {
			if m.mayName(g) {
				an.targets = append(an.targets, namingTargets(m.globTargets(dir, g), g)...)
			}
		}
	case kindFind:
		dir := firstString(args, searchDirKeys()...)
		if dir == "" {
			dir = "."
		}
		add(dir, SetRead)
		for _, k := range findNameKeys() {
			if g := str(k); g != "" && (k != "pattern" || kind == kindFind) {
				an.targets = append(an.targets, m.searchTargets(c.Tool, dir, g)...)
			}
		}
	case kindWrite, kindEdit:
		ops := SetWrite
		if kind == kindEdit {
			ops = SetEdit
		}
		paths(ops)
		defer m.toolGitConfig(an, args)
		if edits, ok := args["edits"].([]any); ok { // multi-file edit forms
			for _, e := range edits {
				em, ok := e.(map[string]any)
				if !ok {
					continue
				}
				for _, k := range pathKeys() {
					if s, ok := em[k].(string); ok && s != "" {
						add(s, SetEdit)
					}
				}
			}
		}
	case kindPatch:
		text := firstString(args, patchTextKeys()...)
		for _, p := range patchFiles(text) {
			add(p, SetEdit)
		}
		paths(SetEdit)
	default:
		m.unknownTool(an, c)
	}
	if (kind == kindRead || kind == kindWrite || kind == kindEdit) && !namesPath(args) {
		// a reader or writer whose path is under a key the analysis does
		// not know ({"target":".env"}): every argument is read as an
		// unknown tool's are
		m.unknownTool(an, c)
	}
	argShapes(an, kind, c.Tool, args)
	return an
}

// rgTypes are ripgrep's built-in file types (rg --type-list) that a
// search tool's type argument commonly names, each with the globs rg
// searches for it. A type not listed is taken to match every name.
// Built the first time it is read, not at start-up: most runs never read it.
var rgTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
		"cpp":      {"*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl", "*.[ChH].in", "*.cc.in", "*.[ch]pp.in", "*.[ch]xx.in", "*.hh.in"},
		"cs":       {"*.cs"},
		"css":      {"*.css", "*.scss"},
		"csv":      {"*.csv"},
		"go":       {"*.go"},
		"h":        {"*.h", "*.hh", "*.hpp"},
		"html":     {"*.htm", "*.html", "*.ejs"},
		"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
		"js":       {"*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"},
		"json":     {"*.json", "composer.lock"},
		"jsonl":    {"*.jsonl"},
		"kotlin":   {"*.kt", "*.kts"},
		"lua":      {"*.lua"},
		"markdown": {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn"},
		"md":       {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn"},
		"php":      {"*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"},
		"py":       {"*.py"},
		"ruby":     {"config.ru", "Gemfile", ".irbrc", "Rakefile", "*.gemspec", "*.rb", "*.rbw"},
		"rust":     {"*.rs"},
		"scala":    {"*.scala", "*.sbt"},
		"sql":      {"*.sql", "*.psql"},
		"swift":    {"*.swift"},
		"toml":     {"*.toml", "Cargo.lock"},
		"ts":       {"*.ts", "*.tsx", "*.cts", "*.mts"},
		"txt":      {"*.txt"},
		"xml":      {"*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch", "*.xhtml"},
		"yaml":     {"*.yaml", "*.yml"},
		"sh":       {".login", ".logout", ".profile", "profile", ".bash_login", "bash_login", ".bash_logout", "bash_logout", ".bash_profile", "bash_profile", ".bashrc", "bashrc", "*.bashrc", ".cshrc", "*.cshrc", ".kshrc", "*.kshrc", ".tcshrc", ".zshenv", "zshenv", ".zlogin", "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc", "*.bash", "*.csh", "*.ksh", "*.sh", "*.tcsh", "*.zsh"},
		"config":   {"*.cfg", "*.conf", "*.config", "*.ini"},
	}
})

// rgTypeGlobs returns the globs rg searches for `--type name` (ok false
// when the table does not know the type: it may match any name).
func rgTypeGlobs(name string) ([]string, bool) {
	gs, ok := rgTypes()[name]
	if !ok || len(gs) == 0 {
		return nil, false
	}
	return gs, true
}

// grepGlobs returns the globs a search tool's glob argument may stand for:
// the argument as it is, and the pieces Claude Code's Grep passes to rg as
// separate --glob options (split at blanks, then at commas outside a brace
// group). An include filter only widens what the search reads, so taking
// every reading at once fails closed.
func grepGlobs(g string) []string {
	out := []string{g}
	for _, w := range strings.Fields(g) {
		if strings.ContainsRune(w, '{') && strings.ContainsRune(w, '}') {
			if w != g {
				out = append(out, w)
			}
			continue
		}
		for _, p := range strings.Split(w, ",") {
			if p != "" && p != g {
				out = append(out, p)
			}
		}
	}
	return out
}

func firstString(args map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// toolTarget normalises a file tool's path (and its other spellings).
func (m *Matcher) toolTarget(raw string, ops OpSet) []target {
	if i := strings.IndexByte(raw, 0); i >= 0 {
		// a C string ends at NUL: a tool written in C (or passing the path
		// to one) opens what is before it; node refuses it. Both are checked.
		return append(m.toolTarget(raw[:i], ops), m.toolTarget(strings.ReplaceAll(raw, "\x00", ""), ops)...)
	}
	p, pat := normalize(m.env, raw, spellTool, false)
	out := []target{{raw: raw, path: p, pattern: pat, ops: ops}}
	if r := strings.TrimPrefix(raw, "@"); hasDotDot(r) && !m.env.windows() && !pat {
		// a tool that hands the path to the kernel as it is gets `..`
		// applied after symlinks
		joined := expandHome(r, m.env.Home)
		if !strings.HasPrefix(joined, "/") {
			joined = joinDir(cleanCwd(m.env), joined)
		}
		out[0].physical = joined
	}
	for _, alt := range alternates(m.env, raw, spellTool, false) {
		ap, apat := normalize(m.env, alt, spellShell, strings.Contains(alt, unknownSeg))
		if m.env.windows() {
			ap, apat = normalize(m.env, alt, spellTool, strings.Contains(alt, unknownSeg))
		}
		out = append(out, target{raw: raw, path: ap, pattern: apat, ops: ops})
	}
	return out
}

// globTargets is a glob searched under dir: a bare glob (no `/`) matches
// names at any depth, as fd and rg match it.
func (m *Matcher) globTargets(dir, g string) []target {
	g = strings.ReplaceAll(g, `\`, "/")
	for _, neg := range []string{"!", "^"} {
		if strings.HasPrefix(g, neg) {
			return nil // an exclusion reads nothing
		}
	}
	sep := "/"
	if !strings.Contains(g, "/") {
		sep = "/**/"
	}
	raw := g
	if !strings.HasPrefix(g, "/") && !strings.HasPrefix(g, "~") {
		raw = strings.TrimSuffix(strings.ReplaceAll(dir, `\`, "/"), "/") + sep + g
	}
	p, _ := normalize(m.env, raw, spellTool, true)
	return []target{{raw: g, path: p, pattern: true, ops: SetRead}}
}

// searchTargets is a name search (the find and Glob tools) of glob g under
// dir. A glob that searches a tree (`*.js`, `**/*.js`, `src/**/*.ts`) is
// the recursive listing of its folder filtered by the rest of the glob, as
// a filtered grep is (see matchFolder: with the disk the tree is searched,
// and a protected file or a file inside a protected folder that the filter
// lets through is a hit); without a `**` the glob is expanded as it is. The
// glob itself is matched against the rules too when it could name a
// protected entry (`**/.env`, `**/secrets`, `*.pem`): it is denied whether
// or not the file is there. What it cannot name is not taken to lie inside
// a protected file: `**/*.js` does not read `secret.txt`.
func (m *Matcher) searchTargets(tool, dir, g string) []target {
	g = strings.ReplaceAll(g, `\`, "/")
	for _, neg := range []string{"!", "^"} {
		if strings.HasPrefix(g, neg) {
			return nil // an exclusion reads nothing
		}
	}
	base, filter, ok := splitSearch(dir, g)
	if !ok {
		return m.globTargets(dir, g)
	}
	var out []target
	if m.mayName(filter) {
		out = append(out, namingTargets(m.globTargets(dir, g), filter)...)
	}
	ts := m.toolTarget(base, SetRead)
	for i := range ts {
		ts[i].rec, ts[i].filter, ts[i].via, ts[i].lists = true, []string{filter}, "the "+tool+" tool", true
		// the search skips hidden names unless the glob names one
		ts[i].dotOK = strings.HasPrefix(filter, ".") || strings.Contains(filter, "/.")
	}
	return append(out, ts...)
}

// splitSearch splits a search glob into the folder it searches (dir joined
// with the glob's literal leading segments) and the filter below it: a bare
// glob (`*.js`) searches every depth, as fd and rg match it; a glob with a
// `**` keeps what follows its literal prefix (`src/**/*.ts`: folder src,
// filter `**/*.ts`). A glob with `/` and no `**` is not a search (ok false):
// it is expanded as written.
func splitSearch(dir, g string) (base, filter string, ok bool) {
	if g == "" || strings.Contains(g, unknownStr) {
		return "", "", false
	}
	if !strings.Contains(g, "/") {
		return dir, g, true
	}
	segs := strings.Split(g, "/")
	hasStar := false
	for _, s := range segs {
		if s == "**" {
			hasStar = true
		}
	}
	if !hasStar {
		return "", "", false
	}
	i := 0
	for i < len(segs) && !hasMeta(segs[i]) && segs[i] != "**" {
		i++
	}
	rest := strings.Join(segs[i:], "/")
	if rest == "" || rest == "**" {
		return "", "", false
	}
	prefix := strings.Join(segs[:i], "/")
	switch {
	case strings.HasPrefix(g, "/") || strings.HasPrefix(g, "~"):
		base = prefix
		if base == "" {
			base = "/"
		}
	case prefix == "":
		base = dir
	default:
		base = strings.TrimSuffix(strings.ReplaceAll(dir, `\`, "/"), "/") + "/" + prefix
	}
	return base, rest, true
}

// mayName reports whether a search filter could match the name (the last
// segment) of an entry that denies reads: such a glob is matched against the
// rules as a pattern too.
func (m *Matcher) mayName(filter string) bool {
	for i := range m.entries {
		c := &m.entries[i]
		if c.entry.Deny&SetRead != 0 && m.names(c, filter) {
			return true
		}
	}
	return false
}

// names reports whether the last segment of glob g could match the entry's
// name (its last segment; an entry ending in `**` has any name).
func (m *Matcher) names(c *compiled, g string) bool {
	if !c.ok || len(c.segs) == 0 {
		return false
	}
	if i := strings.LastIndexByte(g, '/'); i >= 0 {
		g = g[i+1:]
	}
	g = bracketClasses(foldKey(g, m.env.CaseSensitive))
	last := len(c.segs) - 1
	if c.segs[last] == "**" || segMatch(c.segs[last], c.globs[last], g, true, true) {
		return true
	}
	ok, _ := doublestar.Match(g, c.segs[last]) // braces: `{.env,x}`
	return ok
}

// namingTargets marks glob targets as a name search's: only the entries
// their glob could name are matched against them.
func namingTargets(ts []target, g string) []target {
	for i := range ts {
		ts[i].naming = g
	}
	return ts
}

// nonPathKey reports whether an argument name holds something other than
// a path (text, a pattern, a number).
func nonPathKey(k string) bool {
	switch k {
	case "query", "pattern", "regex", "content", "text", "message", "prompt", "description", "old_string",
		"new_string", "oldText", "newText", "old_str", "new_str", "body", "title", "comment", "explanation",
		"reason", "url", "instructions", "summary", "answer", "question", "language", "encoding", "mode",
		"limit", "offset", "head", "tail":
		return true
	}
	return false
}

// shellKey reports whether an argument of a tool the analysis does not
// know may hold a shell command line (a `script` may be either: it is read
// as both).
func shellKey(k string) bool {
	switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k)) {
	case "command", "cmd", "commands", "cmdline", "commandline", "shell", "shellcommand", "bash", "sh", "zsh",
		"script", "run", "exec", "execute", "terminal", "commandstring":
		return true
	}
	return false
}

// codeKey returns the language of an argument that holds code ("" for
// others).
func codeKey(k string) string {
	switch k {
	case "code", "script", "program":
		return "generic"
	case "python":
		return "python"
	case "javascript":
		return "js"
	}
	return ""
}

// unknownTool classifies a tool the analysis does not know by its name and
// its argument names: words such as write, create, edit, move, delete make
// it a writer, read, get, view, list, search a reader; a name with neither
// may do both. Every string argument that may be a path (any key but
// content-like ones), in any nested object or list, is a path with those
// ops; `command` arguments are shell commands, `code` arguments code.
func (m *Matcher) unknownTool(an *analysis, c Call) {
	var ops OpSet
	for _, w := range toolWords(c.Tool) {
		switch w {
		case "write", "create", "save", "put", "upload", "append", "overwrite", "touch", "mkdir", "make", "new",
			"edit", "replace", "patch", "modify", "update", "insert", "apply", "str", "delete", "remove", "rm",
			"unlink", "move", "rename", "mv", "copy", "cp", "chmod", "set", "store", "commit", "format", "fix":
			ops |= setModify
		case "read", "get", "cat", "view", "open", "show", "list", "ls", "tree", "search", "grep", "find",
			"glob", "download", "fetch", "head", "tail", "stat", "info", "load", "inspect", "describe", "diff":
			ops |= SetRead
		}
	}
	if ops == 0 {
		ops = SetRead | setModify
	}
	recursive := unknownToolRecurses(toolWords(c.Tool))
	var walk func(key string, v any, depth int)
	count := 0
	walk = func(key string, v any, depth int) {
		if depth > 32 || count > 512 {
			return
		}
		switch x := v.(type) {
		case string:
			count++
			switch {
			case shellKey(key):
				if codeKey(key) != "" {
					out := &analysis{}
					a := newShellAnalyzer(m.env, out)
					a.codeText(x, x, codeKey(key))
					an.targets = append(an.targets, out.targets...)
					an.unknowns = append(an.unknowns, out.unknowns...)
				}
				sh := analyzeShell(m.env, x)
				an.targets = append(an.targets, sh.targets...)
				an.unknowns = append(an.unknowns, sh.unknowns...)
				if sh.parseErr != nil && codeKey(key) == "" {
					// (a `script` that is not shell was read as code above)
					an.unknowns = append(an.unknowns, unknownUse{raw: x, why: "a command argument that does not parse as shell", ops: SetRead | setModify})
				}
			case codeKey(key) != "":
				out := &analysis{}
				a := newShellAnalyzer(m.env, out)
				a.codeText(x, x, codeKey(key))
				an.targets = append(an.targets, out.targets...)
				an.unknowns = append(an.unknowns, out.unknowns...)
			case nonPathKey(key):
				if len(x) > 5 && strings.EqualFold(x[:5], "file:") {
					an.targets = append(an.targets, m.toolTarget(x, SetRead)...)
				}
			default:
				// a string with line breaks may be a list of paths, one a line
				for _, p := range pathLines(x) {
					ts := m.toolTarget(p, ops)
					an.targets = append(an.targets, ts...)
					if recursive {
						for _, t := range ts {
							t.rec, t.dotOK, t.via, t.follow = true, true, "the "+c.Tool+" tool", followAll
							an.targets = append(an.targets, t)
						}
					}
				}
			}
		case []any:
			for _, e := range x {
				walk(key, e, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(k, x[k], depth+1)
			}
		}
	}
	keys := make([]string, 0, len(c.Args))
	for k := range c.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		walk(k, c.Args[k], 0)
	}
}

// unknownToolRecurses reports whether a tool the analysis does not know may
// act on every file below a folder it is given. It does unless its name says
// it only lists or describes names (list_directory, get_file_info, tree):
// a search, copy, move, delete, archive, sync or upload of a folder reaches
// its files, and so may a name that says nothing — the gate cannot show it
// does not.
func unknownToolRecurses(words []string) bool {
	names := false
	for _, w := range words {
		switch w {
		case "list", "ls", "tree", "stat", "info", "exists", "dir", "directory", "directories", "describe", "metadata", "size":
			names = true
		case "recursive", "read", "cat", "view", "open", "show", "content", "contents", "search", "grep", "find",
			"copy", "cp", "move", "mv", "rename", "delete", "remove", "rm", "zip", "archive", "tar", "compress", "pack",
			"sync", "upload", "download", "backup", "send", "share", "export", "import", "index", "embed", "scan",
			"analyze", "analyse", "summarize", "diff", "compare", "hash", "checksum", "watch", "write", "edit", "chmod", "chown":
			return true
		}
	}
	return !names
}

// pathLines returns the paths a string argument may name: the string, and
// when it holds line breaks each of its non-empty lines too.
func pathLines(s string) []string {
	if !strings.ContainsAny(s, "\r\n") {
		return []string{s}
	}
	out := []string{s}
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// fileURLs adds the paths of file: URLs found in any argument.
func (m *Matcher) fileURLs(an *analysis, args map[string]any) {
	for _, v := range args {
		if s, ok := v.(string); ok && len(s) > 5 && strings.EqualFold(s[:5], "file:") {
			an.targets = append(an.targets, m.toolTarget(s, SetRead)...)
		}
	}
}
