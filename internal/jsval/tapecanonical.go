package jsval

import (
	"bytes"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// TapeCanonical reports whether the value at node n of tp is written as
// JSON.stringify writes it (AppendCanonical would copy it), from the tape:
// no whitespace, strings of valid UTF-8 whose escapes are all short forms
// (\" \\ \b \f \n \r \t), integers written plainly, objects of at most 16
// plain keys (PlainKey), none repeated. False is no answer: other values
// may be canonical too.
func TapeCanonical(tp *jsonscan.Tape, n uint32) bool {
	nodes, src := tp.Nodes, tp.Src
	for i := n; i < nodes[n].Next; i++ {
		nd := &nodes[i]
		switch nd.Kind {
		case jsonscan.String:
			if nd.Flags&(jsonscan.BadUTF8|jsonscan.UEscaped|jsonscan.SlashEscaped) != 0 {
				return false
			}
		case jsonscan.Number:
			if !plainInteger(src[nd.Start:nd.End]) {
				return false
			}
		case jsonscan.Object, jsonscan.Array:
			if !tapeTight(tp, i) {
				return false
			}
		}
	}
	return true
}

// tapeTight reports whether the object or array at node i of tp has
// nothing but one ':' or ',' between its members and its brackets, and (an
// object) at most 16 keys, each plain and none repeated.
func tapeTight(tp *jsonscan.Tape, i uint32) bool {
	nodes, src := tp.Nodes, tp.Src
	nd := &nodes[i]
	if nd.Chars == 0 {
		return nd.End == nd.Start+2
	}
	obj := nd.Kind == jsonscan.Object
	if obj && nd.Chars > 16 {
		return false
	}
	var keys [16][]byte
	pos, k := nd.Start+1, i+1
	for m := uint32(0); m < nd.Chars; m++ {
		if obj {
			key := &nodes[k]
			if key.Start != pos || !plainKey(src[key.Start:key.End]) {
				return false
			}
			raw := src[key.Start:key.End]
			for _, prev := range keys[:m] {
				if bytes.Equal(prev, raw) {
					return false
				}
			}
			keys[m] = raw
			pos, k = key.End+1, k+1
		}
		v := &nodes[k]
		if v.Start != pos {
			return false
		}
		pos, k = v.End+1, v.Next
	}
	return pos == nd.End
}
