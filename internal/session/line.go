package session

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/pruner-dev/pruner/internal/jsonscan"
)

// This file maps one validated line (a jsonscan tape) onto pi's fields.
// Every reader of the package — Read, Entries, Find — goes through
// lineDecoder.decode, so they share one set of rules.

// field indexes the top-level keys pruner routes on.
type field uint8

const (
	fType field = iota
	fID
	fParentID
	fVersion
	fCwd
	fTimestamp
	fRole
	fMessage
	fSummary
	fFirstKeptEntryID
	fFirstKeptEntryIndex
	fSystemMessage
	fTargetID
	fReplacement
	fContent
	fCustomType
	fToolCallID
	fToolName
	fIsError
	nFields
)

// topField maps a key (raw, unescaped) to its field; ok false for others.
func topField(k []byte) (field, bool) {
	switch string(k) {
	case "type":
		return fType, true
	case "id":
		return fID, true
	case "parentId":
		return fParentID, true
	case "message":
		return fMessage, true
	case "timestamp":
		return fTimestamp, true
	case "version":
		return fVersion, true
	case "cwd":
		return fCwd, true
	case "role":
		return fRole, true
	case "summary":
		return fSummary, true
	case "firstKeptEntryId":
		return fFirstKeptEntryID, true
	case "firstKeptEntryIndex":
		return fFirstKeptEntryIndex, true
	case "systemMessage":
		return fSystemMessage, true
	case "targetId":
		return fTargetID, true
	case "replacement":
		return fReplacement, true
	case "content":
		return fContent, true
	case "customType":
		return fCustomType, true
	case "toolCallId":
		return fToolCallID, true
	case "toolName":
		return fToolName, true
	case "isError":
		return fIsError, true
	}
	return 0, false
}

// lineView is one decoded line: the tape plus the tape index of the value of
// each routed top-level key (0: absent; index 0 is the line's own value).
type lineView struct {
	tp    *jsonscan.Tape
	f     [nFields]uint32
	isObj bool
}

// lineDecoder decodes lines into views, reusing its buffers.
type lineDecoder struct {
	tp    jsonscan.Tape
	calls []callNodes
}

// errLine is why a line is skipped (the warning text).
type errLine struct {
	msg  string
	code WarnCode
}

func (e *errLine) Error() string { return e.msg }

// maxLine is the longest line pruner reads. V8 cannot hold a string half
// this long, so pi cannot read such a line either.
const maxLine = jsonscan.MaxInput

var bom = []byte("\xEF\xBB\xBF")

// decode validates line and indexes its top-level keys. Errors are
// *errLine: the line is skipped, as pi's JSON.parse would skip it.
func (d *lineDecoder) decode(line []byte) (lineView, error) {
	if len(line) > maxLine {
		return lineView{}, &errLine{code: WarnTooLong, msg: fmt.Sprintf("line of %d bytes is longer than the %d bytes pruner reads (pi cannot read it either); skipped", len(line), maxLine)}
	}
	if err := d.tp.Parse(line); err != nil {
		return lineView{}, describeInvalid(line, err)
	}
	v := lineView{tp: &d.tp, isObj: d.tp.Nodes[0].Kind == jsonscan.Object}
	if !v.isObj {
		return v, nil
	}
	d.tp.Members(0, func(k, val uint32) bool {
		kb, ok := d.tp.Key(k)
		if !ok {
			s, _ := d.tp.String(k)
			kb = []byte(s)
		}
		if f, ok := topField(kb); ok {
			v.f[f] = val // last wins, as in JSON.parse
		}
		return true
	})
	return v, nil
}

// describeInvalid explains why a line is not one JSON value, naming the
// joined-objects case that pi's historical write race produced and a byte
// order mark.
func describeInvalid(line []byte, err error) *errLine {
	if bytes.HasPrefix(bytes.TrimLeft(line, " \t\r"), bom) {
		return &errLine{code: WarnBOM, msg: "starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON.parse rejects: pi skips the line"}
	}
	if se, ok := err.(*jsonscan.SyntaxError); ok && se.Trailing {
		return &errLine{code: WarnJoined, msg: "two JSON values joined on one line (pi skips the whole line)"}
	}
	if se, ok := err.(*jsonscan.SyntaxError); ok && (se.Offset >= len(bytes.TrimRight(line, " \t\r\n")) || se.Msg == "unterminated string") && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r"), []byte("{")) {
		// the value stops before it is closed: a cut line
		return &errLine{code: WarnInvalid, msg: "not valid JSON: the line ends before its object does (truncated, or still being written; pi skips it)"}
	}
	return &errLine{code: WarnInvalid, msg: "not valid JSON (pi skips it)"}
}

// has reports whether key f is present.
func (v *lineView) has(f field) bool { return v.f[f] != 0 }

// kind returns the kind of field f's value (0 when absent).
func (v *lineView) kind(f field) jsonscan.Kind {
	if v.f[f] == 0 {
		return 0
	}
	return v.tp.Nodes[v.f[f]].Kind
}

// str returns field f's value when it is a JSON string.
func (v *lineView) str(f field) (string, bool) {
	if v.kind(f) != jsonscan.String {
		return "", false
	}
	return v.tp.String(v.f[f])
}

// strIs reports whether field f is the JSON string s (no allocation).
func (v *lineView) strIs(f field, s string) bool {
	return v.kind(f) == jsonscan.String && v.tp.KeyIs(v.f[f], s)
}

// typ returns the entry type ("" when absent or not a string), interned.
func (v *lineView) typ() string {
	if v.kind(fType) != jsonscan.String {
		return ""
	}
	if k, ok := v.tp.Key(v.f[fType]); ok {
		if s, ok := knownType(k); ok {
			return s
		}
	}
	s, _ := v.tp.String(v.f[fType])
	return s
}

// knownTypes are the entry types pi 1.6 writes (besides the header).
var knownTypes = []string{"message", "thinking_level_change", "model_change", "compaction", "branch_summary",
	"custom", "custom_message", "label", "session_info", "context_edit"}

func knownType(k []byte) (string, bool) {
	for _, t := range knownTypes {
		if string(k) == t {
			return t, true
		}
	}
	return "", false
}

// msgField indexes the message keys pruner routes on.
type msgField uint8

const (
	mRole msgField = iota
	mToolCallID
	mToolName
	mIsError
	mContent
	mTimestamp
	mDetails
	nMsgFields
)

// msgView indexes the keys of a message object.
type msgView struct {
	obj uint32
	f   [nMsgFields]uint32
	// adj is imageAdj of the content (when hasAdj), counted once
	adj    int
	hasAdj bool
}

func (v *lineView) message(obj uint32) msgView {
	m := msgView{obj: obj}
	v.tp.Members(obj, func(k, val uint32) bool {
		kb, ok := v.tp.Key(k)
		if !ok {
			s, _ := v.tp.String(k)
			kb = []byte(s)
		}
		switch string(kb) {
		case "role":
			m.f[mRole] = val
		case "toolCallId":
			m.f[mToolCallID] = val
		case "toolName":
			m.f[mToolName] = val
		case "isError":
			m.f[mIsError] = val
		case "content":
			m.f[mContent] = val
		case "timestamp":
			m.f[mTimestamp] = val
		case "details":
			m.f[mDetails] = val
		}
		return true
	})
	return m
}

// mstr returns message field f when it is a JSON string ("" otherwise).
func (v *lineView) mstr(m *msgView, f msgField) string {
	if m.f[f] == 0 || v.tp.Nodes[m.f[f]].Kind != jsonscan.String {
		return ""
	}
	if k, ok := v.tp.Key(m.f[f]); ok && f == mRole {
		return internRole(k)
	}
	s, _ := v.tp.String(m.f[f])
	return s
}

func internRole(k []byte) string {
	for _, r := range []string{RoleUser, RoleAssistant, RoleToolResult, RoleBashExecution, RoleCustom, RoleSystem,
		RoleBranchSummary, RoleCompactionSummary} {
		if string(k) == r {
			return r
		}
	}
	return string(k)
}

// callNodes are the tape indexes of one toolCall block's fields (0: absent).
type callNodes struct {
	id, name, args, path uint32
	// alt: the block has an "input" or "args" key (`input ?? args ??
	// arguments` may not be its "arguments")
	alt bool
}

// contentInfo is what pruner needs to know of a message's content.
type contentInfo struct {
	chars     int // code points of the text (string content, or text blocks)
	images    int
	notice    bool // a text is a pruner notice or a pi-condense stub (IsNotice)
	synthetic bool // the first text is a subagent completion notice
	hasText   bool // at least one text (for Synthetic)
	calls     []callNodes
	// firstText is the "text" member of the first block when it is an
	// object (the last "text" key, as JSON.parse keeps; 0: none)
	firstText uint32
	// texts counts the text blocks whose "text" is a string (an array
	// content), prose is the first one's "text" (0: none)
	texts int
	prose uint32
}

// analyze reads the content value at tape index c (0: absent).
func (d *lineDecoder) analyze(c uint32) contentInfo {
	d.calls = d.calls[:0]
	if c == 0 {
		return contentInfo{}
	}
	return d.analyzeNode(c)
}

// analyzeNode reads the content value at tape index c.
func (d *lineDecoder) analyzeNode(c uint32) contentInfo {
	tp := &d.tp
	var ci contentInfo
	d.calls = d.calls[:0]
	switch tp.Nodes[c].Kind {
	case jsonscan.String:
		ci.chars = int(tp.Nodes[c].Chars)
		ci.notice = isNoticeNode(tp, c)
		ci.hasText = true
		if tp.HasPrefix(c, "Subagent ") {
			s, _ := tp.String(c)
			ci.synthetic = IsSubagentNotice(s)
		}
	case jsonscan.Array:
		first := true
		tp.Elems(c, func(b uint32) bool {
			if tp.Nodes[b].Kind != jsonscan.Object {
				return true
			}
			var typ, text, id, name, args uint32
			alt := false
			tp.Members(b, func(k, v uint32) bool {
				kb, ok := tp.Key(k)
				if !ok {
					s, _ := tp.String(k)
					kb = []byte(s)
				}
				switch string(kb) {
				case "type":
					typ = v
				case "text":
					text = v
				case "id":
					id = v
				case "name":
					name = v
				case "arguments":
					args = v
				case "input", "args":
					alt = true
				}
				return true
			})
			if b == c+1 {
				ci.firstText = text // fillRead's chain test reads it
			}
			if typ == 0 || tp.Nodes[typ].Kind != jsonscan.String {
				return true
			}
			switch {
			case tp.KeyIs(typ, "text"):
				if text == 0 || tp.Nodes[text].Kind != jsonscan.String {
					return true
				}
				ci.chars += int(tp.Nodes[text].Chars)
				if ci.texts++; ci.texts == 1 {
					ci.prose = text
				}
				if isNoticeNode(tp, text) {
					ci.notice = true
				}
				if first && tp.HasPrefix(text, "Subagent ") {
					s, _ := tp.String(text)
					ci.synthetic = IsSubagentNotice(s)
				}
				first = false
				ci.hasText = true
			case tp.KeyIs(typ, "image"):
				ci.images++
			case tp.KeyIs(typ, "toolCall"):
				cn := callNodes{id: strNode(tp, id), name: strNode(tp, name), args: args, alt: alt}
				if args != 0 && tp.Nodes[args].Kind == jsonscan.Object {
					if p, ok := tp.Get(args, "path"); ok {
						cn.path = strNode(tp, p)
					}
				}
				d.calls = append(d.calls, cn)
			}
			return true
		})
	}
	ci.calls = d.calls
	return ci
}

// strNode returns n when it is a string node, else 0.
func strNode(tp *jsonscan.Tape, n uint32) uint32 {
	if n != 0 && tp.Nodes[n].Kind == jsonscan.String {
		return n
	}
	return 0
}

// nodeString decodes string node n ("" for 0).
func nodeString(tp *jsonscan.Tape, n uint32) string {
	if n == 0 {
		return ""
	}
	s, _ := tp.String(n)
	return s
}

// jsVersion is pi's reading of a header's version: `header.version ?? 1`,
// then compared with numbers (JavaScript converts a string with Number()).
// It returns the number (NaN when it converts to none) and a note when the
// value is not a plain number.
func jsVersion(v *lineView) (float64, string) {
	n := v.f[fVersion]
	if n == 0 {
		return 1, ""
	}
	tp := v.tp
	switch tp.Nodes[n].Kind {
	case jsonscan.Null:
		return 1, ""
	case jsonscan.Number:
		f, _ := tp.Number(n)
		return f, ""
	case jsonscan.String:
		s, _ := tp.String(n)
		t := strings.TrimSpace(s)
		if t == "" {
			return 0, fmt.Sprintf("header \"version\" is the string %q; pi compares it as the number 0", s)
		}
		if !decimal().MatchString(t) {
			return math.NaN(), fmt.Sprintf("header \"version\" is the string %q, which is no number: pi runs no migration", s)
		}
		f, _ := strconv.ParseFloat(t, 64)
		return f, fmt.Sprintf("header \"version\" is the string %q; pi compares it as the number %s", s, strconv.FormatFloat(f, 'g', -1, 64))
	case jsonscan.True:
		return 1, "header \"version\" is true; pi compares it as the number 1"
	case jsonscan.False:
		return 0, "header \"version\" is false; pi compares it as the number 0"
	}
	return math.NaN(), fmt.Sprintf("header \"version\" is a JSON %s: pi runs no migration", tp.Nodes[n].Kind)
}

// decimal is the decimal number syntax JavaScript's Number() accepts (hex,
// octal, binary and Infinity forms aside).
// (compiled on first use, not at every pruner start-up)
var decimal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
})
