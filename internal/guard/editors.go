package guard

import "strings"

// This file reads the languages editors and sed run from their command
// line: sed scripts and vim's (and ed's) Ex commands.

// sedScriptUses reads a sed script for the commands that open files or run
// commands: `r`/`R FILE` read, `w`/`W FILE` and the s command's `w FILE`
// flag write, `e COMMAND` runs a shell command, and `e` alone or the s
// command's `e` flag run the pattern space as one (computed when the
// command runs). With --sandbox GNU sed refuses all of them.
func (a *shellAnalyzer) sedScriptUses(script, raw string) {
	for _, op := range parseSed(script) {
		switch op.kind {
		case 'r':
			a.value(raw, litField(op.arg), SetRead)
		case 'w':
			if op.arg != "/dev/stdout" && op.arg != "/dev/stderr" {
				a.value(raw, litField(op.arg), setModify)
			}
		case 'e':
			a.script(op.arg, raw, source{})
		case 'E':
			a.unknown(raw, "sed runs "+op.arg+" as a shell command, computed when the command runs", SetRead|setModify)
		case '?':
			a.unknown(raw, "a sed script the analysis cannot read ("+op.arg+"), which may open files or run commands", SetRead|setModify)
		}
	}
}

// sedOp is one file or command use of a sed script: kind 'r' (read arg),
// 'w' (write arg), 'e' (run arg), 'E' (run text computed at run time,
// arg says which), '?' (not parsed; arg says where).
type sedOp struct {
	kind byte
	arg  string
}

// parseSed lists the file and command uses of a GNU sed script.
func parseSed(s string) []sedOp {
	var out []sedOp
	n := len(s)
	i := 0
	toEOL := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = n - i
		}
		v := s[i : i+j]
		i += j
		return v
	}
	// delimited reads a part ending at an unescaped d; ok is false at the end
	delimited := func(d byte) bool {
		for i < n {
			switch {
			case s[i] == '\\' && i+1 < n:
				i += 2
			case s[i] == d:
				i++
				return true
			case s[i] == '\n' && d != '\n':
				return false
			default:
				i++
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for i < n {
		ch := s[i]
		if ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '{' || ch == '}' {
			i++
			continue
		}
		if ch == '#' {
			toEOL()
			continue
		}
		if !address() {
			return append(out, sedOp{'?', "an address"})
		}
		if i < n && s[i] == ',' {
			i++
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return append(out, sedOp{'?', "an address"})
			}
		}
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '!') {
			i++
		}
		if i >= n {
			break
		}
		ch = s[i]
		i++
		switch ch {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			for i < n && s[i] != '\n' && s[i] != ';' {
				i++
			}
		case 'a', 'i', 'c':
			// text to the end of the line, continued by a trailing `\`
			for i < n {
				line := toEOL()
				if !strings.HasSuffix(line, "\\") || i >= n {
					break
				}
				i++ // the newline
			}
		case 'r', 'R', 'w', 'W':
			name := strings.TrimLeft(toEOL(), " \t")
			if name == "" {
				continue
			}
			k := byte('r')
			if ch == 'w' || ch == 'W' {
				k = 'w'
			}
			out = append(out, sedOp{k, name})
		case 'e':
			cmdText := strings.TrimLeft(toEOL(), " \t")
			if cmdText == "" {
				out = append(out, sedOp{'E', "the pattern space (`e`)"})
			} else {
				out = append(out, sedOp{'e', cmdText})
			}
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return append(out, sedOp{'?', "an " + string(ch) + " command"})
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return append(out, sedOp{'?', "an " + string(ch) + " command"})
			}
			if ch == 'y' {
				continue
			}
			for i < n {
				f := s[i]
				if f == 'e' {
					out = append(out, sedOp{'E', "the result of an s command (its `e` flag)"})
				} else if f == 'w' {
					i++
					if name := strings.TrimLeft(toEOL(), " \t"); name != "" {
						out = append(out, sedOp{'w', name})
					}
					break
				} else if !(f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9') {
					break
				}
				i++
			}
		default:
			return append(out, sedOp{'?', "the command `" + string(ch) + "`"})
		}
	}
	return out
}

// sedScriptFile: sed -f FILE reads its script from FILE: stdin (`-`)
// or a file the command wrote is read as sed code; a pipe the analysis
// cannot see is unverifiable (a file on the disk is not followed).
func (c *cmd) sedScriptFile(v optHit) {
	f, ok := c.valField(v)
	if !ok || f.pattern() {
		return
	}
	in := source{}
	if t := f.text(); t == "-" || t == "/dev/stdin" {
		in = c.in
	} else if w, ok := c.a.writtenFile(f); ok {
		in = w
	}
	switch in.kind {
	case srcText:
		if strings.ContainsRune(in.text, unknownRune) {
			c.a.unknown(v.raw, "sed runs a script computed when the command runs", SetRead|setModify)
		}
		c.a.codeText(strings.ReplaceAll(in.text, unknownStr, ""), v.raw, "sed")
	case srcNames, srcDyn:
		c.a.unknown(v.raw, "sed runs a script read from a pipe, which the analysis cannot see", SetRead|setModify)
	}
}

// vimCommands reads Ex commands (vim -c/--cmd/+CMD, ex's stdin) for what
// opens files or runs commands: file arguments are read as shell words
// (vim expands globs, `~`, `$VAR` and backticks in them), `!CMD`, `r
// !CMD`, `w !CMD` and `:terminal CMD` run shell commands, `g/re/CMD`
// runs CMD. Expressions that call functions, `:normal`, the language
// interfaces and any command the analysis does not model are
// unverifiable.
func (a *shellAnalyzer) vimCommands(text, raw string) {
	a.vimLine(text, raw, 0)
}

func (a *shellAnalyzer) vimLine(text, raw string, depth int) {
	unknown := func(why string) {
		a.unknown(raw, "the editor runs "+why+", which the analysis does not model", SetRead|setModify)
	}
	if depth > 4 {
		unknown("nested commands")
		return
	}
	for _, line := range strings.Split(text, "\n") {
		rest := line
		for rest != "" {
			cmdText := strings.TrimLeft(rest, " \t:")
			rest = ""
			if cmdText == "" || strings.HasPrefix(cmdText, `"`) {
				break
			}
			// the range: %, numbers, marks, patterns, . $ + - , ;
			k := 0
			for k < len(cmdText) {
				ch := cmdText[k]
				if ch == '/' || ch == '?' {
					e := strings.IndexByte(cmdText[k+1:], ch)
					if e < 0 {
						k = len(cmdText)
						break
					}
					k += e + 2
					continue
				}
				if ch == '\'' && k+1 < len(cmdText) {
					k += 2
					continue
				}
				if strings.IndexByte("%0123456789.$+-,; \t", ch) < 0 {
					break
				}
				k++
			}
			cmdText = cmdText[k:]
			if cmdText == "" {
				break
			}
			name := cmdText
			j := 0
			for j < len(name) && (name[j] >= 'a' && name[j] <= 'z' || name[j] >= 'A' && name[j] <= 'Z' || name[j] >= '0' && name[j] <= '9' && j > 0) {
				j++
			}
			if j == 0 {
				j = 1 // !, &, <, >, =, @, *, ~, #
			}
			name, args := cmdText[:j], cmdText[j:]
			bang := strings.HasPrefix(args, "!")
			if bang && name != "!" {
				args = args[1:]
			}
			args = strings.TrimLeft(args, " \t")
			// commands that see `|` as their argument take the rest
			takesBar := name == "!" || name == "g" || name == "global" || name == "v" || name == "vglobal" || vimCommandKind(name) == 'm' ||
				name == "norm" || name == "normal" || name == "te" || name == "ter" || name == "terminal" ||
				strings.HasPrefix(args, "!")
			if !takesBar {
				if b := vimBar(args); b >= 0 {
					rest, args = args[b+1:], args[:b]
				}
			}
			switch vimCommandKind(name) {
			case 'm':
				a.vimLine(args, raw, depth+1)
			case 'q': // harmless
			case 'o':
				for _, opt := range strings.Fields(args) {
					if _, val, ok := strings.Cut(opt, "="); ok && val != "" {
						a.vimFiles(val, raw, SetRead|setModify)
					}
				}
			case 'r', 'w', 'e':
				ops := SetRead
				switch vimCommandKind(name) {
				case 'w':
					ops = setModify
				case 'e':
					ops = SetRead | setModify
				}
				switch {
				case strings.HasPrefix(args, "!"):
					a.script(args[1:], raw, source{})
				case strings.HasPrefix(args, "+") && !strings.HasPrefix(args, "++"):
					unknown("a command given to a file command (`+cmd`)")
				default:
					fa := strings.TrimSpace(strings.TrimPrefix(args, ">>"))
					fa = strings.TrimSpace(strings.TrimPrefix(fa, ">"))
					for strings.HasPrefix(fa, "++") {
						sp := strings.IndexAny(fa, " \t")
						if sp < 0 {
							fa = ""
							break
						}
						fa = strings.TrimLeft(fa[sp:], " \t")
					}
					if fa != "" {
						a.vimFiles(fa, raw, ops)
					}
				}
			case '!':
				a.script(args, raw, source{})
			case 't':
				if args == "" {
					unknown("an interactive shell")
				} else {
					a.script(args, raw, source{})
				}
			case 'g':
				// g/re/cmd: the command after the pattern
				if len(args) > 0 {
					d := args[0]
					if e := strings.IndexByte(args[1:], d); e >= 0 {
						a.vimLine(args[e+2:], raw, depth+1)
					} else {
						unknown("a :global command it cannot read")
					}
				}
			case 's':
				if strings.Contains(args, `\=`) {
					unknown("an expression in a substitution (`\\=`)")
				}
			case 'x':
				if strings.Contains(args, "(") || strings.Contains(args, "`") {
					unknown("an expression that calls functions (`" + clip(cmdText, 40) + "`)")
				}
			default:
				unknown("the command `" + clip(cmdText, 40) + "`")
			}
		}
	}
}

// vimBar returns the index of the first `|` that ends a command (not
// escaped, not inside quotes of an expression), or -1.
func vimBar(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', 0x16:
			i++
		case '|':
			return i
		}
	}
	return -1
}

// vimFiles checks the file arguments of an Ex command as shell words.
func (a *shellAnalyzer) vimFiles(args, raw string, ops OpSet) {
	if ops.Has(OpRead) {
		a.script("cat -- "+args, raw, source{})
	}
	if ops.Has(OpWrite) {
		a.script("tee -- "+args, raw, source{})
	}
}

// vimCommandKind sorts an Ex command by what it does: 'q' touches no
// other file, 'r' reads its file arguments, 'w' writes them, '!' runs a
// shell command, 't' a terminal, 'g' a command on matching lines, 's' a
// substitution, 'x' evaluates an expression, 'e' opens a buffer (read,
// and written by a later :w), 'o' sets options (their values may name
// files), 'm' runs the command after it, 0 anything else.
func vimCommandKind(name string) byte {
	switch name {
	case "q", "qu", "qui", "quit", "qa", "qall", "quita", "quitall", "cq", "cquit", "p", "pr", "print", "P", "nu", "number",
		"#", "l", "list", "d", "de", "del", "delete", "j", "join", "m", "mo", "move", "t", "co", "copy", "y", "ya", "yank",
		"pu", "put", "<", ">", "=", "u", "un", "undo", "red", "redo", "le", "left", "ri", "right", "ce", "center",
		"ret", "retab", "sor", "sort", "k", "ma", "mark",
		"sy", "syntax", "filet", "filetype", "noh", "nohlsearch", "a", "append", "i", "insert", "c", "change",
		"&", "&&", "~", "wn", "wN", "bd", "bdelete", "bw", "bwipeout", "bn", "bnext", "bp", "bprevious",
		"files", "buffers", "ls", "reg", "registers", "marks", "undol", "undolist", "ve", "version",
		"redr", "redraw", "nohl", "en", "endif", "endfo", "endfor", "endw", "endwhile":
		return 'q'
	case "sil", "silent", "uns", "unsilent", "noa", "noautocmd", "keepp", "keeppatterns", "keepa", "keepalt",
		"keepj", "keepjumps", "kee", "keepmarks", "loc", "lockmarks", "conf", "confirm", "vert", "vertical", "tab",
		"nos", "noswapfile", "san", "sandbox", "bro", "browse", "to", "topleft", "bo", "botright", "abo", "aboveleft",
		"bel", "belowright", "lefta", "leftabove", "rightb", "rightbelow", "hid", "hide", "leg", "legacy", "vim9", "vim9cmd",
		"argdo", "bufdo", "windo", "tabdo", "cdo", "cfdo", "ldo", "lfdo", "folddoopen", "folddoc", "folddoclosed":
		return 'm' // a modifier or a loop: the command after it runs
	case "e", "ed", "edi", "edit", "sp", "spl", "split", "vs", "vsp", "vsplit", "new", "vne", "vnew",
		"tabe", "tabedit", "tabnew", "vie", "view", "sv", "sview", "bad", "badd", "arga", "argadd", "ar", "args", "n", "next",
		"fin", "find", "f", "fi", "fil", "file", "diffs", "diffsplit":
		return 'e' // opens a buffer, which a later :w writes
	case "r", "re", "rea", "read", "so", "sou", "source", "luaf", "luafile", "pyf", "pyfile", "py3f", "py3file", "rubyf", "rubyfile",
		"diffp", "diffpatch", "vimgrep", "vim", "lv", "lvimgrep", "vimgrepa", "vimgrepadd", "cf", "cfile", "lf", "lfile", "ru", "runtime":
		return 'r'
	case "w", "wr", "wri", "writ", "write", "wq", "x", "xi", "xit", "exi", "exit", "sav", "saveas", "up", "upd", "update",
		"wa", "wall", "wqa", "wqall", "xa", "xall", "redi", "redir", "mks", "mksession", "mkv", "mkvimrc", "wv", "wviminfo", "wsh", "wshada":
		return 'w'
	case "se", "set", "setl", "setlocal", "setg", "setglobal":
		return 'o' // options, some of which name files vim writes (viminfofile, backupdir, undodir)
	case "!":
		return '!'
	case "te", "ter", "terminal":
		return 't'
	case "g", "gl", "global", "v", "vg", "vglobal":
		return 'g'
	case "s", "su", "sub", "substitute", "sm", "smagic", "sno", "snomagic":
		return 's'
	case "echo", "ec", "echon", "echom", "echomsg", "let", "if", "elsei", "elseif", "for", "wh", "while", "unl", "unlet":
		return 'x'
	}
	return 0
}

// exMode reports whether vim runs in Ex mode (-e, -E, -es, -Es, --clean
// -e…), reading Ex commands on stdin.
func (c *cmd) exMode() bool {
	switch c.name {
	case "vi", "vim", "nvim", "view", "gvim", "rvim":
	default:
		return false
	}
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		if strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], "eE") && strings.Trim(t[1:], "eEsnNRZXyVm") == "" {
			return true
		}
	}
	return false
}
