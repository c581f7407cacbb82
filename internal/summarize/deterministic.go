package summarize

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsval"
)

// Deterministic summarises b without a model: one bullet per call, led by
// its `[[N:tool]]` label — the tool and its key argument (path, command,
// pattern, …), OK or ERROR with the exit code, the size — and, as budget
// allows, sub-bullets with error lines verbatim, the first and last
// meaningful lines, the paths and the identifiers defined in the output.
// The same batch always gives the same bytes.
func Deterministic(b Batch) string {
	n := 0 // about the summary's length: a header, the sub-bullets' budget
	for _, c := range b.Calls {
		n += 192 + min(c.Chars/budgetDivide, 1024)
	}
	w := make([]byte, 0, n) // the summary's lines, each call's after the last's
	for i, c := range b.Calls {
		if i > 0 {
			w = append(w, '\n')
		}
		w = appendCallSummary(w, i+1, c, b.Cwd)
	}
	if len(w) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(w), len(w)) // w is not written again
}

const (
	maxKeyArg    = 100 // chars of the key argument on the header line
	maxLine      = 120 // chars of a quoted output line
	maxErrLines  = 3
	maxPaths     = 6
	maxNames     = 8
	budgetDivide = 20 // sub-bullets take at most 1/20 of the result's size
	// minBullet is the fewest chars a sub-bullet takes: "  - last: " or
	// "  - only: " and a line of one char (a meaningful line has two bytes
	// or more, maybe one char); an error line's and a list's take more
	minBullet = len("  - : ") + len("last") + 1
)

// appendCallSummary appends the lines of call n's summary to w (joined
// with "\n"): its header, then the sub-bullets its budget allows.
func appendCallSummary(w []byte, n int, c Call, cwd string) []byte {
	text := c.Result
	facts := c.Facts != nil && HeaderOnly(c.Chars, c.IsError) // (no text read)
	var exit string
	var aborted bool
	if facts {
		exit, aborted = c.Facts.Exit, c.Facts.Aborted
	} else {
		exit, aborted = exitStatus(text)
	}
	w = append(w, "- [["...)
	w = strconv.AppendInt(w, int64(n), 10)
	w = append(w, ':')
	w = append(w, c.ToolName...)
	w = append(w, "]] "...)
	w = append(w, c.ToolName...)
	// the key argument after a space (none: no space), written where it
	// goes: key views it there (w's bytes are only ever appended to)
	w = append(w, ' ')
	k0 := len(w)
	w = appendKeyArg(w, c.ToolName, c.Args, cwd)
	key := bufString(w[k0:])
	if key == "" {
		w = w[:k0-1]
	}
	w = append(w, " — "...)
	if c.IsError {
		w = append(w, "ERROR"...)
	} else {
		w = append(w, "OK"...)
	}
	switch {
	case aborted:
		w = append(w, ", aborted"...)
	case exit != "":
		w = append(w, ", exit "...)
		w = append(w, exit...)
	}
	size := c.Chars
	if size == 0 {
		size = JSLen(text)
	}
	if size == 0 {
		return append(w, "; no text output"...)
	}
	lines := 0
	if facts {
		lines = c.Facts.Lines
	} else {
		lines = strings.Count(text, "\n") + 1
	}
	w = append(w, "; "...)
	w = strconv.AppendInt(w, int64(lines), 10)
	w = append(w, " lines, "...)
	w = strconv.AppendInt(w, int64(size), 10)
	w = append(w, " chars"...)

	if HeaderOnly(size, c.IsError) {
		// no sub-bullet fits (only an error's first line raises the
		// budget): the text is not scanned for them
		return w
	}
	budget := size / budgetDivide
	// add appends the sub-bullet "  - kind: " + the items joined with ", "
	// when its chars fit the budget (units: their JavaScript lengths)
	add := func(kind string, units int, items ...string) {
		units += len("  - : ") + len(kind) // kinds are ASCII
		if len(items) > 1 {
			units += len(", ") * (len(items) - 1)
		}
		if units > budget {
			return
		}
		w = append(w, "\n  - "...)
		w = append(w, kind...)
		w = append(w, ": "...)
		for i, it := range items {
			if i > 0 {
				w = append(w, ", "...)
			}
			w = append(w, it...)
		}
		budget -= units
	}
	first, last, count := meaningful(text)
	var shownBuf [maxErrLines + 2]string // (on the stack: at most the error lines, first and last)
	shown := shownBuf[:0]                // the lines quoted (clipped)
	quote := func(kind, line string) {
		l, units := clipLen(line, maxLine)
		if slicesContains(shown, l) {
			return
		}
		shown = append(shown, l)
		add(kind, units, l)
	}
	file := isFileTool(c.ToolName, c.Args)
	sc := lineScan{namesFrom: 0} // (no pass made: defines reads every line)
	if c.IsError || !file {
		// the error lines, and the names of the lines read for them when
		// names may be listed (more than one meaningful line)
		sc = scanLines(text, count > 1)
		errs := sc.errs
		if len(errs) == 0 && c.IsError && count > 0 {
			errs = []string{first}
		}
		for i, e := range errs {
			if i == 0 && c.IsError && JSLen(e) > budget {
				_, units := clipLen(e, maxLine)
				budget = len("  - error: ") + units // an error's first line is always kept
			}
			quote("error", e)
		}
	}
	const enough = 24 // budget under which a list is not worth scanning for
	list := func(kind string, items []string) {
		if len(items) == 0 {
			return
		}
		units := 0
		for _, it := range items {
			units += JSLen(it)
		}
		add(kind, units, items...)
	}
	paths := func() {
		if budget >= enough {
			list("paths", pathsIn(text, key, cwd))
		}
	}
	names := func() {
		if budget >= enough {
			list("defines", sc.defines(text))
		}
	}
	switch {
	case count == 1:
		quote("only", first)
		paths()
	case count > 1 && file:
		// a file: how it starts and ends, what it defines
		quote("first", first)
		quote("last", last)
		names()
		paths()
	case count > 1:
		// a command's output: how it ended matters most (its first line is
		// mostly the command or a banner echoed)
		quote("last", last)
		paths()
		names()
	}
	return w
}

// keyArgNames are the argument keys that say what a call was about, in the
// order they are looked for.
var keyArgNames = [...]string{"command", "cmd", "path", "file_path", "filePath", "pattern", "query", "url", "glob", "name"}

// The indexes keyArgIndex gives the members a read's key argument is
// followed by, after keyArgNames'.
const (
	argOffset = len(keyArgNames) + iota
	argLimit
	keyArgSlots
)

// keyArg returns the call's key argument for the header line: the first of
// keyArgNames holding a string (with offset/limit for reads), or the
// arguments themselves when short.
func keyArg(tool, args, cwd string) string {
	return string(appendKeyArg(nil, tool, args, cwd))
}

// appendKeyArg appends keyArg(tool, args, cwd) to dst.
func appendKeyArg(dst []byte, tool, args, cwd string) []byte {
	// args is JSON.stringify output (canonical): an object, or another value
	obj := unsafe.Slice(unsafe.StringData(args), len(args)) // read, never written
	if jsval.TypeOf(obj) != jsval.Obj {
		return dst // null is an empty map, anything else no map
	}
	// one pass over the members for every key name, offset and limit
	// included (the last of duplicates wins, as with Get)
	var vals [keyArgSlots][]byte
	empty := true
	jsval.EachMemberRaw(obj, func(rawKey, v []byte) bool {
		empty = false
		if i := keyArgIndex(rawKey); i >= 0 {
			vals[i] = v
		}
		return true
	})
	for i, k := range keyArgNames {
		v := vals[i]
		if v == nil || jsval.TypeOf(v) != jsval.Str {
			continue
		}
		s := jsonString(args, v)
		if s == "" {
			continue
		}
		dst = append(appendKeyText(append(dst, '`'), s, cwd), '`')
		if k == "path" || k == "file_path" || k == "filePath" {
			n := 0 // the extras written
			for j, x := range [...]string{"offset", "limit"} {
				if v := vals[argOffset+j]; v != nil && jsval.TypeOf(v) == jsval.Num {
					if f, ok := jsval.Number(v); ok {
						if n == 0 {
							dst = append(dst, " ("...)
						} else {
							dst = append(dst, ", "...)
						}
						dst = strconv.AppendFloat(append(append(dst, x...), '='), f, 'f', -1, 64)
						n++
					}
				}
			}
			if n > 0 {
				dst = append(dst, ')')
			}
		}
		return dst
	}
	if empty {
		return dst
	}
	if JSLen(args) <= 80 {
		return append(append(append(dst, '`'), args...), '`')
	}
	return dst
}

// jsonString decodes the JSON string v, a part of args, as encoding/json
// decodes it into a Go string (each invalid UTF-8 byte and lone surrogate
// becomes U+FFFD): without an escape and in valid UTF-8, the part of args
// between its quotes.
func jsonString(args string, v []byte) string {
	if body := v[1 : len(v)-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) && !bytes.Contains(body, runeError) {
		off := int(uintptr(unsafe.Pointer(unsafe.SliceData(body))) - uintptr(unsafe.Pointer(unsafe.StringData(args))))
		return args[off : off+len(body)]
	}
	if s, ok := jsval.String(v); ok && utf8.ValidString(s) && !strings.Contains(s, string(utf8.RuneError)) {
		return s // no replacement made (no U+FFFD, no invalid byte): the same as encoding/json's
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// jsLenAtMost reports whether JSLen(s) <= n, reading s no further than
// its first n+1 chars: its longest prefix of at most n chars is all of it.
func jsLenAtMost(s string, n int) bool {
	if len(s) <= n {
		return true // (a byte is at most one char)
	}
	return len(jsPrefix(s, n)) == len(s)
}

// bufString is b as a string without a copy: b's bytes are not written
// again.
func bufString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// runeError is U+FFFD in UTF-8.
var runeError = []byte(string(utf8.RuneError))

// keyText is clip(relative(oneLine(s), cwd), maxKeyArg): the key argument
// as the header shows it. A long multi-line argument (a heredoc) has only
// its head folded: enough bytes that what relative strips leaves more
// than maxKeyArg chars (at most 3 bytes a char), which clip then cuts as
// it would cut the whole.
func keyText(s, cwd string) string {
	return string(appendKeyText(nil, s, cwd))
}

// appendKeyText appends keyText(s, cwd) to dst.
func appendKeyText(dst []byte, s, cwd string) []byte {
	if strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0 {
		s = foldHead(s, len(cwd)+16+3*(maxKeyArg+2))
	}
	s = relative(s, cwd)
	if jsLenAtMost(s, maxKeyArg) {
		return append(dst, s...)
	}
	return append(append(dst, jsPrefix(s, maxKeyArg-1)...), "…"...) // clip's
}

// foldHead is oneLine(s) (s holding a line break), or a prefix of it at
// least limit bytes long: the fold of a head of s cut at a character's
// start (its fields are those of s, the last maybe cut short).
func foldHead(s string, limit int) string {
	for k := 2 * limit; ; k *= 2 {
		if k >= len(s) {
			return strings.Join(strings.Fields(s), " ")
		}
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		if f := strings.Join(strings.Fields(s[:k]), " "); len(f) >= limit {
			return f
		}
	}
}

// keyArgIndex is the index in keyArgNames of a raw JSON member key (-1:
// none).
func keyArgIndex(rawKey []byte) int {
	if len(rawKey) < 2 {
		return -1
	}
	key := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		s, _ := jsval.String(rawKey)
		key = []byte(s)
	}
	switch string(key) { // compared, not kept: no copy
	case "command":
		return 0
	case "cmd":
		return 1
	case "path":
		return 2
	case "file_path":
		return 3
	case "filePath":
		return 4
	case "pattern":
		return 5
	case "query":
		return 6
	case "url":
		return 7
	case "glob":
		return 8
	case "name":
		return 9
	case "offset":
		return argOffset
	case "limit":
		return argLimit
	}
	return -1
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

// exitCode returns the code of a shell's exit-status line ("Command exited
// with code N", "exit code: N", "Exit status N", "exited with code N").
func exitCode(t string) (string, bool) {
	if t == "" || t[0] != 'C' && t[0] != 'E' && t[0] != 'e' {
		return "", false // (what every prefix starts with)
	}
	for _, p := range []string{"Command exited with code ", "exited with code ", "Exit code: ", "exit code: ", "Exit code ", "exit code ", "Exit status: ", "exit status: ", "Exit status ", "exit status "} {
		if !strings.HasPrefix(t, p) {
			continue
		}
		rest := strings.TrimSuffix(t[len(p):], ".")
		digits := strings.TrimPrefix(rest, "-")
		if digits == "" || strings.TrimFunc(digits, func(r rune) bool { return r >= '0' && r <= '9' }) != "" {
			return "", false
		}
		return rest, true
	}
	return "", false
}

// lines calls fn for each line of text (without "\n"), trimmed, from the
// start (or from the end when back), until fn returns false.
func lines(text string, back bool, fn func(t string) bool) {
	if !back {
		for len(text) > 0 {
			i := strings.IndexByte(text, '\n')
			line := text
			if i >= 0 {
				line, text = text[:i], text[i+1:]
			} else {
				text = ""
			}
			if !fn(strings.TrimSpace(line)) {
				return
			}
		}
		return
	}
	for len(text) > 0 {
		i := strings.LastIndexByte(text, '\n')
		line := text[i+1:]
		if i >= 0 {
			text = text[:i]
		} else {
			text = ""
		}
		if !fn(strings.TrimSpace(line)) {
			return
		}
	}
}

// exitStatus finds the exit code a shell tool reports on its last
// non-blank line ("Command exited with code N"), or "Command aborted".
func exitStatus(text string) (code string, aborted bool) {
	seen := 0
	lines(text, true, func(t string) bool {
		if t == "" {
			seen++
			return seen < 4
		}
		if c, ok := exitCode(t); ok {
			code = c
		}
		aborted = t == "Command aborted" || t == "(command cancelled)"
		return false
	})
	return code, aborted
}

// isMeaningful: a trimmed line holding a letter or digit, not an
// exit-status line.
func isMeaningful(t string) bool {
	if len(t) < 2 {
		return false
	}
	if _, ok := exitCode(t); ok {
		return false
	}
	return strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// meaningful returns the first and the last meaningful lines and how many
// there are (counted up to 2).
func meaningful(text string) (first, last string, count int) {
	lines(text, false, func(t string) bool {
		if isMeaningful(t) {
			first, count = t, 1
			return false
		}
		return true
	})
	if count == 0 {
		return "", "", 0
	}
	lines(text, true, func(t string) bool {
		if isMeaningful(t) {
			last = t
			return false
		}
		return true
	})
	// the same line found from both ends: one meaningful line only if no
	// other lies between them
	if last == first && strings.Index(text, first) == strings.LastIndex(text, last) {
		n := 0
		lines(text, false, func(t string) bool {
			if isMeaningful(t) {
				n++
			}
			return n < 2
		})
		return first, last, n
	}
	return first, last, 2
}

// errorWords are the words (ASCII, case-insensitive, whole words) that make
// a line an error report.
var errorWords = [...]string{"error", "errors", "err!", "fail", "failed", "failure", "fatal", "panic", "exception", "traceback",
	"cannot", "could not", "couldn't", "not found", "no such file", "denied", "refused", "undefined", "segmentation fault", "timed out"}

// errorLines returns up to maxErrLines distinct lines that report a
// failure, verbatim (trimmed), in order: a line with one of the first
// maxErrLines whole-word occurrences of an errorWords word, or one that
// starts with ✗ × ✘, FAIL or E and three digits (lineScan without names).
func errorLines(text string) []string {
	return scanLines(text, false).errs
}

// lineScan is what one pass over a result text finds (scanLines): its
// errorLines and, when asked for, the identifiers it defines (namesIn's)
// of the lines the pass read, namesIn's rest from namesFrom on (-1: none
// left to read: names is namesIn(text)).
type lineScan struct {
	errs      []string
	names     []string
	namesFrom int
}

// defines is namesIn(text) of the scan of text: its names and those of
// the lines it did not read.
func (l *lineScan) defines(text string) []string {
	if l.namesFrom >= 0 {
		l.names = appendNames(l.names, text[l.namesFrom:])
		l.namesFrom = -1
	}
	return l.names
}

// scanLines finds errorLines(text) and, when names, namesIn's names of the
// lines it reads, in one pass over text eight bytes at a time: each
// word's bytes (wordMask) tell where words start, each '\n' where a line
// ends, in order. Only a word that starts with an error word's letters is
// compared (errorSecond, then errorWordsStarting; ASCII case folded in
// place); a line ended is an error line when an occurrence counted in it
// or its start (failStart) says so, and is read for a definition when
// its first bytes may start one (mayDefineWord). The pass ends with the
// third error line: the names of the lines after it are left to defines,
// which reads them only if the summary has room for them. No line is
// searched for its end (a command's output has a line every ~40 bytes:
// the per-line searches of errorLines and namesIn each cost as much as
// the words read).
//
// (Per word, the occurrences counted are the same as a search of each word
// from the last one's end would find: no word has a proper suffix after a
// non-word byte that starts it, so no counted occurrence overlaps another
// of the same word; none holds a '\n', so none crosses a line's end.)
func scanLines(text string, names bool) lineScan {
	var found [len(errorWords)]uint8                       // occurrences counted per word
	left := len(errorWords)                                // words still under maxErrLines
	sc := lineScan{namesFrom: -1}                          // errs: distinct, at most maxErrLines, compared in turn
	tb := unsafe.Slice(unsafe.StringData(text), len(text)) // read, never written
	line, hit := 0, false                                  // the line's start, whether an occurrence was counted in it
	var prev uint64                                        // 0x80: the byte before the eight is a word byte
	for i := 0; i < len(tb); i += 8 {
		var x uint64
		if i+8 <= len(tb) {
			x = binary.LittleEndian.Uint64(tb[i:])
		} else {
			var last [8]byte // (zero bytes past the end: neither word bytes nor line ends)
			copy(last[:], tb[i:])
			x = binary.LittleEndian.Uint64(last[:])
		}
		m := wordMask(x)
		y := x ^ '\n'*lo8
		nl := ^((y&lo7 + lo7) | y) & hi8 // 0x80 where the byte is '\n'
		starts := m &^ (m<<8 | prev)
		prev = m >> 56 & 0x80
		if left == 0 {
			starts = 0
		}
		if nl == 0 {
			// (most eights: no line ends in them, their word starts the
			// line's)
			for ; starts != 0; starts &= starts - 1 {
				if p := i + bits.TrailingZeros64(starts)>>3; mayStartErrorWord(text, p) && countErrorWords(text, p, &found, &left) {
					hit = true
				}
			}
			continue
		}
		for ev := starts | nl; ev != 0; ev &= ev - 1 {
			b := ev & -ev
			p := i + bits.TrailingZeros64(ev)>>3
			if nl&b != 0 {
				// the line text[line:p] ends: most lines neither
				// report an error nor start a definition
				t := text[line:p]
				if hit || maybeFailStart(t) || names && len(sc.names) < maxNames && mayDefineWord(t) {
					if sc.endLine(t, hit, names) {
						if names && len(sc.names) < maxNames && p+1 < len(text) {
							sc.namesFrom = p + 1
						}
						return sc
					}
				}
				line, hit = p+1, false
				continue
			}
			if left > 0 && mayStartErrorWord(text, p) && countErrorWords(text, p, &found, &left) {
				hit = true
			}
		}
	}
	if line < len(text) {
		sc.endLine(text[line:], hit, names) // the last line, no '\n' after it
	}
	return sc
}

// mayStartErrorWord reports whether the word starting at text[p] may be
// an error word: its first two bytes, folded, are the start of one's
// (every error word starts with two letters; | 0x20 folds exactly the two
// cases of one). Most word starts are not.
func mayStartErrorWord(text string, p int) bool {
	if p+1 >= len(text) {
		return false
	}
	c := text[p+1] | 0x20 - 'a'
	return c < 26 && errorSecond[text[p]|0x20]>>c&1 != 0
}

// countErrorWords counts the error words that occur at text[p:] (a word's
// start) for the words under maxErrLines (found and left: scanLines'), and
// reports whether it counted one.
func countErrorWords(text string, p int, found *[len(errorWords)]uint8, left *int) bool {
	hit := false
	ks := errorWordsStarting(text[p] | 0x20) // (a digit stays one, '_' is no letter)
	for j := 0; j < len(ks); j++ {
		k := ks[j]
		w := errorWords[k]
		if found[k] >= maxErrLines || !hasPrefixFold(text[p:], w) {
			continue
		}
		if e := p + len(w); e < len(text) && isWordByte(text[e]) && isWordByte(w[len(w)-1]) {
			continue
		}
		hit = true
		if found[k]++; found[k] == maxErrLines {
			*left--
		}
	}
	return hit
}

// endLine adds the line t (untrimmed) to the scan's error lines when hit
// (an occurrence counted in it) or failStart says it is one, and its name
// to its names (when names) when it defines one; it reports whether the
// scan has its last error line.
func (sc *lineScan) endLine(t string, hit, names bool) bool {
	if names && len(sc.names) < maxNames && mayDefineWord(t) {
		if n := definedName(strings.TrimSpace(t)); len(n) >= 3 && !slicesContains(sc.names, n) {
			sc.names = append(sc.names, n)
		}
	}
	if !hit && !maybeFailStart(t) {
		return false // (no trimming or exit-status test for most lines)
	}
	t = strings.TrimSpace(t)
	if t == "" || slicesContains(sc.errs, t) || !(hit || failStart(t)) {
		return false
	}
	if _, exit := exitCode(t); exit {
		return false
	}
	sc.errs = append(sc.errs, t)
	return len(sc.errs) == maxErrLines
}

// errorWordsStarting is the indexes in errorWords of the words that start
// with the lower-case ASCII letter c, as a string of bytes.
func errorWordsStarting(c byte) string {
	switch c {
	case 'e':
		return "\x00\x01\x02\x08" // error errors err! exception
	case 'f':
		return "\x03\x04\x05\x06" // fail failed failure fatal
	case 'p':
		return "\x07" // panic
	case 't':
		return "\x09\x13" // traceback, timed out
	case 'c':
		return "\x0a\x0b\x0c" // cannot, could not, couldn't
	case 'n':
		return "\x0d\x0e" // not found, no such file
	case 'd':
		return "\x0f" // denied
	case 'r':
		return "\x10" // refused
	case 'u':
		return "\x11" // undefined
	case 's':
		return "\x12" // segmentation fault
	}
	return ""
}

// errorSecond is, by the lower-case first letter of an error word, the
// second letters errorWords have after it (bit c-'a', so 1 is 'a'), a
// constant table.
var errorSecond = [256]uint32{
	'e': 1<<('r'-'a') | 1<<('x'-'a'), // error errors err! exception
	'f': 1,                           // a: fail failed failure fatal
	'p': 1,                           // a: panic
	't': 1<<('r'-'a') | 1<<('i'-'a'), // traceback, timed out
	'c': 1 | 1<<('o'-'a'),            // cannot, could not, couldn't
	'n': 1 << ('o' - 'a'),            // not found, no such file
	'd': 1 << ('e' - 'a'),            // denied
	'r': 1 << ('e' - 'a'),            // refused
	'u': 1 << ('n' - 'a'),            // undefined
	's': 1 << ('e' - 'a'),            // segmentation fault
}

// wordMask flags (high bit) the bytes of w that are word bytes
// ([A-Za-z0-9_]): each byte's low seven bits compared with the ranges
// without a carry between bytes, bytes >= 0x80 left out.
func wordMask(w uint64) uint64 {
	a := w & lo7
	l := a | 0x20*lo8 // letters folded to lower case
	letter := (l + (0x80-'a')*lo8) &^ (l + (0x7f-'z')*lo8)
	digit := (a + (0x80-'0')*lo8) &^ (a + (0x7f-'9')*lo8)
	u := a ^ '_'*lo8
	under := ^((u + lo7) | u) // 0x80 where u's byte is 0
	return (letter | digit | under) & ^w & hi8
}

const (
	lo7 = 0x7f7f7f7f7f7f7f7f
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// hasPrefixFold reports whether s starts with the lower-case ASCII word w,
// ASCII letters of s compared case-insensitively.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := s[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// maybeFailStart: line's first byte after leading ASCII blanks (and any
// other leading space TrimSpace would trim) could start a failStart line.
func maybeFailStart(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			continue
		case 'E', 'F':
			return true
		default:
			return c >= 0x80 // ✗ × ✘, or a non-ASCII space before them
		}
	}
	return false
}

// failStart: a line that starts as a failure report.
func failStart(t string) bool {
	switch {
	case strings.HasPrefix(t, "✗"), strings.HasPrefix(t, "×"), strings.HasPrefix(t, "✘"), strings.HasPrefix(t, "FAIL"):
		return true
	case len(t) >= 4 && t[0] == 'E' && isDigit(t[1]) && isDigit(t[2]) && isDigit(t[3]):
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes are the bytes of a word: [A-Za-z0-9_] (a constant table).
var wordBytes = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true, 'I': true, 'J': true,
	'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true, 'Q': true, 'R': true, 'S': true, 'T': true,
	'U': true, 'V': true, 'W': true, 'X': true, 'Y': true, 'Z': true, '_': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true, 'i': true, 'j': true,
	'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true, 'r': true, 's': true, 't': true,
	'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true,
}

// pathByte: a byte that may be part of a path token.
func pathByte(c byte) bool {
	return isWordByte(c) || c == '/' || c == '.' || c == '-' || c == '@' || c == '+' || c == '~'
}

// pathsIn returns up to maxPaths distinct path-like tokens of text (with a
// "/" in them, not URLs), in order of appearance, leaving out skip.
func pathsIn(text, skip, cwd string) []string {
	var out []string
	// the paths seen (skip's, each path's and its relative form's: at most
	// 1+2*maxPaths, compared in turn)
	seen := append(make([]string, 0, 1+2*maxPaths), strings.Trim(skip, "`"))
	for off := 0; off < len(text) && len(out) < maxPaths; {
		i := strings.IndexByte(text[off:], '/')
		if i < 0 {
			break
		}
		i += off
		s, e := i, i+1
		for s > 0 && pathByte(text[s-1]) {
			s--
		}
		for e < len(text) && pathByte(text[e]) {
			e++
		}
		off = e
		if s > 0 && !strings.ContainsRune(" \t\n\"'([=:`", rune(text[s-1])) {
			continue // inside a larger token
		}
		for e > s && !isWordByte(text[e-1]) {
			e-- // trailing punctuation
		}
		p := text[s:e]
		if strings.HasPrefix(text[e:], "://") || (s >= 1 && text[s-1] == ':' && strings.HasPrefix(p, "//")) {
			continue // a URL
		}
		core := strings.TrimPrefix(p, "/")
		if !strings.Contains(core, "/") || !strings.Contains(p, ".") && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			continue // "/settings", "and/or", "input/output": a command or words, not paths
		}
		if len(p) < 4 || len(p) > 200 || slicesContains(seen, p) {
			continue
		}
		seen = append(seen, p)
		if r := relative(p, cwd); r != p {
			if slicesContains(seen, r) {
				continue
			}
			seen = append(seen, r)
			p = r
		}
		out = append(out, p)
	}
	return out
}

// defKeywords start a definition; defPrefixes may come before them.
var (
	defKeywords = []string{"func", "function", "def", "class", "interface", "type", "struct", "enum", "trait", "fn"}
	defPrefixes = []string{"export", "default", "pub", "async"}
)

// namesIn returns up to maxNames distinct identifiers defined in text
// (functions, types, classes: a line that starts with a definition
// keyword, after export/default/pub/async), in order.
func namesIn(text string) []string {
	return appendNames(nil, text)
}

// appendNames appends to out (distinct names) namesIn's names of text that
// out does not hold, until it holds maxNames.
func appendNames(out []string, text string) []string {
	// (distinct: at most maxNames, compared in turn)
	for len(text) > 0 && len(out) < maxNames {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if !mayDefineWord(line) {
			continue // (most lines: no trimming, no word read)
		}
		if n := definedName(strings.TrimSpace(line)); len(n) >= 3 && !slicesContains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// mayDefineWord reports whether a line (untrimmed) may be a definition,
// from its first two bytes after ASCII white space: a line whose first
// bytes there are ASCII can define only when they are the first two of a
// keyword or prefix (defSecond); a byte that is not ASCII (Unicode white
// space TrimSpace would trim may come first) may.
func mayDefineWord(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\v', '\f', '\r':
			continue
		default:
			if c >= 0x80 {
				return true
			}
			if i+1 >= len(line) {
				return false
			}
			d := line[i+1] - 'a'
			return d < 26 && defSecond[c]>>d&1 != 0
		}
	}
	return false
}

// defSecond is, by the first letter of a definition keyword or prefix,
// the second letters they have after it (bit c-'a'), a constant table.
var defSecond = [256]uint32{
	'f': 1<<('u'-'a') | 1<<('n'-'a'), // func function fn
	'd': 1 << ('e' - 'a'),            // def default
	'c': 1 << ('l' - 'a'),            // class
	'i': 1 << ('n' - 'a'),            // interface
	't': 1<<('y'-'a') | 1<<('r'-'a'), // type trait
	's': 1 << ('t' - 'a'),            // struct
	'e': 1<<('n'-'a') | 1<<('x'-'a'), // enum export
	'p': 1 << ('u' - 'a'),            // pub
	'a': 1 << ('s' - 'a'),            // async
}

// definedName is the name a definition line defines ("" when it is none).
func definedName(t string) string {
	word := func() (string, string) {
		i := 0
		for i < len(t) && (isWordByte(t[i]) || t[i] == '$') {
			i++
		}
		return t[:i], trimBlanks(t[i:])
	}
	for {
		w, rest := word()
		if len(w) < 2 || len(w) > 9 {
			return "" // neither a keyword nor a prefix (2 to 9 letters)
		}
		if w == "pub" && strings.HasPrefix(rest, "(") {
			if j := strings.IndexByte(rest, ')'); j > 0 {
				rest = trimBlanks(rest[j+1:])
			}
		}
		if isDefPrefix(w) && len(rest) < len(t)-len(w) {
			t = rest
			continue
		}
		if !isDefKeyword(w) || len(rest) == len(t)-len(w) {
			return "" // not a keyword, or no space after it
		}
		t = rest
		if w == "func" && strings.HasPrefix(t, "(") { // a Go method's receiver
			j := strings.IndexByte(t, ')')
			if j < 0 {
				return ""
			}
			t = trimBlanks(t[j+1:])
		}
		name, _ := word()
		if name == "" || isDigit(name[0]) {
			return ""
		}
		return name
	}
}

// isDefKeyword: w is one of defKeywords.
func isDefKeyword(w string) bool {
	switch w {
	case "func", "function", "def", "class", "interface", "type", "struct", "enum", "trait", "fn":
		return true
	}
	return false
}

// isDefPrefix: w is one of defPrefixes.
func isDefPrefix(w string) bool {
	switch w {
	case "export", "default", "pub", "async":
		return true
	}
	return false
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clip shortens s to at most n chars (UTF-16 units), ending in "…".
func clip(s string, n int) string {
	c, _ := clipLen(s, n)
	return c
}

// clipLen is clip of s and its JavaScript length.
func clipLen(s string, n int) (string, int) {
	if units := JSLen(s); units <= n {
		return s, units
	}
	p := jsPrefix(s, n-1)
	return p + "…", JSLen(p) + 1
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
	// "cd <cwd> && ", "cd <cwd>; ", `cd "<cwd>" && `, matched in place
	if rest, ok := strings.CutPrefix(s, "cd "); ok {
		if after, ok := strings.CutPrefix(rest, cwd); ok {
			if r, ok := strings.CutPrefix(after, " && "); ok {
				return r
			}
			if r, ok := strings.CutPrefix(after, "; "); ok {
				return r
			}
		}
		if after, ok := strings.CutPrefix(rest, `"`); ok {
			if after, ok := strings.CutPrefix(after, cwd); ok {
				if r, ok := strings.CutPrefix(after, `" && `); ok {
					return r
				}
			}
		}
	}
	if len(s) > len(cwd)+1 && strings.HasPrefix(s, cwd) && s[len(cwd)] == '/' {
		return s[len(cwd)+1:]
	}
	return s
}

// trimBlanks is strings.TrimLeft(s, " \t") without building its cutset.
func trimBlanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}
