package guard

import (
	"fmt"
	"slices"
)

// argShapes fails closed on a known tool's call whose arguments are not
// the shapes the analysis reads: an argument the analysis takes as a
// command line, a path, a folder or a glob that is an object, a number or
// a list of non-strings ({"command":{"x":"cat .env"}}, {"file_path":123}).
// The analysis would skip such a value, yet a tool that coerces or
// flattens its input (a schema with defaults, a wrapper that joins or
// stringifies) may still act on what it holds — so it is an unknown use of
// the tool's ops, denied where a rule denies one of them. A null argument
// is an absent one.
func argShapes(an *analysis, kind toolKind, tool string, args map[string]any) {
	var keys []string // the arguments the analysis reads as strings
	var ops OpSet
	lists := pathKeys() // keys a list of strings may stand in
	switch kind {
	case kindBash:
		keys = append(append(shellCommandKeys(), shellStdinKeys()...), shellCwdKeys()...)
		ops, lists = SetRead|setModify, []string{"command"}
	case kindPwsh:
		keys, ops, lists = pwshCodeKeys(), SetRead|setModify, nil
	case kindRead, kindList:
		keys, ops = pathKeys(), SetRead
	case kindWrite:
		keys, ops = pathKeys(), SetWrite
	case kindEdit:
		keys, ops = pathKeys(), SetEdit
	case kindPatch:
		keys, ops = append(pathKeys(), patchTextKeys()...), SetEdit
	case kindGrep:
		keys, ops = append(searchDirKeys(), grepFilterKeys()...), SetRead
	case kindFind:
		keys, ops = append(searchDirKeys(), findNameKeys()...), SetRead
	default:
		return
	}
	if kind == kindRead || kind == kindList || kind == kindWrite || kind == kindEdit || kind == kindPatch {
		keys = append(keys, "paths")
		lists = append(lists, "paths")
	}
	for _, k := range keys {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		if _, ok := v.(string); ok {
			continue
		}
		if l, ok := v.([]any); ok && slices.Contains(lists, k) && allStrings(l) {
			continue
		}
		an.unknowns = append(an.unknowns, unknownUse{raw: k, ops: ops,
			why: fmt.Sprintf("the %s tool's %q argument is %s, not a string: the analysis cannot tell what it names", tool, k, jsonKind(v))})
	}
}

// shellCommandKeys are the arguments a shell tool's command line is read
// from, in the order they are tried.
func shellCommandKeys() []string {
	return []string{"command", "cmd", "script", "code", "command_line", "commandLine", "cmdline",
		"shell_command", "shellCommand", "shell", "bash", "sh", "line", "exec", "run"}
}

func allStrings(l []any) bool {
	for _, x := range l {
		if _, ok := x.(string); !ok {
			return false
		}
	}
	return true
}

// namesPath: a path argument (or a list of them, or a multi-file edit's
// entries) names at least one path.
func namesPath(args map[string]any) bool {
	has := func(m map[string]any) bool {
		for _, k := range append(pathKeys(), "paths") {
			switch v := m[k].(type) {
			case string:
				if v != "" {
					return true
				}
			case []any:
				for _, x := range v {
					if s, ok := x.(string); ok && s != "" {
						return true
					}
				}
			}
		}
		return false
	}
	if has(args) {
		return true
	}
	if edits, ok := args["edits"].([]any); ok {
		for _, e := range edits {
			if em, ok := e.(map[string]any); ok && has(em) {
				return true
			}
		}
	}
	return false
}

// jsonKind names a decoded JSON value's type as a sentence does.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list that is not all strings"
	case float64, int, int64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("a %T", v)
}
