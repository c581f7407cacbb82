package protect

import (
	"fmt"
	"strings"
	"unicode"
)

// Op is an operation a deny rule can block: "read", "write", "edit" or "bash".
type Op string

// The operations of the protected-paths rule format.
const (
	OpRead  Op = "read"
	OpWrite Op = "write"
	OpEdit  Op = "edit"
	OpBash  Op = "bash"
)

// OpSet is a set of Ops.
type OpSet uint8

const (
	setRead OpSet = 1 << iota
	setWrite
	setEdit
	setBash
)

// allOps lists the ops in report order.
var allOps = [...]Op{OpBash, OpRead, OpWrite, OpEdit}

func opBit(op Op) OpSet {
	switch op {
	case OpRead:
		return setRead
	case OpWrite:
		return setWrite
	case OpEdit:
		return setEdit
	case OpBash:
		return setBash
	}
	return 0
}

// ParseOp parses an op name ("read", "write", "edit", "bash"; exact, lower
// case). It returns an error for anything else.
func ParseOp(s string) (Op, error) {
	if opBit(Op(s)) == 0 {
		return "", fmt.Errorf("unknown op %q (want read, write, edit or bash)", s)
	}
	return Op(s), nil
}

// Has reports whether op is in the set.
func (s OpSet) Has(op Op) bool { return s&opBit(op) != 0 }

// Ops returns the members in the order bash, read, write, edit.
func (s OpSet) Ops() []Op {
	var out []Op
	for _, op := range allOps {
		if s.Has(op) {
			out = append(out, op)
		}
	}
	return out
}

// String renders the set as "read,write".
func (s OpSet) String() string {
	ops := s.Ops()
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = string(op)
	}
	return strings.Join(parts, ",")
}

// target is one path a call touches, before normalisation.
type target struct {
	raw     string // as written in the call
	path    string // normalised absolute path ("" until normalised)
	op      Op     // read, write or edit
	pattern bool   // path is a glob that may match several files
	shell   bool   // came from a bash word (shell spelling rules)
}

// toolKind classifies a tool name: pi names and Claude Code names map to the
// same kinds.
type toolKind uint8

const (
	kindUnknown toolKind = iota
	kindRead             // read, Read, NotebookRead, LS, ls
	kindSearch           // grep, find, Grep, Glob: a directory plus a glob
	kindWrite            // write, Write
	kindEdit             // edit, Edit, MultiEdit, multi_edit, NotebookEdit
	kindBash             // bash, Bash
	kindPatch            // apply_patch: paths inside a patch text
)

func classifyTool(name string) toolKind {
	n := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, name)
	switch n {
	case "read", "readfile", "notebookread", "ls", "list", "listdir", "view", "cat":
		return kindRead
	case "grep", "find", "glob", "search", "rg", "ripgrep":
		return kindSearch
	case "write", "writefile", "create", "createfile":
		return kindWrite
	case "edit", "multiedit", "editfile", "notebookedit", "strreplace", "strreplacebasededittool", "replace":
		return kindEdit
	case "bash", "shell":
		return kindBash
	case "applypatch", "patch":
		return kindPatch
	}
	return kindUnknown
}

// pathKeys are the argument names that hold a single file path.
var pathKeys = []string{"path", "file_path", "filePath", "notebook_path", "file", "filename"}

// toolTargets returns the paths a non-bash tool call touches, and for a bash
// tool its command (isBash true). Arguments of an unexpected type are ignored.
func toolTargets(tool string, args map[string]any) (ts []target, command string, isBash bool) {
	kind := classifyTool(tool)
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	firstPath := func() (string, bool) {
		for _, k := range pathKeys {
			if s, ok := args[k].(string); ok && s != "" {
				return s, true
			}
		}
		return "", false
	}
	switch kind {
	case kindBash:
		for _, k := range []string{"command", "cmd", "script"} {
			if s := str(k); s != "" {
				return nil, s, true
			}
		}
		if a, ok := args["command"].([]any); ok { // argv form
			parts := make([]string, 0, len(a))
			for _, x := range a {
				if s, ok := x.(string); ok {
					parts = append(parts, shellQuote(s))
				}
			}
			return nil, strings.Join(parts, " "), true
		}
		return nil, "", true
	case kindRead:
		p, ok := firstPath()
		if !ok && strings.EqualFold(tool, "ls") {
			p, ok = ".", true
		}
		if ok {
			ts = append(ts, target{raw: p, op: OpRead})
		}
	case kindSearch:
		dir, ok := firstPath()
		if !ok {
			dir = "."
		}
		ts = append(ts, target{raw: dir, op: OpRead})
		lower := strings.ToLower(tool)
		var globs []string
		if g := str("glob"); g != "" {
			globs = append(globs, g)
		}
		if lower == "find" || lower == "glob" { // pattern is a glob, not a regex
			if g := str("pattern"); g != "" {
				globs = append(globs, g)
			}
		}
		for _, g := range globs {
			g = strings.ReplaceAll(g, `\`, "/")
			sep := "/"
			if !strings.Contains(g, "/") { // fd and rg match a bare glob at any depth
				sep = "/**/"
			}
			if strings.HasPrefix(g, "/") || strings.HasPrefix(g, "~") {
				ts = append(ts, target{raw: g, op: OpRead, pattern: true})
			} else {
				raw := strings.ReplaceAll(strings.TrimSuffix(dir, "/"), `\`, "/") + sep + g
				ts = append(ts, target{raw: raw, op: OpRead, pattern: true})
			}
		}
	case kindWrite, kindEdit:
		op := OpWrite
		if kind == kindEdit {
			op = OpEdit
		}
		if p, ok := firstPath(); ok {
			ts = append(ts, target{raw: p, op: op})
		}
		if edits, ok := args["edits"].([]any); ok { // multi-file edit forms
			for _, e := range edits {
				m, ok := e.(map[string]any)
				if !ok {
					continue
				}
				for _, k := range pathKeys {
					if s, ok := m[k].(string); ok && s != "" {
						ts = append(ts, target{raw: s, op: OpEdit})
						break
					}
				}
			}
		}
	case kindPatch:
		text := str("input")
		if text == "" {
			text = str("patch")
		}
		for line := range strings.Lines(text) {
			line = strings.TrimSpace(line)
			for _, pre := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
				if p, ok := strings.CutPrefix(line, pre); ok && p != "" {
					ts = append(ts, target{raw: p, op: OpEdit})
				}
			}
		}
		if p, ok := firstPath(); ok {
			ts = append(ts, target{raw: p, op: OpEdit})
		}
	default:
		if p, ok := firstPath(); ok {
			ts = append(ts, target{raw: p, op: OpRead})
		}
	}
	return ts, "", false
}

// shellQuote single-quotes s for re-parsing an argv-form command.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
