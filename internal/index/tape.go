package index

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/pruner-dev/pruner/internal/jsonscan"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// lineTape reads one input line at a time into a reused tape (one
// validating pass, jsonscan), so that a message's fields are found by the
// tape's offsets instead of a scan of the line per field. Values are read
// as jsval reads them (JSON.parse's exact keys, the last duplicate wins;
// strings decoded as jsval.String decodes them).
type lineTape struct {
	tp    jsonscan.Tape
	buf   []byte // resultBytes' text
	sum   []byte // contentHash's normalised text
	texts []byte // backfillSummary's texts (reused)
	canon []byte // callArgsAt's canonical form (reused)
	// copyArgs makes callArgsAt copy arguments, and singleText locate no
	// text, instead of leaving them in the input (a flush onto a state
	// rebuilt from another context than the one read)
	copyArgs bool
	rawText  []byte    // appendTextAt's raw string (reused)
	prose    []byte    // captureBatch's assistant text (reused)
	sha      hash.Hash // contentHash's hasher (reused)
	digest   []byte    // its sum (reused)
	// textFlags are the jsonscan text flags of the last text appendTextAt
	// decoded (textKnown: it has, since textKnown was last cleared)
	textFlags uint8
	textKnown bool
}

// strIs reports whether node n is a string whose value (as str decodes
// it) is want, without making the string.
func (t *lineTape) strIs(n uint32, has bool, want string) bool {
	v, ok := t.strView(n, has)
	return ok && v == want
}

// strView is str without a copy for a string without escapes or bad
// bytes: a view of the line on the tape, valid until the next read.
func (t *lineTape) strView(n uint32, has bool) (string, bool) {
	if !has || t.tp.Nodes[n].Kind != jsonscan.String {
		return "", false
	}
	if nd := &t.tp.Nodes[n]; nd.Flags&(jsonscan.Escaped|jsonscan.BadUTF8) == 0 {
		return bufString(t.tp.Src[nd.Start+1 : nd.End-1]), true
	}
	return t.str(n, true)
}

// appendStr appends the string node n's value (as str decodes it) to dst.
func (t *lineTape) appendStr(dst []byte, n uint32) []byte {
	return appendStrRaw(dst, t.tp.Raw(n), t.tp.Nodes[n].Flags)
}

// appendStrRaw appends the value of the JSON string raw (quotes included;
// flags its jsonscan flags) to dst, as str decodes it.
func appendStrRaw(dst, raw []byte, flags uint8) []byte {
	switch {
	case flags&jsonscan.BadUTF8 != 0:
		s, _ := jsval.String(raw) // jsval folds a run of bad bytes into one U+FFFD
		return append(dst, s...)
	case flags&jsonscan.Escaped == 0:
		return append(dst, raw[1:len(raw)-1]...)
	}
	return jsonscan.AppendUnquoteValid(dst, raw)
}

// parse parses line; ok is false when it is not one JSON value (the file
// changed under pruner: every field reads as absent).
func (t *lineTape) parse(line []byte) bool {
	if t.tp.Parse(line) != nil {
		t.tp.Nodes = t.tp.Nodes[:0]
		return false
	}
	return true
}

// entryMessage reads the line of a branch entry and returns the tape index
// of its "message" value (ok false when absent). The tape is valid until
// the next read of the input.
func (t *lineTape) entryMessage(ctx *session.Context, be *session.BranchEntry) (uint32, bool, error) {
	line, err := ctx.EntryLine(be)
	if err != nil {
		return 0, false, err
	}
	return t.lineMessage(line)
}

// message reads the line of a context message (a session entry's) and
// returns the tape index of its "message" value.
func (t *lineTape) message(ctx *session.Context, m *session.Message) (uint32, bool, error) {
	line, err := ctx.Raw(m)
	if err != nil {
		return 0, false, err
	}
	return t.lineMessage(line)
}

func (t *lineTape) lineMessage(line []byte) (uint32, bool, error) {
	if !t.parse(line) {
		return 0, false, nil
	}
	n, ok := t.tp.Get(0, "message")
	return n, ok, nil
}

// get is jsval.Get on the tape: the value of key in the object at obj (ok
// false when obj is absent, not an object, or has no such key).
func (t *lineTape) get(obj uint32, has bool, key string) (uint32, bool) {
	if !has {
		return 0, false
	}
	return t.tp.Get(obj, key)
}

// str is jsval.String of node n (absent: has false).
func (t *lineTape) str(n uint32, has bool) (string, bool) {
	if !has || t.tp.Nodes[n].Kind != jsonscan.String {
		return "", false
	}
	if t.tp.Nodes[n].Flags&jsonscan.BadUTF8 != 0 {
		return jsval.String(t.tp.Raw(n)) // jsval folds a run of bad bytes into one U+FFFD
	}
	return t.tp.String(n)
}

// getStr is the string value of key in the object at obj.
func (t *lineTape) getStr(obj uint32, has bool, key string) (string, bool) {
	v, ok := t.get(obj, has, key)
	return t.str(v, ok)
}

// raw is the bytes of node n (nil when absent).
func (t *lineTape) raw(n uint32, has bool) []byte {
	if !has {
		return nil
	}
	return t.tp.Raw(n)
}

// elems calls fn for each element of the array at arr (none when absent or
// not an array).
func (t *lineTape) elems(arr uint32, has bool, fn func(el uint32)) {
	if !has {
		return
	}
	t.tp.Elems(arr, func(e uint32) bool { fn(e); return true })
}

// callArgs is a toolCall block's `input ?? args ?? arguments ?? {}`, as
// JSON.stringify writes it.
func (t *lineTape) callArgs(bl uint32) []byte {
	for _, k := range []string{"input", "args", "arguments"} {
		if v, ok := t.tp.Get(bl, k); ok && t.tp.Nodes[v].Kind != jsonscan.Null {
			return jsval.Canonical(t.tp.Raw(v))
		}
	}
	return []byte("{}")
}

// callArgsAt is callArgs for the line on the tape, branch entry entry (its
// index in the context's Branch): when the line holds the arguments as
// JSON.stringify writes them (as pi writes them), they are left there and
// at locates them; otherwise args is their canonical copy.
func (t *lineTape) callArgsAt(bl uint32, entry int) (args []byte, at textRef) {
	for _, k := range []string{"input", "args", "arguments"} {
		v, ok := t.tp.Get(bl, k)
		if !ok || t.tp.Nodes[v].Kind == jsonscan.Null {
			continue
		}
		raw := t.tp.Raw(v)
		// in their canonical form as they are (as pi writes them): the
		// tape tells for most; the others are made canonical and compared
		canonical := t.canonical(v)
		if !canonical {
			t.canon = jsval.AppendCanonical(t.canon[:0], raw)
			canonical = bytes.Equal(t.canon, raw)
		}
		if nd := &t.tp.Nodes[v]; !t.copyArgs && entry >= 0 && entry < math.MaxInt32 && nd.Start <= math.MaxInt32 && len(raw) <= math.MaxInt32 {
			// left in the line as they are: when canonical, every read
			// copies them as they are, else (loose) appendArgs makes their
			// canonical form when it reads them
			return nil, textRef{entry: int32(entry + 1), off: int32(nd.Start), n: int32(len(raw)), loose: !canonical}
		}
		if canonical {
			return append([]byte(nil), raw...), textRef{}
		}
		return append([]byte(nil), t.canon...), textRef{}
	}
	return []byte("{}"), textRef{}
}

// appendArgs appends a call's arguments to dst: args, or when at locates
// them, the bytes at in ctx's branch (Context.AppendEntryBytes: the line a
// tape holds stays valid) — in their canonical form when at is loose.
func appendArgs(dst []byte, ctx *session.Context, args []byte, at textRef) ([]byte, error) {
	if at.entry == 0 {
		return append(dst, args...), nil
	}
	if int(at.entry) > len(ctx.Branch) {
		return dst, fmt.Errorf("a tool call's arguments are in entry %d of a branch of %d", at.entry, len(ctx.Branch))
	}
	start := len(dst)
	dst, err := ctx.AppendEntryBytes(dst, &ctx.Branch[at.entry-1], int(at.off), int(at.n))
	if err != nil || !at.loose {
		return dst, err
	}
	// the canonical form after the raw bytes (which append leaves as they
	// are, wherever it moves dst), then moved down over them
	end := len(dst)
	dst = jsval.AppendCanonical(dst, dst[start:end])
	n := copy(dst[start:], dst[end:])
	return dst[:start+n], nil
}

// textLoc locates the text of a result whose content has one text block
// (the common shape): the block's raw JSON string in the result entry's
// line, and its tape flags (escapes, bad UTF-8), so the text is decoded
// again without parsing the line (appendTextAt).
type textLoc struct {
	at    textRef
	flags uint8
}

// singleText is the textLoc of the content at content on the tape, line of
// branch entry entry (zero: not one text block holding a string, or
// copyArgs).
func (t *lineTape) singleText(content uint32, has bool, entry int) textLoc {
	if !has || t.copyArgs || t.tp.Nodes[content].Kind != jsonscan.Array || entry < 0 || entry >= math.MaxInt32 {
		return textLoc{}
	}
	n, str := 0, uint32(0)
	t.elems(content, true, func(el uint32) {
		if tv, has := t.get(el, true, "type"); !t.strIs(tv, has, "text") {
			return
		}
		n++
		if v, ok := t.tp.Get(el, "text"); ok && t.tp.Nodes[v].Kind == jsonscan.String {
			str = v
		} else {
			n++ // not a string: joined as String(x), read from the line
		}
	})
	if n != 1 {
		return textLoc{}
	}
	nd := &t.tp.Nodes[str]
	if nd.Start > math.MaxInt32 || nd.End-nd.Start > math.MaxInt32 {
		return textLoc{}
	}
	return textLoc{at: textRef{entry: int32(entry + 1), off: int32(nd.Start), n: int32(nd.End - nd.Start)}, flags: nd.Flags}
}

// appendTextAt appends the text x locates (appendResultText's text of its
// content) to dst, decoded from the raw string where ctx holds it
// (Context.ViewEntryBytes: valid UTF-8, decoded onto dst's end without a
// copy of the raw string), its text flags noted (textFlags).
func (t *lineTape) appendTextAt(dst []byte, ctx *session.Context, x textLoc) ([]byte, error) {
	if x.flags&jsonscan.BadUTF8 == 0 {
		if int(x.at.entry) > len(ctx.Branch) || x.at.entry <= 0 {
			return dst, fmt.Errorf("a result's text is in entry %d of a branch of %d", x.at.entry, len(ctx.Branch))
		}
		n0 := len(dst)
		err := ctx.ViewEntryBytes(&ctx.Branch[x.at.entry-1], int(x.at.off), int(x.at.n), func(raw []byte) error {
			switch {
			case len(raw) < 2:
				return fmt.Errorf("a result's text in entry %d is not a JSON string", x.at.entry)
			case x.flags&jsonscan.Escaped == 0:
				// no escape: no line break either
				dst = append(dst, raw[1:len(raw)-1]...)
				t.textFlags = 0
			default:
				dst, t.textFlags = jsonscan.AppendUnquoteText(dst, raw)
			}
			return nil
		})
		if err != nil {
			return dst[:n0], err
		}
		t.textKnown = true
		return dst, nil
	}
	var err error
	if t.rawText, err = appendArgs(t.rawText[:0], ctx, nil, x.at); err != nil {
		return dst, err
	}
	raw := t.rawText
	switch {
	case len(raw) < 2:
		return dst, fmt.Errorf("a result's text in entry %d is not a JSON string", x.at.entry)
	case x.flags&jsonscan.BadUTF8 != 0:
		s, _ := jsval.String(raw) // jsval folds a run of bad bytes into one U+FFFD
		return append(dst, s...), nil
	case x.flags&jsonscan.Escaped == 0:
		return append(dst, raw[1:len(raw)-1]...), nil
	}
	return jsonscan.AppendUnquoteValid(dst, raw), nil
}

// resultString joins a result content's text blocks with "\n"
// (pi-condense's extractToolResultText; a non-array content has none): the
// text of resultText without its JSON form.
func (t *lineTape) resultString(content uint32, has bool) string {
	b := t.appendResultText(nil, content, has)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not used again
}

// resultBytes is resultString in the tape's reused buffer: valid until the
// next call (for sizes and hashes, which keep nothing of it).
func (t *lineTape) resultBytes(content uint32, has bool) []byte {
	t.buf = t.appendResultText(t.buf[:0], content, has)
	return t.buf
}

// appendResultText appends resultString's text to dst: each text block's
// string decoded straight into dst.
func (t *lineTape) appendResultText(dst []byte, content uint32, has bool) []byte {
	if !has || t.tp.Nodes[content].Kind != jsonscan.Array {
		return dst
	}
	first := true
	t.elems(content, true, func(el uint32) {
		if tv, has := t.get(el, true, "type"); !t.strIs(tv, has, "text") {
			return
		}
		if !first {
			dst = append(dst, '\n')
		}
		first = false
		v, ok := t.tp.Get(el, "text")
		switch {
		case !ok || t.tp.Nodes[v].Kind != jsonscan.String:
			dst = append(dst, jsString(t.raw(v, ok), ok)...)
		case t.tp.Nodes[v].Flags&jsonscan.BadUTF8 != 0:
			s, _ := jsval.String(t.tp.Raw(v)) // jsval folds a run of bad bytes into one U+FFFD
			dst = append(dst, s...)
		case t.tp.Nodes[v].Flags&jsonscan.Escaped == 0:
			raw := t.tp.Raw(v) // valid UTF-8 without escapes: the text as it is
			dst = append(dst, raw[1:len(raw)-1]...)
		default:
			dst = jsonscan.AppendUnquoteValid(dst, t.tp.Raw(v))
		}
	})
	return dst
}

// entryMillis is the batch time pi-condense takes of the line on the tape
// and its message at msg: the entry's ISO timestamp in ms, else the
// message's numeric timestamp, else 0 (pi-condense would take the current
// time; pruner stays deterministic).
func (t *lineTape) entryMillis(msg uint32, has bool) int64 {
	tv, hasTS := t.get(0, len(t.tp.Nodes) > 0, "timestamp")
	if s, ok := t.strView(tv, hasTS); ok && s != "" {
		if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return tm.UnixMilli()
		}
	}
	if v, ok := t.get(msg, has, "timestamp"); ok {
		if f, ok := t.tp.Number(v); ok && f == float64(int64(f)) {
			return int64(f)
		}
	}
	return 0
}

// contentHash is ContentHash of a text read with resultBytes, normalised in
// the tape's reused buffer (or, for a text normalising would change only
// by the trim of the whole, hashed where it is). flags, when known, are
// the text's jsonscan text flags (what appendTextAt saw as it decoded it):
// the text is not searched for them again.
func (t *lineTape) contentHash(toolName string, text []byte, flags uint8, known bool) string {
	if n := len(text); n == 0 || text[n-1] != ' ' && text[n-1] != '\t' {
		if known && flags == 0 || !known && bytes.IndexByte(text, '\r') < 0 && !blankBeforeNewline(text) {
			// no CRLF, no line with trailing blanks: the normalised text
			// is the trimmed text
			if t.sha == nil {
				t.sha = sha1.New()
			}
			t.sha.Reset()
			t.sum = append(append(t.sum[:0], toolName...), 0)
			t.sha.Write(t.sum)
			t.sha.Write(bytes.TrimFunc(text, isJSWhitespace))
			t.digest = t.sha.Sum(t.digest[:0])
			return hex.EncodeToString(t.digest)
		}
	}
	// what hashNormalized hashes, in one buffer: no hasher to allocate
	// (grown once: the normalised text is never longer than the text)
	t.sum = append(append(slices.Grow(t.sum[:0], len(toolName)+1+len(text)), toolName...), 0)
	t.sum = appendNormalizedBytes(t.sum, text)
	sum := sha1.Sum(t.sum)
	return hex.EncodeToString(sum[:])
}

// blankBeforeNewline reports whether a line of text (one that a "\n" ends)
// ends in a space or a tab.
func blankBeforeNewline(text []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			return false
		}
		if i += j; i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
			return true
		}
	}
}

// textChars is the JavaScript length of a text read with resultBytes.
func textChars(text []byte) int {
	return jsval.UTF16Len(unsafe.String(unsafe.SliceData(text), len(text)))
}

// resultChars is textChars of the text resultBytes reads, counted on the
// tape and the raw strings of its text blocks without decoding them (a
// block that is not a string of valid UTF-8 has the text decoded).
func (t *lineTape) resultChars(content uint32, has bool) int {
	if !has || t.tp.Nodes[content].Kind != jsonscan.Array {
		return 0
	}
	chars, blocks, plain := 0, 0, true
	t.elems(content, true, func(el uint32) {
		if tv, has := t.get(el, true, "type"); !t.strIs(tv, has, "text") {
			return
		}
		if blocks > 0 {
			chars++ // the "\n" joining it
		}
		blocks++
		v, ok := t.tp.Get(el, "text")
		if !ok || t.tp.Nodes[v].Kind != jsonscan.String || t.tp.Nodes[v].Flags&jsonscan.BadUTF8 != 0 {
			plain = false
			return
		}
		chars += stringChars(&t.tp.Nodes[v], t.tp.Raw(v))
	})
	if !plain {
		return textChars(t.resultBytes(content, true))
	}
	return chars
}

// stringChars is the JavaScript length of the string node nd (raw its
// JSON, valid UTF-8) as appendUnquoteValid decodes it, without decoding
// it: the tape's code points, plus one for each surrogate pair (two UTF-16
// units) — an escaped one (the tape flags a string with one), or (not
// ASCII) one written as four bytes.
func stringChars(nd *jsonscan.Node, raw []byte) int {
	chars := int(nd.Chars)
	if nd.Flags&jsonscan.NonASCII != 0 {
		chars += jsonscan.Astral(raw)
	}
	if nd.Flags&jsonscan.EscapedPair != 0 {
		chars += jsonscan.EscapedPairs(raw) // a pair: one code point, two units
	}
	return chars
}

// canonical reports whether the value at node n is written as
// JSON.stringify writes it (jsval.TapeCanonical: false is no answer).
func (t *lineTape) canonical(n uint32) bool { return jsval.TapeCanonical(&t.tp, n) }
