package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pruner-dev/pruner/internal/guard"
)

// readRules parses the protectedPathRules of one settings file: the global
// file's (or --config's) replace the rules check and hook would use
// otherwise; the project's are kept apart, to be added (DenyRules).
func (c *Config) readRules(f settingsFile) error {
	raw, ok := f.values[RulesKey]
	if !ok || raw == nil {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return &RulesError{Err: err}
	}
	source := f.path + ": " + Key + "." + RulesKey
	if f.project {
		// a project's rules only add: an empty list, or an entry with an
		// empty deny list, adds nothing (a warning, not a deny-all)
		r, warnings, err := guard.ParseAddedRules(data, source)
		if err != nil {
			return f.rulesError(err)
		}
		c.Warnings = append(c.Warnings, warnings...)
		if len(r.Entries) > 0 {
			c.projectRules = r
		}
		return nil
	}
	r, err := guard.ParseRules(data, source)
	if err != nil {
		return f.rulesError(err)
	}
	c.rules = r
	return nil
}

// rulesError is err, an invalid protectedPathRules of f, as a *RulesError
// that names the key's line and column (as every other bad value does).
func (f settingsFile) rulesError(err error) error {
	if p, ok := f.at[RulesKey]; ok {
		if msg, found := strings.CutPrefix(err.Error(), f.path+": "); found {
			err = &atError{msg: fmt.Sprintf("%s:%d:%d: %s", f.path, p[0], p[1], msg), err: err}
		}
	}
	return &RulesError{Err: err}
}

// atError is an error with its position in the file put in its text.
type atError struct {
	msg string
	err error
}

func (e *atError) Error() string { return e.msg }
func (e *atError) Unwrap() error { return e.err }

// LoadGate loads only what check and hook need: the settings files (one
// that does not parse is an error: its rules cannot be read) and their
// protectedPathRules. Pruning keys, PRUNER_* variables and flags are not
// decoded, so a bad maxRetainedChars never stops the gate; DenyRules gives
// the rules. Errors: *FileError, *RulesError.
func LoadGate(o Options) (*Config, error) {
	c, _ := newConfig(o)
	files, err := c.readFiles(o)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := c.readRules(f); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// loadRules reads and validates a rules file (guard.ParseRules). A missing
// or unreadable file is an error; there is no fallback to the defaults.
func loadRules(path string, explicit bool) (*guard.Rules, error) {
	var data []byte
	var err error
	if explicit {
		// --rules FILE may be a pipe (`--rules <(…)`): the user named it
		data, err = os.ReadFile(path)
	} else {
		data, err = readRegular(path)
	}
	if err != nil {
		return nil, rulesFileError(path, err)
	}
	r, err := guard.ParseRules(data, path)
	if err != nil {
		return nil, &RulesError{Err: err}
	}
	return r, nil
}

// rulesFileError is a rules file that cannot be read, as a *FileError
// naming it: "no such file", ErrIsDir, or the system's reason (without Go's
// "open PATH:" wrapping, which named the path twice).
func rulesFileError(path string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = errors.New("no such file")
	case errors.Is(err, syscall.EISDIR):
		err = ErrIsDir
	case errors.As(err, &pe):
		err = pe.Err
	}
	return &FileError{Path: path, Err: err}
}

// RuleSet is the protected-path deny rules check and hook apply, and where
// each entry came from.
type RuleSet struct {
	*guard.Rules
	// Origins[i] names where Rules.Entries[i] came from: a file (with
	// "(project, adds)" for the project's settings) or "built-in defaults".
	Origins []string
	// Dropped are the built-in rules the user's rules no longer apply, each
	// with the deny ops no entry of the same path keeps (empty when the
	// built-in defaults are the base, or every one is kept).
	Dropped []guard.Entry
	// BaseSource names the rules that replaced the built-in ones.
	BaseSource string
}

// DroppedWarning says which built-in rules no longer apply ("" when none).
func (rs *RuleSet) DroppedWarning() string {
	if len(rs.Dropped) == 0 {
		return ""
	}
	parts := make([]string, len(rs.Dropped))
	for i, e := range rs.Dropped {
		parts[i] = fmt.Sprintf("%s (%s)", e.Path, e.Deny)
	}
	return fmt.Sprintf("%s replaces the built-in deny rules: no longer applied: %s", rs.BaseSource, strings.Join(parts, ", "))
}

// DroppedHint is the hint under DroppedWarning: the dropped built-in rules
// as entries of a rules list ({"path", "deny"}), to paste into the list that
// replaced them ("" when none). It names no command: the list may come from
// check's or hook's --rules FILE, which pruner config never sees.
func (rs *RuleSet) DroppedHint() string {
	if len(rs.Dropped) == 0 {
		return ""
	}
	parts := make([]string, len(rs.Dropped))
	for i, e := range rs.Dropped {
		b, err := json.Marshal(struct {
			Path string   `json:"path"`
			Deny []string `json:"deny"`
		}{e.Path, strings.Split(e.Deny.String(), ",")})
		if err != nil { // a string and strings: cannot fail
			return ""
		}
		parts[i] = string(b)
	}
	return "a rules list replaces the defaults; to keep them, add these entries to it: " + strings.Join(parts, ", ")
}

// droppedDefaults are the built-in entries, each with the deny ops that no
// entry of rules with the same path denies.
func droppedDefaults(rules *guard.Rules) []guard.Entry {
	var out []guard.Entry
	for _, d := range guard.DefaultRules().Entries {
		var kept guard.OpSet
		for _, e := range rules.Entries {
			if e.Path == d.Path {
				kept |= e.Deny
			}
		}
		if missing := d.Deny &^ kept; missing != 0 {
			d.Deny = missing
			out = append(out, d)
		}
	}
	return out
}

// RulesFileName is where pi's protected-paths extension keeps its rules,
// under the agent dir.
const RulesFileName = "configs/protected-paths.json"

// DenyRules resolves the deny rules for check and hook. The base is the
// first of: rulesFile (--rules); protectedPathRules of the global
// settings.json (or of --config FILE); <agentDir>/configs/protected-paths.json
// when it exists; the built-in defaults. Every rule of the project's
// .pi/settings.json protectedPathRules is then added to the base: a project
// — a repository anyone can ship — can make the gate stricter, never weaker.
// A rules source that exists but is invalid is an error naming the entry; it
// never falls back to the defaults.
func (c *Config) DenyRules(rulesFile string) (*RuleSet, error) {
	var base *guard.Rules
	var err error
	switch {
	case rulesFile != "":
		base, err = loadRules(rulesFile, true)
	case c.rules != nil:
		base = c.rules
	default:
		p := filepath.Join(c.AgentDir, filepath.FromSlash(RulesFileName))
		if _, serr := os.Stat(p); serr == nil {
			base, err = loadRules(p, false)
		} else if !errors.Is(serr, fs.ErrNotExist) {
			err = rulesFileError(p, serr)
		} else {
			base = guard.DefaultRules()
		}
	}
	if err != nil {
		return nil, err
	}
	rs := &RuleSet{Rules: base, Origins: make([]string, len(base.Entries)), BaseSource: base.Source}
	for i := range rs.Origins {
		rs.Origins[i] = base.Source
	}
	if c.projectRules == nil {
		if base.Source != guard.DefaultRulesSource {
			rs.Dropped = droppedDefaults(base)
		}
		return c.withGateRules(rs), nil
	}
	merged := &guard.Rules{
		Source:  base.Source + " + " + c.projectRules.Source,
		Entries: append(append([]guard.Entry{}, base.Entries...), c.projectRules.Entries...),
	}
	rs.Rules = merged
	for range c.projectRules.Entries {
		rs.Origins = append(rs.Origins, c.projectRules.Source+" (project, adds)")
	}
	if base.Source != guard.DefaultRulesSource {
		rs.Dropped = droppedDefaults(merged)
	}
	return c.withGateRules(rs), nil
}

// exeDirResolver is PathRules' resolve for the binary exe (its path, links
// resolved): a PATH folder that is exe's folder under another name (a link
// to it, or a folder behind one) resolves to exe's folder as PathRules
// writes it, any other to itself. Each folder costs one stat (the kernel
// follows its links, as the PATH lookup that runs `pruner` does) compared
// with exe's folder's, instead of a walk that reads each of its components
// (filepath.EvalSymlinks: ~40 lstat and readlink calls a hook run with a
// PATH of 15 folders when the binary is on none of them).
func exeDirResolver(exe string) func(string) string {
	if exe == "" {
		return nil
	}
	dir := path.Clean(path.Dir(strings.ReplaceAll(exe, `\`, "/")))
	var want os.FileInfo
	looked := false
	return func(d string) string {
		if !looked {
			looked = true
			want, _ = os.Stat(filepath.FromSlash(dir))
		}
		if want == nil {
			return d
		}
		if fi, err := os.Stat(filepath.FromSlash(d)); err == nil && os.SameFile(fi, want) {
			return dir
		}
		return d
	}
}

// withGateRules adds the rules that protect the gate's own configuration
// (guard.GateRules: pi's settings, rules file and extensions under the
// agent dir, Claude Code's settings, the pruner binary) to rs, whatever its
// base: no rules file, settings or flag takes them away.
func (c *Config) withGateRules(rs *RuleSet) *RuleSet {
	gate := guard.GateRules(c.AgentDir, c.executable)
	shadow := guard.PathRules(c.executable, c.pathEnv, exeDirResolver(c.executable))
	rules := &guard.Rules{Source: rs.Rules.Source, Entries: append(append(append([]guard.Entry{}, rs.Rules.Entries...), gate.Entries...), shadow.Entries...)}
	for i := range rules.Entries {
		rules.Entries[i].Index = i
	}
	rs.Rules = rules
	for range gate.Entries {
		rs.Origins = append(rs.Origins, gate.Source)
	}
	for range shadow.Entries {
		rs.Origins = append(rs.Origins, shadow.Source)
	}
	return rs
}
