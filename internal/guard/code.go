package guard

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Interpreter code (python -c, node -e, perl -e, awk and sed programs,
// PowerShell, here-documents fed to an interpreter) cannot be run, but its
// text can be read as words that may name paths:
//
//   - every string literal, with the language's escapes decoded (`'\x2eenv'`,
//     `"\u002eenv"`, PowerShell's backtick escapes), is a path (also under any
//     directory: code joins paths at run time) and, when it holds a space, a
//     shell command (os.system, subprocess, backticks);
//   - runs of adjacent literals and character codes are joined
//     (`'.e' + 'nv'`, `''.join(['.','e','n','v'])`, `chr(46)+'env'`,
//     `String.fromCharCode(46,101,110,118)`) and read the same way;
//   - literals are also read reversed, and base64 or hex literals decoded;
//   - every bare token outside literals is a path too (`r .env` in sed);
//   - names found at run time (globs, listings and walks whose names the
//     code uses, folder copies and removals) are followed: see foundNames.
//
// What this cannot follow (names computed by arithmetic or read from files)
// is a documented limit; the code is not denied for it.

// Limits of code reading.
const (
	maxCodePieces = 4096
	codeWindow    = 12
	maxCodeDepth  = 3
)

// intRuns returns the integers inside a token (`[char]46`, `chr(46)+`,
// `0x2e`), at most 8.
func intRuns(t string) []string {
	var out []string
	for i := 0; i < len(t) && len(out) < 8; {
		if t[i] < '0' || t[i] > '9' {
			i++
			continue
		}
		j := i + 1
		if t[i] == '0' && j < len(t) && (t[j] == 'x' || t[j] == 'X') && j+1 < len(t) && isHex(t[j+1]) {
			j += 2
			for j < len(t) && isHex(t[j]) {
				j++
			}
		} else {
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
		}
		out = append(out, t[i:j])
		i = j
	}
	return out
}

// writesFiles reports whether code may write files (it then counts as a
// write of every path it names): a write-like word, an open() with a
// write mode, an output redirection in awk or sed.
func writesFiles(code string) bool {
	l := strings.ToLower(code)
	for _, w := range []string{"write", "append", "unlink", "remove", "rename", "move", "copy", "mkdir", "rmdir",
		"rmtree", "chmod", "chown", "symlink", "truncate", "delete", "touch", "replace", "dump", "save", "set-content",
		"out-file", "add-content", "new-item", "shutil", "fs.cp", "fs.rm", "put_contents", "fputs", "fputcsv", "tempnam", ">"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	for _, w := range []string{"put", "mv", "cp", "rm", "tee", "w"} {
		if containsWord(l, w) {
			return true
		}
	}
	for i := strings.Index(l, "open("); i >= 0; {
		end := strings.IndexByte(l[i:], ')')
		if end < 0 {
			end = len(l) - i
		}
		args := l[i : i+end]
		for _, m := range []string{"'w", "\"w", "'a", "\"a", "'x", "\"x", "'r+", "\"r+", "+'", "+\""} {
			if strings.Contains(args, m) {
				return true
			}
		}
		next := strings.Index(l[i+5:], "open(")
		if next < 0 {
			break
		}
		i += 5 + next
	}
	return false
}

// containsWord reports whether w occurs in s with no letter or digit on
// either side.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdent(s[j-1])
		after := j+len(w) == len(s) || !isIdent(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// execAPIs are the calls by which code runs a command line or program.
var execAPIs = [...]string{"system", "popen", "subprocess", "spawn", "spawnSync", "execSync", "execFileSync",
	"execFile", "exec", "execv", "execve", "execvp", "execl", "execlp", "getoutput", "getstatusoutput",
	"child_process", "Open3", "capture2", "capture3", "shell_exec", "passthru", "proc_open", "pcntl_exec",
	"qx", "Popen", "check_output", "check_call", "run_command", "Command", "Invoke-Expression", "iex",
	"Start-Process", "Invoke-Item", "eval", "Function", "runInThisContext", "runInNewContext", "runInContext",
	"compile", "instance_eval", "class_eval"}

// runtimeInputs are what code reads when it runs: its arguments, stdin,
// the environment.
var runtimeInputs = [...]string{"argv", "ARGV", "args", "input", "raw_input", "stdin", "STDIN", "environ",
	"env", "ENV", "getenv", "readline", "readLine", "gets", "Read-Host", "_GET", "_POST", "_SERVER", "ARGF",
	"open(0", "readFileSync(0", "read(0", "fdopen(0", "/dev/stdin", "php://stdin", "$_", "<>", "<STDIN>", "@ARGV"}

// computedCommand says why code runs a command computed when it runs (a
// command built from its arguments, input or environment, or a string
// with a computed hole given to an exec API), or "".
func computedCommand(code, lang string, sc codeScan) string {
	if lang == "awk" {
		return awkComputedCommand(code, maskSpans(code, sc.spans))
	}
	if lang == "sed" || lang == "jq" {
		return ""
	}
	if lang == "perl" {
		masked := maskSpans(code, sc.spans)
		for i := strings.Index(masked, "eval"); i >= 0; {
			if j := skipSpace(masked, i+4); (i == 0 || !isIdent(masked[i-1])) && (j >= len(masked) || !isIdent(masked[i+4]) && masked[j] != '{' && masked[j] != '"' && masked[j] != '\'' && masked[j] != '(') {
				return "from what it reads when it runs (perl's eval of $_ or of an input line)"
			}
			n := strings.Index(masked[i+1:], "eval")
			if n < 0 {
				break
			}
			i += 1 + n
		}
	}
	exec := false
	for _, w := range execAPIs {
		if containsWord(code, w) {
			exec = true
			break
		}
	}
	if !exec && (lang == "perl" || lang == "ruby" || lang == "php") && strings.Contains(code, "`") {
		exec = true // backticks run a shell command
	}
	if !exec && strings.Contains(code, "os.execute") {
		exec = true // Lua
	}
	if !exec {
		return ""
	}
	for _, w := range runtimeInputs {
		if containsWord(code, w) {
			return "built from what it reads when it runs (`" + w + "`)"
		}
	}
	if len(sc.opaque) > 0 {
		return "from a string with a part computed when it runs"
	}
	return computedExecArg(code, lang, sc)
}

// execCalls are the calls whose first argument is the command line or
// program they run (run, call, execute and exec only as a module's:
// subprocess.run, os.execute; the code names an exec API).
// Built the first time it is read, not at start-up: most runs never read it.
var execCalls = sync.OnceValue(func() map[string]string {
	return map[string]string{"system": "", "popen": "", "Popen": "", "getoutput": "", "getstatusoutput": "",
		"check_output": "", "check_call": "", "execSync": "", "execFileSync": "", "execFile": "", "spawn": "",
		"spawnSync": "", "shell_exec": "", "passthru": "", "proc_open": "", "pcntl_exec": "", "capture2": "",
		"capture3": "", "capture2e": "", "popen2": "", "popen3": "", "execv": "", "execvp": "", "execve": "",
		"execl": "", "execlp": "", "spawnv": "", "spawnvp": "", "spawnl": "", "spawnlp": "", "run": "subprocess",
		"call": "subprocess", "execute": "os", "exec": "child_process"}
})

// execArgNames are the names an exec call's arguments may hold that do
// not change the command it runs (flags, streams, constants).
// Built the first time it is read, not at start-up: most runs never read it.
var execArgNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"True": true, "False": true, "None": true, "true": true, "false": true,
		"nil": true, "null": true, "undefined": true, "subprocess": true, "PIPE": true, "DEVNULL": true, "STDOUT": true,
		"sys": true, "stdout": true, "stderr": true, "stdin": true, "shell": true, "check": true, "text": true,
		"capture_output": true, "cwd": true, "encoding": true, "universal_newlines": true, "timeout": true,
		"stdio": true, "inherit": true, "pipe": true, "ignore": true, "utf8": true, "errors": true, "bufsize": true,
		"close_fds": true, "executable": true, "exception": true, "and": true, "or": true, "not": true,
		"if": true, "unless": true, "die": true, "warn": true, "do": true, "end": true, "then": true}
})

// computedExecArg: an exec call (os.system, subprocess.run, execSync,
// os.execute, shell_exec, …) whose command is an expression — a variable,
// a call, a slice or an operator other than + of literals — runs a
// command the code computes from its literals (os.system("".join(
// reversed("vne. tac"))) printed .env): not the text the analysis reads.
func computedExecArg(code, lang string, sc codeScan) string {
	if lang == "sh" || lang == "pwsh" || lang == "cmd" {
		return ""
	}
	if lang == "ruby" || lang == "perl" || lang == "php" {
		// a backtick command with an interpolated expression
		for _, sp := range sc.spans {
			if sp.quote != '`' || sp.end > len(code) || sp.start >= sp.end {
				continue
			}
			body := code[sp.start:sp.end]
			if lang == "ruby" && strings.Contains(body, "#{") || lang != "ruby" && strings.ContainsAny(body, "$@") {
				return "from a backtick command with an interpolated expression"
			}
		}
	}
	masked := maskSpans(code, sc.spans)
	for _, sp := range sc.spans {
		// getattr(os, "system")(…), cp["execSync"](…): called by a name
		// the code holds as a string
		if _, ok := execCalls()[sp.val]; ok && sp.quote != '`' {
			return "by a name held in a string (`" + sp.val + "`)"
		}
	}
	for _, id := range codeIdents(masked, lang) {
		if _, ok := execCalls()[id.name]; ok && lang == "js" {
			// const {execSync: e} = require(…): the call is e(…)
			if j := skipSpace(masked, id.end); j < len(masked) && masked[j] == ':' {
				return "under another name (`" + id.name + ":`)"
			}
		}
	}
	for _, id := range codeIdents(masked, lang) {
		qual, ok := execCalls()[id.name]
		if !ok || qual != "" && id.qual == "" && !(id.name == "exec" && (lang == "ruby" || lang == "perl")) {
			continue // run, call, execute, exec: a method of a module (subprocess.run, s.run after import … as s)
		}
		i := skipSpace(masked, id.end)
		var arg string
		switch {
		case i < len(masked) && masked[i] == '(':
			arg = parenArg(masked, i)
		case i >= len(masked) || strings.IndexByte(",;)]}\n", masked[i]) >= 0 || id.start > 0 && masked[id.start-1] == ':' && lang == "ruby" ||
			lang == "python" && strings.HasPrefix(masked[i:], "as "):
			// the API as a value: f = os.system; map(os.system, …),
			// from os import system as s, send(:system, …) — called later
			// under another name (not const {execSync} = require(…))
			p := strings.TrimRight(masked[:id.start], " \t")
			if lang == "js" && (strings.HasSuffix(p, "{") || strings.HasSuffix(p, ",")) && i < len(masked) && (masked[i] == ',' || masked[i] == '}') {
				continue
			}
			if id.qual == "" && qual != "" {
				continue
			}
			return "by another name (`" + id.name + "` used as a value)"
		case (lang == "perl" || lang == "ruby") && i < len(masked) && i > id.end:
			// a call without parentheses (system LIST, exec "…"): to the
			// end of the statement
			arg = masked[i:]
			if k := strings.IndexAny(arg, ";\n}"); k >= 0 {
				arg = arg[:k]
			}
		default:
			continue
		}
		if strings.ContainsAny(arg, "%*") || strings.Contains(arg, ":]") || strings.Contains(arg, "[:") {
			return "from an expression of its literals (`" + id.name + "` of a computed command)"
		}
		for _, a := range codeIdents(arg, lang) {
			if execArgNames()[a.name] {
				continue
			}
			if j := skipSpace(arg, a.end); j < len(arg) && arg[j] == '=' && (j+1 >= len(arg) || arg[j+1] != '=') && a.qual == "" {
				continue // a keyword argument's name
			}
			return "from an expression of its literals (`" + id.name + "` of `" + a.name + "`)"
		}
	}
	return ""
}

// fileAPIs are the calls that open, remove, move or copy the file their
// first argument names.
// Built the first time it is read, not at start-up: most runs never read it.
var fileAPIs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"open": true, "fopen": true, "io.open": true, "codecs.open": true,
		"readfilesync": true, "readfile": true, "opensync": true, "createreadstream": true, "read_text": true,
		"read_bytes": true, "file_get_contents": true, "readlines": true, "read": true, "binread": true,
		"foreach": true, "unlink": true, "unlinksync": true, "remove": true, "rmsync": true, "rm": true,
		"rename": true, "renamesync": true, "copyfile": true, "copyfilesync": true, "copy": true, "copy2": true,
		"move": true, "writefile": true, "writefilesync": true, "write_text": true, "file_put_contents": true,
		"path": true, "file": true, "loadenvfile": true, "dofile": true, "loadfile": true, "sysopen": true}
})

// evalAPIs are the calls that run their argument as code.
// Built the first time it is read, not at start-up: most runs never read it.
var evalAPIs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"exec": true, "eval": true, "compile": true, "Function": true, "runInThisContext": true,
		"runInNewContext": true, "runInContext": true, "instance_eval": true, "class_eval": true, "module_eval": true,
		"execfile": true, "evalFile": true, "create_function": true, "assert": false, "loadstring": true, "load": false}
})

// computedEval says why code runs code it makes when it runs (exec or eval
// of anything but a literal: `exec(base64.b32decode(…))`,
// `eval(atob(…))`, `exec(open(f).read())`), or "". A literal given to an
// eval API is read as code like the rest.
func computedEval(code, lang string, sc codeScan) string {
	if lang == "sed" || lang == "jq" || lang == "awk" || lang == "pwsh" || lang == "cmd" {
		return ""
	}
	masked := maskSpans(code, sc.spans)
	for _, id := range codeIdents(masked, lang) {
		if !evalAPIs()[id.name] || id.qual != "" && id.qual != "builtins" && id.qual != "vm" && id.qual != "window" && id.qual != "globalThis" {
			continue
		}
		i := skipSpace(masked, id.end)
		if i >= len(masked) || masked[i] != '(' {
			continue
		}
		arg := parenArg(masked, i)
		if k := strings.IndexByte(arg, ','); k >= 0 {
			arg = arg[:k]
		}
		if len(codeIdents(arg, lang)) > 0 || strings.ContainsAny(arg, "%[*") {
			return "it makes when it runs (`" + id.name + "` of an expression)"
		}
	}
	return ""
}

// parenArg is what stands between the `(` at masked[i] and its closing
// `)` (to the end when it is not closed): a call's arguments in code whose
// literals are masked.
func parenArg(masked string, i int) string {
	depth, j := 0, i
	for ; j < len(masked); j++ {
		if masked[j] == '(' {
			depth++
		} else if masked[j] == ')' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	return masked[i+1 : min(j, len(masked))]
}

// pathBuilders are the names in a file call's argument that only join or
// anchor literals the gate already reads as paths.
// Built the first time it is read, not at start-up: most runs never read it.
var pathBuilders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"os": true, "path": true, "join": true, "resolve": true, "Path": true,
		"pathlib": true, "__dirname": true, "__file__": true, "dirname": true, "getcwd": true, "cwd": true,
		"process": true, "expanduser": true, "abspath": true, "normpath": true, "File": true, "expand_path": true,
		"Dir": true, "pwd": true, "home": true, "str": true, "encoding": true, "utf8": true, "utf": true, "r": true,
		"w": true, "rb": true, "wb": true, "a": true, "f": true, "b": true, "fs": true, "require": true}
})

// stringTransforms are operations that make a new string from literals in
// ways the code reading does not evaluate (slices, replacements, ciphers,
// case changes, printf-style formatting).
var stringTransforms = [...]string{".with_stem(", ".with_name(", ".with_suffix(", ".replace(", ".translate(", ".maketrans(", "[::-1]", "[:-", "[1:", "[2:", ":-1]",
	"b32decode", "b16decode", "a85decode", "b85decode", "rot13", "rot_13", "unhexlify", "fromhex", "codecs.decode",
	".lower()", ".upper()", ".swapcase()", ".capitalize()", ".title()", ".strip(", ".lstrip(", ".rstrip(",
	".removeprefix(", ".removesuffix(", ".slice(", ".substring(", ".substr(", ".split(", ".reverse", "reversed(",
	".tr(", ".gsub(", ".sub(", ".delete(", ".squeeze(", "sprintf", "str_replace", "strrev", "substr(", "ucfirst",
	"lcfirst", ".toLowerCase(", ".toUpperCase(", ".replaceAll(", ".padStart(", ".trim(", ".at(", ".charAt(",
	".pack(", ".unpack(", "zlib", "gzip", "bz2", "lzma", "marshal", "pickle"}

// stringTransform returns the first string transform in code ("" for
// none): one of stringTransforms, or a literal followed by `%` (python's
// and ruby's formatting operator).
func stringTransform(code, masked string, sc codeScan) string {
	for _, t := range stringTransforms {
		if strings.Contains(code, t) {
			return strings.Trim(t, "(.")
		}
	}
	for _, sp := range sc.spans {
		if j := skipSpace(masked, sp.end); j < len(masked) && masked[j] == '%' && (j+1 >= len(masked) || masked[j+1] != '=') {
			return "%"
		}
	}
	return ""
}

// receiverMethods read or write the file their receiver names.
var receiverMethods = [...]string{".read_text(", ".read_bytes(", ".write_text(", ".write_bytes(", ".unlink(",
	".open(", ".rename(", ".readlines(", ".each_line", ".read_lines(", ".symlink_to(", ".hardlink_to("}

// pathTransforms make a path object's name from another's (pathlib's
// with_stem, with_name, with_suffix): the name the object holds is not a
// literal the gate can see.
var pathTransforms = [...]string{".with_stem(", ".with_name(", ".with_suffix("}

// receiverRead says why code reads a file through a path object whose name
// it makes with a transform (Path("x.env").with_stem("").read_text(),
// Path(".vne"[::-1]).read_text()), or "". A path-only transform anywhere
// with a method read is enough (the object may be kept in a variable); a
// string transform counts when it is on the chain that ends in the method,
// so Path("README.md").read_text().strip() is not one.
func receiverRead(code, masked string) string {
	read := false
	for _, m := range receiverMethods {
		read = read || strings.Contains(masked, m)
	}
	if !read {
		return ""
	}
	for _, t := range pathTransforms {
		if strings.Contains(masked, t) {
			return "whose name it computes with `" + strings.Trim(t, "(.") + "` (the gate does not evaluate it)"
		}
	}
	for _, m := range receiverMethods {
		for i := 0; ; {
			n := strings.Index(masked[i:], m)
			if n < 0 {
				break
			}
			at := i + n
			chain := code[strings.LastIndexAny(masked[:at], ";\n=")+1 : at]
			for _, t := range stringTransforms {
				if strings.Contains(chain, t) {
					return "whose name it computes with `" + strings.Trim(t, "(.") + "` (the gate does not evaluate it)"
				}
			}
			i = at + len(m)
		}
	}
	return ""
}

// computedOpen says why code opens a file whose name it computes from what
// it reads when it runs (`open(sys.argv[1]+sys.argv[2])`,
// `readFileSync(process.env.A+"nv")`, `open(input()+"nv")`: the parts are
// words the gate may see, but not what the code makes of them), or "". It
// applies when the code reads its arguments, stdin or environment and a
// file call's argument holds more than literals.
func computedOpen(code, lang string, sc codeScan) string {
	if lang == "sed" || lang == "jq" || lang == "pwsh" || lang == "cmd" {
		return ""
	}
	masked := maskSpans(code, sc.spans)
	if lang == "awk" && strings.Contains(code, "getline") {
		// getline < EXPR: the file is the expression's value
		for i := strings.Index(masked, "getline"); i >= 0; {
			j := skipSpace(masked, i+len("getline"))
			for j < len(masked) && (isIdent(masked[j]) || masked[j] == '$' || masked[j] == '[' || masked[j] == ']') {
				j++ // getline VAR < FILE
			}
			j = skipSpace(masked, j)
			if j < len(masked) && masked[j] == '<' {
				k := skipSpace(masked, j+1)
				if k < len(masked) && masked[k] != '"' {
					return "whose name it computes when it runs (`getline <` an expression)"
				}
			}
			n := strings.Index(masked[i+1:], "getline")
			if n < 0 {
				break
			}
			i += 1 + n
		}
	}
	input := ""
	for _, w := range runtimeInputs {
		if containsWord(code, w) {
			input = w
			break
		}
	}
	transform := stringTransform(code, masked, sc)
	if input == "" && transform == "" {
		return ""
	}
	if transform != "" {
		if why := receiverRead(code, masked); why != "" {
			return why
		}
	}
	for _, id := range codeIdents(masked, lang) {
		if !fileAPIs()[id.lower] && !fileAPIs()[strings.ToLower(id.qual)+"."+id.lower] {
			continue
		}
		i := skipSpace(masked, id.end)
		var arg string
		switch {
		case i < len(masked) && masked[i] == '(':
			arg = parenArg(masked, i)
		case lang == "ruby" || lang == "perl" || lang == "awk":
			j := i
			for j < len(masked) && masked[j] != '\n' && masked[j] != ';' && masked[j] != ')' {
				j++
			}
			arg = masked[i:j]
		default:
			continue
		}
		if k := strings.IndexByte(arg, ','); k >= 0 && lang != "awk" {
			arg = arg[:k] // the name is the first argument
		}
		computed := strings.ContainsAny(arg, "%[*")
		for _, aid := range codeIdents(arg, lang) {
			if !pathBuilders()[aid.name] {
				computed = true
			}
		}
		if computed {
			if input != "" {
				return "whose name it computes from what it reads when it runs (`" + input + "`)"
			}
			return "whose name it computes with `" + transform + "` (the gate does not evaluate it)"
		}
	}
	return ""
}

// argvWrites are the ways code sets the argument list its language then
// reads as input files — awk's ARGV[i] = …, perl's @ARGV (read by <>,
// <<>>, -n, -p), ruby's ARGV (read by ARGF, gets, -n, -p), python's
// sys.argv (read by fileinput) — with literals masked. Each is compiled the
// first time code of its language is read (not at start-up: most runs read
// no interpreter code).
var argvWrites = map[string]func() *regexp.Regexp{
	"awk":    lazyRegexp(`\bARGV\s*\[[^\]]*\]\s*(=[^=]|\+\+|--)|\bsplit\s*\([^\n]*?,\s*ARGV\b|\bgetline\s+ARGV\b`),
	"perl":   lazyRegexp(`@ARGV\s*=[^=~]|\b(push|unshift|splice)\s*\(?\s*@ARGV\b|\$ARGV\s*\[[^\]]*\]\s*=[^=~]`),
	"ruby":   lazyRegexp(`\bARGV\s*(=[^=~]|<<|\.(replace|push|unshift|concat|insert|append|prepend|fill|map!|collect!)\b|\[[^\]]*\]\s*=[^=~])`),
	"python": lazyRegexp(`\bsys\.argv\s*(=[^=]|\+=|\[[^\]]*\]\s*=[^=]|\.(append|extend|insert)\b)|\bfileinput\.(input|FileInput)\s*\(\s*[^)\s"']`),
}

// lazyRegexp compiles expr the first time it is asked for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// argvOpen says why code opens files named in an argument list it sets
// when it runs (awk 'BEGIN{ARGV[1]=sprintf("%cenv",46); ARGC=2} 1', perl
// -e 'push @ARGV, …; print <>', ruby's ARGV.replace([…]) and ARGF,
// fileinput.input([…])), or "".
func argvOpen(code, lang string, sc codeScan) string {
	lazy, ok := argvWrites[lang]
	if !ok {
		return ""
	}
	masked := maskSpans(code, sc.spans)
	if lang == "python" && !strings.Contains(masked, "fileinput") {
		return "" // sys.argv = […] before argparse: no file is read from it
	}
	if m := lazy().FindString(masked); m != "" {
		return "sets the argument list it reads as input files (`" + strings.TrimSpace(clip(m, 24)) + "`): the names are computed when it runs"
	}
	return ""
}

// awkComputedCommand says why awk code (literals masked) runs a command
// the analysis cannot see, or "": system() of an expression (`system($0)`),
// printing into a shell or interpreter (`print | "sh"`: the records become
// commands) or into a computed command, and `EXPR | getline` of a computed
// command.
func awkComputedCommand(code, masked string) string {
	for i := strings.Index(masked, "system"); i >= 0; {
		if j := skipSpace(masked, i+6); j < len(masked) && masked[j] == '(' && (i == 0 || !isIdent(masked[i-1])) {
			arg := strings.TrimSpace(parenArg(masked, j))
			if !(len(arg) >= 2 && arg[0] == '"' && arg[len(arg)-1] == '"' && !strings.Contains(arg[1:len(arg)-1], "\"")) {
				return "with system() of an expression computed when it runs"
			}
		}
		n := strings.Index(masked[i+1:], "system")
		if n < 0 {
			break
		}
		i += 1 + n
	}
	for i := 0; i < len(masked); i++ {
		if masked[i] != '|' || i+1 < len(masked) && masked[i+1] == '|' || i > 0 && masked[i-1] == '|' {
			continue
		}
		j := skipSpace(masked, i+1)
		if j < len(masked) && strings.HasPrefix(masked[j:], "getline") {
			// EXPR | getline: the command is what stands before the bar
			k := i - 1
			for k >= 0 && (masked[k] == ' ' || masked[k] == '\t') {
				k--
			}
			if k < 0 || masked[k] != '"' {
				return "with a command computed when it runs (`EXPR | getline`)"
			}
			continue
		}
		if j >= len(masked) || masked[j] != '"' {
			return "with a command computed when it runs (print | EXPR)"
		}
		if e := strings.IndexByte(code[j+1:], '"'); e >= 0 && awkPipeShell(code[j+1:j+1+e]) {
			return "printing into a shell or interpreter (`| \"" + code[j+1:j+1+e] + "\"`): what it prints runs"
		}
	}
	return ""
}

// awkPipeShell reports whether awk code prints into a shell or an
// interpreter (`print | "sh"`), given its literal command.
func awkPipeShell(cmdText string) bool {
	w := strings.Fields(cmdText)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node", "php", "xargs", "env", "parallel", "source", "eval":
		return true
	}
	return false
}

// codeText reads interpreter code in lang ("python", "js", "perl", "ruby",
// "php", "awk", "sed", "jq", "vim", "pwsh", "cmd", "generic").
func (a *shellAnalyzer) codeText(code, raw, lang string) {
	a.code(code, raw, lang, 0)
}

func (a *shellAnalyzer) code(code, raw, lang string, depth int) {
	if a.full || depth > maxCodeDepth {
		return
	}
	if len(code) > maxScriptBytes {
		a.unknown(raw, "code too large to analyse", SetRead|setModify)
		return
	}
	if scan, ok := a.langCheck(code, raw, lang); ok {
		lang = scan // a command language: checked, then read for paths
	}
	if bare := blankComments(code, lang); bare != code {
		// comments are read as code below (a name in one costs nothing),
		// but a quote in a comment (# it's) shifts every string after it:
		// the code is also read with its comments blanked, as it runs
		a.code(bare, raw, lang, depth)
	}
	if !a.codeChdir && codeChdirs(code, lang) {
		a.codeChdir = true
		defer func() { a.codeChdir = false }()
	}
	if depth == 0 {
		a.codeCopiesInto(code, raw, lang) // picmd.go
		a.codeExtracts(code, raw, lang)   // codeextract.go
	}
	if depth == 0 && evalsFiles(code, lang) {
		a.evalWritten(raw, lang)
	}
	ops := SetRead
	probe := code
	if lang != "awk" && lang != "sed" {
		probe = strings.ReplaceAll(strings.ReplaceAll(probe, "=>", ""), "->", "")
		probe = strings.ReplaceAll(strings.ReplaceAll(probe, ">=", ""), " > ", "")
	}
	if writesFiles(probe) || quietWrites(probe) || lang == "vim" && (exWrites(code) || a.exWriting) {
		ops |= setModify
	}
	if lc := strings.ToLower(code); strings.Contains(lc, "dotenv") || strings.Contains(lc, "loadenvfile") {
		// dotenv libraries (require('dotenv').config(), load_dotenv()) and
		// node's process.loadEnvFile() read .env from the working directory
		// by default
		a.codePath(raw, ".env", SetRead)
	}
	sc := scanCode(code, lang)
	lits, pieces, bare := sc.lits, sc.pieces, sc.bare
	if why := computedCommand(code, lang, sc); why != "" {
		a.unknown(raw, "the code runs a command "+why, SetRead|setModify)
	}
	if why := computedEval(code, lang, sc); why != "" {
		a.unknown(raw, "the code runs code "+why, SetRead|setModify)
	}
	if why := computedOpen(code, lang, sc); why != "" {
		a.unknown(raw, "the code opens a file "+why, SetRead|setModify)
	}
	if why := argvOpen(code, lang, sc); why != "" {
		a.unknown(raw, "the code "+why, SetRead|setModify)
	}
	names := a.foundNames(code, lang, sc, raw, ops)
	seen := map[string]bool{}
	check := func(s string, nested bool) {
		if s == "" || seen[s] || len(seen) > maxCodePieces || onlyHoles(s) && !sc.opaque[s] {
			return
		}
		seen[s] = true
		a.codePath(raw, s, ops)
		if names.globs && hasCodeGlob(s, lang) {
			dots := names.dots || strings.Contains(s, "{")
			a.codeGlob(raw, s, ops, dots)
			// os.path.join('~/.pi', '**/*.json'): under each folder the
			// code names
			n := 0
			for _, l := range lits {
				if folderLike(l) && l != s && n < 16 {
					a.codeGlob(raw, strings.TrimSuffix(escapeGlob(l), "/")+"/"+strings.TrimPrefix(s, "/"), ops, dots)
					n++
				}
			}
		}
		if nested && strings.ContainsAny(s, " \t;|&$`<>") && depth < maxCodeDepth && !holeCommand(s) {
			a.looseScript(s, raw)
		}
	}
	for _, l := range lits {
		check(l, true)
		if r := reverse(l); r != l {
			check(r, false)
		}
		for tok := range strings.FieldsFuncSeq(l, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`"'`+"`;|&()<>,", r) }) {
			check(tok, false)
		}
		if dec, ok := decodeLiteral(l); ok {
			check(dec, true)
			a.code(dec, raw, lang, depth+1)
		} else if len(l) > 8 && strings.Contains(l, "(") && strings.Contains(l, ")") && lang != "jq" {
			// code in a string (exec("…"), eval("…"), new Function("…"))
			// finds names like the code around it
			a.foundNames(l, lang, scanCode(l, lang), raw, ops)
		}
	}
	// runs of adjacent pieces
	for i := range pieces {
		var b strings.Builder
		opaque := false
		for k := i; k < len(pieces) && k < i+codeWindow; k++ {
			b.WriteString(pieces[k])
			opaque = opaque || sc.opaque[pieces[k]]
			if k > i {
				if opaque {
					sc.opaque[b.String()] = true // a join with a computed hole
				}
				check(b.String(), k-i < 4) // a short join may be a command (`system("cat .e" "nv")`)
			}
		}
	}
	for _, rw := range sc.rewrites {
		a.code(rw, raw, lang, depth+1)
	}
	if lang == "jq" {
		return // jq opens no file by itself: `.env` in a filter is a key
	}
	for _, t := range bare {
		check(t, false)
	}
}

// blankComments is code with its comments turned to spaces (newlines
// kept), for the languages whose comments start with # (python, ruby,
// perl, php, awk, sh), // or /* */ (js, php), -- (lua); strings are
// skipped by their quotes (a backslash escapes in them; python's and the
// others' triple quotes are runs of strings). Other languages: code as it is.
func blankComments(code, lang string) string {
	hash := lang == "python" || lang == "ruby" || lang == "perl" || lang == "php" || lang == "awk" || lang == "sh"
	slash := lang == "js" || lang == "php"
	dash := lang == "lua"
	if !hash && !slash && !dash {
		return code
	}
	b := []byte(code)
	changed := false
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
		changed = true
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\'' || c == '"' || c == '`' && lang == "js":
			for i++; i < len(b) && b[i] != c; i++ {
				if b[i] == '\\' && lang != "sh" {
					i++
				}
			}
		case hash && c == '#' && !(lang == "ruby" && i+1 < len(b) && b[i+1] == '{') && !(lang == "perl" && i > 0 && b[i-1] == '$'),
			slash && c == '/' && i+1 < len(b) && b[i+1] == '/',
			dash && c == '-' && i+1 < len(b) && b[i+1] == '-':
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				j = len(b) - i
			}
			blank(i, i+j)
			i += j
		case slash && c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			end := len(b)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			blank(i, end)
			i = end - 1
		}
	}
	if !changed {
		return code
	}
	return string(b)
}

// looseScript reads a string from code as a shell command: a string that
// does not parse is only a run of words (code strings are often prose).
func (a *shellAnalyzer) looseScript(s, raw string) {
	if a.depth >= maxScriptDepth {
		return
	}
	if _, err := parseBash(s); err != nil {
		a.tokens(s, SetRead) // (/bin/sh runs such strings: a parse only zsh accepts is no command)
		return
	}
	a.script(s, raw, source{})
}

// codePath records a path named in code: as written (against the working
// directories) and under any directory.
func (a *shellAnalyzer) codePath(raw, s string, ops OpSet) {
	a.codePathAs(raw, s, ops, false)
}

// codeGlob records a glob pattern named in code that uses a glob API;
// dots says its wildcards match a leading `.` too.
func (a *shellAnalyzer) codeGlob(raw, s string, ops OpSet, dots bool) {
	if dots && !a.dotglob {
		a.dotglob = true
		defer func() { a.dotglob = false }()
	}
	a.codePathAs(raw, s, ops, true)
}

func (a *shellAnalyzer) codePathAs(raw, s string, ops OpSet, glob bool) {
	if strings.TrimSpace(s) == "" || len(s) > 4096 {
		return
	}
	if v, ok := windowsVars(expandHome(strings.ReplaceAll(s, `\`, "/"), a.env.Home)); ok {
		// %VAR% and $env:VAR (cmd, PowerShell) may be any folder
		s = v
	}
	pattern := glob || strings.ContainsRune(s, unknownRune)
	for _, cwd := range a.cwds[max(0, len(a.cwds)-4):] {
		env := a.env
		env.Cwd = cwd
		if strings.ContainsRune(cwd, unknownRune) {
			p, pat := joinCwd(cwd, escIf(s, pattern), true, a.win)
			a.addTarget(raw, p, pat, ops)
			continue
		}
		p, pat := normalize(env, s, spellTool, pattern)
		a.addTarget(raw, p, pat, ops)
	}
	// code joins paths at run time: the literal may sit under any directory
	rel := strings.TrimLeft(strings.ReplaceAll(s, `\`, "/"), "/")
	rel = strings.TrimPrefix(rel, "./")
	if rel != "" && !strings.HasPrefix(rel, "~") && !strings.HasPrefix(rel, "$") {
		vol := ""
		if a.win {
			if c := cleanCwd(a.env); hasDrive(c) {
				vol = c[:2]
			}
		}
		any := unknownSeg
		if a.codeChdir {
			// the code moved to a folder computed when it runs: that
			// folder may be a protected one (`os.chdir(x); open("e.ts",
			// "w")` may write .pi/extensions/e.ts), as after a shell cd
			any = unknownCwd
		}
		p := vol + "/" + any + "/" + escIf(rel, pattern)
		if glob && strings.HasPrefix(rel, "**/") {
			p = vol + "/" + rel // any depth below any folder: anywhere
		}
		a.addTarget(raw, cleanAbs(p, a.win), true, ops)
	}
}

// onlyHoles reports whether a string from code is made of interpolated
// values and punctuation alone (`f'{k}: {v}'`, `"$_\n"`, `"#{x}"`,
// `f'{root}/{name}'`): it names no path the code spells, only values
// computed at run time, which the reading does not follow (a documented
// limit; names a listing finds are followed by foundNames).
func onlyHoles(s string) bool {
	if !strings.ContainsRune(s, unknownRune) {
		return false
	}
	for _, r := range s {
		if r != unknownRune && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '~' || r >= 0x80 && !unicode.IsSpace(r)) {
			return false
		}
	}
	return true
}

// holeCommand reports whether a string's first word holds an interpolated
// value (`f'{k}: {v}'`): as a command its name is computed, which code
// reading does not follow; its words are still paths.
func holeCommand(s string) bool {
	f := strings.Fields(s)
	return len(f) > 0 && strings.ContainsRune(f[0], unknownRune)
}

// windowsVars replaces %VAR% and $env:VAR references by an unknown run of
// folders; ok is false when there is none.
func windowsVars(s string) (string, bool) {
	if !strings.Contains(s, "%") && !strings.Contains(strings.ToLower(s), "$env:") {
		return s, false
	}
	var b strings.Builder
	found := false
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if j := strings.IndexByte(s[i+1:], '%'); j > 0 && isVarName(s[i+1:i+1+j]) {
				b.WriteString(unknownSeg)
				i += j + 1
				found = true
				continue
			}
		}
		if s[i] == '$' && i+5 <= len(s) && strings.EqualFold(s[i:i+5], "$env:") {
			j := i + 5
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			if j > i+5 {
				b.WriteString(unknownSeg)
				i = j - 1
				found = true
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), found
}

func isVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) && s[i] != '(' && s[i] != ')' {
			return false
		}
	}
	return s != ""
}

// codeScan is code split into its string literals (escapes decoded), the
// sequence of literal and character-code pieces in source order, the bare
// tokens outside literals, and where each literal sits in the code.
type codeScan struct {
	lits, pieces, bare []string
	spans              []codeSpan
	// rewrites: strings with computed holes as the concatenations they
	// evaluate to (holeExprs)
	rewrites []string
	// opaque: literals with computed holes, kept as patterns
	opaque map[string]bool
}

// codeSpan is one literal: code[start:end] is its text with its quotes
// (and prefix letters), val its value.
type codeSpan struct {
	start, end int
	quote      byte
	val        string
}

// scanCode splits code into literals, pieces and bare tokens (codeScan).
func scanCode(code, lang string) codeScan {
	var lits, pieces, bare, rewrites []string
	var spans []codeSpan
	opaque := map[string]bool{}
	n := len(code)
	var tok strings.Builder
	flush := func() {
		t := tok.String()
		tok.Reset()
		if t == "" {
			return
		}
		if num, ok := charCode(t); ok {
			pieces = append(pieces, num)
		} else {
			for _, run := range intRuns(t) {
				if num, ok := charCode(run); ok {
					pieces = append(pieces, num)
				}
			}
		}
		if len(t) >= 2 || (lang == "pwsh" || lang == "cmd") && (t == "*" || t == "?") {
			if lang == "pwsh" {
				t = strings.ReplaceAll(t, "`", "")
			}
			bare = append(bare, strings.Trim(t, ".,:;"))
			if strings.Trim(t, ".,:;") != t {
				bare = append(bare, t)
			}
		}
	}
	addLit := func(s string) {
		if len(lits) < maxCodePieces {
			lits = append(lits, s)
			pieces = append(pieces, s)
		}
	}
	span := func(start, end int, quote byte) {
		if len(spans) < maxCodePieces && len(lits) > 0 {
			spans = append(spans, codeSpan{start: start, end: min(end, n), quote: quote, val: lits[len(lits)-1]})
		}
	}
	for i := 0; i < n; i++ {
		c := code[i]
		// comments are code too for our purposes (they cost nothing to read)
		quote := byte(0)
		raw := false
		switch {
		case c == '\'' || c == '"' || (c == '`' && lang != "pwsh"):
			quote = c
		case quoteOpAt(code, i, lang) > 0:
			// perl's q(…), qq{…}, qw[…], qx/…/, qr!…! and ruby's %q(…),
			// %Q{…}, %(…), %w[…], %x(…) (a command, as backticks): one
			// delimiter, spaces before it for perl
			flush()
			d := quoteOpAt(code, i, lang)
			end, body := perlQuote(code, d)
			addLit(decodeEscapes(body, lang))
			kind := byte('q')
			if lang == "ruby" {
				kind = 'Q'
			}
			if d > i+1 && isIdent(code[i+1]) {
				kind = code[i+1]
			}
			if lang == "ruby" && kind == 'x' {
				kind = '`'
			}
			span(i, end+1, kind)
			i = end
			continue
		}
		if quote == 0 {
			if isTokenByte(c) || (c == '`' && lang == "pwsh") {
				tok.WriteByte(c)
			} else {
				flush()
			}
			continue
		}
		// string prefix letters (r"", b"", f"", u"", rb"")
		litStart := i
		prefix := tok.String()
		if len(prefix) <= 2 && strings.Trim(strings.ToLower(prefix), "rbfu") == "" && prefix != "" {
			raw = strings.ContainsAny(strings.ToLower(prefix), "r")
			tok.Reset()
		} else {
			flush()
		}
		triple := lang == "python" && i+2 < n && code[i+1] == quote && code[i+2] == quote
		start := i + 1
		if triple {
			start = i + 3
		}
		j := start
		for j < n {
			if code[j] == '\\' && !raw && lang != "pwsh" && !(lang == "generic" && quote == '\'') {
				j += 2
				continue
			}
			if lang == "pwsh" && code[j] == '`' && quote == '"' {
				j += 2
				continue
			}
			if code[j] == quote {
				if triple {
					if j+2 < n && code[j+1] == quote && code[j+2] == quote {
						break
					}
					j++
					continue
				}
				if (lang == "pwsh" || lang == "generic") && j+1 < n && code[j+1] == quote && quote == '\'' {
					j += 2 // '' inside '…'
					continue
				}
				break
			}
			j++
		}
		body := code[start:min(j, n)]
		if quote == '`' && (lang == "perl" || lang == "ruby" || lang == "php") {
			addLit(body) // backticks run a shell command
			if strings.ContainsRune(body, '\\') {
				// …after the language decodes its escapes (`cat .e\x6ev`)
				addLit(decodeEscapes(holes(body, lang, '"'), lang))
			}
		} else if raw {
			addLit(body)
		} else {
			addLit(decodeEscapes(holes(body, lang, quote), lang))
			if rw := holeExprs(body, lang, quote); rw != "" {
				// a computed hole: read as the concatenation, and the
				// literal stays a pattern (its holes are not plain values)
				opaque[lits[len(lits)-1]] = true
				if len(rewrites) < 64 {
					rewrites = append(rewrites, rw)
				}
			}
		}
		i = j
		if triple {
			i = j + 2
		}
		span(litStart, i+1, quote)
	}
	flush()
	return codeScan{lits: lits, pieces: pieces, bare: bare, spans: spans, rewrites: rewrites, opaque: opaque}
}

func prevByte(s string, i int) byte {
	if i == 0 {
		return ' '
	}
	return s[i-1]
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isTokenByte reports whether c can be part of a bare path token.
func isTokenByte(c byte) bool {
	return isIdent(c) || c >= 0x80 || strings.IndexByte("./~-+@%:\\$!#=*?[]{}", c) >= 0
}

// quoteOpAt is where the delimiter of a quote operator starting at code[i]
// is (perl's q/qq/qw/qx/qr, ruby's %q/%Q/%w/%W/%x/%i/%I/%r/%s and bare
// %), or 0 when none starts there.
func quoteOpAt(code string, i int, lang string) int {
	switch {
	case lang == "perl" && code[i] == 'q' && !isIdent(prevByte(code, i)):
		return quoteOpDelim(code, i, "qwxr")
	case lang == "ruby" && code[i] == '%' && rubyLiteralStart(code, i):
		return quoteOpDelim(code, i, "qQwWxiIrs")
	}
	return 0
}

// perlQuote reads q{…}, qq(…), qw[…] starting at the delimiter.
func perlQuote(code string, i int) (end int, body string) {
	open := code[i]
	closeCh := map[byte]byte{'{': '}', '(': ')', '[': ']', '<': '>'}[open]
	if closeCh == 0 {
		closeCh = open
	}
	depth := 1
	j := i + 1
	for j < len(code) {
		switch code[j] {
		case '\\':
			j += 2
			continue
		case closeCh:
			depth--
			if depth == 0 {
				return j, code[i+1 : j]
			}
		case open:
			if open != closeCh {
				depth++
			}
		}
		j++
	}
	return len(code) - 1, code[i+1:]
}

// holeExprs rewrites a string with computed holes (`f'{chr(46)}{"env"}'`,
// `${'.e' + 'nv'}`) as the concatenation it evaluates to, in the
// language's own syntax (`” + (chr(46)) + ” + ("env") + ”`), so the
// literals and character codes inside the holes are joined like any
// others; "" when every hole is a plain value (`{x}`, `#{name}`).
func holeExprs(s, lang string, quote byte) string {
	switch {
	case lang == "js" && quote == '`', lang == "python", lang == "ruby" && quote == '"':
	default:
		return ""
	}
	q := string(quote)
	if quote == '`' {
		q = "'"
	}
	var b strings.Builder
	b.WriteString(q)
	computed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			b.WriteByte(s[i])
		case (c == '$' || c == '#') && i+1 < len(s) && s[i+1] == '{', lang == "python" && c == '{' && i+1 < len(s) && s[i+1] != '{':
			start := i + 1
			if c != '{' {
				start = i + 2
			}
			j := closingBrace(s, i)
			expr := s[min(start, len(s)):min(j, len(s))]
			if lang == "python" {
				if k := strings.IndexAny(expr, "!:"); k >= 0 && !strings.ContainsAny(expr[:k], "('\"[") {
					expr = expr[:k] // a format spec
				}
			}
			if j >= len(s) || !plainHole(expr) {
				computed = true
			}
			b.WriteString(q + " + (" + expr + ") + " + q)
			i = j
		case string(c) == q:
			b.WriteString(`\` + q)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(q)
	if !computed || b.Len() > maxScriptBytes {
		return ""
	}
	return b.String()
}

// plainHole reports whether an interpolated expression is a plain value
// (`x`, `self.name`, `_`), not a computation whose literals matter.
func plainHole(expr string) bool {
	expr = strings.TrimSpace(expr)
	if expr == "" || !(isIdent(expr[0]) && (expr[0] < '0' || expr[0] > '9')) {
		return false
	}
	for i := 0; i < len(expr); i++ {
		if !isIdent(expr[i]) && expr[i] != '.' {
			return false
		}
	}
	return true
}

// holes replaces interpolated parts of a string (`${…}`, f-string `{…}`,
// `$var`) by unknown characters.
func holes(s, lang string, quote byte) string {
	switch {
	case lang == "js" && quote == '`', lang == "python", lang == "ruby" && quote == '"', lang == "perl" && quote == '"', lang == "php" && quote == '"', lang == "pwsh" && quote == '"':
	default:
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			b.WriteByte(s[i])
		case (c == '$' || c == '#') && i+1 < len(s) && s[i+1] == '{', lang == "python" && c == '{' && i+1 < len(s) && s[i+1] != '{':
			j := closingBrace(s, i)
			b.WriteRune(unknownRune)
			i = j
		case c == '$' && (lang == "perl" || lang == "php" || lang == "pwsh") && i+1 < len(s) && (isIdent(s[i+1]) || s[i+1] == '{'):
			j := i + 1
			for j < len(s) && (isIdent(s[j]) || s[j] == ':') {
				j++
			}
			name := s[i+1 : j]
			if lang == "pwsh" && (strings.EqualFold(name, "env:USERPROFILE") || strings.EqualFold(name, "HOME") || strings.EqualFold(name, "env:HOME")) {
				b.WriteString(s[i:j]) // expanded as a home prefix later
			} else {
				b.WriteRune(unknownRune)
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decodeEscapes decodes a string literal's escapes: C-like (\n, \xHH,
// \uHHHH, \u{H…}, \UHHHHHHHH, octal) or PowerShell's backtick escapes.
func decodeEscapes(s, lang string) string {
	if lang == "pwsh" {
		if !strings.Contains(s, "`") {
			return s
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] != '`' || i+1 >= len(s) {
				b.WriteByte(s[i])
				continue
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'u':
				if i+1 < len(s) && s[i+1] == '{' {
					if j := strings.IndexByte(s[i:], '}'); j > 0 {
						if n, err := strconv.ParseUint(s[i+2:i+j], 16, 32); err == nil {
							b.WriteRune(rune(n))
							i += j
							continue
						}
					}
				}
				b.WriteByte('u')
			default:
				b.WriteByte(s[i])
			}
		}
		return b.String()
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == '\n' || s[i+1] == '\r' && i+2 < len(s) && s[i+2] == '\n' {
			// a backslash at the end of a line inside a string continues it
			// (python, js, ruby, php, shell): ".e\⏎nv" is ".env"
			if s[i+1] == '\r' {
				i++
			}
			i++
			continue
		}
		if s[i+1] == 'u' && i+2 < len(s) && s[i+2] == '{' {
			if j := strings.IndexByte(s[i+2:], '}'); j > 0 {
				if n, err := strconv.ParseUint(s[i+3:i+2+j], 16, 32); err == nil {
					b.WriteRune(rune(n))
					i += 2 + j
					continue
				}
			}
		}
		if s[i+1] == 'N' && i+2 < len(s) && s[i+2] == '{' {
			if j := strings.IndexByte(s[i+2:], '}'); j > 0 {
				b.WriteRune(unknownRune)
				i += 2 + j
				continue
			}
		}
		// reuse the $'…' decoder for one escape
		j := i + 2
		switch s[i+1] {
		case 'x':
			j = min(len(s), i+4)
		case 'u':
			j = min(len(s), i+6)
		case 'U':
			j = min(len(s), i+10)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j = min(len(s), i+4)
		}
		dec := unescapeANSI(s[i:j])
		if dec == s[i:j] && j > i+2 {
			// a short escape: decode what is there
			dec = unescapeANSI(s[i : i+2])
			j = i + 2
		}
		b.WriteString(dec)
		i = j - 1
	}
	return b.String()
}

// charCode reads an integer token as a printable character code.
func charCode(t string) (string, bool) {
	t = strings.TrimSuffix(strings.TrimSuffix(t, "L"), "u")
	var n uint64
	var err error
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		n, err = strconv.ParseUint(t[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(t, 10, 32)
	}
	if err != nil || n < 32 || n > 0x10FFFF || (n > 126 && n < 160) {
		return "", false
	}
	return string(rune(n)), true
}

// decodeLiteral decodes a literal that looks like base64 or hex into
// printable text.
func decodeLiteral(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 6 || len(t) > maxScriptBytes {
		return "", false
	}
	if len(t)%2 == 0 && isAllHex(t) {
		if d, ok := decodeHex(t); ok && printable(d) {
			return d, true
		}
	}
	if isBase64ish(t) {
		if d, ok := decodeBase64(t); ok && printable(d) && len(d) >= 3 {
			return d, true
		}
		if d, ok := decodeUTF16Base64(t); ok && printable(d) && len(d) >= 3 {
			return d, true
		}
	}
	return "", false
}

func isAllHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func isBase64ish(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isIdent(c) || c == '+' || c == '/' || c == '=' || c == '-') {
			return false
		}
	}
	return true
}

// printable reports whether decoded bytes are mostly printable UTF-8 text.
func printable(s string) bool {
	if !utf8.ValidString(s) || s == "" {
		return false
	}
	bad := 0
	for _, r := range s {
		if r != '\n' && r != '\t' && r != '\r' && !unicode.IsPrint(r) {
			bad++
		}
	}
	return bad*10 <= len(s)
}

// Names found at run time. Code that globs, lists or walks a folder and
// then opens what it finds reads names no literal spells (`glob('.e*')`,
// `for f in os.listdir('.'): open(f)`), and code that copies or removes a
// folder touches everything below it:
//
//   - when the code uses a glob API (glob, iglob, Path.glob/rglob, fnmatch,
//     fs.globSync, fast-glob and friends, Perl's glob and `<…>`, Ruby's
//     Dir.glob and Dir[], PHP's glob; PowerShell and cmd always), every
//     literal with wildcards is a pattern whose wildcards match hidden names
//     too (include_hidden, FNM_DOTMATCH, dot: true), at the working
//     directory and under any folder, like any literal;
//   - a listing or walk (os.listdir, os.scandir, os.walk, Path.iterdir,
//     fs.readdirSync, fs.opendirSync, opendir, File::Find, Dir.entries,
//     Dir.children, Find.find, scandir, RecursiveDirectoryIterator,
//     Get-ChildItem, …) in code that also uses content (opens, reads,
//     copies, runs a command, writes) is a recursive read, hidden names
//     included, of each folder it may list: the literal it is given, or the
//     working directory when it is given none; a folder computed at run time
//     may be any of the code's literals, the working directory or the home
//     directory. A listing whose names are only printed is not content;
//   - a copy of a folder (shutil.copytree, make_archive, tarfile's add,
//     fs.cpSync, FileUtils.cp_r, Compress-Archive) is a recursive read of it
//     by itself, a recursive removal (shutil.rmtree, fs.rmSync,
//     FileUtils.rm_rf) a recursive write.

// codeNames is what foundNames learnt about code.
type codeNames struct {
	globs bool // literals with wildcards are glob patterns
	// dots: the code's globs match a leading `.` (fnmatch, pathlib,
	// include_hidden, FNM_DOTMATCH, node's and PowerShell's globs)
	dots bool
}

// codeIdent is one identifier outside literals: name as written, qual the
// identifier it is qualified by (`Dir` in `Dir.entries`, `os` in
// `os.listdir`), [start,end) its place in the code.
type codeIdent struct {
	name, lower, qual string
	start, end        int
}

// kinds of API found by name
const (
	apiNone = iota
	apiList
	apiGlobList // a glob call: a literal argument is a pattern, not a folder
	apiCopy
	apiRemove
	// apiPlace: a move, rename, link or copy whose destination may be a
	// folder (shutil.copy(f, DIR) writes DIR/f) or replace one
	// (os.rename(x, DIR)): each literal it is given is a recursive write
	apiPlace
)

// maxCodeFolders bounds the folders one piece of code may list.
const maxCodeFolders = 64

// maskSpans blanks the literals of code (same length, quotes kept), so
// names and brackets inside strings are not read as code.
func maskSpans(code string, spans []codeSpan) string {
	b := []byte(code)
	for _, s := range spans {
		for i := s.start + 1; i < s.end-1 && i < len(b); i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// codeIdents lists the identifiers of masked code (PowerShell's include
// `-`: Get-ChildItem).
func codeIdents(masked, lang string) []codeIdent {
	var out []codeIdent
	identByte := func(c byte) bool { return isIdent(c) || (lang == "pwsh" || lang == "cmd") && c == '-' }
	for i := 0; i < len(masked) && len(out) < maxCodePieces; {
		if !identByte(masked[i]) || (masked[i] >= '0' && masked[i] <= '9') {
			i++
			continue
		}
		j := i + 1
		for j < len(masked) && identByte(masked[j]) {
			j++
		}
		id := codeIdent{name: masked[i:j], lower: strings.ToLower(masked[i:j]), start: i, end: j}
		if k := i; k > 0 && (masked[k-1] == '.' || k > 1 && masked[k-2:k] == "::") {
			k--
			if masked[k] == ':' {
				k--
			}
			q := k
			for q > 0 && isIdent(masked[q-1]) {
				q--
			}
			id.qual = masked[q:k]
		}
		out = append(out, id)
		i = j
	}
	return out
}

// codeAPI classifies an identifier as a listing, glob, copy or removal API.
func codeAPI(id codeIdent, lang, masked, code string) int {
	q := strings.ToLower(id.qual)
	switch id.lower {
	case "walk", "fwalk":
		if q == "" || q == "os" || id.start > 1 && masked[id.start-2] == ')' {
			return apiList // os.walk, Path(…).walk; not ast.walk
		}
	case "listdir", "scandir", "iterdir", "opendirsync", "readdirsync", "recursivedirectoryiterator",
		"directoryiterator", "filesystemiterator", "each_child", "getfiles", "enumeratefiles", "getfilesystementries",
		"enumeratefilesystementries", "getdirectories", "enumeratedirectories", "finddepth", "get-childitem", "gci":
		return apiList
	case "rglob":
		return apiList
	case "readdir":
		if lang == "perl" || lang == "php" {
			return apiNone // a handle: the folder is opendir's
		}
		return apiList
	case "opendir":
		return apiList
	case "entries", "children", "foreach":
		if q == "dir" {
			return apiList
		}
		if id.lower == "children" && lang == "ruby" {
			return apiList // Pathname#children
		}
	case "find":
		if q == "find" || lang == "perl" && q == "" {
			return apiList
		}
	case "dir":
		if q == "lfs" {
			return apiList
		}
		if lang == "pwsh" || lang == "cmd" {
			return apiList
		}
	case "ls":
		if lang == "pwsh" {
			return apiList
		}
	case "glob", "iglob", "globsync", "globby", "bsd_glob":
		return apiGlobList
	case "sync", "globiterate", "stream":
		if q == "glob" || q == "fg" || q == "fastglob" || q == "globby" {
			return apiGlobList // glob.sync(pattern), fg.sync(pattern)
		}
	case "copytree", "copy_tree", "make_archive", "cp_r", "cp_lr", "copy_entry", "cpsync", "dircopy", "rcopy",
		"compress-archive", "copysync":
		return apiCopy
	case "cp":
		if q == "fs" || q == "promises" || q == "fsp" || q == "fse" {
			return apiCopy
		}
	case "c", "create":
		if q == "tar" || strings.Contains(code, "require('tar')") || strings.Contains(code, `require("tar")`) {
			return apiCopy // node-tar's tar.c(opts, ['.'])
		}
	case "add":
		if strings.Contains(strings.ToLower(masked), "tarfile") {
			return apiCopy // TarFile.add is recursive
		}
	case "rmtree", "rm_rf", "rm_r", "remove_dir", "rmsync", "rimraf", "remove_tree", "remove_entry", "remove_entry_secure":
		return apiRemove
	case "move", "rename", "renames", "renamesync", "movesync", "symlink", "symlinksync", "symlink_to", "hardlink_to",
		"link", "linksync", "ln_s", "ln_sf", "mv", "copy", "copy2", "copyfile", "copyfilesync", "copy_file", "install",
		"move_file", "rename_file", "make_symlink", "copy-item", "cpi", "move-item", "mi", "rename-item", "ren":
		if id.lower == "replace" || (id.lower == "copy" || id.lower == "link" || id.lower == "install") && q == "" && lang == "js" {
			return apiNone
		}
		return apiPlace
	case "rm":
		if q == "fs" || q == "promises" || q == "fsp" || q == "fse" {
			return apiRemove
		}
	}
	return apiNone
}

// usesContent reports whether an identifier opens, reads, copies, loads
// or runs something: what a listing's names are used for when they are
// more than printed.
func usesContent(id codeIdent, lang string) bool {
	l := id.lower
	switch {
	case strings.HasPrefix(l, "read") && !strings.HasPrefix(l, "readdir"),
		strings.Contains(l, "open") && !strings.Contains(l, "opendir"),
		strings.HasPrefix(l, "load"), strings.HasPrefix(l, "copy"), strings.HasPrefix(l, "slurp"), strings.HasPrefix(l, "get-content"),
		strings.HasSuffix(l, "file") && l != "isfile" && l != "is_file" && l != "tempfile",
		strings.Contains(l, "get_contents"), strings.Contains(l, "readstream"), strings.Contains(l, "readfile"),
		strings.Contains(l, "readtext"), strings.Contains(l, "readall"), strings.Contains(l, "readbytes"):
		return true
	}
	switch l {
	case "file", "fgets", "fgetc", "fread", "fpassthru", "fscanf", "dofile", "cp", "cp_r", "shutil", "tarfile",
		"zipfile", "ziparchive", "make_archive", "send_file", "sendfile", "show_source", "splfileobject", "getline",
		"getlines", "fileinput", "run_path":
		return true
	case "gc", "cat", "type", "select-string", "sls", "copy-item", "cpi", "import-csv", "invoke-item", "ii":
		return lang == "pwsh" || lang == "cmd"
	case "lines":
		return lang == "lua"
	case "foreach", "new", "binread", "readlines":
		q := strings.ToLower(id.qual)
		return q == "file" || q == "io"
	}
	return false
}

// runsCommands reports whether an identifier runs a command (os.system,
// subprocess, child_process, exec, spawn, popen, shell_exec, qx).
func runsCommands(id codeIdent) bool {
	l := id.lower
	if strings.HasPrefix(l, "exec") || strings.HasPrefix(l, "spawn") || strings.HasSuffix(l, "popen") {
		return true
	}
	switch l {
	case "system", "subprocess", "check_output", "check_call", "shell_exec", "passthru", "proc_open", "child_process",
		"qx", "capture2", "capture3", "capture2e", "invoke-expression", "iex", "start-process":
		return true
	}
	return false
}

// listers are commands that print names found at run time.
// Built the first time it is read, not at start-up: most runs never read it.
var listers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"ls": true, "find": true, "fd": true, "dir": true, "gci": true, "get-childitem": true,
		"tree": true, "locate": true, "du": true}
})

// argvRuns joins runs of adjacent literals separated only by commas and
// brackets (`['grep', '-r', 'KEY', '.']`, `'grep', ['-r', …]`) into shell
// commands, each word quoted.
func argvRuns(masked string, spans []codeSpan) []string {
	var out []string
	var run []string
	flush := func() {
		if len(run) >= 2 && len(out) < 64 {
			out = append(out, strings.Join(run, " "))
		}
		run = run[:0]
	}
	for i, s := range spans {
		if i > 0 && strings.Trim(masked[spans[i-1].end:s.start], " \t\r\n,[]()") != "" {
			flush()
		}
		if len(run) < 64 {
			run = append(run, "'"+strings.ReplaceAll(s.val, "'", `'\''`)+"'")
		}
	}
	flush()
	return out
}

// mutates reports whether an identifier changes the file it is given
// (names a listing found, removed or renamed one by one).
func mutates(id codeIdent) bool {
	l := id.lower
	if strings.HasPrefix(l, "write") || strings.HasPrefix(l, "append") || strings.HasPrefix(l, "unlink") ||
		strings.HasPrefix(l, "rename") || strings.HasPrefix(l, "truncate") || strings.HasPrefix(l, "chmod") ||
		strings.HasPrefix(l, "chown") || strings.HasPrefix(l, "symlink") {
		return true
	}
	switch l {
	case "remove", "move", "rmdir", "rmdirsync", "rm", "rmsync", "utime", "touch", "delete", "remove-item", "set-content",
		"out-file", "add-content", "move-item", "rename-item", "clear-content":
		return true
	case "replace":
		return id.qual == "os"
	}
	return false
}

// foundNames reads how code finds names at run time (see above): it
// records the recursive reads and writes of the folders the code may list,
// copy or remove, and says whether its wildcard literals are globs.
func (a *shellAnalyzer) foundNames(code, lang string, sc codeScan, raw string, ops OpSet) codeNames {
	var cn codeNames
	switch lang {
	case "sed", "jq", "vim":
		return cn
	case "pwsh", "cmd":
		cn.globs = true // their commands take wildcards
	}
	masked := maskSpans(code, sc.spans)
	lowerMasked := strings.ToLower(masked)
	ids := codeIdents(masked, lang)
	uses := false
	for _, w := range []string{"glob", "fnmatch", "minimatch", "micromatch", "picomatch", "fnm_"} {
		if strings.Contains(lowerMasked, w) {
			cn.globs = true
		}
	}
	for _, l := range sc.lits {
		if len(l) <= 40 && !strings.ContainsAny(l, " \t\n") && (strings.Contains(strings.ToLower(l), "glob") || strings.HasSuffix(strings.ToLower(l), "match")) {
			cn.globs = true // require('fast-glob'), import globby, require('minimatch')
		}
	}
	if lang == "ruby" && strings.Contains(masked, "Dir[") {
		cn.globs = true
	}
	if lang == "perl" && perlAngleGlob(masked) {
		cn.globs = true
	}
	cn.dots = globsMatchDots(lang, lowerMasked, ids)
	if lang == "perl" && (strings.Contains(masked, "<>") || strings.Contains(masked, "<ARGV>")) {
		uses = true // <> reads the files named in @ARGV
	}
	runs := false
	for _, s := range sc.spans {
		if s.quote == '`' && (lang == "perl" || lang == "ruby" || lang == "php") {
			runs = true // backticks run a command
		}
	}
	if lang == "ruby" && strings.Contains(masked, "%x") || lang == "cmd" && strings.Contains(lowerMasked, "/f") {
		runs = true // %x(…); for /f … in ('cmd')
	}
	if lang == "awk" && strings.Contains(masked, "getline") && strings.Contains(masked, "<") {
		uses = true // getline < file
	}
	for _, id := range ids {
		if usesContent(id, lang) || mutates(id) {
			uses = true
		}
		if runsCommands(id) {
			runs = true
		}
		if lang == "js" && (id.lower == "require" || id.lower == "import") && nextNonSpace(masked, id.end) == '(' {
			if s, ok := spanAt(sc.spans, skipSpace(masked, skipSpace(masked, id.end)+1)); !ok || nextNonSpace(masked, s.end) != ')' {
				uses = true // require(f) of a computed name loads (and shows) it
			}
		}
		if lang == "php" && (id.lower == "include" || id.lower == "require" || id.lower == "include_once" || id.lower == "require_once") {
			uses = true
		}
	}
	// a command run with its words in a list (subprocess.run(['grep', '-r',
	// 'KEY', '.']), execFileSync('tar', [...])) is read as that command
	var cmds []string
	if runs {
		for _, c := range argvRuns(masked, sc.spans) {
			a.looseScript(c, raw)
			cmds = append(cmds, c)
		}
	}
	chdir := strings.Contains(lowerMasked, "chdir") || strings.Contains(lowerMasked, "set-location")
	type rec struct {
		folder string
		ops    OpSet
		via    string
	}
	var recs []rec
	type compRec struct {
		ops OpSet
		via string
	}
	var computed []compRec // in source order: reasons are stable
	addComputed := func(c compRec) {
		for _, d := range computed {
			if d.ops == c.ops {
				return
			}
		}
		computed = append(computed, c)
	}
	for _, id := range ids {
		kind := codeAPI(id, lang, masked, code)
		if kind == apiNone {
			continue
		}
		j := skipSpace(masked, id.end)
		if j < len(masked) && (masked[j] == '.' || strings.HasPrefix(masked[j:], "::")) {
			continue // a module or a receiver (`glob.glob`, `File::Find`), not a call
		}
		// an alias (`ls = os.listdir`, `{readdirSync: r}`) is called later
		// with anything
		alias := kind != apiGlobList && j < len(masked) && (masked[j] == ':' && lang != "pwsh" || masked[j] == '=' && !strings.HasPrefix(masked[j:], "=="))
		var recOps OpSet
		var via string
		switch kind {
		case apiList, apiGlobList:
			if !uses && !runs {
				continue
			}
			recOps = SetRead | ops&setModify
			via = "code that lists names with " + id.name + " and uses them"
		case apiCopy:
			recOps = SetRead
			via = "code that copies a folder with " + id.name
			// the literals after the source: where it copies to, written
			// in full (cpSync(x, '.claude', {recursive: true}))
			if lits := callLiterals(masked, id, sc); len(lits) > 1 && id.lower != "make_archive" {
				for _, f := range lits[1:] {
					recs = append(recs, rec{f, setModify, "code that copies a folder into it with " + id.name})
				}
			}
		case apiRemove:
			recOps = setModify
			via = "code that removes a folder with " + id.name
		case apiPlace:
			// every literal of the call: a destination folder receives the
			// source under its name, a folder renamed over is replaced
			for _, f := range callLiterals(masked, id, sc) {
				recs = append(recs, rec{f, setModify, "code that moves, copies or links with " + id.name})
			}
			continue
		}
		folders, cwd, home, comp := callFolders(code, masked, id, sc, lang)
		if kind == apiGlobList {
			// a literal glob is a pattern (codeGlob); only a computed one
			// may list anything
			folders, cwd, home = nil, false, false
		}
		if id.lower == "make_archive" {
			cwd = true // root_dir defaults to the working directory
		}
		for _, f := range folders {
			comp = comp || strings.ContainsRune(f, unknownRune) // os.listdir(f'{d}')
		}
		if (cwd && chdir) || comp || alias {
			addComputed(compRec{recOps, via + " of a folder computed when the code runs"})
			continue
		}
		for _, f := range folders {
			recs = append(recs, rec{f, recOps, via})
		}
		if cwd {
			recs = append(recs, rec{".", recOps, via})
		}
		if home {
			recs = append(recs, rec{a.env.Home, recOps, via})
		}
	}
	// an API called by its name in a string (getattr(os, 'listdir'),
	// fs['readdir' + 'Sync']) lists or copies a folder computed at run time
	for i := range sc.pieces {
		var b strings.Builder
		for k := i; k < len(sc.pieces) && k < i+4; k++ {
			b.WriteString(sc.pieces[k])
			name := strings.ToLower(b.String())
			if b.Len() > 24 {
				break
			}
			if b.Len() < 4 {
				continue
			}
			switch codeAPI(codeIdent{name: name, lower: name, qual: "os"}, lang, masked, code) {
			case apiList: // not glob: require('glob') names a module
				if uses || runs {
					addComputed(compRec{SetRead | ops&setModify, "code that calls " + name + " by name and uses what it lists"})
				}
			case apiCopy:
				addComputed(compRec{SetRead, "code that calls " + name + " by name"})
			case apiRemove:
				addComputed(compRec{setModify, "code that calls " + name + " by name"})
			}
		}
	}
	if uses && (runs || lang == "awk") {
		// names printed by a command the code runs (os.popen('ls -a'),
		// `ls -a` in Ruby, "ls -a" | getline in awk) and then opened
		for _, c := range append(cmds, sc.lits...) {
			w := strings.Fields(strings.ReplaceAll(c, "'", " "))
			if len(w) > 0 && listers()[strings.ToLower(w[0][strings.LastIndexByte(w[0], '/')+1:])] {
				addComputed(compRec{SetRead, "code that opens the names " + w[0] + " prints"})
				break
			}
		}
	}
	for _, c := range computed {
		recOps, via := c.ops, c.via
		// a folder computed at run time: any literal of the code, the
		// working directory or the home directory
		recs = append(recs, rec{".", recOps, via}, rec{a.env.Home, recOps, via})
		n := 0
		for _, l := range sc.lits {
			if folderLike(l) && n < maxCodeFolders {
				recs = append(recs, rec{l, recOps, via})
				n++
			}
		}
	}
	if len(recs) > 4*maxCodeFolders {
		a.unknown(raw, "the code lists too many folders to check", SetRead|setModify)
		return cn
	}
	seen := map[rec]bool{}
	for _, r := range recs {
		if r.folder == "" || seen[r] {
			continue
		}
		seen[r] = true
		f := expandHome(r.folder, a.env.Home)
		if strings.ContainsRune(f, unknownRune) {
			continue
		}
		a.addRec(r.folder, litField(f), r.ops, true, nil, r.via, followAll)
	}
	return cn
}

// globsMatchDots reports whether the code's globs may match a leading `.`:
// Python's glob module, Ruby's Dir.glob, PHP's and Perl's glob keep the
// shell's rule unless told otherwise (include_hidden, FNM_DOTMATCH,
// GLOB_PERIOD); fnmatch and pathlib do not keep it, and node's and the
// other languages' globs are taken not to.
func globsMatchDots(lang, lowerMasked string, ids []codeIdent) bool {
	for _, w := range []string{"include_hidden", "fnmatch", "dotmatch", "glob_period", "dot:", "dot :", "minimatch", "micromatch", "picomatch"} {
		if strings.Contains(lowerMasked, w) {
			return true
		}
	}
	switch lang {
	case "python":
		for _, id := range ids {
			if (id.lower == "glob" || id.lower == "rglob") && id.qual != "" && id.qual != "glob" {
				return true // Path.glob, Path.rglob
			}
		}
		return false
	case "ruby", "php", "perl":
		return false
	}
	return true
}

// folderLike reports whether a literal may name a folder.
func folderLike(s string) bool {
	return s != "" && len(s) <= 1024 && !strings.ContainsAny(s, "\n\r\x00*?[") && !strings.ContainsRune(s, unknownRune)
}

// callFolders returns the folders a listing, copy or removal call names:
// its literal first argument (Perl's opendir: its second), the literal its
// receiver was made from (`Path('src').iterdir()`), the working directory
// when it is given none (`os.listdir()`, `Path().iterdir()`,
// `Get-ChildItem`), the home directory (`Path.home().iterdir()`); comp
// says the folder is computed at run time.
func callFolders(code, masked string, id codeIdent, sc codeScan, lang string) (folders []string, cwd, home, comp bool) {
	n := len(masked)
	if lang == "pwsh" || lang == "cmd" {
		if !strings.ContainsAny(id.name, "[(") && (id.lower == "get-childitem" || id.lower == "gci" || id.lower == "ls" || id.lower == "dir" || id.lower == "compress-archive") {
			j := id.end
			for j < n && strings.IndexByte("|;})\n", masked[j]) < 0 {
				j = skipSpace(masked, j)
				if j >= n || strings.IndexByte("|;})\n", masked[j]) >= 0 {
					break
				}
				if s, ok := spanAt(sc.spans, j); ok {
					folders = append(folders, s.val)
					j = s.end
					continue
				}
				k := j
				for k < n && masked[k] != ' ' && masked[k] != '\t' && strings.IndexByte("|;})\n", masked[k]) < 0 {
					k++
				}
				w := code[j:k]
				if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "*?[$") {
					folders = append(folders, strings.ReplaceAll(w, "`", ""))
				} else if strings.HasPrefix(w, "$") {
					comp = true
				}
				j = k
			}
			if len(folders) == 0 {
				cwd = true
			}
			return folders, cwd, false, comp
		}
	}
	j := skipSpace(masked, id.end)
	if id.lower == "rglob" || id.lower == "glob" && id.qual != "" && id.qual != "glob" && lang == "python" {
		j = n // Path(…).rglob(pattern): the folder is the receiver's
	}
	paren := j < n && masked[j] == '('
	if paren {
		j = skipSpace(masked, j+1)
	}
	if lang == "perl" && id.lower == "opendir" {
		// opendir(DH, DIR): skip the handle
		depth := 0
		for j < n {
			c := masked[j]
			if c == '(' || c == '[' || c == '{' {
				depth++
			} else if c == ')' || c == ']' || c == '}' {
				if depth == 0 {
					break
				}
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
			j++
		}
		if j >= n || masked[j] != ',' {
			return nil, false, false, true
		}
		j = skipSpace(masked, j+1)
	}
	if s, ok := spanAt(sc.spans, j); ok {
		if c := nextNonSpace(masked, s.end); paren && c != ')' && c != ',' {
			return nil, false, false, true // 'src/' + name
		}
		return []string{s.val}, false, false, false
	}
	if paren && j < n && masked[j] != ')' || !paren && j < n && (isIdent(masked[j]) || masked[j] == '$' || masked[j] == '@') && lang != "python" && lang != "js" {
		return nil, false, false, true // a computed argument
	}
	// no argument: the receiver's folder, or the working directory
	k := id.start
	if k == 0 || masked[k-1] != '.' {
		return nil, true, false, false // listdir(), Dir::entries
	}
	k--
	if k > 0 && masked[k-1] == ')' {
		end := k - 1
		depth := 0
		open := -1
		for p := end; p >= 0; p-- {
			if masked[p] == ')' {
				depth++
			} else if masked[p] == '(' {
				depth--
				if depth == 0 {
					open = p
					break
				}
			}
		}
		if open < 0 {
			return nil, false, false, true
		}
		inner := strings.TrimSpace(masked[open+1 : end])
		callee := open
		for callee > 0 && isIdent(masked[callee-1]) {
			callee--
		}
		name := strings.ToLower(masked[callee:open])
		switch {
		case inner == "" && (name == "home" || name == "homedir" || name == "expanduser"):
			return nil, false, true, false
		case inner == "":
			return nil, true, false, false // Path(), Path.cwd(), Dir.pwd
		}
		if s, ok := spanAt(sc.spans, skipSpace(masked, open+1)); ok && strings.TrimSpace(masked[s.end:end]) == "" && pathConstructor(name) {
			return []string{s.val}, false, false, false
		}
		// any other call's value (__import__('os'), a helper of the
		// code's): a folder computed when the code runs
		return nil, false, false, true
	}
	q := k
	for q > 0 && isIdent(masked[q-1]) {
		q--
	}
	recv := masked[q:k]
	switch strings.ToLower(recv) {
	case "os", "fs", "promises", "fsp", "fse", "dir", "find", "fileutils", "shutil", "lfs", "pathlib", "path", "pathname", "file", "deno", "glob", "io", "directory", "tarfile":
		return nil, true, false, false
	}
	if recv != "" && recv[0] >= 'A' && recv[0] <= 'Z' {
		return nil, true, false, false
	}
	return nil, false, false, true // a variable's folder
}

// spanAt returns the literal that starts at i (prefix letters allowed).
// callLiterals returns the string literals of the call at id: those
// between its parentheses, or up to the end of the statement when it is
// called without them (perl's `rename "x", "y"`).
func callLiterals(masked string, id codeIdent, sc codeScan) []string {
	n := len(masked)
	j := skipSpace(masked, id.end)
	end := n
	if j < n && masked[j] == '(' {
		depth := 0
		for k := j; k < n; k++ {
			if masked[k] == '(' {
				depth++
			} else if masked[k] == ')' {
				depth--
				if depth == 0 {
					end = k
					break
				}
			}
		}
	} else if k := strings.IndexAny(masked[j:], ";\n"); k >= 0 {
		end = j + k
	}
	var out []string
	for _, sp := range sc.spans {
		if sp.start >= j && sp.end <= end+1 && sp.val != "" {
			out = append(out, sp.val)
		}
	}
	return out
}

func spanAt(spans []codeSpan, i int) (codeSpan, bool) {
	k := sort.Search(len(spans), func(k int) bool { return spans[k].start >= i })
	if k < len(spans) && spans[k].start <= i+2 {
		return spans[k], true
	}
	return codeSpan{}, false
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func nextNonSpace(s string, i int) byte {
	if i = skipSpace(s, i); i < len(s) {
		return s[i]
	}
	return 0
}

// hasCodeGlob reports whether a literal holds glob characters of code glob
// APIs: `*`, `?`, `[…]`, and (but in Python) `{a,b}`.
func hasCodeGlob(s, lang string) bool {
	if strings.ContainsAny(s, "*?[") {
		return true
	}
	return lang != "python" && strings.Contains(s, "{") && strings.Contains(s, ",") && strings.Contains(s, "}")
}

// perlAngleGlob reports whether Perl code holds a `<…>` glob (`<.e*>`,
// `<*>`), not a filehandle read (`<STDIN>`, `<$fh>`, `<>`).
func perlAngleGlob(masked string) bool {
	for i := strings.IndexByte(masked, '<'); i >= 0 && i < len(masked); {
		j := strings.IndexAny(masked[i+1:], "<>;\n=")
		if j < 0 {
			return false
		}
		if masked[i+1+j] == '>' {
			body := strings.TrimSpace(masked[i+1 : i+1+j])
			if body != "" && strings.ContainsAny(body, "*?[{~/.") && !strings.ContainsAny(body, "()&|") {
				return true
			}
		}
		next := strings.IndexByte(masked[i+1:], '<')
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// closingBrace returns the index of the `}` that closes the `{` at or
// after i (nested braces counted), or len(s) when none does.
func closingBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(s)
}

// quoteOpDelim: the index of the delimiter of a quote-like operator at i
// (perl's q/qq/qw/qx/qr, ruby's %q/%Q/%w/%x/%(…)): the operator's letter,
// one of kinds, may follow, then spaces (not before #) and a delimiter; -1
// when code[i:] is not one.
func quoteOpDelim(code string, i int, kinds string) int {
	j := i + 1
	if j < len(code) && strings.IndexByte(kinds, code[j]) >= 0 && isIdent(code[j]) {
		j++
	}
	k := j
	for code[i] == 'q' && k < len(code) && (code[k] == ' ' || code[k] == '\t') {
		k++
	}
	if k >= len(code) || isIdent(code[k]) {
		return -1
	}
	if k > j && code[k] == '#' {
		return -1 // q #… is q followed by a comment
	}
	if strings.IndexByte("{([</|!#~^%@\"':+", code[k]) < 0 {
		return -1
	}
	return k
}

// rubyLiteralStart: a % that starts a literal, not a modulo (it follows an
// operator, an opening bracket, a comma or the start, not an operand).
func rubyLiteralStart(code string, i int) bool {
	j := i - 1
	for j >= 0 && (code[j] == ' ' || code[j] == '\t') {
		j--
	}
	if j < 0 {
		return true
	}
	c := code[j]
	if isIdent(c) {
		// a method call before it: puts %x(…), system %q(…)
		return j < i-1 // `name %(…)`: an argument, not `a%b`
	}
	return !(c == ')' || c == ']' || c == '}')
}

// pathConstructor: a call whose string argument is the folder its value
// stands for (Path('src').iterdir(), Dir.new('x').children, new
// DirectoryInfo("x").GetFiles()).
func pathConstructor(name string) bool {
	switch name {
	case "path", "purepath", "posixpath", "windowspath", "pureposixpath", "purewindowspath", "pathname",
		"dir", "new", "open", "opendir", "directoryinfo", "directory", "file", "fileinfo", "folder", "resolve", "join", "expanduser", "absolute":
		return true
	}
	return false
}

// codeChdirs reports whether code changes its working folder to one not
// written as a plain string literal: chdir(…) in any language (os.chdir,
// process.chdir, Dir.chdir, os.Chdir, fchdir, contextlib.chdir) and
// PowerShell's Set-Location/Push-Location (and cd, sl, pushd, chdir)
// whose argument is a variable, a call or an interpolated string. A
// literal folder (os.chdir("/tmp")) is not: the literal is a word the
// gate checks as a path, and the names after it keep their reading.
func codeChdirs(code, lang string) bool {
	lc := strings.ToLower(code)
	computedAt := func(i int) bool {
		for i < len(lc) && (lc[i] == ' ' || lc[i] == '\t') {
			i++
		}
		if i >= len(lc) || lc[i] != '"' && lc[i] != '\'' {
			return true // a variable, a call, an f-string, a path expression
		}
		q := lc[i]
		end := strings.IndexByte(lc[i+1:], q)
		if end < 0 {
			return true
		}
		lit := lc[i+1 : i+1+end]
		return strings.ContainsAny(lit, "${#") && (q == '"' || lang != "pwsh" && lang != "sh")
	}
	for off := 0; ; {
		j := strings.Index(lc[off:], "chdir")
		if j < 0 {
			break
		}
		k := off + j + len("chdir")
		for k < len(lc) && (lc[k] == ' ' || lc[k] == '\t') {
			k++
		}
		if k < len(lc) && lc[k] == '(' && computedAt(k+1) {
			return true
		}
		if lang == "pwsh" && k < len(lc) && lc[k] != '(' && computedAt(k) {
			return true
		}
		off = k
	}
	if lang != "pwsh" {
		return false
	}
	for _, name := range []string{"set-location", "push-location", "cd", "sl", "pushd"} {
		for off := 0; ; {
			j := strings.Index(lc[off:], name)
			if j < 0 {
				break
			}
			at := off + j
			k := at + len(name)
			off = k
			if at > 0 && !strings.ContainsRune(" \t\n;|({", rune(lc[at-1])) {
				continue // part of a longer word
			}
			if k >= len(lc) || !strings.ContainsRune(" \t", rune(lc[k])) {
				continue
			}
			for k < len(lc) && (lc[k] == ' ' || lc[k] == '\t') {
				k++
			}
			if strings.HasPrefix(lc[k:], "-path") || strings.HasPrefix(lc[k:], "-literalpath") {
				k = strings.IndexAny(lc[k:], " \t") + k
				if k < at {
					return true
				}
			}
			if computedAt(k) {
				return true
			}
		}
	}
	return false
}
