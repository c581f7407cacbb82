package guard

import (
	"strconv"
	"strings"
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
//   - every bare token outside literals is a path too (`r .env` in sed).
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
		"out-file", "add-content", "new-item", "shutil", "fs.cp", "fs.rm", ">"} {
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
	ops := SetRead
	probe := code
	if lang != "awk" && lang != "sed" {
		probe = strings.ReplaceAll(strings.ReplaceAll(probe, "=>", ""), "->", "")
		probe = strings.ReplaceAll(strings.ReplaceAll(probe, ">=", ""), " > ", "")
	}
	if writesFiles(probe) {
		ops |= setModify
	}
	if strings.Contains(strings.ToLower(code), "dotenv") {
		// dotenv libraries (require('dotenv').config(), load_dotenv()) read
		// .env from the working directory by default
		a.codePath(raw, ".env", SetRead)
	}
	lits, pieces, bare := scanCode(code, lang)
	seen := map[string]bool{}
	check := func(s string, nested bool) {
		if s == "" || seen[s] || len(seen) > maxCodePieces {
			return
		}
		seen[s] = true
		a.codePath(raw, s, ops)
		if nested && strings.ContainsAny(s, " \t;|&$`<>") && depth < maxCodeDepth {
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
		}
	}
	// runs of adjacent pieces
	for i := range pieces {
		var b strings.Builder
		for k := i; k < len(pieces) && k < i+codeWindow; k++ {
			b.WriteString(pieces[k])
			if k > i {
				check(b.String(), k-i < 4) // a short join may be a command (`system("cat .e" "nv")`)
			}
		}
	}
	if lang == "jq" {
		return // jq opens no file by itself: `.env` in a filter is a key
	}
	for _, t := range bare {
		check(t, false)
	}
}

// looseScript reads a string from code as a shell command: a string that
// does not parse is only a run of words (code strings are often prose).
func (a *shellAnalyzer) looseScript(s, raw string) {
	if a.depth >= maxScriptDepth {
		return
	}
	if _, err := parseShell(s); err != nil {
		a.tokens(s, SetRead)
		return
	}
	a.script(s, raw, source{})
}

// codePath records a path named in code: as written (against the working
// directories) and under any directory.
func (a *shellAnalyzer) codePath(raw, s string, ops OpSet) {
	if strings.TrimSpace(s) == "" || len(s) > 4096 {
		return
	}
	if v, ok := windowsVars(expandHome(strings.ReplaceAll(s, `\`, "/"), a.env.Home)); ok {
		// %VAR% and $env:VAR (cmd, PowerShell) may be any folder
		s = v
	}
	pattern := strings.ContainsRune(s, unknownRune)
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
		p := vol + "/" + unknownSeg + "/" + escIf(rel, pattern)
		a.addTarget(raw, cleanAbs(p, a.win), true, ops)
	}
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

// scanCode splits code into its string literals (escapes decoded), the
// sequence of literal and character-code pieces in source order, and the
// bare tokens outside literals.
func scanCode(code, lang string) (lits, pieces, bare []string) {
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
		if len(t) >= 2 {
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
	for i := 0; i < n; i++ {
		c := code[i]
		// comments are code too for our purposes (they cost nothing to read)
		quote := byte(0)
		raw := false
		switch {
		case c == '\'' || c == '"' || (c == '`' && lang != "pwsh"):
			quote = c
		case lang == "perl" && c == 'q' && i+2 < n && (code[i+1] == 'q' || code[i+1] == 'w' || code[i+1] == 'x') && !isIdent(prevByte(code, i)) && strings.IndexByte("{([</|!#", code[i+2]) >= 0:
			flush()
			end, body := perlQuote(code, i+2)
			addLit(decodeEscapes(body, lang))
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
		} else if raw {
			addLit(body)
		} else {
			addLit(decodeEscapes(holes(body, lang, quote), lang))
		}
		i = j
		if triple {
			i = j + 2
		}
	}
	flush()
	return lits, pieces, bare
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
			depth := 0
			j := i
			for j < len(s) {
				if s[j] == '{' {
					depth++
				} else if s[j] == '}' {
					depth--
					if depth == 0 {
						break
					}
				}
				j++
			}
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
