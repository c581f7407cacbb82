package guard

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
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

// The single-op sets.
const (
	SetRead OpSet = 1 << iota
	SetWrite
	SetEdit
	SetBash
)

// setModify is what a shell write implies: the file changes, which is a
// write and an edit.
const setModify = SetWrite | SetEdit

// allOps lists the ops in report order.
func allOps() [4]Op { return [...]Op{OpBash, OpRead, OpWrite, OpEdit} }

// Bit returns the one-op set of op (0 for an unknown op).
func (op Op) Bit() OpSet {
	switch op {
	case OpRead:
		return SetRead
	case OpWrite:
		return SetWrite
	case OpEdit:
		return SetEdit
	case OpBash:
		return SetBash
	}
	return 0
}

// ParseOp parses an op name ("read", "write", "edit", "bash"; exact, lower
// case). It returns an error for anything else.
func ParseOp(s string) (Op, error) {
	if Op(s).Bit() == 0 {
		if near := nearOp(s); near != "" {
			return "", fmt.Errorf("unknown op %q (did you mean %q? want read, write, edit or bash)", s, near)
		}
		return "", fmt.Errorf("unknown op %q (want read, write, edit or bash)", s)
	}
	return Op(s), nil
}

// nearOp is the op s is a slip of (case, or one or two letters off), or "".
func nearOp(s string) Op {
	for _, op := range allOps() {
		if strings.EqualFold(s, string(op)) || levenshtein.ComputeDistance(strings.ToLower(s), string(op)) <= 2 && len(s) > 2 {
			return op
		}
	}
	return ""
}

// Has reports whether op is in the set.
func (s OpSet) Has(op Op) bool { return s&op.Bit() != 0 }

// Ops returns the members in the order bash, read, write, edit.
func (s OpSet) Ops() []Op {
	var out []Op
	for _, op := range allOps() {
		if s.Has(op) {
			out = append(out, op)
		}
	}
	return out
}

// first returns the first member in report order ("" for the empty set).
func (s OpSet) first() Op {
	for _, op := range allOps() {
		if s.Has(op) {
			return op
		}
	}
	return ""
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
