package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/pruner-dev/pruner/internal/protect"
)

// kind is the type of a contextPrune value.
type kind int

const (
	kindBool   kind = iota // true/false
	kindCount              // a whole number ≥ 0
	kindList               // a list of strings (globs)
	kindString             // a string
)

// keySpec describes one contextPrune key pruner reads: its environment
// variable and type, and its default.
type keySpec struct {
	name string
	env  string
	kind kind
	def  func() any // a fresh typed value: bool, int or []string
	// trusted keys make pruner run something (a command line): they are
	// read only from sources the user controls — the global settings,
	// --config FILE, the environment, flags — never from a project's
	// .pi/settings.json, which comes with whatever repository is checked out.
	trusted bool
}

// The defaults of masking's window (gentle-ai's rolling window, PR #2078).
const (
	DefaultRecentTurns = 2    // recentTurnsToKeep
	DefaultMaxChars    = 4000 // maxRetainedChars
)

// specs is the key table, in display order.
func specs() []keySpec {
	return []keySpec{
		{"enabled", "PRUNER_ENABLED", kindBool, func() any { return true }, false},
		{"protectedTools", "PRUNER_PROTECTED_TOOLS", kindList, func() any { return protect.DefaultProtectedTools() }, false},
		{"protectedPaths", "PRUNER_PROTECTED_PATHS", kindList, func() any { return protect.DefaultProtectedPaths() }, false},
		{"recentTurnsToKeep", "PRUNER_RECENT_TURNS_TO_KEEP", kindCount, func() any { return DefaultRecentTurns }, false},
		{"maxRetainedChars", "PRUNER_MAX_RETAINED_CHARS", kindCount, func() any { return DefaultMaxChars }, false},
		// the batch/index stage
		{"flush", "PRUNER_FLUSH", kindBool, func() any { return true }, false},
		{"summarizerCmd", "PRUNER_SUMMARIZER_CMD", kindString, func() any { return "" }, true},
		{"summarizerConcurrency", "PRUNER_SUMMARIZER_CONCURRENCY", kindCount, func() any { return 4 }, false},
	}
}

// otherVars are PRUNER_* variables that are not settings: read by pruner's
// pi extensions (PRUNER_BIN) and its test and bench scripts (prefixes).
var otherVars = []string{"PRUNER_BIN", "PRUNER_REALPI_", "PRUNER_BENCH_", "PRUNER_PI_CONDENSE", "PRUNER_HANDOFF_DUMP"}

// unknownVars warns of each PRUNER_* variable of environ that pruner does
// not read, with the one it may mean: PRUNER_RECENTTURNS=3 would otherwise
// be ignored without a word.
func unknownVars(environ []string) []string {
	known := []string{PruningVar}
	for _, k := range specs() {
		known = append(known, k.env)
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "PRUNER_") || slices.Contains(known, name) || slices.ContainsFunc(otherVars, func(o string) bool {
			return name == o || strings.HasSuffix(o, "_") && strings.HasPrefix(name, o)
		}) {
			continue
		}
		msg := name + " is not a pruner variable: it is ignored"
		squash := func(s string) string { return strings.ReplaceAll(strings.ToUpper(s), "_", "") }
		best, bestD := "", 4
		for _, k := range known {
			d := levenshtein.ComputeDistance(squash(name), squash(k))
			if a, b := squash(name), squash(k); len(a) > len("PRUNER")+3 && (strings.HasPrefix(b, a) || strings.HasPrefix(a, b)) {
				d = 1 // PRUNER_RECENT_TURNS for PRUNER_RECENT_TURNS_TO_KEEP
			}
			if d < bestD {
				best, bestD = k, d
			}
		}
		if best != "" {
			msg += " (did you mean " + best + "?)"
		} else {
			msg += " (pruner reads " + strings.Join(known, ", ") + ")"
		}
		out = append(out, msg)
	}
	return out
}

// RulesKey is the contextPrune key of the protected-path deny rules for
// check and hook. It is not one value with one source: project rules are
// added to the others (see Config.DenyRules).
const RulesKey = "protectedPathRules"

// PruningVar is the off switch: PRUNER_PRUNING=off (or on).
const PruningVar = "PRUNER_PRUNING"

// Keys lists the contextPrune keys that have one effective value each, in
// display order (RulesKey is shown apart).
func Keys() []string {
	s := specs()
	out := make([]string, len(s))
	for i, k := range s {
		out[i] = k.name
	}
	return out
}

// TrustedKeys lists the keys a project's .pi/settings.json cannot set (they
// make pruner run a command): only the global settings, --config, the
// environment and flags can.
func TrustedKeys() []string {
	var out []string
	for _, k := range specs() {
		if k.trusted {
			out = append(out, k.name)
		}
	}
	return out
}

// EnvName returns the environment variable for key ("" if none).
func EnvName(key string) string {
	for _, k := range specs() {
		if k.name == key {
			return k.env
		}
	}
	return ""
}

// hint is the ValueError hint of k: the type it takes and an example, as a
// settings file writes it (inFile) or as its environment variable does.
// flagHint is hint for a value given by a flag: the flag as it is written
// on the command line (`--recent-turns takes a whole number ≥ 0, e.g.
// --recent-turns 2`).
func (k keySpec) flagHint(flag string) string {
	h := k.hint(false)
	if k.env == "" {
		return h
	}
	h = strings.Replace(h, k.env+" takes", flag+" takes", 1)
	return strings.Replace(h, "e.g. "+k.env+"=", "e.g. "+flag+" ", 1)
}

func (k keySpec) hint(inFile bool) string {
	var what string
	switch k.kind {
	case kindBool:
		what = "true or false"
	case kindString:
		what = "a string"
	case kindCount:
		what = "a whole number ≥ 0"
	default:
		what = "a list of strings"
	}
	def := k.def()
	if str, ok := def.(string); ok && str == "" {
		def = "…"
	}
	if list, ok := def.([]string); ok && len(list) > 2 {
		def = list[:2] // an example, not the whole default
	}
	if !inFile {
		text := fmt.Sprint(def)
		if list, ok := def.([]string); ok {
			text = strings.Join(list, ",")
			what += ", comma-separated"
		}
		return fmt.Sprintf("%s takes %s, e.g. %s=%s", k.env, what, k.env, text)
	}
	if k.kind != kindString {
		what += ", unquoted"
		if k.kind == kindList {
			what = "a list of strings"
		}
	}
	return fmt.Sprintf("%s takes %s in JSON, e.g. {\"contextPrune\": {\"%s\": %s}}", k.name, what, k.name, show(def))
}

// fromJSON checks a value read from a settings file (no conversions: a
// quoted "3" is not a number, as it is not for pi-context-prune).
func (k keySpec) fromJSON(v any) (any, error) {
	switch k.kind {
	case kindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("want true or false, got %s", show(v))
	case kindString:
		if str, ok := v.(string); ok {
			return str, nil
		}
		return nil, fmt.Errorf("want a string, got %s", show(v))
	case kindCount:
		n, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("want a whole number ≥ 0, got %s", show(v))
		}
		if n < 0 || n != float64(int(n)) {
			return nil, fmt.Errorf("want a whole number ≥ 0, got %v", n)
		}
		return int(n), nil
	default:
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, got %s", show(v))
		}
		out := make([]string, 0, len(list))
		for i, x := range list {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("item %d: want a string, got %s", i, show(x))
			}
			out = append(out, s)
		}
		return out, nil
	}
}

// fromString parses an environment variable or a flag's text: booleans as
// true/false/1/0/on/off/yes/no, whole numbers, comma-separated lists ("" or
// "[]" for the empty list).
func (k keySpec) fromString(s string) (any, error) {
	t := strings.TrimSpace(s)
	switch k.kind {
	case kindString:
		return s, nil
	case kindBool:
		if b, ok := parseSwitch(t); ok {
			return b, nil
		}
		return nil, fmt.Errorf("want true or false, got %q", s)
	case kindCount:
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("want a whole number ≥ 0, got %q", s)
		}
		return n, nil
	default:
		out := []string{}
		if t == "" || t == "[]" {
			return out, nil
		}
		for _, p := range strings.Split(t, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	}
}

// parseSwitch reads an on/off word.
func parseSwitch(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "1", "t", "true", "on", "yes":
		return true, true
	case "0", "f", "false", "off", "no":
		return false, true
	}
	return false, false
}

// sharedKeys are the keys pi-condense and pi-context-prune keep under the
// same contextPrune object (pruner reads pi-condense's): not pruner's own,
// but not mistakes either.
func sharedKeys() []string {
	return []string{"showPruneStatusLine", "summarizerModel", "summarizerThinking",
		"summarizerIdleTimeoutMs", "summarizerMaxTimeoutMs", "pruneOn", "batchingMode",
		"quietOversizedSkips", "minBatchChars", "recoveryGraceTurns", "dedupByContentHash",
		"autoBudgetThreshold", "budgetTurnDelta", "spillThreshold", "spillPreviewBytes",
		"chainCompression", "purgeErrors", "thinkingStrip", "remindUnprunedCount",
		"frontierGapThresholdTokens", "maxImagesPerRequest"}
}

// isSharedKey reports whether k is one of sharedKeys.
func isSharedKey(k string) bool { return slices.Contains(sharedKeys(), k) }

// knownKeys are every key pruner reads, for misspelling checks.
func knownKeys() []string { return append(Keys(), RulesKey) }

// nearKey returns the known key that k is a likely misspelling of (case
// difference or edit distance ≤ 2), or "" when k is known or not close to
// any key (other tools may keep their own keys under contextPrune).
func nearKey(k string) string {
	if isSharedKey(k) {
		return ""
	}
	return nearOf(k, append(knownKeys(), sharedKeys()...))
}

// unknownKeyWarning is the one format of every unknown-key warning, top
// level or nested: "FILE: KEY is not WHAT; did you mean NEAR?" when a known
// key is near, else "(ignored; known: a, b, c)".
func unknownKeyWarning(file, key, what, near string, known []string) string {
	if near != "" {
		return fmt.Sprintf("%s: %s is not %s; did you mean %s?", file, key, what, near)
	}
	return fmt.Sprintf("%s: %s is not %s (ignored; known: %s)", file, key, what, strings.Join(known, ", "))
}

// nearOf returns the key of known that k is a likely misspelling of (case
// difference or edit distance ≤ 2, or the one known key it is cut short
// from or runs on past), or "" when k is known or near none.
func nearOf(k string, known []string) string {
	for _, key := range known {
		if k == key {
			return ""
		}
	}
	lk := strings.ToLower(k)
	for _, key := range known {
		if strings.EqualFold(k, key) || levenshtein.ComputeDistance(lk, strings.ToLower(key)) <= 2 {
			return key
		}
	}
	// a key cut short or run on (recentTurns, maxRetainedCharsLimit): the
	// one known key it begins or is the beginning of, when only one is
	near := ""
	for _, key := range known {
		lkey := strings.ToLower(key)
		if len(lk) >= 6 && len(lkey) >= 6 && (strings.HasPrefix(lkey, lk) || strings.HasPrefix(lk, lkey)) {
			if near != "" {
				return ""
			}
			near = key
		}
	}
	return near
}
