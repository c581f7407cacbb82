package guard

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxSubstDepth bounds how deeply command substitutions are evaluated for
// their value (each level is analysed again by a shadow analyser).
const maxSubstDepth = 8

// produce returns what a command writes to stdout, as far as the analysis
// can know it: the text of echo/printf with known arguments, stdin passed
// through cat, tee, head and friends, base64/hex/rev/tr decodings of known
// text, the names find prints, and short values (hashes, dates, ids) that
// name no file.
func (a *shellAnalyzer) produce(c *cmd) source {
	if c.out != nil {
		return *c.out
	}
	args := c.args[1:]
	texts := make([]string, 0, len(args))
	known := true
	for _, ar := range args {
		if ar.f.pattern() {
			known = false
		}
		texts = append(texts, ar.f.text())
	}
	flags, operands := splitFlags(texts)
	in := c.in
	switch c.name {
	case "echo":
		if !known {
			return dynSource("echo of a value computed when the command runs")
		}
		nl, esc := true, false
		i := 0
		for i < len(texts) {
			t := texts[i]
			if !strings.HasPrefix(t, "-") || strings.Trim(t[1:], "neE") != "" || len(t) < 2 {
				break
			}
			if strings.Contains(t, "n") {
				nl = false
			}
			if strings.Contains(t, "e") {
				esc = true
			}
			if strings.Contains(t, "E") {
				esc = false
			}
			i++
		}
		s := strings.Join(texts[i:], " ")
		if esc {
			s = unescapeANSI(s)
		}
		if nl {
			s += "\n"
		}
		return source{kind: srcText, text: s}
	case "printf":
		if !known || len(texts) == 0 || texts[0] == "-v" {
			return dynSource("printf of a value computed when the command runs")
		}
		return source{kind: srcText, text: printfFormat(texts[0], texts[1:])}
	case "cat", "tac", "head", "tail", "sort", "uniq", "tee", "more", "less", "nl":
		files := 0
		for _, o := range operands {
			if o != "-" {
				files++
			}
		}
		if c.name == "tee" || files == 0 {
			return in
		}
		if files == 1 && known && c.name == "cat" {
			n, _ := a.norm(operands[0], false)
			return source{kind: srcFile, file: n}
		}
		return dynSource("the content of files")
	case "base64", "base32", "basenc":
		if hasFlag(flags, "-d", "--decode", "-D") && len(operands) == 0 {
			return decodeSource(in, func(s string) (string, bool) { return decodeBase64(s) })
		}
		if len(operands) == 0 && in.kind == srcText && c.name == "base64" && !hasFlag(flags, "-d", "--decode", "-D") {
			return source{kind: srcText, text: base64.StdEncoding.EncodeToString([]byte(in.text)) + "\n"}
		}
	case "openssl":
		if len(texts) > 0 && (texts[0] == "base64" || texts[0] == "enc") && hasFlag(flags, "-d") && (texts[0] == "base64" || hasFlag(flags, "-a", "-base64", "-A")) {
			return decodeSource(in, func(s string) (string, bool) { return decodeBase64(s) })
		}
	case "xxd":
		if hasFlag(flags, "-r", "-revert") && hasFlag(flags, "-p", "-ps", "-plain") && len(operands) == 0 {
			return decodeSource(in, decodeHex)
		}
	case "rev":
		if len(operands) == 0 && in.kind == srcText {
			var b strings.Builder
			for line := range strings.Lines(in.text) {
				l := strings.TrimSuffix(line, "\n")
				b.WriteString(reverse(l))
				if strings.HasSuffix(line, "\n") {
					b.WriteByte('\n')
				}
			}
			return source{kind: srcText, text: b.String()}
		}
	case "tr":
		if in.kind == srcText && known {
			if out, ok := trText(in.text, flags, operands); ok {
				return source{kind: srcText, text: out}
			}
		}
	case "pwd":
		return cwdSource(a)
	case "basename":
		if known && len(operands) > 0 {
			b := path.Base(operands[0])
			if len(operands) > 1 {
				b = strings.TrimSuffix(b, operands[1])
			}
			return source{kind: srcText, text: b + "\n"}
		}
	case "dirname":
		if known && len(operands) > 0 {
			return source{kind: srcText, text: path.Dir(operands[0]) + "\n"}
		}
	case "realpath", "readlink":
		if known && len(operands) > 0 {
			n, _ := a.norm(operands[len(operands)-1], false)
			return source{kind: srcText, text: n + "\n"}
		}
	case "mktemp":
		return source{kind: srcDyn, why: "mktemp", text: "temp", names: []field{mktempField(flags, operands)}}
	case "date", "whoami", "id", "hostname", "uname", "nproc", "arch", "getconf", "uuidgen", "seq", "expr",
		"pgrep", "logname", "tty", "wc", "stat", "du":
		if c.name == "date" && strings.Contains(strings.Join(texts, " "), "/") {
			break
		}
		return source{kind: srcDyn, why: c.name, text: "token"}
	case "git":
		if tok := gitValueShape(texts); tok != "" {
			return source{kind: srcDyn, why: "git " + strings.Join(texts, " "), text: tok}
		}
	case "docker", "podman":
		if hasFlag(flags, "-q", "--quiet") {
			return source{kind: srcDyn, why: c.name + " ids", text: "token"}
		}
	case "lsof":
		if hasFlag(flags, "-t") {
			return source{kind: srcDyn, why: "lsof -t", text: "token"}
		}
	case "which", "command", "type":
		if known && len(operands) > 0 {
			return source{kind: srcDyn, why: c.name, text: "dir"}
		}
	case "go", "npm", "brew", "pnpm", "yarn", "python3-config", "pkg-config":
		return source{kind: srcDyn, why: c.name + " " + strings.Join(texts, " "), text: "dir"}
	}
	return dynSource("the output of " + c.name)
}

func cwdSource(a *shellAnalyzer) source {
	if len(a.cwds) == 1 && !strings.ContainsRune(a.cwds[0], unknownRune) {
		return source{kind: srcText, text: a.cwds[0] + "\n"}
	}
	return source{kind: srcDyn, why: "pwd", text: "dir"}
}

// gitValueShape says what a git command prints when it is used as a value:
// "token" (a hash, a ref name: no `/`-path, no file), "dir" (a directory),
// or "" (anything).
func gitValueShape(texts []string) string {
	if len(texts) == 0 {
		return ""
	}
	joined := " " + strings.Join(texts, " ") + " "
	switch texts[0] {
	case "rev-parse":
		for _, f := range []string{"--git-dir", "--absolute-git-dir", "--git-common-dir", "--git-path", "--show-prefix", "--show-cdup", "--resolve-git-dir"} {
			if strings.Contains(joined, " "+f) {
				return "" // the .git folder or a relative path: anything
			}
		}
		for _, f := range []string{"--show-toplevel", "--show-superproject-working-tree"} {
			if strings.Contains(joined, " "+f) {
				return "dir"
			}
		}
		return "token"
	case "merge-base", "rev-list", "describe", "hash-object", "write-tree", "commit-tree", "mktree":
		return "token"
	case "branch":
		if strings.Contains(joined, " --show-current ") {
			return "token"
		}
	case "symbolic-ref":
		if strings.Contains(joined, " --short ") {
			return "token"
		}
	case "log", "show":
		for _, f := range []string{"--format=%H", "--format=%h", "--pretty=%H", "--pretty=%h", "--format=%ct", "--format=%at", "--format=%cd", "--format=%an", "--format=%ae"} {
			if strings.Contains(joined, " "+f+" ") {
				return "token"
			}
		}
	case "config":
		if strings.Contains(joined, " --get ") || len(texts) == 2 {
			return ""
		}
	}
	return ""
}

func mktempField(flags, operands []string) field {
	tmpl := "tmp." + unknownStr
	if len(operands) > 0 {
		t := strings.TrimRight(operands[len(operands)-1], "X")
		tmpl = escapeGlob(path.Base(t)) + unknownStr
	}
	return field{s: "/" + unknownSeg + "/" + tmpl, unk: true, why: "mktemp"}
}

// splitFlags separates option-looking words from operands (roughly: for
// producers only).
func splitFlags(texts []string) (flags, operands []string) {
	dd := false
	for _, t := range texts {
		if !dd && t == "--" {
			dd = true
			continue
		}
		if !dd && strings.HasPrefix(t, "-") && t != "-" {
			flags = append(flags, t)
			continue
		}
		operands = append(operands, t)
	}
	return flags, operands
}

func hasFlag(flags []string, names ...string) bool {
	for _, f := range flags {
		for _, n := range names {
			if f == n {
				return true
			}
			if len(n) == 2 && n[0] == '-' && len(f) > 2 && f[0] == '-' && f[1] != '-' && strings.IndexByte(f[1:], n[1]) >= 0 {
				return true
			}
		}
	}
	return false
}

// decodeSource applies a decoder to known text on stdin.
func decodeSource(in source, dec func(string) (string, bool)) source {
	switch in.kind {
	case srcText:
		if strings.ContainsRune(in.text, unknownRune) {
			return dynSource("decoded data computed when the command runs")
		}
		if out, ok := dec(strings.TrimSpace(in.text)); ok {
			return source{kind: srcText, text: out}
		}
		return dynSource("data that does not decode")
	case srcNone:
		return source{}
	}
	return dynSource("decoded data")
}

// decodeBase64 decodes standard or URL base64, padded or not, ignoring
// line breaks.
func decodeBase64(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' || r == ':' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// decodeUTF16Base64 decodes PowerShell's -EncodedCommand (base64 of
// UTF-16LE).
func decodeUTF16Base64(s string) (string, bool) {
	raw, ok := decodeBase64(s)
	if !ok || len(raw)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(raw)/2)
	for i := range u {
		u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// trText applies tr SET1 SET2 (ranges and escapes; -d deletes) to text.
func trText(text string, flags, operands []string) (string, bool) {
	del := hasFlag(flags, "-d", "--delete")
	for _, f := range flags {
		if f != "-d" && f != "--delete" {
			return "", false // -c, -s and classes are not emulated
		}
	}
	if len(operands) == 0 {
		return "", false
	}
	s1 := trSet(operands[0])
	if s1 == nil {
		return "", false
	}
	if del {
		return strings.Map(func(r rune) rune {
			for _, x := range s1 {
				if x == r {
					return -1
				}
			}
			return r
		}, text), true
	}
	if len(operands) < 2 {
		return "", false
	}
	s2 := trSet(operands[1])
	if len(s2) == 0 {
		return "", false
	}
	m := map[rune]rune{}
	for i, r := range s1 {
		j := min(i, len(s2)-1)
		m[r] = s2[j]
	}
	return strings.Map(func(r rune) rune {
		if x, ok := m[r]; ok {
			return x
		}
		return r
	}, text), true
}

func trSet(s string) []rune {
	if strings.Contains(s, "[:") || strings.Contains(s, "[=") {
		return nil
	}
	s = unescapeANSI(s)
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2] && len(out) < 4096; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}

// printfFormat renders a printf format with its arguments (%s, %b, %d, %c,
// %%; the format is reused while arguments remain, as printf does).
func printfFormat(format string, args []string) string {
	var b strings.Builder
	k := 0
	for pass := 0; pass < 64; pass++ {
		used := false
		f := unescapeANSI(strings.ReplaceAll(format, `\c`, ""))
		for i := 0; i < len(f); i++ {
			if f[i] != '%' || i+1 >= len(f) {
				b.WriteByte(f[i])
				continue
			}
			j := i + 1
			for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
				j++
			}
			if j >= len(f) {
				b.WriteString(f[i:])
				break
			}
			next := ""
			if f[j] != '%' && k < len(args) {
				next = args[k]
				k++
				used = true
			}
			switch f[j] {
			case '%':
				b.WriteByte('%')
			case 's', 'q':
				b.WriteString(next)
			case 'b':
				b.WriteString(unescapeANSI(next))
			case 'c':
				if next != "" {
					r, _ := utf8.DecodeRuneInString(next)
					b.WriteRune(r)
				}
			case 'd', 'i', 'u':
				n, _ := strconv.ParseInt(next, 0, 64)
				b.WriteString(strconv.FormatInt(n, 10))
			case 'x', 'X', 'o':
				n, _ := strconv.ParseInt(next, 0, 64)
				base := 16
				if f[j] == 'o' {
					base = 8
				}
				b.WriteString(strconv.FormatInt(n, base))
			default:
				b.WriteString(next)
			}
			i = j
		}
		if !used || k >= len(args) {
			break
		}
	}
	return b.String()
}

// cmdSubstValue is the value of `$(…)` used in a word: evaluated by a
// shadow analysis of the substituted command (which adds no paths: the
// real walk of the substitution does that).
func (a *shellAnalyzer) cmdSubstValue(x *syntax.CmdSubst) pval {
	if a.substDepth >= maxSubstDepth || len(x.Stmts) != 1 {
		return dynVal("$(…)", true)
	}
	if st := x.Stmts[0]; st.Cmd == nil {
		// `$(< FILE)`: the file's content, only known when it runs
		for _, r := range st.Redirs {
			if r.Op == syntax.RdrIn {
				return dynVal("$("+strings.TrimSpace(a.substText(x))+")", true)
			}
		}
	}
	sh := *a
	sh.out = &analysis{}
	sh.seen = map[*syntax.Word]bool{}
	sh.vars = copyMap(a.vars)
	sh.arrays = map[string][]pval{}
	for k, v := range a.arrays {
		sh.arrays[k] = v
	}
	sh.cwds = append([]string(nil), a.cwds...)
	sh.written = map[string]source{}
	sh.links = map[string]string{}
	if a.locals != nil {
		sh.locals = map[string]savedVar{}
	}
	sh.active = map[string]bool{}
	for k := range a.active {
		sh.active[k] = true
	}
	sh.substDepth = a.substDepth + 1
	out := sh.stmt(x.Stmts[0], source{})
	why := "$(" + strings.TrimSpace(a.substText(x)) + ")"
	switch out.kind {
	case srcText:
		if strings.ContainsRune(out.text, unknownRune) {
			return dynVal(why, true)
		}
		return knownVal(strings.TrimRight(out.text, "\n"))
	case srcNames:
		if len(out.names) == 1 {
			return pval{f: out.names[0], split: true}
		}
	case srcDyn:
		switch out.text {
		case "token":
			return unkVal(why)
		case "dir":
			return envVal(why)
		case "temp":
			if len(out.names) == 1 {
				return pval{f: out.names[0]}
			}
		}
	case srcNone:
		return knownVal("")
	}
	return dynVal(why, true)
}

func (a *shellAnalyzer) substText(x *syntax.CmdSubst) string {
	s, e := int(x.Pos().Offset()), int(x.End().Offset())
	if s >= 0 && e <= len(a.src) && s+2 <= e-1 {
		t := a.src[s:e]
		t = strings.TrimPrefix(strings.TrimPrefix(t, "$("), "`")
		t = strings.TrimSuffix(strings.TrimSuffix(t, ")"), "`")
		if len(t) > 60 {
			t = t[:60] + "…"
		}
		return t
	}
	return "…"
}

func copyMap(m map[string]pval) map[string]pval {
	out := make(map[string]pval, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
