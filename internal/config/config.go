// Package config loads pruner's settings: the "contextPrune" key of pi's
// settings.json (global, then project, merged one level deep as pi does),
// then PRUNER_* environment variables, then command-line flags. It is the
// only package that uses viper, with one viper instance per Load (no global
// state).
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pruner-dev/pruner/internal/guard"
	"github.com/pruner-dev/pruner/internal/protect"
	"github.com/pruner-dev/pruner/internal/prune"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
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
	// ProtectedPathRules is the raw JSON of contextPrune.protectedPathRules
	// (deny rules for check/hook), nil when absent.
	ProtectedPathRules json.RawMessage `json:"protectedPathRules,omitempty"`

	// Sources maps each key to where its value came from: "default", a
	// settings file path, "env PRUNER_…", or "flag --…".
	Sources map[string]string `json:"-"`
	// Files are the settings files that were read, in merge order.
	Files []string `json:"-"`
	// Searched are the settings files looked for (read or not).
	Searched []string `json:"-"`
	// Warnings are problems that do not stop the run, e.g. a key that looks
	// like a misspelt pruner key.
	Warnings []string `json:"-"`

	pred         *protect.Predicate // compiled protectedTools/protectedPaths
	rules        *guard.Rules       // parsed protectedPathRules (nil when absent)
	projectRules *guard.Rules       // the project's protectedPathRules: they only add (nil when absent)
}

// Keys lists the contextPrune keys pruner understands, in display order.
var Keys = []string{"enabled", "protectedTools", "protectedPaths", "recentTurnsToKeep", "maxRetainedChars", "protectedPathRules"}

// envNames maps keys to their environment variables.
var envNames = map[string]string{
	"enabled":           "PRUNER_ENABLED",
	"protectedTools":    "PRUNER_PROTECTED_TOOLS",
	"protectedPaths":    "PRUNER_PROTECTED_PATHS",
	"recentTurnsToKeep": "PRUNER_RECENT_TURNS_TO_KEEP",
	"maxRetainedChars":  "PRUNER_MAX_RETAINED_CHARS",
}

// EnvName returns the environment variable for key ("" if none).
func EnvName(key string) string { return envNames[key] }

// Options say where to look.
type Options struct {
	// ConfigFile, when set, is read instead of the global and project files
	// (same shape as settings.json: {"contextPrune": {…}}).
	ConfigFile string
	// AgentDir is pi's agent dir ($PI_CODING_AGENT_DIR, default ~/.pi/agent).
	AgentDir string
	// ProjectDir is the directory whose .pi/settings.json is read (the cwd).
	ProjectDir string
	// Getenv looks up environment variables (os.Getenv when nil).
	Getenv func(string) string
	// Flags, when set, override: flag name → key. Only flags that were
	// changed on the command line count.
	Flags    *pflag.FlagSet
	FlagKeys map[string]string
}

// FileError is a settings file that cannot be read or parsed; Line is 1-based
// (0 when unknown).
type FileError struct {
	Path string
	Line int
	Col  int
	Err  error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// DefaultAgentDir returns $PI_CODING_AGENT_DIR or ~/.pi/agent.
func DefaultAgentDir(getenv func(string) string) string {
	if d := getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".pi", "agent")
}

func defaults() map[string]any {
	return map[string]any{
		"enabled":           true,
		"protectedTools":    toAny(protect.DefaultProtectedTools()),
		"protectedPaths":    toAny(protect.DefaultProtectedPaths()),
		"recentTurnsToKeep": float64(prune.DefaultRecentTurns),
		"maxRetainedChars":  float64(prune.DefaultMaxChars),
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// readSettings reads one settings.json and returns its contextPrune object
// (nil when the file or the key is absent). A file that does not parse is a
// *FileError with the line and column.
func readSettings(path string, mustExist bool) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if !mustExist {
				return nil, nil
			}
			return nil, &FileError{Path: path, Err: errors.New("no such file")}
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &FileError{Path: path, Err: err}
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		fe := &FileError{Path: path, Err: err}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			fe.Line, fe.Col = lineCol(data, se.Offset)
		case errors.As(err, &te):
			fe.Line, fe.Col = lineCol(data, te.Offset)
			fe.Err = errors.New("settings must be a JSON object")
		}
		return nil, fe
	}
	raw, ok := top[Key]
	if !ok || raw == nil {
		for k := range top {
			if strings.EqualFold(k, Key) {
				l, c := keyLine(data, k)
				return nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("key %q: did you mean %q? (keys are case-sensitive)", k, Key)}
			}
		}
		return nil, nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		l, c := keyLine(data, Key)
		return nil, &FileError{Path: path, Line: l, Col: c, Err: fmt.Errorf("%q must be an object", Key)}
	}
	return obj, nil
}

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

// Load returns the effective config. Errors: *FileError for an unreadable
// or broken settings file (or --config file), a *ValueError for a key with a
// bad type or range, *protect.PatternError for an invalid glob.
func Load(o Options) (*Config, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	v := viper.New()
	v.SetConfigType("json")
	src := map[string]string{}
	for k, val := range defaults() {
		v.SetDefault(k, val)
		src[k] = "default"
	}
	var files, searched, warnings []string
	var layers []struct {
		path    string
		obj     map[string]any
		project bool
	}
	if o.ConfigFile != "" {
		obj, err := readSettings(o.ConfigFile, true)
		if err != nil {
			return nil, err
		}
		files = append(files, o.ConfigFile)
		layers = append(layers, struct {
			path    string
			obj     map[string]any
			project bool
		}{o.ConfigFile, obj, false})
	} else {
		agent := o.AgentDir
		if agent == "" {
			agent = DefaultAgentDir(getenv)
		}
		paths := []string{filepath.Join(agent, "settings.json")}
		if o.ProjectDir != "" {
			paths = append(paths, filepath.Join(o.ProjectDir, ".pi", "settings.json"))
		}
		searched = paths
		for i, p := range paths {
			obj, err := readSettings(p, false)
			if err != nil {
				return nil, err
			}
			if obj == nil {
				continue
			}
			files = append(files, p)
			layers = append(layers, struct {
				path    string
				obj     map[string]any
				project bool
			}{p, obj, i == 1})
		}
	}
	// pi's merge: project over global, one level deep under contextPrune
	// (each key replaced whole; arrays are never concatenated).
	merged := map[string]any{}
	var projectRaw any
	projectSrc := ""
	for _, l := range layers {
		keys := make([]string, 0, len(l.obj))
		for k := range l.obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if near := nearKey(k); near != "" {
				warnings = append(warnings, fmt.Sprintf("%s: %s.%s is not a pruner key; did you mean %s?", l.path, Key, k, near))
			} else if !isKey(k) && !sharedKeys[k] {
				warnings = append(warnings, fmt.Sprintf("%s: %s.%s is not a pruner key (ignored; known: %s)", l.path, Key, k, strings.Join(Keys, ", ")))
			}
		}
		for k, val := range l.obj {
			if k == "protectedPathRules" && l.project {
				// a project may only add deny rules, never replace or remove
				// the global or built-in ones (issue 9): kept apart, unioned
				// by the caller
				projectRaw, projectSrc = val, l.path
				continue
			}
			merged[k] = val
			src[k] = l.path
		}
	}
	if err := v.MergeConfigMap(lowerKeys(merged)); err != nil {
		return nil, err
	}
	for _, k := range Keys {
		env := envNames[k]
		if env == "" {
			continue
		}
		if val, ok := lookup(getenv, env); ok {
			v.Set(k, envValue(k, val))
			src[k] = "env " + env
		}
	}
	if val, ok := lookup(getenv, "PRUNER_PRUNING"); ok {
		switch strings.ToLower(strings.TrimSpace(val)) {
		case "off", "0", "false", "no":
			v.Set("enabled", false)
			src["enabled"] = "env PRUNER_PRUNING"
		case "on", "1", "true", "yes":
			v.Set("enabled", true)
			src["enabled"] = "env PRUNER_PRUNING"
		default:
			return nil, &ValueError{Key: "enabled", Source: "env PRUNER_PRUNING", Err: fmt.Errorf("want on or off, got %q", val)}
		}
	}
	if o.Flags != nil {
		names := make([]string, 0, len(o.FlagKeys))
		for n := range o.FlagKeys {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			f := o.Flags.Lookup(name)
			if f == nil || !f.Changed {
				continue
			}
			key := o.FlagKeys[name]
			switch fv := f.Value.(type) {
			case pflag.SliceValue:
				v.Set(key, toAny(fv.GetSlice()))
			default:
				v.Set(key, envValue(key, f.Value.String()))
			}
			src[key] = "flag --" + name
		}
	}
	c := &Config{Sources: src, Files: files, Searched: searched, Warnings: warnings}
	var err error
	if c.Enabled, err = getBool(v, "enabled", src); err != nil {
		return nil, err
	}
	if c.ProtectedTools, err = getStrings(v, "protectedTools", src); err != nil {
		return nil, err
	}
	if c.ProtectedPaths, err = getStrings(v, "protectedPaths", src); err != nil {
		return nil, err
	}
	if c.RecentTurnsToKeep, err = getInt(v, "recentTurnsToKeep", src); err != nil {
		return nil, err
	}
	if c.MaxRetainedChars, err = getInt(v, "maxRetainedChars", src); err != nil {
		return nil, err
	}
	if raw, ok := merged["protectedPathRules"]; ok && raw != nil {
		c.ProtectedPathRules, _ = json.Marshal(raw)
		if c.rules, err = guard.ParseRules(c.ProtectedPathRules, src["protectedPathRules"]+": "+Key+".protectedPathRules"); err != nil {
			return nil, &RulesError{Err: err}
		}
	}
	if l, ok := projectRaw.([]any); ok && len(l) == 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s.protectedPathRules is empty: a project can only add rules, so it changes nothing", projectSrc, Key))
		projectRaw = nil
	}
	if projectRaw != nil {
		raw, _ := json.Marshal(projectRaw)
		if c.projectRules, err = guard.ParseRules(raw, projectSrc+": "+Key+".protectedPathRules"); err != nil {
			return nil, &RulesError{Err: err}
		}
	}
	if c.pred, err = protect.NewPredicate(c.ProtectedTools, c.ProtectedPaths); err != nil {
		var pe *protect.PatternError
		if errors.As(err, &pe) {
			return nil, &ValueError{Key: fmt.Sprintf("%s[%d]", pe.Key, pe.Index), Source: src[pe.Key], Err: fmt.Errorf("invalid glob %q", pe.Pattern)}
		}
		return nil, err
	}
	return c, nil
}

// Predicate returns the pruning protection predicate, compiled once by Load
// (compiled here for a Config built by hand).
func (c *Config) Predicate() (*protect.Predicate, error) {
	if c.pred != nil {
		return c.pred, nil
	}
	return protect.NewPredicate(c.ProtectedTools, c.ProtectedPaths)
}

// Rules returns the deny rules of contextPrune.protectedPathRules in the
// global settings (or the --config file), parsed and validated by Load; nil
// when they do not set them.
func (c *Config) Rules() *guard.Rules { return c.rules }

// ProjectRules returns the deny rules of the project's .pi/settings.json
// contextPrune.protectedPathRules, nil when it sets none. They are never
// merged into Rules: a project may only add rules to the others.
func (c *Config) ProjectRules() *guard.Rules { return c.projectRules }

// PruneOptions returns the prune options of c.
func (c *Config) PruneOptions() (prune.Options, error) {
	p, err := c.Predicate()
	if err != nil {
		return prune.Options{}, err
	}
	return prune.Options{RecentTurns: c.RecentTurnsToKeep, MaxChars: c.MaxRetainedChars, Protect: p}, nil
}

// RulesError is an invalid contextPrune.protectedPathRules list (the error
// names the file and the entry).
type RulesError struct{ Err error }

func (e *RulesError) Error() string { return e.Err.Error() }
func (e *RulesError) Unwrap() error { return e.Err }

// ValueError is a key with a bad type or value.
type ValueError struct {
	Key    string
	Source string
	Err    error
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("%s: %s.%s: %v", e.Source, Key, e.Key, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

func lookup(getenv func(string) string, k string) (string, bool) {
	val := getenv(k)
	return val, val != ""
}

// envValue parses an env/flag string for key: lists are comma-separated
// ("" → empty list), numbers and booleans parsed, otherwise the string.
func envValue(key, s string) any {
	switch key {
	case "protectedTools", "protectedPaths":
		s = strings.TrimSpace(s)
		if s == "" || s == "[]" {
			return []any{}
		}
		var out []any
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	case "enabled":
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b
		}
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "on", "yes":
			return true
		case "off", "no":
			return false
		}
	case "recentTurnsToKeep", "maxRetainedChars":
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return float64(n)
		}
	}
	return s
}

func lowerKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = v
	}
	return out
}

func getBool(v *viper.Viper, k string, src map[string]string) (bool, error) {
	switch x := v.Get(k).(type) {
	case bool:
		return x, nil
	}
	return false, &ValueError{Key: k, Source: src[k], Err: fmt.Errorf("want true or false, got %s", show(v.Get(k)))}
}

func getInt(v *viper.Viper, k string, src map[string]string) (int, error) {
	var n float64
	switch x := v.Get(k).(type) {
	case float64:
		n = x
	case int:
		n = float64(x)
	default:
		return 0, &ValueError{Key: k, Source: src[k], Err: fmt.Errorf("want a whole number ≥ 0, got %s", show(v.Get(k)))}
	}
	if n < 0 || n != float64(int(n)) {
		return 0, &ValueError{Key: k, Source: src[k], Err: fmt.Errorf("want a whole number ≥ 0, got %v", n)}
	}
	return int(n), nil
}

func getStrings(v *viper.Viper, k string, src map[string]string) ([]string, error) {
	raw := v.Get(k)
	list, ok := raw.([]any)
	if !ok {
		if s, ok := raw.([]string); ok {
			return s, nil
		}
		return nil, &ValueError{Key: k, Source: src[k], Err: fmt.Errorf("want a list of strings, got %s", show(raw))}
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, &ValueError{Key: k, Source: src[k], Err: fmt.Errorf("item %d: want a string, got %s", i, show(x))}
		}
		out = append(out, s)
	}
	return out, nil
}

// sharedKeys are keys pi-context-prune keeps under the same contextPrune
// object; they are not pruner's, but not mistakes either.
var sharedKeys = map[string]bool{
	"showPruneStatusLine": true, "summarizerModel": true, "summarizerThinking": true,
	"summarizerIdleTimeoutMs": true, "summarizerMaxTimeoutMs": true, "pruneOn": true, "batchingMode": true,
	"quietOversizedSkips": true, "minBatchChars": true, "recoveryGraceTurns": true, "dedupByContentHash": true,
	"autoBudgetThreshold": true, "budgetTurnDelta": true, "spillThreshold": true, "spillPreviewBytes": true,
	"chainCompression": true, "purgeErrors": true, "thinkingStrip": true, "remindUnprunedCount": true,
	"frontierGapThresholdTokens": true, "maxImagesPerRequest": true,
}

func isKey(k string) bool {
	for _, known := range Keys {
		if k == known {
			return true
		}
	}
	return false
}

// nearKey returns the known key that k is a likely misspelling of (case
// difference or edit distance ≤ 2), or "" when k is known or not close to
// any key (other tools may keep their own keys under contextPrune).
func nearKey(k string) string {
	for _, known := range Keys {
		if k == known {
			return ""
		}
	}
	for _, known := range Keys {
		if strings.EqualFold(k, known) || editDistance(strings.ToLower(k), strings.ToLower(known)) <= 2 {
			return known
		}
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
