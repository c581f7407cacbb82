package guard

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	json "github.com/goccy/go-json"
)

// Entry is one protected-path rule: a path (bare name, bare relative path,
// absolute `/…`, home `~/…`, optionally with doublestar globs) and the ops it
// denies.
type Entry struct {
	// Path is the entry as written in the rules file; reasons name it.
	Path string `json:"path"`
	// Deny is the set of denied ops.
	Deny OpSet `json:"-"`
	// Index is the entry's position in its Rules (0-based).
	Index int `json:"-"`
	// Source names where the entry came from (a file, a settings key, or
	// "built-in defaults").
	Source string `json:"-"`
	// File: the entry names a program file, which only a file of that
	// name can stand in for: a path below it is not the entry's (the
	// running binary, a pruner that would shadow it on PATH — a PATH
	// search skips a folder of that name). Never set from a rules file.
	File bool `json:"-"`
}

// Rules is a validated list of protected-path entries and where it came from.
type Rules struct {
	// Source names the origin: a file path, "settings.json protectedPathRules",
	// "built-in defaults", or several of them joined by " + " for a Union.
	Source  string
	Entries []Entry
}

// DefaultRulesSource is the Source of DefaultRules.
const DefaultRulesSource = "built-in defaults"

// DefaultRules returns the built-in rules used when no rules file or setting
// is given: the protected-paths extension's defaults, in its order — `.env`
// (read, write, edit, bash), `.git/` (read, write, edit), `node_modules/`
// (write, edit), `~/.pi/agent/auth.json` (read, write, edit, bash) — then
// the dotenv files that hold real values by convention (dotenv-flow, Vite,
// Next.js): `.env.local`, `.env.development`, `.env.production`,
// `.env.staging` and the `.local` overrides of development, production and
// test (read, write, edit, bash). Names, not a glob: a glob entry makes every
// wildcard call a possible hit. The committed templates `.env.example`,
// `.env.sample`, `.env.template` and the fake values of `.env.test` stay
// readable (docs/protected-paths.md, "Rules").
func DefaultRules() *Rules {
	all := SetRead | SetWrite | SetEdit | SetBash
	src := DefaultRulesSource
	paths := []struct {
		path string
		deny OpSet
	}{
		{".env", all},
		{".git/", SetRead | SetWrite | SetEdit},
		{"node_modules/", SetWrite | SetEdit},
		{"~/.pi/agent/auth.json", all},
		{".env.local", all},
		{".env.development", all},
		{".env.production", all},
		{".env.staging", all},
		{".env.development.local", all},
		{".env.production.local", all},
		{".env.test.local", all},
		// the user's credential stores
		{"~/.ssh/", all},
		{"~/.aws/credentials", all},
		{"~/.netrc", all},
		{"~/.config/gh/hosts.yml", all},
	}
	r := &Rules{Source: src, Entries: make([]Entry, len(paths))}
	for i, p := range paths {
		r.Entries[i] = Entry{Path: p.path, Deny: p.deny, Index: i, Source: src}
	}
	return r
}

// GateRulesSource names the rules that protect the gate's own
// configuration (GateRules).
const GateRulesSource = "the gate's own configuration (built in, always applied)"

// GateRules are the rules that keep a tool call from turning the gate off:
// no write or edit (a bash redirection, rm, mv, cp onto them included) of
// the files its rules and hooks are read from — pi's settings.json and
// configs/protected-paths.json and its extensions folder under agentDir
// (pi's agent dir, ~/.pi/agent by default), Claude Code's settings (the
// user's and the project's, where its PreToolUse hook is set), what pi
// loads as code from a trusted project (.pi/extensions/, and
// .pi/settings.json, whose packages and extensions keys load code), the MCP
// servers Claude Code starts (a project's .mcp.json, ~/.claude.json), and exe,
// the pruner binary the hook runs (skipped when ""). Reading them stays
// allowed. They are added to whatever rules apply, whatever their source:
// one call that rewrote the rules would let the next one read .env.
func GateRules(agentDir, exe string) *Rules {
	ops := SetWrite | SetEdit
	paths := []string{
		"~/.claude/settings.json", "~/.claude/settings.local.json",
		".claude/settings.json", ".claude/settings.local.json",
		// what pi loads as code from a trusted project: its extensions and
		// the packages and extensions its settings list
		".pi/settings.json", ".pi/extensions/",
		// Claude Code's MCP servers, whose commands it starts: the
		// project's .mcp.json and the user's ~/.claude.json (it also holds
		// per-project servers)
		".mcp.json", "~/.claude.json",
		// the pi packages a project installs (pi install -l git:… / npm:…)
		".pi/git/", ".pi/npm/",
		// Claude Code's managed settings (Linux, macOS), whose hooks it
		// runs, and its plugins, whose hooks/hooks.json run commands
		"/etc/claude-code/managed-settings.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
		"~/.claude/plugins/",
	}
	if agentDir != "" {
		agentDir = strings.TrimSuffix(strings.ReplaceAll(agentDir, `\`, "/"), "/")
		paths = append([]string{agentDir + "/settings.json", agentDir + "/configs/protected-paths.json", agentDir + "/extensions/"}, paths...)
		// bin/ comes first on the PATH of pi's bash tool (a git there
		// shadows git); trust.json decides whether a project's
		// .pi/extensions load; git/ and npm/ hold the installed packages;
		// models.json's values (apiKey, headers) that start with `!` are
		// commands pi runs to get them
		paths = append(paths, agentDir+"/bin/", agentDir+"/trust.json", agentDir+"/git/", agentDir+"/npm/", agentDir+"/models.json")
	}
	if exe != "" {
		paths = append(paths, strings.ReplaceAll(exe, `\`, "/"))
	}
	r := &Rules{Source: GateRulesSource, Entries: make([]Entry, 0, len(paths))}
	for _, p := range paths {
		if hasGlobMeta(p) {
			continue // a folder name with a glob character: not a path rule can name as it is
		}
		r.Entries = append(r.Entries, Entry{Path: p, Deny: ops, Index: len(r.Entries), Source: GateRulesSource, File: exe != "" && p == strings.ReplaceAll(exe, `\`, "/")})
	}
	return r
}

// hasGlobMeta reports whether p holds a character a rule's path reads as
// a glob.
func hasGlobMeta(p string) bool { return strings.ContainsAny(p, "*?[{") }

// Union returns the rules of r followed by the entries of add that r does
// not already have (same path and ops): a project may add rules, never take
// any away. Each entry keeps its Source. A nil add returns r.
// unionKey is what makes two entries the same for Union.
func unionKey(e Entry) string {
	return e.Path + "\x00" + e.Deny.String() + "\x00" + strconv.FormatBool(e.File)
}

func (r *Rules) Union(add *Rules) *Rules {
	if add == nil || len(add.Entries) == 0 {
		return r
	}
	out := &Rules{Source: r.Source, Entries: make([]Entry, 0, len(r.Entries)+len(add.Entries))}
	have := map[string]bool{}
	for _, e := range r.Entries {
		e.Index = len(out.Entries)
		out.Entries = append(out.Entries, e)
		have[unionKey(e)] = true
	}
	added := false
	for _, e := range add.Entries {
		if have[unionKey(e)] {
			continue
		}
		e.Index = len(out.Entries)
		out.Entries = append(out.Entries, e)
		added = true
	}
	if added {
		out.Source = r.Source + " + " + add.Source
	}
	return out
}

// ParseRules parses and validates rules in the protected-paths extension
// format `{"paths":[{"path":".env","deny":["read","write","edit","bash"]},…]}`
// or as a bare array of entries (settings.json `contextPrune.protectedPathRules`).
// Top-level keys starting with `_` (comments) are ignored. source names the
// origin in errors, in Rules.Source and in every Entry.Source.
//
// Errors (each names the entry, e.g. `rules.json: paths[2] "x[": …`): invalid
// JSON; a missing or empty list ("nothing protected" is never implied); an
// entry that is not an object, has no `path`, no `deny`, the old `ops` key,
// an unknown key, an unknown op, or a path that is not a valid glob.
func ParseRules(data []byte, source string) (*Rules, error) {
	r, _, err := parseRules(data, source, false)
	return r, err
}

// ParseAddedRules parses rules that are only added to others (a project's
// .pi/settings.json): an empty list adds nothing and an entry with an empty
// deny list denies nothing, so neither is an error — they come back as
// warnings, and the entry is left out. Every other error of ParseRules
// stays an error (the caller must not fall back to fewer rules).
func ParseAddedRules(data []byte, source string) (*Rules, []string, error) {
	return parseRules(data, source, true)
}

// errEmptyDeny is an entry whose deny list is empty.
var errEmptyDeny = errors.New("empty \"deny\" list denies nothing")

func parseRules(data []byte, source string, added bool) (*Rules, []string, error) {
	var warnings []string
	orig := data
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil, fmt.Errorf("%s: empty rules", source)
	}
	var list []json.RawMessage
	listName := "paths"
	if data[0] != '[' && data[0] != '{' {
		return nil, nil, fmt.Errorf(`%s: the rules are %s, not a list of entries: want [{"path": ".env", "deny": ["read"]}, …] (or {"paths": [ … ]} in a rules file)`, source, describeJSON(data))
	}
	if data[0] == '[' {
		listName = "protectedPathRules"
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, nil, fmt.Errorf("%s%s: %w", source, jsonPos(orig), err)
		}
	} else {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, nil, fmt.Errorf("%s%s: %w", source, jsonPos(orig), err)
		}
		for _, k := range sortedKeys(top) { // the same key named on every run
			if k != "paths" && !strings.HasPrefix(k, "_") {
				return nil, nil, fmt.Errorf("%s: unknown key %q (want \"paths\")", source, k)
			}
		}
		raw, ok := top["paths"]
		if !ok {
			return nil, nil, fmt.Errorf("%s: no \"paths\" list", source)
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, nil, fmt.Errorf(`%s: "paths" is %s, not a list of entries: want "paths": [{"path": ".env", "deny": ["read"]}, …]`, source, describeJSON(raw))
		}
	}
	if len(list) == 0 && !added {
		return nil, nil, fmt.Errorf("%s: %s is empty: it would protect nothing (remove it to use the built-in defaults)", source, listName)
	}
	r := &Rules{Source: source, Entries: make([]Entry, 0, len(list))}
	for i, raw := range list {
		e, err := parseEntry(raw, i)
		if added && errors.Is(err, errEmptyDeny) {
			warnings = append(warnings, fmt.Sprintf("%s: %s[%d]%s; the entry adds nothing", source, listName, i, err))
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s[%d]%s", source, listName, i, err)
		}
		e.Source = source
		r.Entries = append(r.Entries, e)
	}
	return r, warnings, nil
}

// sortedKeys are m's keys in order, so that an error names the same one
// on every run.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// describeJSON names a JSON value's type for an error: `a string (".env")`.
func describeJSON(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '"':
		return "a string (" + truncate(string(v), 40) + ")"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number (" + truncate(string(v), 20) + ")"
}

func parseEntry(raw json.RawMessage, i int) (Entry, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return Entry{}, fmt.Errorf(": not an object: %s", truncate(string(raw), 60))
	}
	var p string
	pr, ok := m["path"]
	if !ok {
		return Entry{}, errors.New(": missing \"path\"")
	}
	if err := json.Unmarshal(pr, &p); err != nil {
		return Entry{}, fmt.Errorf(": \"path\" is not a string")
	}
	name := fmt.Sprintf(" %q", p)
	if strings.TrimSpace(p) == "" {
		return Entry{}, fmt.Errorf("%s: empty \"path\"", name)
	}
	for _, k := range sortedKeys(m) {
		switch {
		case k == "path" || k == "deny" || strings.HasPrefix(k, "_"):
		case k == "ops":
			return Entry{}, fmt.Errorf("%s: \"ops\" was renamed to \"deny\"", name)
		default:
			return Entry{}, fmt.Errorf("%s: unknown key %q (want \"path\" and \"deny\")", name, k)
		}
	}
	dr, ok := m["deny"]
	if !ok {
		return Entry{}, fmt.Errorf("%s: missing \"deny\" list", name)
	}
	var deny []string
	if err := json.Unmarshal(dr, &deny); err != nil {
		return Entry{}, fmt.Errorf("%s: \"deny\" is not a list of op names", name)
	}
	if len(deny) == 0 {
		return Entry{}, fmt.Errorf("%s: %w", name, errEmptyDeny)
	}
	var set OpSet
	for _, d := range deny {
		op, err := ParseOp(d)
		if err != nil {
			return Entry{}, fmt.Errorf("%s: %v", name, err)
		}
		set |= op.Bit()
	}
	pat := strings.ReplaceAll(p, `\`, "/")
	if why := inertRule(pat); why != "" {
		return Entry{}, fmt.Errorf("%s: %s, so the entry would match nothing", name, why)
	}
	if !doublestar.ValidatePattern(pat) {
		return Entry{}, fmt.Errorf("%s: bad glob (an unclosed [ or {: in rules [ ] { } are glob syntax; a literal bracket or brace is matched by ?)", name)
	}
	return Entry{Path: p, Deny: set, Index: i}, nil
}

// inertRule says why a rule path (separators already `/`) is written in a
// form the matcher never meets ("" when it is not): calls are matched after
// `..`, `~`, `$HOME` and file: URLs are resolved, so a bare entry with a
// `..` segment, `~user`, another variable or a URL would silently protect
// nothing.
func inertRule(p string) string {
	switch {
	case len(p) > 5 && strings.EqualFold(p[:5], "file:"):
		return "a file: URL is not a path (write the path it names)"
	case strings.HasPrefix(p, "~") && p != "~" && !strings.HasPrefix(p, "~/"):
		return "only ~ and ~/ name the home folder (~user is not expanded: write the absolute path)"
	case envVarPrefix(p) && !isAnchored(p):
		return "only $HOME and ${HOME} are expanded in rules (write the path the variable holds)"
	}
	if !isAnchored(p) {
		for s := range strings.SplitSeq(p, "/") {
			if s == ".." {
				return "a `..` segment in a relative entry never matches (calls are matched after `..` is resolved: write an absolute path or the names below the folder)"
			}
		}
	}
	return ""
}

// envVarPrefix reports whether a rule path starts with what reads as a
// variable: `${…}` or `$NAME` in capitals (a lower-case `$name` is taken for
// a literal file name).
func envVarPrefix(p string) bool {
	if strings.HasPrefix(p, "${") {
		return true
	}
	if !strings.HasPrefix(p, "$") {
		return false
	}
	name, _, _ := strings.Cut(p[1:], "/")
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// MarshalJSON renders the rules in the extension's file format.
func (r *Rules) MarshalJSON() ([]byte, error) {
	type ent struct {
		Path string   `json:"path"`
		Deny []string `json:"deny"`
	}
	out := struct {
		Paths []ent `json:"paths"`
	}{Paths: make([]ent, 0, len(r.Entries))}
	for _, e := range r.Entries {
		var d []string
		for _, op := range []Op{OpRead, OpWrite, OpEdit, OpBash} {
			if e.Deny.Has(op) {
				d = append(d, string(op))
			}
		}
		out.Paths = append(out.Paths, ent{Path: e.Path, Deny: d})
	}
	return json.Marshal(out)
}

// jsonPos returns ":line:col" of the first syntax error in data (1-based),
// or "" when encoding/json cannot place it.
func jsonPos(data []byte) string {
	var v any
	err := stdjson.Unmarshal(data, &v)
	var se *stdjson.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	off := min(max(int(se.Offset)-1, 0), len(data)) // Offset counts the bad byte
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf(":%d:%d", line, col)
}
