package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
)

// FileError is a settings file that cannot be read or parsed; Line is 1-based
// (0 when unknown).
type FileError struct {
	Path string
	Line int
	Col  int
	Err  error
	// Hint, when set, says how to fix this error (the right key, say);
	// else the caller picks one from where the file came from.
	Hint string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// settingsFile is the contextPrune object of one settings file.
type settingsFile struct {
	path    string
	project bool              // the project's .pi/settings.json: its rules only add
	values  map[string]any    // contextPrune's keys as JSON values
	at      map[string][2]int // line and column of each key (nil: unknown)
}

// utf8BOM is skipped at the start of a settings file, as pi's stripBom does.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// maxSettingsFile caps a settings or rules file.
const maxSettingsFile = 64 << 20

// errNotRegular is a settings or rules file that is not a regular file.
var errNotRegular = errors.New("not a regular file (a FIFO or device would block or never end, so it is not read)")

// ErrIsDir is a settings or rules file that is a directory.
var ErrIsDir = errors.New("is a directory, not a regular file")

// readRegular reads a settings or rules file: a regular file (a symlink to
// one is fine) of at most maxSettingsFile bytes. A repository's
// .pi/settings.json that is a FIFO, or a link to /dev/zero or a terminal,
// would otherwise hang the hook until the agent's hook timeout, after which
// the agent runs the call. Errors keep fs.ErrNotExist for a missing file.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrIsDir}
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() { // swapped since the first look
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSettingsFile {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB", maxSettingsFile>>20)}
	}
	return data, nil
}

// readSettings reads one settings.json as pi does (JSON.parse after a UTF-8
// BOM is stripped) and returns its contextPrune object: nil when the file is
// absent (and !mustExist) or has no contextPrune key. A file that does not
// parse is a *FileError with the line and column; so is a key that differs
// from "contextPrune" only in case (pi would ignore it).
func readSettings(path string, mustExist bool) (map[string]any, map[string][2]int, error) {
	data, err := readRegular(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if !mustExist {
				return nil, nil, nil
			}
			return nil, nil, &FileError{Path: path, Err: errors.New("no such file")}
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, &FileError{Path: path, Err: err}
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 {
		// an empty file (touch .pi/settings.json) holds no settings and no
		// rules: read as {}, not a parse error that would shut the gate
		return nil, nil, nil
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		fe := &FileError{Path: path, Err: err}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			fe.Line, fe.Col = lineCol(data, errorByte(se.Offset))
		case errors.As(err, &te):
			fe.Line, fe.Col = lineCol(data, errorByte(te.Offset))
			fe.Err = errors.New("settings must be a JSON object")
		}
		return nil, nil, fe
	}
	raw, ok := top[Key]
	// a misspelt contextPrune is an error whether or not the right key is
	// there too: pi and pruner would ignore every setting under it (and a
	// project's deny rules with them)
	merge := ""
	if ok {
		merge = fmt.Sprintf(" (merge it into the %q there is)", Key)
	}
	for _, k := range sortedKeys(top) {
		if k == Key {
			continue
		}
		switch {
		case strings.EqualFold(k, Key):
			l, c := keyLine(data, k)
			return nil, nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("key %q: did you mean %q? (keys are case-sensitive)", k, Key),
				Hint: fmt.Sprintf("pi's settings keys are case-sensitive: %q is not %q, and pi and pruner would ignore every setting under it; rename it to %q%s", k, Key, Key, merge)}
		case levenshtein.ComputeDistance(strings.ToLower(k), strings.ToLower(Key)) <= 2:
			l, c := keyLine(data, k)
			return nil, nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("key %q: did you mean %q?", k, Key),
				Hint: fmt.Sprintf("pi and pruner would ignore every setting under %q; rename it to %q%s", k, Key, merge)}
		}
	}
	if ok && raw == nil {
		l, c := keyLine(data, Key)
		return nil, nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("%q is null: it must be an object", Key),
			Hint: fmt.Sprintf(`give it settings ({%q: {"maxRetainedChars": 4000}}) or remove the key`, Key)}
	}
	// the gate's keys fail closed: a misspelt protectedPathRules would leave
	// the user's deny rules unread, and the gate open where they meant it shut
	if err := gateKeyError(path, data, top, raw); err != nil {
		return nil, nil, err
	}
	if k, off, dup := duplicateGateKey(data); dup {
		return nil, nil, duplicateKeyError(path, data, k, off)
	}
	if !ok || raw == nil {
		return nil, nil, nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		l, c := keyLine(data, Key)
		return nil, nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("%q must be an object", Key)}
	}
	return obj, memberPositions(data), nil
}

// warnings lists the keys of f that pruner does not read: a likely
// misspelling of a pruner key, or a key no known tool uses.
func (f settingsFile) warnings() []string {
	keys := make([]string, 0, len(f.values))
	for k := range f.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		if isGateKeyTypo(k) {
			continue // an error (gateKeyError), never read this far
		}
		if near := nearKey(k); near != "" {
			out = append(out, unknownKeyWarning(f.path, Key+"."+k, "a pruner or pi-condense key", near, nil))
		} else if !isKnown(k) && !isSharedKey(k) {
			out = append(out, unknownKeyWarning(f.path, Key+"."+k, "a pruner or pi-condense key", "", append(knownKeys(), "and pi-condense's keys ('pruner config' lists them)")))
		}
	}
	return out
}

// isGateKeyTypo reports whether k looks like RulesKey but is not it: a
// case difference, separators (protected_path_rules) or up to three edits
// (protectedPathRule, protectedPathsRules). No other key pruner or
// pi-condense reads is that near (protectedPaths is four edits away).
func isGateKeyTypo(k string) bool {
	if k == RulesKey || isKnown(k) || isSharedKey(k) {
		return false
	}
	squash := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", " ", "", ".", "").Replace(strings.ToLower(s))
	}
	return levenshtein.ComputeDistance(squash(k), squash(RulesKey)) <= 3
}

// gateKeyHint is the hint under a misspelt or misplaced gate key: the key
// where pruner reads it, with an example.
var gateKeyHint = fmt.Sprintf(`the deny rules are read from %s.%s only (case-sensitive), e.g. {"%s": {"%s": [{"path": ".env", "deny": ["read", "write", "edit", "bash"]}]}}`, Key, RulesKey, Key, RulesKey)

// gateKeyError is the error for a key of a settings file that was meant to
// configure the gate but would be ignored: a misspelt protectedPathRules
// under contextPrune, or protectedPathRules (or a misspelling) at the top
// level, outside contextPrune. Ignored, it would leave the user's rules
// unapplied without a word that hook or check -q shows; an error makes
// check exit 2 and hook deny every call, naming the file and the key.
func gateKeyError(path string, data []byte, top map[string]any, cp any) error {
	fail := func(k, msg string) error {
		l, c := keyLine(data, k)
		return &FileError{Path: path, Line: l, Col: c, Err: errors.New(msg), Hint: gateKeyHint}
	}
	if obj, ok := cp.(map[string]any); ok {
		for _, k := range sortedKeys(obj) {
			if isGateKeyTypo(k) {
				return fail(k, fmt.Sprintf("%s.%s: did you mean %s? (misspelt, the gate would ignore it and its deny rules)", Key, k, RulesKey))
			}
		}
	}
	for _, k := range sortedKeys(top) {
		if k == RulesKey || isGateKeyTypo(k) {
			return fail(k, fmt.Sprintf("%s is outside %s: the gate reads only %s.%s, and would ignore it", k, Key, Key, RulesKey))
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isKnown(k string) bool {
	for _, key := range knownKeys() {
		if k == key {
			return true
		}
	}
	return false
}

// errorByte is the index of the byte encoding/json stopped at: its
// errors' Offset counts the bytes read, that byte included.
func errorByte(offset int64) int64 { return max(offset-1, 0) }

// lineCol gives the 1-based line and column (in bytes) of data[off].
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	pre := data[:off]
	line := bytes.Count(pre, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(pre, '\n')
	return line, col
}

func keyLine(data []byte, key string) (int, int) {
	i := bytes.Index(data, []byte(`"`+key+`"`))
	if i < 0 {
		return 0, 0
	}
	return lineCol(data, int64(i))
}

// show prints a config value for an error: strings quoted (so "3" is not
// mistaken for 3), others as JSON.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
