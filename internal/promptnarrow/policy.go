package promptnarrow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Policy is the part of a pi-permission-system config.json
// (~/.pi/agent/extensions/pi-permission-system/config.json) that decides
// the prompt: the "permission" map, keyed by surface ("*", a tool name,
// "skill", …). Values are a state ("allow" | "deny" | "ask") or an ordered
// pattern map whose values are a state or {"action": state, "reason": …}.
// Key order is kept, since the permission system takes the last match.
type Policy struct {
	surfaces map[string]surface
	// Warnings name what the file holds that pi-permission-system does not
	// read as written: an unknown top-level key (its schema rejects those;
	// "did you mean" when a known key is near), a state that is not allow,
	// deny or ask, a file with no "permission" map.
	Warnings []string
}

// PolicyKeys are the top-level keys of a pi-permission-system config.json
// (its schema is strict: any other key is an error there).
func PolicyKeys() []string {
	return []string{"permission", "shellTools", "debugLog", "permissionReviewLog", "yoloMode",
		"doublePressToConfirm", "toolInputPreviewMaxLength", "toolTextSummaryMaxLength",
		"piInfrastructureReadPaths", "$schema"}
}

// stateNames are the permission states.
func stateNames() []string { return []string{"allow", "deny", "ask"} }

// Near returns the word of known that w most likely misspells (a case
// difference or an edit distance ≤ 2), "" for none (also for w itself).
func Near(w string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := levenshtein.ComputeDistance(strings.ToLower(w), strings.ToLower(k)); d < bestD && w != k {
			best, bestD = k, d
		}
	}
	return best
}

// didYouMean is "; did you mean K?" for the known word near w, else "".
func didYouMean(w string, known []string) string {
	if k := Near(w, known); k != "" {
		return fmt.Sprintf("; did you mean %q?", k)
	}
	return ""
}

type surface struct {
	isMap bool
	state string // when !isMap
	rules []patRule
}

type patRule struct{ pattern, action string }

// ParsePolicy parses a pi-permission-system config.json from bytes. Only
// "permission" is read; other keys are ignored. Errors: invalid JSON, a
// "permission" value that is not an object, or a state that is not a
// string/object.
func ParsePolicy(data []byte) (*Policy, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	p := &Policy{surfaces: map[string]surface{}}
	known := PolicyKeys()
	names := make([]string, 0, len(top))
	for k := range top {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !slices.Contains(known, k) {
			more := didYouMean(k, known)
			if more == "" {
				more = "; known: " + strings.Join(known, ", ")
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf("%q is not a pi-permission-system key (pruner ignores it; pi-permission-system rejects the file)%s", k, more))
		}
	}
	raw, ok := top["permission"]
	if !ok {
		p.Warnings = append(p.Warnings, `no "permission" map: the policy denies nothing (states go in {"permission": {"bash": "deny", …}})`)
		return p, nil
	}
	keys, vals, err := orderedObject(raw)
	if err != nil {
		return nil, fmt.Errorf("policy: permission: %w", err)
	}
	for i, k := range keys {
		s, err := parseSurface(vals[i])
		if err != nil {
			return nil, fmt.Errorf("policy: permission.%s: %w", k, err)
		}
		p.surfaces[k] = s
		p.checkStates(k, s)
	}
	return p, nil
}

// checkStates warns about the states of surface k that are not allow, deny
// or ask (pi-permission-system's schema rejects them).
func (p *Policy) checkStates(k string, s surface) {
	bad := func(where, st string) {
		if !slices.Contains(stateNames(), st) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("permission.%s: state %q is not allow, deny or ask (not applied)%s", where, st, didYouMean(st, stateNames())))
		}
	}
	if !s.isMap {
		bad(k, s.state)
		return
	}
	for _, r := range s.rules {
		bad(fmt.Sprintf("%s[%q]", k, r.pattern), r.action)
	}
}

func parseSurface(raw json.RawMessage) (surface, error) {
	var st string
	if json.Unmarshal(raw, &st) == nil {
		return surface{state: st}, nil
	}
	keys, vals, err := orderedObject(raw)
	if err != nil {
		return surface{}, errors.New("want a state string or a pattern map")
	}
	s := surface{isMap: true}
	for i, k := range keys {
		a, err := parseAction(vals[i])
		if err != nil {
			return surface{}, fmt.Errorf("%q: %w", k, err)
		}
		s.rules = append(s.rules, patRule{pattern: k, action: a})
	}
	return s, nil
}

func parseAction(raw json.RawMessage) (string, error) {
	var st string
	if json.Unmarshal(raw, &st) == nil {
		return st, nil
	}
	var obj struct {
		Action string `json:"action"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.Action == "" {
		return "", errors.New("want a state string or {\"action\": …}")
	}
	return obj.Action, nil
}

// orderedObject decodes a JSON object keeping key order.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return keys, vals, nil
}

// universal is the state of the "*" surface ("" when unset, meaning ask).
func (p *Policy) universal() string {
	s, ok := p.surfaces["*"]
	if !ok {
		return ""
	}
	if !s.isMap {
		return s.state
	}
	st := ""
	for _, r := range s.rules {
		if r.pattern == "*" || r.pattern == "**" {
			st = r.action
		}
	}
	return st
}

// ToolFullyDenied mirrors pi-permission-system's isToolFullyDenied (#815):
// a tool is hidden only when every value under its surface is "deny" and
// nothing falls through to a non-deny universal "*". A surface with no
// "*" pattern falls back to the universal "*" for the values it does not
// list. A nil Policy denies nothing.
func (p *Policy) ToolFullyDenied(tool string) bool {
	if p == nil {
		return false
	}
	s, ok := p.surfaces[tool]
	if !ok || (s.isMap && len(s.rules) == 0) {
		return p.universal() == "deny"
	}
	if !s.isMap {
		return s.state == "deny"
	}
	catchAll := false
	for _, r := range s.rules {
		if r.action != "deny" {
			return false
		}
		if r.pattern == "*" || r.pattern == "**" {
			catchAll = true
		}
	}
	return catchAll || p.universal() == "deny"
}

// SkillDenied reports whether skill name resolves to "deny": the last
// matching pattern of the "skill" surface, else the universal "*".
func (p *Policy) SkillDenied(name string) bool {
	if p == nil {
		return false
	}
	st := p.universal()
	if s, ok := p.surfaces["skill"]; ok {
		if !s.isMap {
			st = s.state
		} else {
			for _, r := range s.rules {
				if wildcardMatch(r.pattern, name) {
					st = r.action
				}
			}
		}
	}
	return st == "deny"
}

// wildcardMatch matches s against pattern: "*" (and "**") spans any run of
// characters including "/", "?" is one character; "x *" also matches "x".
func wildcardMatch(pattern, s string) bool {
	for strings.Contains(pattern, "**") {
		pattern = strings.ReplaceAll(pattern, "**", "*")
	}
	if strings.HasSuffix(pattern, " *") && s == strings.TrimSuffix(pattern, " *") {
		return true
	}
	return globMatch(pattern, s)
}

func globMatch(p, s string) bool {
	pi, si := 0, 0
	star, mark := -1, 0
	pr, sr := []rune(p), []rune(s)
	for si < len(sr) {
		switch {
		case pi < len(pr) && (pr[pi] == '?' || pr[pi] == sr[si]) && pr[pi] != '*':
			pi++
			si++
		case pi < len(pr) && pr[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pr) && pr[pi] == '*' {
		pi++
	}
	return pi == len(pr)
}
