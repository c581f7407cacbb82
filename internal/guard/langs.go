package guard

import (
	"strings"
	"sync"
)

// Command languages: programs with a command language of their own read
// from an argument, stdin or a file (sqlite3's dot-commands, psql's and
// mysql's backslash commands, ed/ex/vim commands, dc, make's recipes).
// For each, langCheck decides whether the analysis models the script: a
// construct that runs a command, opens a file by a name the analysis does
// not read, or evaluates computed code makes it unverifiable, with a
// reason naming the construct. What remains is read as code for the
// paths it names (string literals and bare words).

// langCheck reports the first construct of script text in lang that the
// analysis does not model ("" when there is none), and the language its
// text is then read in for paths. ok is false for a language this file
// does not know.
func (a *shellAnalyzer) langCheck(text, raw, lang string) (scan string, ok bool) {
	var why string
	switch lang {
	case "sqlite":
		why, scan = sqliteUnmodelled(text), "generic"
	case "psql":
		why, scan = psqlUnmodelled(text), "generic"
	case "mysql":
		why, scan = mysqlUnmodelled(text), "generic"
	case "ed":
		why, scan = edUnmodelled(text), "vim"
	case "vim":
		why, scan = exUnmodelled(text), "vim"
	case "sed":
		why, scan = a.sedCommands(text, raw), "sed"
	case "dc":
		if strings.Contains(text, "!") {
			why = "dc's ! runs a shell command"
		}
		scan = "generic"
	case "make":
		why, scan = a.makeScripts(text, raw), "generic"
	default:
		if name, ok := strings.CutPrefix(lang, "unmodelled:"); ok {
			if strings.TrimSpace(text) != "" {
				why = name + " runs commands in a language the analysis does not model"
			}
			scan = "generic"
			break
		}
		return lang, false
	}
	if why != "" {
		a.unknown(raw, why, SetRead|setModify)
	}
	return scan, true
}

// sqlWords returns the identifiers of SQL text, lower-cased (quotes and
// brackets are separators: "readfile"(…) still names readfile).
func sqlWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '$')
	})
}

// firstWord returns the first word of words that is in set.
func firstWord(words []string, set map[string]string) string {
	for _, w := range words {
		if why, ok := set[w]; ok {
			return why
		}
	}
	return ""
}

// sqliteSafeDot are the sqlite3 dot-commands that only print or format.
// Built the first time it is read, not at start-up: most runs never read it.
var sqliteSafeDot = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"tables": true, "schema": true, "fullschema": true, "headers": true, "header": true, "mode": true,
		"width": true, "indexes": true, "indices": true, "databases": true, "dump": true, "quit": true,
		"exit": true, "timer": true, "nullvalue": true, "separator": true, "print": true, "show": true,
		"help": true, "stats": true, "changes": true, "eqp": true, "explain": true, "bail": true,
		"echo": true, "prompt": true, "dbinfo": true, "lint": true, "version": true, "limit": true,
		"scanstats": true, "timeout": true, "binary": true, "dbconfig": true,
	}
})

// sqliteFuncs are the SQL functions and statements of the sqlite3 shell
// that read, write or list files or load code.
// Built the first time it is read, not at start-up: most runs never read it.
var sqliteFuncs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"readfile": "sqlite3's readfile() reads a file", "writefile": "sqlite3's writefile() writes a file",
		"edit": "sqlite3's edit() runs an editor", "fsdir": "sqlite3's fsdir() reads a folder's files",
		"lsdir": "sqlite3's lsdir() lists a folder", "zipfile": "sqlite3's zipfile() reads or writes an archive",
		"load_extension": "sqlite3's load_extension() loads code", "fts3_tokenizer": "sqlite3's fts3_tokenizer() loads code",
		"attach": "sqlite3's ATTACH opens another file", "vacuum": "sqlite3's VACUUM INTO writes a file",
	}
})

// sqliteUnmodelled: dot-commands other than the ones that only print,
// and the file functions of the sqlite3 shell.
func sqliteUnmodelled(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] != '.' || i > 0 && text[i-1] > ' ' && text[i-1] != ';' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] == '_') {
			j++
		}
		if name := strings.ToLower(text[i+1 : j]); name != "" && !sqliteSafeDot()[name] {
			return "sqlite3's ." + name + " (a dot-command that may run a command, read or write a file) is not modelled"
		}
	}
	if why := firstWord(sqlWords(text), sqliteFuncs()); why != "" {
		return why + ", which the analysis does not follow"
	}
	return ""
}

// psqlSafeMeta: psql's backslash commands that only describe or format.
func psqlSafeMeta(name string) bool {
	switch name {
	case "l", "list", "conninfo", "timing", "x", "q", "echo", "encoding", "z", "sf", "sv", "pset", "a", "c",
		"connect", "C", "t", "T", "f", "H", "errverbose", "?", "h", "help":
		return true
	}
	return strings.HasPrefix(name, "d")
}

// Built the first time it is read, not at start-up: most runs never read it.
var psqlFuncs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pg_read_file": "pg_read_file() reads a file", "pg_read_binary_file": "pg_read_binary_file() reads a file",
		"pg_ls_dir": "pg_ls_dir() lists a folder", "pg_stat_file": "pg_stat_file() reads a file's status",
		"lo_import": "lo_import() reads a file", "lo_export": "lo_export() writes a file",
		"pg_file_write": "pg_file_write() writes a file", "copy": "COPY reads or writes a file or runs a program",
		"program": "PROGRAM runs a command", "execute": "EXECUTE runs computed SQL",
		"plpython3u": "an untrusted language runs code", "plpythonu": "an untrusted language runs code",
		"plperlu": "an untrusted language runs code", "plsh": "an untrusted language runs code",
		"dblink": "dblink runs SQL elsewhere",
	}
})

// psqlUnmodelled: psql's backslash commands other than the ones that
// describe (\! runs a shell, \i and \ir read files, \o and \w write them,
// \copy, \e, \set, \gexec, \g FILE), and SQL that reads files or runs
// programs on a local server.
func psqlUnmodelled(text string) string {
	if strings.Contains(text, "\\") && strings.Contains(text, "`") {
		return "psql runs backquoted text in a meta-command's arguments as a shell command"
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' || i+1 >= len(text) {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') {
			j++
		}
		name := text[i+1 : j]
		if name == "" {
			name = text[i+1 : i+2]
		}
		if name == "g" || name == "gx" {
			// \g alone runs the query buffer; \g FILE or \g |cmd writes or runs
			rest := strings.TrimLeft(text[j:], " \t")
			if rest == "" || rest[0] == '\n' || rest[0] == '\\' {
				i = j - 1
				continue
			}
			return "psql's \\" + name + " with an argument writes a file or runs a command"
		}
		if !psqlSafeMeta(name) {
			return "psql's \\" + name + " (a meta-command that may run a command, read or write a file) is not modelled"
		}
		i = j - 1
	}
	if why := firstWord(sqlWords(text), psqlFuncs()); why != "" {
		return why + ", which the analysis does not follow"
	}
	return ""
}

// Built the first time it is read, not at start-up: most runs never read it.
var mysqlWords = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"system": "mysql's system runs a shell command", "source": "mysql's source reads a file of commands",
		"pager": "mysql's pager runs a command", "tee": "mysql's tee writes a file", "edit": "mysql's edit runs an editor",
		"load_file": "LOAD_FILE() reads a file", "infile": "LOAD DATA INFILE reads a file",
		"outfile": "SELECT … INTO OUTFILE writes a file", "dumpfile": "SELECT … INTO DUMPFILE writes a file",
	}
})

// mysqlUnmodelled: the mysql client's commands that run a shell, read or
// write files (\! system, \. source, \P pager, \T tee, \e edit) and SQL
// that reads or writes files.
func mysqlUnmodelled(text string) string {
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\\' && strings.IndexByte("!.PTe", text[i+1]) >= 0 {
			return "mysql's \\" + text[i+1:i+2] + " (runs a command, reads or writes a file) is not modelled"
		}
	}
	if why := firstWord(sqlWords(text), mysqlWords()); why != "" {
		return why + ", which the analysis does not follow"
	}
	return ""
}

// edUnmodelled: ed's ! (a shell command, also as `r !cmd`, `w !cmd`).
// Text after a, i, c up to a lone `.` is text, not commands.
func edUnmodelled(text string) string {
	inText := false
	for line := range strings.SplitSeq(text, "\n") {
		if inText {
			inText = strings.TrimRight(line, "\r") != "."
			continue
		}
		if strings.Contains(line, "!") {
			return "ed's ! runs a shell command"
		}
		if t := strings.TrimRight(edCommand(line), " \t\r"); t == "a" || t == "i" || t == "c" {
			inText = true
		}
	}
	return ""
}

// edCommand returns a line of ed or ex commands without its address
// (numbers, . $ % , ; + - 'x marks and /re/ ?re? searches).
func edCommand(line string) string {
	i := 0
	for i < len(line) {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == ':' || ch >= '0' && ch <= '9' || strings.IndexByte(".$%,;+-", ch) >= 0:
			i++
		case ch == '\'' && i+1 < len(line):
			i += 2
		case ch == '/' || ch == '?':
			j := i + 1
			for j < len(line) && line[j] != ch {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
		default:
			return line[i:]
		}
	}
	return ""
}

// exSafe are the ex/vim commands the analysis models: editing, moving,
// writing and quitting, options; the file names they take are read as
// paths. Full names, matched by any abbreviation down to the shortest vim
// accepts (the value).
// Built the first time it is read, not at start-up: most runs never read it.
var exSafe = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"write": 1, "wq": 2, "wall": 2, "wqall": 3, "xit": 1, "xall": 2, "exit": 3, "update": 2, "quit": 1, "qall": 2,
		"quitall": 5, "delete": 1, "move": 1, "copy": 2, "t": 1, "join": 1, "print": 1, "number": 2, "list": 1,
		"set": 2, "setlocal": 4, "nohlsearch": 3, "retab": 3, "sort": 3, "undo": 1, "redo": 3, "edit": 1,
		"read": 1, "saveas": 3, "yank": 1, "put": 2, "mark": 2, "k": 1, "left": 2, "center": 2, "right": 2,
		"append": 1, "insert": 1, "change": 1, "filetype": 5, "syntax": 2, "wnext": 2, "next": 1, "previous": 4,
		"bnext": 2, "bprevious": 2, "bdelete": 2, "file": 1, "visual": 2, "enew": 3, "new": 3, "vnew": 3,
		"split": 2, "vsplit": 2, "only": 2, "close": 3, "silent": 3, "noautocmd": 3, "keepjumps": 5,
		"keepmarks": 3, "keeppatterns": 5, "lockmarks": 3, "confirm": 4, "hide": 3, "undojoin": 5, "bwipeout": 2,
		"startinsert": 4, "stopinsert": 5, "nohl": 3,
	}
})

func exCommandOK(name string) bool {
	for full, min := range exSafe() {
		if len(name) >= min && strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// exModifiers are the ex command modifiers: the command after them is
// checked in turn.
// Built the first time it is read, not at start-up: most runs never read it.
var exModifiers = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"silent": 3, "unsilent": 3, "noautocmd": 3, "keepjumps": 5, "keepmarks": 3, "keeppatterns": 5,
		"keepalt": 5, "lockmarks": 3, "confirm": 4, "hide": 3, "vertical": 4, "topleft": 2, "botright": 2,
		"aboveleft": 3, "belowright": 3, "leftabove": 5, "rightbelow": 6, "tab": 3, "browse": 3,
	}
})

func abbrevOf(m map[string]int, name string) bool {
	for full, min := range m {
		if len(name) >= min && strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// exUnmodelled: ex and vim commands outside exSafe (shell commands, Vim
// script that evaluates or calls functions, :normal keystrokes, :source,
// registers run with @, language interfaces, :make, :grep), `!` anywhere,
// a substitute whose replacement is an expression (`\=`), file names
// with wildcards, backticks, variables or special names (vim expands
// them: `<cfile>`, `#<1`).
func exUnmodelled(text string) string {
	if strings.Contains(exForcesRemoved(text), "!") {
		return "an ex/vim ! runs a shell command (or forces a command the analysis does not model)"
	}
	inText := false
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if inText {
			inText = line != "."
			continue
		}
		why, starts := exLine(line, 0)
		if why != "" {
			return why
		}
		inText = starts
	}
	return ""
}

// exForcesRemoved is ex text without the `!` that forces a modelled
// command (`q!`, `wq!`, `w! FILE`, `e! FILE`): a `!` written right after the
// command's name and before a blank, a bar or the end. Any other `!` runs a
// shell command (`:!cmd`, `r !cmd`, `w !cmd`) or is not modelled.
func exForcesRemoved(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '!' && (i+1 == len(text) || strings.IndexByte(" \t|\n\r", text[i+1]) >= 0) {
			j := i
			for j > 0 && (text[j-1] >= 'a' && text[j-1] <= 'z' || text[j-1] >= 'A' && text[j-1] <= 'Z') {
				j--
			}
			if name := text[j:i]; name != "" && exCommandOK(name) && (j == 0 || strings.IndexByte(" \t|:\n%", text[j-1]) >= 0) {
				continue
			}
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// exWrites reports whether ex text writes a file (:w, :wq, :x, :up,
// :saveas, :wall, …): then every file it names may be written, whatever
// command named it (`:e FILE` then `:w`).
func exWrites(text string) bool {
	writers := map[string]int{"write": 1, "wq": 2, "wall": 2, "wqall": 3, "xit": 1, "xall": 2, "exit": 3,
		"update": 2, "saveas": 3, "wnext": 2, "wprevious": 2, "wNext": 2}
	for line := range strings.SplitSeq(text, "\n") {
		for _, part := range strings.Split(line, "|") {
			c := strings.TrimLeft(edCommand(part), " \t:")
			j := 0
			for j < len(c) && (c[j] >= 'a' && c[j] <= 'z' || c[j] >= 'A' && c[j] <= 'Z') {
				j++
			}
			if j > 0 && abbrevOf(writers, c[:j]) {
				return true
			}
		}
	}
	return false
}

// exLine checks one ex command line (commands joined by `|`); starts
// reports an append/insert/change whose text lines follow.
func exLine(line string, depth int) (why string, starts bool) {
	if depth > 8 {
		return "ex commands nested too deeply", false
	}
	c := strings.TrimLeft(edCommand(line), " \t")
	if c == "" || strings.HasPrefix(c, "\"") {
		return "", false
	}
	j := 0
	for j < len(c) && (c[j] >= 'a' && c[j] <= 'z' || c[j] >= 'A' && c[j] <= 'Z' || c[j] >= '0' && c[j] <= '9') {
		j++
	}
	name, rest := c[:j], c[j:]
	if name == "" {
		switch c[0] {
		case '&', '~', '<', '>', '=':
			return exRest(c[1:], depth)
		}
		return "the ex command " + strings.Fields(c)[0] + " is not modelled", false
	}
	if abbrevOf(exModifiers(), name) {
		return exLine(rest, depth+1)
	}
	// :s/pat/rep/flags and :g/pat/cmd (any delimiter that is not a
	// letter, digit, blank, quote or bar)
	if len(rest) > 0 && strings.IndexByte(" \t\"|", rest[0]) < 0 {
		d := rest[0]
		parts := splitDelim(rest[1:], d)
		switch {
		case strings.HasPrefix("substitute", name) || strings.HasPrefix("smagic", name) && len(name) >= 2 || strings.HasPrefix("snomagic", name) && len(name) >= 3:
			if len(parts) >= 2 && strings.HasPrefix(parts[1], `\=`) {
				return "a :substitute whose replacement is an expression (\\=) is not modelled", false
			}
			if len(parts) >= 3 {
				return exRest(strings.Join(parts[2:], string(d)), depth)
			}
			return "", false
		case strings.HasPrefix("global", name) || strings.HasPrefix("vglobal", name):
			if len(parts) >= 2 {
				// the command :g runs takes the rest of the line, bars included
				return exLine(strings.Join(parts[1:], string(d)), depth+1)
			}
			return "", false
		}
	}
	if !exCommandOK(name) {
		return "the ex command :" + name + " is not modelled (it may run a command, evaluate code or read a file)", false
	}
	arg, next, _ := strings.Cut(rest, "|")
	if (strings.HasPrefix("setlocal", name) || strings.HasPrefix("setglobal", name)) && len(name) >= 2 && exFileOption(arg) {
		return "a :set option whose value names a file, folder or program vim uses (viminfofile, backupdir, makeprg, …) is not modelled", false
	}
	if strings.ContainsAny(arg, "*?[{`$~<#") {
		return "an ex file name with wildcards, a variable, backticks or a special name (which vim expands) is not modelled", false
	}
	starts = strings.HasPrefix("append", name) || strings.HasPrefix("insert", name) || strings.HasPrefix("change", name)
	if next != "" {
		return exLine(next, depth+1)
	}
	return "", starts
}

// exRest checks what follows a command's own text: flags, then `|` and
// another command.
func exRest(rest string, depth int) (string, bool) {
	if _, next, ok := strings.Cut(rest, "|"); ok {
		return exLine(next, depth+1)
	}
	return "", false
}

// splitDelim splits s at unescaped d.
func splitDelim(s string, d byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == d {
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// makeScripts reads a makefile's recipes (tab-led lines, the part after
// `;` on a rule line, $(shell …)) as shell commands; what make expands or
// computes by itself (another SHELL, .RECIPEPREFIX, $(eval), include of a
// computed file) is reported.
func (a *shellAnalyzer) makeScripts(text, raw string) string {
	for _, w := range []string{"SHELL", ".RECIPEPREFIX", "$(eval", "${eval", "$(guile", ".ONESHELL", "$(value", "load "} {
		if strings.Contains(text, w) {
			return "make's " + strings.TrimSpace(strings.TrimLeft(w, "$({")) + " changes how recipes run, which the analysis does not model"
		}
	}
	text = strings.ReplaceAll(text, "\\\n", " ")
	for line := range strings.SplitSeq(text, "\n") {
		var recipe string
		switch {
		case strings.HasPrefix(line, "\t"):
			recipe = line
		case strings.Contains(line, "!="):
			// VAR != command: make runs it
			_, recipe, _ = strings.Cut(line, "!=")
		case strings.Contains(line, ":") && strings.Contains(line, ";"):
			_, recipe, _ = strings.Cut(line, ";")
		}
		if f := strings.Fields(line); len(f) > 1 && (f[0] == "include" || f[0] == "-include" || f[0] == "sinclude") {
			// another makefile: read when the command wrote it
			for _, n := range f[1:] {
				if strings.ContainsAny(n, "$*?[") {
					return "make includes a makefile named by a variable or a pattern, which the analysis does not follow"
				}
				if s, ok := a.writtenFile(litField(n)); ok {
					if s.kind != srcText || a.depth >= maxScriptDepth {
						return "make includes " + n + ", which the command writes with content the analysis cannot see"
					}
					a.depth++
					why := a.makeScripts(s.text, raw)
					a.depth--
					if why != "" {
						return why
					}
				}
			}
		}
		for k := 0; ; {
			i := strings.Index(line[k:], "$(shell ")
			if i < 0 {
				break
			}
			rest := line[k+i+len("$(shell "):]
			if e := strings.LastIndexByte(rest, ')'); e >= 0 {
				a.looseScript(rest[:e], raw)
			} else {
				a.looseScript(rest, raw)
			}
			k += i + 1
		}
		if recipe = strings.TrimLeft(recipe, " \t@-+"); recipe != "" {
			a.script(strings.ReplaceAll(recipe, "$$", "$"), raw, source{})
		}
	}
	return ""
}

// commandLang handles the programs of a command language: their scripts
// come from options (sqlite3 -cmd, psql -c, mysql -e, dc -e, gnuplot -e),
// operands (sqlite3's SQL after the database, a script file), files they
// load by themselves (~/.sqliterc, ~/.psqlrc, ~/.my.cnf) and stdin; each
// is checked in its language (see langCheck).
func (c *cmd) commandLang() {
	lang := "unmodelled:" + c.name
	home := c.a.env.Home
	// what each option's value is
	const (
		vCode = 1 + iota
		vProg
		vWrite // a file written, or `|cmd` (psql -o, -L)
		vScript
		vWord
	)
	roles := map[string]int{}
	set := func(role int, names ...string) {
		for _, n := range names {
			roles[n] = role
		}
	}
	var o opts
	single := false       // single-dash long options (sqlite3, duckdb)
	firstIsFile := false  // the first operand is a database file, the rest SQL
	operandsCode := false // operands are code
	operandsScripts := false
	var rc []string
	switch c.name {
	case "sqlite3", "sqlite", "sqlcipher", "duckdb":
		lang, single = "sqlite", true
		set(vCode, "-cmd", "--cmd")
		set(vProg, "-init", "--init")
		set(vWord, "-separator", "-newline", "-nullvalue", "-vfs", "-pagecache", "-lookaside", "-maxsize", "-mmap", "-heap", "-escape", "-quote", "-bom")
		firstIsFile, operandsCode = true, true
		rc = []string{home + "/.sqliterc"}
		if c.name == "duckdb" {
			lang = "unmodelled:duckdb"
			set(vCode, "-c", "-s")
			set(vProg, "-f")
			rc = []string{home + "/.duckdbrc"}
		}
	case "psql":
		lang = "psql"
		o = opts{short: "cfdhpUvPFRTLo", long: []string{"--command", "--file", "--dbname", "--host", "--port", "--username", "--set", "--variable", "--pset", "--field-separator", "--record-separator", "--table-attr", "--log-file", "--output"}}
		set(vCode, "-c", "--command")
		set(vProg, "-f", "--file")
		set(vWrite, "-o", "--output", "-L", "--log-file")
		set(vWord, "-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable", "-P", "--pset", "-F", "--field-separator", "-R", "--record-separator", "-T", "--table-attr")
		rc = []string{home + "/.psqlrc"}
	case "mysql", "mariadb":
		lang = "mysql"
		o = opts{short: "ehPuDSO", long: []string{"--execute", "--init-command", "--defaults-file", "--defaults-extra-file", "--host", "--port", "--user", "--database", "--socket", "--pager", "--tee", "--login-path"}}
		set(vCode, "-e", "--execute", "--init-command")
		set(vProg, "--defaults-file", "--defaults-extra-file")
		set(vScript, "--pager")
		set(vWrite, "--tee")
		set(vWord, "-h", "--host", "-P", "--port", "-u", "--user", "-D", "--database", "-S", "--socket", "-O", "--login-path")
		rc = []string{home + "/.my.cnf", ".my.cnf", home + "/.mylogin.cnf"}
	case "dc":
		lang = "dc"
		o = opts{short: "ef", long: []string{"--expression", "--file"}}
		set(vCode, "-e", "--expression")
		set(vProg, "-f", "--file")
		operandsScripts = true
	case "bc":
		// GNU bc runs no commands and opens only the files it is given
		lang = "generic"
		o = opts{long: []string{"--expression"}}
		operandsScripts = true
	default: // gnuplot, octave, maxima, gp, clisp, sage: not modelled
		o = opts{short: "ecrbx", long: []string{"--eval", "--execute", "--batch-string", "--run-string", "--batch", "--batch-lisp", "--init"}}
		set(vCode, "-e", "--eval", "--execute", "--batch-string", "-r", "--run-string", "-x")
		set(vProg, "-c", "-b", "--batch", "--batch-lisp", "--init")
		operandsScripts = true
	}
	sawCode := false
	var operands []int
	handle := func(role int, v optHit) {
		switch role {
		case vCode:
			sawCode = true
			if v.vi >= 0 {
				c.code(v.vi, lang)
			} else if v.val != nil {
				c.codeField(v.raw, *v.val, lang)
			}
		case vProg:
			sawCode = sawCode || !strings.HasPrefix(v.name, "--defaults")
			c.valScriptFile(v, lang)
		case vScript:
			// a pager: a command reading what the program prints
			if f, ok := c.valField(v); ok {
				c.scriptField(v.raw, f, dynSource(c.name+"'s output"))
			}
			if v.vi >= 0 {
				c.done[v.vi] = true
			}
		case vWrite:
			if t := c.valText(v); strings.HasPrefix(t, "|") {
				if f, ok := c.valField(v); ok {
					// output piped to a command
					c.scriptField(v.raw, subField(f, 1), dynSource(c.name+"'s output"))
				}
				if v.vi >= 0 {
					c.done[v.vi] = true
				}
				return
			}
			c.valFile(v, setModify)
		default:
			if strings.Contains(c.valText(v), "`") {
				c.a.unknown(v.raw, c.name+"'s values with backticks run commands (in its prompts)", SetRead|setModify)
			}
			c.valWord(v)
		}
	}
	if single {
		for i := 1; i < len(c.args); i++ {
			ar := c.args[i]
			t := optText(ar.f)
			switch {
			case !strings.HasPrefix(t, "-") || t == "-" || ar.f.onlyUnk:
				operands = append(operands, i)
			case roles[t] != 0:
				c.done[i] = true
				vi := -1
				if i+1 < len(c.args) {
					vi = i + 1
					i++
				}
				handle(roles[t], optHit{name: t, vi: vi, raw: ar.raw})
			case t == "-A" || strings.HasPrefix(t, "-A") || t == "-archive" || t == "--archive":
				c.done[i] = true
				c.a.unknown(ar.raw, c.name+"'s archive mode reads and writes the files it names", SetRead|setModify)
				return
			default:
				c.done[i] = true // a flag
			}
		}
	} else {
		p := c.parse(1, o)
		for _, v := range p.vals {
			handle(roles[v.name], v)
		}
		operands = p.operands
	}
	for k, i := range operands {
		switch {
		case firstIsFile && k == 0:
			c.file(i, SetRead|setModify) // the database, created when missing
		case operandsCode:
			sawCode = true
			c.code(i, lang)
		case operandsScripts:
			sawCode = true
			c.scriptFileArg(i, lang)
		default:
			c.word(i)
		}
	}
	if !sawCode || lang == "mysql" || lang == "sqlite" {
		// commands read from stdin (sqlite3 also reads them after its
		// arguments' SQL when stdin is not a terminal)
		c.runScript("(stdin)", c.in, source{}, lang)
	}
	for _, f := range rc {
		if s, ok := c.a.writtenFile(litField(f)); ok {
			c.runScript(f, s, source{}, lang)
		}
	}
}

// runners handles programs that run commands given as arguments: a
// benchmark's commands (hyperfine), a terminal multiplexer's or
// emulator's (tmux, screen, xterm -e), a watcher's (nodemon --exec),
// tcpdump's -z, and less's `+cmd` (`+!cmd` runs a shell command).
func (c *cmd) runners() {
	a := c.a
	switch c.name {
	case "less", "more", "most":
		for i := 1; i < len(c.args); i++ {
			if t := optText(c.args[i].f); strings.HasPrefix(t, "+") {
				c.done[i] = true
				a.envCommand("LESS", []field{c.args[i].f}, c.args[i].raw)
			}
		}
		c.runSpec(fileSpec(c.name), 1)
	case "hyperfine":
		p := c.parse(1, opts{short: "wrmMpscLPDSuoN", long: []string{"--warmup", "--runs", "--min-runs", "--max-runs", "--prepare", "--setup", "--cleanup", "--conclude", "--parameter-scan", "--parameter-list", "--parameter-step-size", "--shell", "--style", "--sort", "--time-unit", "--export-asciidoc", "--export-csv", "--export-json", "--export-markdown", "--export-orgmode", "--output", "--command-name", "--reference"}})
		for _, v := range p.vals {
			switch v.name {
			case "-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "--conclude", "--reference":
				c.valScript(v)
			case "-L", "--parameter-list", "-P", "--parameter-scan":
				a.unknown(v.raw, "hyperfine substitutes parameters into the commands it runs", SetRead|setModify)
				c.valWord(v)
			case "-S", "--shell":
				c.valScript(v)
			case "--export-asciidoc", "--export-csv", "--export-json", "--export-markdown", "--export-orgmode", "--output":
				c.valFile(v, setModify)
			default:
				c.valWord(v)
			}
		}
		for _, i := range p.operands {
			c.script(i, source{})
		}
	case "nodemon", "concurrently":
		p := c.parse(1, opts{short: "xwecn", long: []string{"--exec", "--watch", "--ext", "--config", "--names", "--prefix", "--signal"}})
		for _, v := range p.vals {
			switch v.name {
			case "-x", "--exec":
				c.valScript(v)
			case "--config":
				c.valFile(v, SetRead)
			default:
				c.valWord(v)
			}
		}
		for _, i := range p.operands {
			if c.name == "concurrently" {
				c.script(i, source{})
			} else {
				c.file(i, SetRead) // nodemon app.js: a script on disk
			}
		}
	case "at", "batch":
		// a script from stdin or -f FILE, run later
		p := c.parse(1, opts{short: "fqtb", long: nil})
		file := false
		for _, v := range p.vals {
			if v.name == "-f" {
				file = true
				c.valScriptFile(v, "sh")
			} else {
				c.valWord(v)
			}
		}
		for _, i := range p.operands {
			c.word(i)
		}
		if !file {
			c.runScript("(stdin)", c.in, source{}, "sh")
		}
	case "crontab":
		// installs commands that run later: a crontab from stdin or a file
		for i := 1; i < len(c.args); i++ {
			t := optText(c.args[i].f)
			switch {
			case t == "-l" || t == "-r" || t == "-e" || t == "-i":
				c.done[i] = true
			case t == "-u":
				c.done[i] = true
				c.word(i + 1)
				i++
			default:
				c.done[i] = true
				src := c.in
				if t != "-" {
					s, ok := c.scriptFrom(c.args[i].f, c.args[i].raw, true)
					c.file(i, SetRead)
					if !ok {
						continue // a crontab on disk: not followed
					}
					src = s
				}
				if src.kind != srcText || strings.ContainsRune(src.text, unknownRune) {
					a.unknown(c.args[i].raw, "crontab installs commands the analysis cannot see", SetRead|setModify)
					continue
				}
				for line := range strings.SplitSeq(src.text, "\n") {
					f := strings.Fields(line)
					switch {
					case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "="):
					case strings.HasPrefix(f[0], "@") && len(f) > 1:
						a.looseScript(strings.Join(f[1:], " "), c.args[i].raw)
					case len(f) > 5:
						a.looseScript(strings.Join(f[5:], " "), c.args[i].raw)
					}
				}
			}
		}
	case "tcpdump":
		p := c.parse(1, opts{short: "zwrFicCGWsyTEjJmMQBZV", long: []string{"--interface", "--snapshot-length", "--relinquish-privileges", "--time-stamp-type"}})
		for _, v := range p.vals {
			switch v.name {
			case "-z":
				c.valScript(v)
				a.unknown(v.raw, "tcpdump -z runs a command on each capture file it writes", SetRead|setModify)
			case "-w":
				c.valFile(v, setModify)
			case "-r", "-F", "-V":
				c.valFile(v, SetRead)
			default:
				c.valWord(v)
			}
		}
	case "xterm", "gnome-terminal", "konsole", "kitty", "alacritty", "wezterm":
		for i := 1; i < len(c.args); i++ {
			switch t := optText(c.args[i].f); t {
			case "-e", "-x", "--", "--command", "-c":
				c.done[i] = true
				if i+1 < len(c.args) {
					if i+2 == len(c.args) {
						c.script(i+1, source{}) // one word: a command line
					} else {
						c.wrap(i + 1)
					}
				}
				return
			}
		}
		c.generic()
	default: // tmux, screen, byobu
		if c.name == "tmux" {
			// new -c DIR, split-window -c DIR, run-shell -c DIR …: the
			// command runs in DIR (a -c before the subcommand is a command)
			var dirs []field
			sub := false
			for i := 1; i < len(c.args); i++ {
				t := optText(c.args[i].f)
				switch {
				case !strings.HasPrefix(t, "-"):
					sub = true
				case !sub || strings.HasPrefix(t, "--"):
				case strings.HasSuffix(t, "c"): // -c DIR, -dc DIR
					if i+1 < len(c.args) {
						dirs = append(dirs, c.args[i+1].f)
					}
				case strings.HasPrefix(t, "-c"):
					dirs = append(dirs, subField(c.args[i].f, 2))
				}
			}
			if len(dirs) > 0 {
				a.inDirs(dirs, func() { c.tmuxArgv(); c.tmuxWords() })
				return
			}
		}
		if c.name == "screen" && c.screenCommand() {
			return
		}
		if c.name == "tmux" {
			c.tmuxArgv()
		}
		c.tmuxWords()
	}
}

// screenCommand: `screen [-dmS NAME …] CMD ARGS…` runs CMD with ARGS as
// its words, not a shell line per word (pass 37: `screen -dm cp /tmp/x
// .pi/settings.json` read each word as a command of its own, and passed);
// false when there is no command (screen -r, -ls, -X: tmuxWords).
func (c *cmd) screenCommand() bool {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch {
		case t == "-X" || t == "-Q" || t == "-ls" || t == "-list" || t == "-wipe" || t == "-r" || t == "-R" || t == "-x":
			return false // a running session: a command to it, a listing, attaching
		case t == "-Logfile" || t == "-logfile":
			c.done[i] = true
			c.file(i+1, setModify)
			i++
		case strings.HasPrefix(t, "-") && len(t) > 1:
			c.done[i] = true
			// -S NAME, -c FILE, -t TITLE, -e XY, -h N, -p WIN, -s SHELL,
			// -T TERM, -dmS NAME: the value is the next word (or joined)
			if k := strings.LastIndexAny(t[1:], "ScethpsT"); k >= 0 && k == len(t)-2 && !strings.HasPrefix(t, "--") {
				if t[len(t)-1] == 'c' {
					c.file(i+1, SetRead)
				}
				if t[len(t)-1] == 's' {
					c.a.userShell(c.args[min(i+1, len(c.args)-1)].raw, optText(c.args[min(i+1, len(c.args)-1)].f), "screen -s")
				}
				i++
			}
		default:
			c.wrap(i)
			return true
		}
	}
	return false
}

// tmuxArgv: tmux's new-session, new-window, split-window, respawn-*
// given a command of several words runs it as those words (tmux 3.0: `tmux
// new -d cp /tmp/x .pi/settings.json` execs cp); each word was read as a
// command line of its own. One word stays a shell command (tmuxWords).
func (c *cmd) tmuxArgv() {
	valued := map[string]bool{"-c": true, "-t": true, "-s": true, "-n": true, "-e": true, "-F": true, "-x": true,
		"-y": true, "-l": true, "-w": true, "-f": true, "-L": true, "-S": true, "-T": true, "-b": true}
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		if strings.HasPrefix(t, "-") {
			if valued[t] {
				i++
			}
			continue
		}
		switch t {
		case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
			"respawn-window", "respawnw":
		default:
			return
		}
		k := i + 1
		for k < len(c.args) {
			u := optText(c.args[k].f)
			if !strings.HasPrefix(u, "-") || u == "-" {
				break
			}
			if u == "--" {
				k++
				break
			}
			if valued[u] {
				k++
			}
			k++
		}
		if len(c.args)-k > 1 {
			for j := 1; j < k; j++ {
				c.done[j] = true
				c.a.value(c.args[j].raw, c.args[j].f, SetRead)
			}
			c.wrap(k)
			for j := k; j < len(c.args); j++ {
				c.done[j] = true
			}
		}
		return
	}
}

// tmuxWords: tmux's, screen's and byobu's words — each may be a shell
// command (new -d 'cmd', split-window 'cmd', screen cmd …).
func (c *cmd) tmuxWords() {
	a := c.a
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		switch t {
		case "send-keys", "send", "stuff", "source-file", "source", "paste-buffer", "pasteb", "load-buffer", "loadb", "-X":
			c.done[i] = true
			a.unknown(c.args[i].raw, c.name+" "+t+" types or runs commands in a shell the analysis does not see", SetRead|setModify)
			continue
		}
		if c.done[i] {
			continue
		}
		c.done[i] = true
		f := c.args[i].f
		a.value(c.args[i].raw, f, SetRead)
		if !strings.HasPrefix(t, "-") && !f.pattern() {
			a.userShell(c.args[i].raw, f.s, c.name)
			a.looseScript(f.s, c.args[i].raw) // a shell command (new -d 'cmd', split-window 'cmd', screen cmd …)
		} else if f.pattern() && (f.unk || f.dyn) {
			a.unknown(c.args[i].raw, c.name+" runs a command computed when the command runs", SetRead|setModify)
		}
	}
}

// sedCommands walks a sed script for GNU sed's commands that run a shell
// command: `e COMMAND` (read as a shell command), `e` alone and the `e`
// flag of `s` (they run the pattern space: unverifiable). A script the
// walk cannot parse is unverifiable too.
func (a *shellAnalyzer) sedCommands(text, raw string) string {
	i, n := 0, len(text)
	skipDelim := func(d byte) bool { // past the next unescaped d
		for i < n && text[i] != d {
			if text[i] == '\\' {
				i++
			}
			if i < n && text[i] == '\n' && d != '\n' {
				return false
			}
			i++
		}
		if i >= n {
			return false
		}
		i++
		return true
	}
	toEOL := func() string {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			j = n - i
		}
		s := text[i : i+j]
		i += j
		return s
	}
	for i < n {
		ch := text[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '{' || ch == '}' || ch == '!' || ch == ',' || ch == '~' || ch == '$' || ch >= '0' && ch <= '9' || ch == '+':
			i++
		case ch == '#':
			toEOL()
		case ch == '/':
			i++
			if !skipDelim('/') {
				return "a sed script the analysis cannot parse"
			}
			for i < n && (text[i] == 'I' || text[i] == 'M') {
				i++
			}
		case ch == '\\' && i+1 < n: // \cREGEXc
			d := text[i+1]
			i += 2
			if !skipDelim(d) {
				return "a sed script the analysis cannot parse"
			}
		case ch == 's' || ch == 'y':
			if i+1 >= n {
				return "a sed script the analysis cannot parse"
			}
			d := text[i+1]
			i += 2
			for range 2 { // the pattern, then the replacement
				if !skipDelim(d) {
					return "a sed script the analysis cannot parse"
				}
			}
			if ch == 's' {
				for i < n && strings.IndexByte("gipmIMe0123456789w", text[i]) >= 0 {
					if text[i] == 'e' {
						return "sed's s///e runs the pattern space as a shell command"
					}
					if text[i] == 'w' {
						toEOL() // w FILE: the file name is read as a path
						break
					}
					i++
				}
			}
		case ch == 'e':
			i++
			cmd := strings.TrimSpace(toEOL())
			if cmd == "" {
				return "sed's e runs the pattern space as a shell command"
			}
			a.script(cmd, raw, dynSource("sed's input")) // it shares sed's stdin
		case ch == 'a' || ch == 'i' || ch == 'c' || ch == 'r' || ch == 'R' || ch == 'w' || ch == 'W' || ch == 'b' || ch == 't' || ch == 'T' || ch == ':' || ch == 'v' || ch == 'L' || ch == 'q' || ch == 'Q' || ch == 'l':
			i++
			if ch == 'b' || ch == 't' || ch == 'T' || ch == ':' || ch == 'q' || ch == 'Q' || ch == 'l' || ch == 'L' || ch == 'v' {
				for i < n && text[i] != ';' && text[i] != '\n' && text[i] != '}' {
					i++
				}
			} else {
				// text (a, i, c) or a file name to the line's end; text
				// lines ending in a backslash continue
				for line := toEOL(); (ch == 'a' || ch == 'i' || ch == 'c') && strings.HasSuffix(line, "\\") && i < n; {
					i++ // the newline
					line = toEOL()
				}
			}
		case strings.IndexByte("dDgGhHnNpPxzF=", ch) >= 0:
			i++
		default:
			return "a sed script the analysis cannot parse"
		}
	}
	return ""
}

// exFileOption reports whether :set arguments give a value to an option
// that names a file, a folder or a program (vim writes viminfofile on
// exit, runs makeprg): any option=value but a few plain settings.
func exFileOption(arg string) bool {
	for _, opt := range strings.Fields(arg) {
		name, _, ok := strings.Cut(opt, "=")
		if !ok {
			continue
		}
		switch strings.TrimRight(name, "+-^") {
		case "ts", "tabstop", "sw", "shiftwidth", "sts", "softtabstop", "tw", "textwidth", "ff", "fileformat",
			"fenc", "fileencoding", "enc", "encoding", "ft", "filetype", "syn", "syntax", "so", "scrolloff", "ul", "undolevels":
			continue
		}
		return true
	}
	return false
}
