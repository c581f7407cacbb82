package guard

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf16"

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
		if ar.f.pattern() || ar.f.multi {
			known = false // a pattern, or fields at unknown places
		}
		texts = append(texts, ar.f.text())
	}
	flags, operands := splitFlags(texts)
	for i, o := range operands {
		if n, ok := fdPath(path.Clean(o)); ok && n == "0" {
			operands[i] = "-" // /dev/stdin is stdin
		}
	}
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
			var stop bool
			if s, stop = echoEscapes(s); stop {
				nl = false
			}
		}
		if nl {
			s += "\n"
		}
		return source{kind: srcText, text: s}
	case "printf":
		if !known || len(texts) == 0 || texts[0] == "-v" {
			return dynSource("printf of a value computed when the command runs")
		}
		if out, ok := printfFormat(texts[0], texts[1:]); ok {
			return source{kind: srcText, text: out}
		}
		return dynSource("printf output the analysis does not model")
	case "cat", "tac", "head", "tail", "sort", "uniq", "tee", "more", "less", "nl":
		files := 0
		for _, o := range operands {
			if o != "-" {
				files++
			}
		}
		if c.name == "head" || c.name == "tail" {
			files = len(headTailFiles(texts))
		}
		if c.name == "tee" || files == 0 {
			return filterText(c.name, texts, in)
		}
		if files == 1 && known && c.name == "cat" {
			n, _ := a.norm(operands[0], false)
			if strings.HasPrefix(n, "/dev/") || strings.HasPrefix(n, "/proc/") {
				return dynSource("the stream " + n) // another descriptor or device
			}
			return source{kind: srcFile, file: n}
		}
		return dynSource("the content of files")
	case "base64", "base32", "basenc":
		if hasFlag(flags, "-d", "--decode", "-D") && len(operands) == 0 {
			switch {
			case c.name == "base64" || c.name == "basenc" && hasFlag(flags, "--base64"):
				return decodeSource(in, decodeBase64Strict)
			case c.name == "base32" || c.name == "basenc" && hasFlag(flags, "--base32"):
				return decodeSource(in, decodeBase32Strict)
			}
			return dynSource("decoded data")
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
	case "ls":
		if out, ok := a.lsOutput(c); ok {
			return out // exact text
		}
		if out, ok := a.lsNames(c); ok {
			return lsNameSet(out)
		}
		return dynSource("the names ls prints")
	case "basename":
		if known && len(flags) == 0 && len(operands) > 0 && len(operands) <= 2 {
			b := operands[0]
			if t := strings.TrimRight(b, "/"); t != "" {
				b = path.Base(t)
			} else if b != "" {
				b = "/"
			}
			if len(operands) > 1 && b != operands[1] {
				b = strings.TrimSuffix(b, operands[1])
			}
			return source{kind: srcText, text: b + "\n"}
		}
	case "dirname":
		if known && len(flags) == 0 && len(operands) == 1 && !strings.HasPrefix(operands[0], "//") {
			d := strings.TrimRight(operands[0], "/")
			switch {
			case d == "" && operands[0] != "":
				d = "/"
			default:
				d = path.Dir(d)
			}
			return source{kind: srcText, text: d + "\n"}
		}
	case "realpath", "readlink":
		// the path with its links resolved: known when the disk shows no
		// link on the way (readlink without -f prints a link's own text)
		if known && len(operands) == 1 && (c.name == "realpath" && len(flags) == 0 || hasFlag(flags, "-f", "--canonicalize")) && a.env.FS != nil {
			n, _ := a.norm(operands[0], false)
			if out, changed, ok := resolveLinks(a.env.FS, n, a.win); ok && !changed {
				return source{kind: srcText, text: out + "\n"}
			}
		}
		return dynSource("the output of " + c.name)
	case "export", "unset", "true", "false", ":", "touch", "mkdir", "chmod", "chown", "chgrp", "rm", "ln", "cp", "mv",
		"local", "readonly", "wait", "sleep", "umask", "trap", "shopt":
		// print nothing on stdout (unless verbose, or asked to list)
		lists := c.name == "export" || c.name == "readonly" || c.name == "umask" || c.name == "trap" || c.name == "shopt" || c.name == "local"
		if hasFlag(flags, "-v", "--verbose") || lists && (len(operands) == 0 || hasFlag(flags, "-p", "-P")) {
			break
		}
		return source{}
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

// filterText is what a filter writes for stdin in: text it changes is
// computed exactly (head/tail -n/-c, tac, uniq) or unknown (sort, nl,
// options not modelled); names and other streams pass as a superset.
func filterText(name string, texts []string, in source) source {
	if in.kind != srcText {
		if name == "nl" {
			return dynSource("the output of nl")
		}
		return in
	}
	known := !strings.ContainsRune(in.text, unknownRune)
	if in.unordered && name != "tee" && name != "cat" && name != "more" && name != "less" {
		return linesAsNames(in, "lines of "+in.why+" picked by "+name)
	}
	switch name {
	case "tee":
		return in
	case "cat", "more", "less":
		if len(texts) == 0 || len(texts) == 1 && texts[0] == "-" {
			return in
		}
	case "tac":
		if known && len(texts) == 0 {
			var recs []string
			for l := range strings.Lines(in.text) {
				recs = append(recs, l)
			}
			var b strings.Builder
			for i := len(recs) - 1; i >= 0; i-- {
				b.WriteString(recs[i])
			}
			return source{kind: srcText, text: b.String()}
		}
	case "uniq":
		if known && len(texts) == 0 {
			var b strings.Builder
			prev, first := "", true
			for l := range strings.Lines(in.text) {
				k := strings.TrimSuffix(l, "\n")
				if first || k != prev {
					b.WriteString(k + "\n")
				}
				prev, first = k, false
			}
			return source{kind: srcText, text: b.String()}
		}
	case "head", "tail":
		if known {
			if out, ok := headTail(name, texts, in.text); ok {
				return source{kind: srcText, text: out}
			}
		}
	}
	return dynSource("the output of " + name)
}

// headTailFiles returns head's or tail's file operands.
func headTailFiles(texts []string) []string {
	var files []string
	for i := 0; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "-n" || t == "-c" || t == "--lines" || t == "--bytes" || t == "--pid" || t == "-s" || t == "--sleep-interval":
			i++
		case t == "-" || !strings.HasPrefix(t, "-"):
			if t != "-" {
				files = append(files, t)
			}
		}
	}
	return files
}

// headTail computes head's or tail's output for text: -n/-c/--lines/
// --bytes with N, +N (tail) or -N (head), the old -N form; ok false for
// anything else (several counts, -q/-v with names, -f…).
func headTail(name string, texts []string, text string) (string, bool) {
	bytes, count, set := false, "10", false
	for i := 0; i < len(texts); i++ {
		t := texts[i]
		val := ""
		switch {
		case t == "-n" || t == "-c" || t == "--lines" || t == "--bytes":
			if i+1 >= len(texts) {
				return "", false
			}
			i++
			val = texts[i]
			bytes = t == "-c" || t == "--bytes"
		case strings.HasPrefix(t, "--lines=") || strings.HasPrefix(t, "--bytes="):
			k, v, _ := strings.Cut(t, "=")
			val, bytes = v, k == "--bytes"
		case len(t) > 2 && (strings.HasPrefix(t, "-n") || strings.HasPrefix(t, "-c")) && !strings.ContainsAny(t[2:], "qvfzF"):
			val, bytes = t[2:], t[1] == 'c'
		case len(t) > 1 && t[0] == '-' && strings.Trim(t[1:], "0123456789") == "":
			val = t[1:] // head -5
		case t == "-q" || t == "--quiet" || t == "--silent" || t == "-":
			continue
		default:
			return "", false
		}
		if set {
			return "", false
		}
		count, set = val, true
	}
	from, neg := false, false
	switch {
	case strings.HasPrefix(count, "+"):
		from, count = true, count[1:]
	case strings.HasPrefix(count, "-"):
		neg, count = true, count[1:]
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 {
		return "", false // a suffix (K, M…) or not a number
	}
	if (from && name == "head") || (neg && name == "tail") {
		if name == "tail" && neg {
			neg = false // tail -n -3 is tail -n 3
		} else {
			return "", false
		}
	}
	if bytes {
		switch {
		case name == "head" && neg:
			return text[:max(0, len(text)-n)], true
		case name == "head":
			return text[:min(n, len(text))], true
		case from:
			return text[min(max(n-1, 0), len(text)):], true
		default:
			return text[max(0, len(text)-n):], true
		}
	}
	var lines []string
	for l := range strings.Lines(text) {
		lines = append(lines, l)
	}
	switch {
	case name == "head" && neg:
		return strings.Join(lines[:max(0, len(lines)-n)], ""), true
	case name == "head":
		return strings.Join(lines[:min(n, len(lines))], ""), true
	case from:
		return strings.Join(lines[min(max(n-1, 0), len(lines)):], ""), true
	default:
		return strings.Join(lines[max(0, len(lines)-n):], ""), true
	}
}

func cwdSource(a *shellAnalyzer) source {
	if len(a.cwds) == 1 && !strings.ContainsRune(a.cwds[0], unknownRune) {
		return source{kind: srcText, text: a.cwds[0] + "\n"}
	}
	// one of the candidate folders, as $PWD (a value: see cmdSubst)
	out := source{kind: srcDyn, why: "pwd", text: "dir"}
	if len(a.cwds) <= maxPWDAlts {
		for _, c := range a.cwds {
			out.names = append(out.names, litField(c))
		}
	}
	return out
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
	why := "mktemp"
	if !mktempFresh(flags, operands) {
		why = "mktemp in a folder it is given"
	}
	return field{s: "/" + unknownSeg + "/" + tmpl, unk: true, why: why}
}

// mktempFresh reports whether mktemp makes its file or folder in the
// temporary folder ($TMPDIR or /tmp, from the environment): no -p or
// --tmpdir, a template without `/` (or computed). A cd there is not a cd
// to a folder named at run time (see chdir).
func mktempFresh(flags, operands []string) bool {
	for _, f := range flags {
		switch {
		case f == "--directory" || f == "--quiet" || f == "--dry-run" || strings.HasPrefix(f, "--suffix="):
		case strings.HasPrefix(f, "--"):
			return false
		case strings.Trim(f[1:], "dqtu") != "":
			return false
		}
	}
	for _, o := range operands {
		if strings.ContainsAny(o, "/"+unknownStr) {
			return false
		}
	}
	return true
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

// decodeBase64Strict decodes as GNU base64 -d does what it decodes
// whole: the standard alphabet, padded or not, line breaks ignored;
// anything else (it stops at the first bad character) is not modelled.
func decodeBase64Strict(s string) (string, bool) {
	s = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if b, err := enc.Strict().DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// decodeBase32Strict is decodeBase64Strict for base32 -d.
func decodeBase32Strict(s string) (string, bool) {
	s = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	b, err := base32.StdEncoding.DecodeString(s)
	if err != nil {
		return "", false
	}
	return string(b), true
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
	if strings.Contains(s, "[:") || strings.Contains(s, "[=") || strings.Contains(s, "*]") || !isASCII(s) {
		return nil
	}
	if strings.Contains(s, `\`) {
		s = strings.NewReplacer(`\\`, "\x00B", `\n`, "\n", `\t`, "\t", `\r`, "\r").Replace(s)
		if strings.Contains(s, `\`) {
			return nil // tr's other escapes (\NNN, \-): not modelled
		}
		s = strings.ReplaceAll(s, "\x00B", `\`)
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] > r[i+2] {
			return nil // tr rejects a reversed range
		}
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

// printfFormat renders a printf format with its arguments as bash's
// printf does: the format's escapes, %s/%b/%q/%c with flags, width and
// precision (`*` from the arguments), the integer conversions, the format
// reused while arguments remain. ok is false for what it does not model
// exactly (floating point, %(…)T, a number that does not parse, text
// that is not ASCII where widths count).
func printfFormat(format string, args []string) (string, bool) {
	var b strings.Builder
	k := 0
	next := func() (string, bool) {
		if k < len(args) {
			k++
			return args[k-1], true
		}
		return "", false
	}
	for pass := 0; pass < 64; pass++ {
		consumed := false
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch == '\\' {
				s, n := printfEscape(format[i:], false)
				b.WriteString(s)
				i += n - 1
				continue
			}
			if ch != '%' {
				b.WriteByte(ch)
				continue
			}
			if i+1 < len(format) && format[i+1] == '%' {
				b.WriteByte('%')
				i++
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			flags := format[i+1 : j]
			width, prec := "", ""
			if j < len(format) && format[j] == '*' {
				a, _ := next()
				consumed = true
				if _, err := strconv.Atoi(a); err != nil && a != "" {
					return "", false
				}
				width = a
				j++
			} else {
				w0 := j
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				width = format[w0:j]
			}
			hasPrec := false
			if j < len(format) && format[j] == '.' {
				hasPrec = true
				j++
				if j < len(format) && format[j] == '*' {
					a, _ := next()
					consumed = true
					if _, err := strconv.Atoi(a); err != nil && a != "" {
						return "", false
					}
					prec = a
					j++
				} else {
					p0 := j
					for j < len(format) && format[j] >= '0' && format[j] <= '9' {
						j++
					}
					prec = format[p0:j]
				}
			}
			if j >= len(format) {
				return "", false
			}
			conv := format[j]
			i = j
			arg, had := next()
			consumed = consumed || had
			spec := "%" + flags + width
			if hasPrec {
				spec += "." + prec
				if prec == "" {
					spec += "0"
				}
			}
			switch conv {
			case 's':
				if !isASCII(arg) && (width != "" || hasPrec) {
					return "", false
				}
				b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), "#", "")+"s", arg))
			case 'b':
				s, stop := echoEscapes(arg)
				if !isASCII(s) && (width != "" || hasPrec) {
					return "", false
				}
				b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), "#", "")+"s", s))
				if stop {
					return b.String(), true
				}
			case 'q':
				if width != "" || hasPrec {
					return "", false
				}
				switch {
				case arg == "":
					b.WriteString("''")
				case strings.Trim(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == "":
					b.WriteString(arg)
				default:
					return "", false
				}
			case 'c':
				if arg != "" && arg[0] >= 0x80 {
					return "", false
				}
				c := ""
				if arg != "" {
					c = arg[:1]
				}
				b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), "#", "")+"s", c))
			case 'd', 'i', 'u', 'o', 'x', 'X':
				n, ok := printfNumber(arg)
				if !ok {
					return "", false
				}
				switch conv {
				case 'd', 'i':
					b.WriteString(fmt.Sprintf(spec+"d", n))
				case 'u':
					b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), " ", "")+"d", uint64(n)))
				case 'o':
					b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), " ", "")+"o", uint64(n)))
				default:
					b.WriteString(fmt.Sprintf(strings.ReplaceAll(strings.ReplaceAll(spec, "+", ""), " ", "")+string(conv), uint64(n)))
				}
			default:
				return "", false // floating point, %(…)T, %n…
			}
		}
		if !consumed || k >= len(args) {
			break
		}
	}
	if k < len(args) {
		return "", false
	}
	return b.String(), true
}

// printfNumber parses a printf integer argument: decimal, 0x hex, 0
// octal, 'c (the character's code); empty is 0.
func printfNumber(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	if s[0] == '\'' || s[0] == '"' {
		if len(s) == 1 {
			return 0, true
		}
		if s[1] >= 0x80 {
			return 0, false
		}
		return int64(s[1]), true
	}
	t := strings.TrimLeft(s, " \t\n")
	n, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		return 0, false // printf reports it and prints what it parsed: not modelled
	}
	if strings.HasPrefix(strings.TrimLeft(t, "+-"), "0o") || strings.HasPrefix(strings.TrimLeft(t, "+-"), "0b") || strings.Contains(t, "_") {
		return 0, false // Go's prefixes, not C's
	}
	return n, true
}

// printfEscape reads one backslash escape of a printf format at s[0]
// (inArg: %b's rules, \0NNN octal): the text and the bytes read.
func printfEscape(s string, inArg bool) (string, int) {
	if len(s) < 2 {
		return "\\", 1
	}
	switch c := s[1]; c {
	case 'a':
		return "\a", 2
	case 'b':
		return "\b", 2
	case 'e', 'E':
		return "\x1b", 2
	case 'f':
		return "\f", 2
	case 'n':
		return "\n", 2
	case 'r':
		return "\r", 2
	case 't':
		return "\t", 2
	case 'v':
		return "\v", 2
	case '\\':
		return "\\", 2
	case '"':
		if inArg {
			return "\\\"", 2
		}
		return "\"", 2
	case '\'':
		if inArg {
			return "\\'", 2
		}
		return "'", 2
	case '?':
		if inArg {
			return "\\?", 2
		}
		return "?", 2
	case 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return "\\x", 2
		}
		n, _ := strconv.ParseUint(s[2:j], 16, 8)
		return string([]byte{byte(n)}), j
	case 'u', 'U':
		width := 4
		if c == 'U' {
			width = 8
		}
		j := 2
		for j < len(s) && j < 2+width && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return s[:2], 2
		}
		n, _ := strconv.ParseUint(s[2:j], 16, 32)
		return string(rune(n)), j
	case '0', '1', '2', '3', '4', '5', '6', '7':
		start, max := 1, 4
		if inArg {
			if c != '0' {
				return s[:2], 2
			}
			start, max = 2, 5
		}
		j := start
		for j < len(s) && j < max && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint("0"+s[start:j], 8, 16)
		return string([]byte{byte(n)}), j
	}
	return s[:2], 2
}

// echoEscapes interprets %b's (and echo -e's) escapes; stop reports a \c,
// which ends all output.
func echoEscapes(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == 'c' {
			return b.String(), true
		}
		t, n := printfEscape(s[i:], true)
		b.WriteString(t)
		i += n - 1
	}
	return b.String(), false
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
	if v, ok := a.repoTopValue(x); ok {
		return v
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
	sh.parentWrote = a.parentWrote || len(a.written) > 0 || a.anyWrite()
	sh.written = map[string]source{}
	sh.fds = map[string]source{}
	sh.links = map[string]string{}
	if a.locals != nil {
		sh.locals = map[string]savedVar{}
	}
	sh.active = map[string]bool{}
	for k := range a.active {
		sh.active[k] = true
	}
	sh.substDepth = a.substDepth + 1
	in := a.stmtIn
	in.rd = nil // read from the start: a superset of what is left
	out := sh.stmt(x.Stmts[0], in)
	why := "$(" + strings.TrimSpace(a.substText(x)) + ")"
	switch out.kind {
	case srcText:
		if strings.ContainsRune(out.text, unknownRune) {
			return dynVal(why, true)
		}
		return knownVal(strings.TrimRight(out.text, "\n"))
	case srcNames:
		if out.why == "git ls-files" {
			if t, ok := namesText(out.names); ok {
				return knownVal(t)
			}
		}
		if len(out.names) == 1 {
			return pval{f: out.names[0], split: true}
		}
	case srcDyn:
		switch out.text {
		case "token":
			return unkVal(why)
		case "dir":
			if out.why == "pwd" && len(out.names) > 0 {
				// $(pwd): each folder the shell may be in, as $PWD
				v := envVal(why)
				for _, c := range out.names {
					v.alts = append(v.alts, cwdVal(c.s))
				}
				return v
			}
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

// lsNameSet marks lsNames' listing unordered when a locale could order
// its names otherwise than the disk's byte order (ls sorts by collation):
// which name comes first is then unknown, and a filter that picks lines by
// their place gets the names as a set (head -1 of them is any of them).
func lsNameSet(out source) source {
	lines := strings.Split(strings.TrimSuffix(out.text, "\n"), "\n")
	ordered := true
	for i := 1; i < len(lines); i++ {
		if dictKey(lines[i-1]) >= dictKey(lines[i]) || lines[i-1] >= lines[i] || strings.HasSuffix(lines[i], ":") {
			ordered = false
			break
		}
	}
	out.unordered = !ordered
	return out
}

// linesAsNames is unordered text as the set of its lines: what a filter
// that picks lines by their place (head, tail, tac) may print.
func linesAsNames(in source, why string) source {
	set := source{kind: srcNames, why: why}
	for l := range strings.Lines(in.text) {
		if l = strings.TrimSuffix(l, "\n"); l != "" && !strings.HasSuffix(l, ":") {
			set.names = append(set.names, litField(l))
		}
	}
	return set
}

// lsNames returns what ls prints when the disk shows it: the names of the
// folders it lists (hidden ones with -a/-A) and the files it is given,
// one a line, as xargs or a loop reads them. ok is false without the
// disk, for a flag that changes the format (-l, -R, -F, -Q, …), a name
// computed at run time, an unknown working directory or a folder that
// cannot be read.
func (a *shellAnalyzer) lsNames(c *cmd) (source, bool) {
	if a.env.FS == nil || len(a.cwds) != 1 || strings.ContainsRune(a.cwd(), unknownRune) {
		return source{}, false
	}
	if a.parentWrote || len(a.written) > 0 || a.anyWrite() {
		return source{}, false // the disk does not show what the command wrote yet
	}
	hidden, dirSelf := false, false
	var ops []field
	dd := false
	for _, ar := range c.args[1:] {
		t := optText(ar.f)
		switch {
		case ar.f.onlyUnk || ar.f.dyn || ar.f.unk:
			return source{}, false
		case dd || !strings.HasPrefix(t, "-") || t == "-":
			ops = append(ops, ar.f)
		case t == "--":
			dd = true
		case t == "--all" || t == "--almost-all":
			hidden = true
		case t == "--group-directories-first" || t == "--color" || strings.HasPrefix(t, "--color=") || t == "--directory":
			dirSelf = dirSelf || t == "--directory"
		case strings.HasPrefix(t, "--"):
			return source{}, false
		default:
			for _, ch := range t[1:] {
				switch {
				case ch == 'a' || ch == 'A':
					hidden = true
				case ch == 'd':
					dirSelf = true
				case strings.ContainsRune("1tSrXvUcuhp", ch):
				default:
					return source{}, false
				}
			}
		}
	}
	if len(ops) == 0 {
		ops = []field{litField(".")}
	}
	cwd := a.cwd()
	rel := func(p string) string {
		if r, ok := strings.CutPrefix(p, strings.TrimSuffix(cwd, "/")+"/"); ok {
			return r
		}
		return p
	}
	var b strings.Builder
	n := 0
	for _, f := range ops {
		var paths []string
		if f.glob {
			pat, _ := a.norm(f.s, true)
			ps, complete := globDisk(a.env.FS, pat, a.win, a.dotglob)
			if !complete {
				return source{}, false
			}
			paths = ps
		} else {
			p, _ := a.norm(f.s, false)
			paths = []string{p}
		}
		for _, p := range paths {
			info, err := a.env.FS.Lstat(p)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // an error on stderr, nothing printed
				}
				return source{}, false
			}
			if dirSelf || !info.IsDir() {
				name := rel(p)
				if !f.glob {
					name = f.s
				}
				b.WriteString(name + "\n")
				continue
			}
			ents, err := a.env.FS.ReadDir(p)
			if err != nil {
				return source{}, false
			}
			if len(ops) > 1 {
				b.WriteString(f.s + ":\n")
			}
			for _, e := range ents {
				if n++; n > maxGlobMatches {
					return source{}, false
				}
				if !hidden && strings.HasPrefix(e.Name(), ".") {
					continue
				}
				b.WriteString(e.Name() + "\n")
			}
		}
	}
	return source{kind: srcText, text: b.String()}, true
}

// maxTopAlts bounds the folders $(git rev-parse --show-toplevel) is taken
// to be one of (beyond: a folder known only at run time).
const maxTopAlts = 16

// repoTopValue is the value of `$(git rev-parse --show-toplevel)` (or
// --show-superproject-working-tree, --show-cdup), written exactly so: the
// top of the repository the shell is in is its working folder or one of
// that folder's ancestors, and git prints nothing outside a repository (a
// superproject's top is an ancestor of the submodule's): each of those
// folders, or the empty text, one of a few literal paths the gate checks
// one by one — not a folder known only at run time (`cd "$(git rev-parse
// --show-toplevel)" && make` reads no protected folder unless one of them
// is one). --show-cdup prints the way up as `../` steps, relative to the
// same folder. Not when the command could change what git finds: a GIT_*
// variable or PATH it assigns, a git function or alias it defines, an
// environment it passes on (a prefix assignment), nor when a candidate
// folder is itself computed. The environment's GIT_DIR, GIT_WORK_TREE
// and a repository's core.worktree (in .git/config, which the rules deny
// writing) are taken as unset: documented in docs/protected-paths.md.
func (a *shellAnalyzer) repoTopValue(x *syntax.CmdSubst) (pval, bool) {
	s, e := int(x.Pos().Offset()), int(x.End().Offset())
	if s < 0 || e > len(a.src) || s+2 > e-1 {
		return pval{}, false
	}
	t := a.src[s:e]
	switch {
	case strings.HasPrefix(t, "$(") && strings.HasSuffix(t, ")"):
		t = t[2 : len(t)-1]
	case strings.HasPrefix(t, "`") && strings.HasSuffix(t, "`"):
		t = t[1 : len(t)-1]
	default:
		return pval{}, false
	}
	flag := ""
	switch strings.Join(strings.Fields(t), " ") {
	case "git rev-parse --show-toplevel":
		flag = "top"
	case "git rev-parse --show-superproject-working-tree":
		flag = "top"
	case "git rev-parse --show-cdup":
		flag = "cdup"
	default:
		return pval{}, false
	}
	if a.funcs["git"] || a.aliases["git"] != "" || a.envUntrusted || len(a.cmdEnvNames) > 0 {
		return pval{}, false
	}
	for k := range a.vars {
		if strings.HasPrefix(k, "GIT_") || k == "PATH" {
			return pval{}, false
		}
	}
	for k := range a.arrays {
		if strings.HasPrefix(k, "GIT_") || k == "PATH" {
			return pval{}, false
		}
	}
	v := dynVal("$("+strings.TrimSpace(t)+")", false)
	v.alts = []pval{knownVal("")}
	seen := map[string]bool{}
	depth := 0
	for _, c := range a.cwds {
		if strings.ContainsRune(c, unknownRune) || globCwd(c) {
			return pval{}, false
		}
		vol, rest := splitVolume(c, a.win)
		segs := strings.Split(strings.Trim(rest, "/"), "/")
		if rest == "/" || rest == "" {
			segs = nil
		}
		depth = max(depth, len(segs))
		for n := len(segs); n >= 0 && flag == "top"; n-- {
			d := vol + "/" + strings.Join(segs[:n], "/")
			if !seen[d] {
				seen[d] = true
				v.alts = append(v.alts, knownVal(d))
			}
		}
	}
	for n := 1; n <= depth && flag == "cdup"; n++ {
		v.alts = append(v.alts, knownVal(strings.Repeat("../", n)))
	}
	if len(v.alts) > maxTopAlts {
		return pval{}, false
	}
	return v, true
}
