// Package config loads pruner's settings: the "contextPrune" key of pi's
// settings.json files (global, then the project's, merged as pi merges them),
// then PRUNER_* environment variables, then command-line flags, and records
// where each value came from. It also resolves the protected-path deny rules
// of check and hook, where a project's settings may only add rules.
//
// It reads files itself rather than through viper: pi's keys are
// case-sensitive camelCase, which viper folds to lower case, and viper can
// neither say where a value came from nor merge one key as a union
// (docs/design.md, "Configuration").
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/pienv"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/spf13/pflag"
)

// Key is the settings.json key pruner reads.
const Key = "contextPrune"

// Config is the effective configuration.
type Config struct {
	Enabled           bool     `json:"enabled"`
	ProtectedTools    []string `json:"protectedTools"`
	ProtectedPaths    []string `json:"protectedPaths"`
	RecentTurnsToKeep int      `json:"recentTurnsToKeep"`
	MaxRetainedChars  int      `json:"maxRetainedChars"` // chars = Unicode code points
	// Flush runs the batch/index stage's flush (summaries, refs, spill) in
	// `now`; SummarizerCmd, when set, is the shell command that writes the
	// summaries (else they are deterministic), SummarizerConcurrency how
	// many of it run at once.
	Flush                 bool   `json:"flush"`
	SummarizerCmd         string `json:"summarizerCmd"`
	SummarizerConcurrency int    `json:"summarizerConcurrency"`

	// Sources maps each key of Keys and CondenseKeys to where its value
	// came from: "default", a settings file path, "env PRUNER_…", or
	// "flag --…".
	Sources map[string]string `json:"-"`
	// Files are the settings files that were read, in merge order.
	Files []string `json:"-"`
	// Searched are the settings files looked for (read or not).
	Searched []string `json:"-"`
	// Warnings are problems that do not stop the run, e.g. a key that looks
	// like a misspelt pruner key.
	Warnings []string `json:"-"`
	// Ignored are the values of trusted keys a project's settings tried to
	// set (each also a warning).
	Ignored []string `json:"-"`
	// AgentDir is pi's agent dir the settings were looked up in.
	AgentDir string `json:"-"`
	// executable is the pruner binary the gate's rules keep from being
	// overwritten (Options.Executable).
	executable string
	// pathEnv is the PATH the hook was found on (guard.PathRules).
	pathEnv string
	// Condense holds pi-condense's own keys (the batch/index stage and its
	// render), validated as pi-condense validates them.
	Condense Condense `json:"-"`

	pred         *protect.Predicate // compiled protectedTools/protectedPaths
	rules        *guard.Rules       // protectedPathRules of the global settings or --config (nil: unset)
	projectRules *guard.Rules       // protectedPathRules of the project's settings: added, never replacing
}

// Options say where to look.
type Options struct {
	// ConfigFile, when set, is read instead of the global and project files
	// (same shape as settings.json: {"contextPrune": {…}}).
	ConfigFile string
	// AgentDir is pi's agent dir (default: pienv.AgentDir).
	AgentDir string
	// Home is the home directory (default: pienv.Home of Getenv, without a
	// user database).
	Home string
	// ProjectDir is the directory whose .pi/settings.json is read (the cwd);
	// "" reads no project settings.
	ProjectDir string
	// Getenv looks up environment variables (os.Getenv when nil).
	Getenv func(string) string
	// Executable is the running pruner binary, which the gate's own rules
	// protect from being written over ("": none).
	Executable string
	// Environ lists the environment ("NAME=value"), for the warning on a
	// PRUNER_* variable pruner does not know (a misspelt one would be
	// ignored silently); nil warns of none.
	Environ []string
	// Flags, when set, override: FlagKeys maps a flag name to its key. Only
	// flags that were changed on the command line count.
	Flags    *pflag.FlagSet
	FlagKeys map[string]string
	// NoKeyWarnings skips the unknown-key warnings (Config.Warnings of the
	// settings files' keys): for a caller that never prints them (hook),
	// as each unknown key is compared with every known one.
	NoKeyWarnings bool
}

// ValueError is a key with a bad type or value.
type ValueError struct {
	Key    string
	Source string
	// Line and Col are where the key is in a settings file (1-based; 0
	// when the value is not from a file or the place is not known).
	Line, Col int
	Err       error
	// Hint says the type the key takes, with an example in the source's
	// own syntax (settings JSON, an environment variable); "" for none.
	Hint string
}

func (e *ValueError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s.%s: %v", e.Source, e.Line, e.Col, Key, e.Key, e.Err)
	}
	return fmt.Sprintf("%s: %s.%s: %v", e.Source, Key, e.Key, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

// RulesError is an invalid contextPrune.protectedPathRules list (the error
// names the file and the entry).
type RulesError struct{ Err error }

func (e *RulesError) Error() string { return e.Err.Error() }
func (e *RulesError) Unwrap() error { return e.Err }

// setting is one candidate value of a key and where it came from.
type setting struct {
	source string
	at     [2]int      // line and column in a settings file (0: unknown)
	json   any         // from a settings file
	text   *string     // from the environment
	flag   pflag.Value // from a flag
	typed  any         // a default
}

// newConfig is the Config Load and LoadGate start from: the environment
// lookup and pi's agent dir (from the home directory) resolved once.
func newConfig(o Options) (c *Config, getenv func(string) string) {
	getenv = o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := o.Home
	if home == "" {
		home = pienv.Home(getenv, nil)
	}
	c = &Config{Sources: map[string]string{}, AgentDir: o.AgentDir, executable: o.Executable, pathEnv: getenv("PATH")}
	if c.AgentDir == "" {
		c.AgentDir = pienv.AgentDir(getenv, home)
	}
	return c, getenv
}

// Load returns the effective config. Errors: *FileError for an unreadable
// or broken settings file (or --config file), *ValueError for a key with a
// bad type or range (or an invalid glob), *RulesError for invalid
// protectedPathRules.
func Load(o Options) (*Config, error) {
	c, getenv := newConfig(o)
	files, err := c.readFiles(o)
	if err != nil {
		return nil, err
	}
	c.Warnings = append(c.Warnings, unknownVars(o.Environ)...)
	merged, msrc := map[string]any{}, map[string]string{}
	for _, f := range files {
		for k, v := range f.values {
			merged[k], msrc[k] = v, f.path
		}
	}
	var cw []string
	var invalid map[string]bool
	c.Condense, cw, invalid = condenseFrom(merged, msrc)
	c.Warnings = append(c.Warnings, cw...)
	for _, k := range CondenseKeys() {
		switch src, ok := msrc[k]; {
		case !ok:
			c.Sources[k] = "default"
		case invalid[k]:
			c.Sources[k] = src + " (invalid values: defaults used)"
		default:
			c.Sources[k] = src
		}
	}
	// Candidates per key, lowest precedence first: default, files (global,
	// project: pi's merge replaces a key's value whole, lists included),
	// environment, flags.
	cands := map[string][]setting{}
	for _, k := range specs() {
		cands[k.name] = append(cands[k.name], setting{source: "default", typed: k.def()})
	}
	for _, f := range files {
		for _, k := range specs() {
			v, ok := f.values[k.name]
			if !ok {
				continue
			}
			if k.trusted && f.project {
				// a repository's settings never make pruner run a command
				msg := fmt.Sprintf("%s: %s.%s is ignored: a project's settings cannot set a command (set it in %s, %s or --%s)",
					f.path, Key, k.name, filepath.Join(c.AgentDir, "settings.json"), k.env, flagName(k.name))
				c.Ignored = append(c.Ignored, msg)
				c.Warnings = append(c.Warnings, msg)
				continue
			}
			cands[k.name] = append(cands[k.name], setting{source: f.path, json: v, at: f.at[k.name]})
		}
		if err := c.readRules(f); err != nil {
			return nil, err
		}
	}
	for _, k := range specs() {
		// unset, empty and blank are alike: PRUNER_PROTECTED_PATHS=' ' is a
		// slip, not a list without entries (settings' [] is that)
		if v := getenv(k.env); strings.TrimSpace(v) != "" {
			// a bad variable is an error even where another one overrides it
			if _, err := k.fromString(v); err != nil {
				return nil, &ValueError{Key: k.name, Source: "env " + k.env, Err: err, Hint: k.hint(false)}
			}
			cands[k.name] = append(cands[k.name], setting{source: "env " + k.env, text: &v})
		}
	}
	if v := getenv(PruningVar); v != "" {
		if _, ok := parseSwitch(v); !ok {
			return nil, &ValueError{Key: "enabled", Source: "env " + PruningVar, Err: fmt.Errorf("want on or off, got %q", v)}
		}
		cands["enabled"] = append(cands["enabled"], setting{source: "env " + PruningVar, text: &v})
	}
	if o.Flags != nil {
		names := make([]string, 0, len(o.FlagKeys))
		for n := range o.FlagKeys {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			if f := o.Flags.Lookup(name); f != nil && f.Changed {
				key := o.FlagKeys[name]
				cands[key] = append(cands[key], setting{source: "flag --" + name, flag: f.Value})
			}
		}
	}

	// every bad value in effect is reported, not only the first: a user
	// fixing a settings file should not need one run per key
	var bad []error
	for _, k := range specs() {
		list := cands[k.name]
		s := list[len(list)-1]
		v, err := k.decode(s)
		if err != nil {
			hint := k.hint(s.json != nil)
			if flag, ok := strings.CutPrefix(s.source, "flag "); ok && s.flag != nil {
				hint = k.flagHint(flag)
			}
			bad = append(bad, &ValueError{Key: k.name, Source: s.source, Line: s.at[0], Col: s.at[1], Err: err, Hint: hint})
			continue
		}
		c.Sources[k.name] = s.source
		switch k.name {
		case "enabled":
			c.Enabled = v.(bool)
		case "protectedTools":
			c.ProtectedTools = v.([]string)
		case "protectedPaths":
			c.ProtectedPaths = v.([]string)
		case "recentTurnsToKeep":
			c.RecentTurnsToKeep = v.(int)
		case "maxRetainedChars":
			c.MaxRetainedChars = v.(int)
		case "flush":
			c.Flush = v.(bool)
		case "summarizerCmd":
			c.SummarizerCmd = v.(string)
		case "summarizerConcurrency":
			c.SummarizerConcurrency = v.(int)
		}
	}
	switch len(bad) {
	case 0:
	case 1:
		return nil, bad[0]
	default:
		return nil, errors.Join(bad...)
	}
	if c.pred, err = protect.NewPredicate(c.ProtectedTools, c.ProtectedPaths); err != nil {
		var pe *protect.PatternError
		if errors.As(err, &pe) {
			return nil, &ValueError{Key: fmt.Sprintf("%s[%d]", pe.Key, pe.Index), Source: c.Sources[pe.Key], Err: fmt.Errorf("invalid glob %q", pe.Pattern)}
		}
		return nil, err
	}
	return c, nil
}

// flagName is the `now` flag of a trusted key.
func flagName(key string) string {
	switch key {
	case "summarizerCmd":
		return "summarizer-cmd"
	}
	return key
}

// readFiles reads the settings files in merge order: --config FILE alone, or
// the global settings.json then the project's .pi/settings.json.
func (c *Config) readFiles(o Options) ([]settingsFile, error) {
	type want struct {
		path      string
		project   bool
		mustExist bool
	}
	var paths []want
	if o.ConfigFile != "" {
		paths = []want{{o.ConfigFile, false, true}}
	} else {
		paths = []want{{filepath.Join(c.AgentDir, "settings.json"), false, false}}
		if o.ProjectDir != "" {
			paths = append(paths, want{filepath.Join(o.ProjectDir, ".pi", "settings.json"), true, false})
		}
		for _, p := range paths {
			c.Searched = append(c.Searched, p.path)
		}
	}
	var out []settingsFile
	for _, p := range paths {
		obj, at, err := readSettings(p.path, p.mustExist)
		if err != nil {
			return nil, err
		}
		if obj == nil {
			continue
		}
		f := settingsFile{path: p.path, project: p.project, values: obj, at: at}
		c.Files = append(c.Files, p.path)
		if !o.NoKeyWarnings {
			c.Warnings = append(c.Warnings, f.warnings()...)
		}
		out = append(out, f)
	}
	return out, nil
}

// decode turns a candidate into the key's typed value.
func (k keySpec) decode(s setting) (any, error) {
	switch {
	case s.typed != nil:
		return s.typed, nil
	case s.text != nil:
		return k.fromString(*s.text)
	case s.flag != nil:
		if sv, ok := s.flag.(pflag.SliceValue); ok && k.kind == kindList {
			return append([]string{}, sv.GetSlice()...), nil
		}
		return k.fromString(s.flag.String())
	default:
		return k.fromJSON(s.json)
	}
}

// Predicate returns the pruning protection predicate, compiled once by Load
// (compiled here for a Config built by hand).
func (c *Config) Predicate() (*protect.Predicate, error) {
	if c.pred != nil {
		return c.pred, nil
	}
	return protect.NewPredicate(c.ProtectedTools, c.ProtectedPaths)
}
