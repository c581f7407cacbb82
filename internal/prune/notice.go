package prune

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pruner-dev/pruner/internal/estimate"
	"github.com/pruner-dev/pruner/internal/jsval"
	"github.com/pruner-dev/pruner/internal/session"
)

// recoverHint names how to get the original back. It uses the entry id when
// the message came from a session entry, else the call id and timestamp.
func recoverHint(m *session.Message) string {
	if m.EntryID() != "" {
		return fmt.Sprintf("pruner query --entry %s SESSION", m.EntryID())
	}
	if m.Timestamp() != "" {
		return fmt.Sprintf("pruner query --call %s --ts %s SESSION", m.ToolCallID(), m.Timestamp())
	}
	return fmt.Sprintf("pruner query --call %s SESSION", m.ToolCallID())
}

// occurrence identifies the result occurrence: call id plus entry id or
// timestamp (call ids repeat across turns with some providers).
func occurrence(m *session.Message) string {
	s := "call " + m.ToolCallID()
	if m.EntryID() != "" {
		s += ", entry " + m.EntryID()
	} else if m.Timestamp() != "" {
		s += ", ts " + m.Timestamp()
	}
	return s
}

func sizeText(chars, images int) string {
	s := fmt.Sprintf("%d chars, ~%d tokens", chars, estimate.Tokens(chars))
	if images > 0 {
		s += fmt.Sprintf(", %d image(s) ~%d tokens", images, images*estimate.ImageTokens)
	}
	return s
}

func toolOf(m *session.Message, call session.ToolCall) string {
	if m.ToolName() != "" {
		return m.ToolName()
	}
	if call.Name() != "" {
		return call.Name()
	}
	return "tool"
}

// maskNotice is the text that replaces an old result's content.
func maskNotice(m *session.Message, call session.ToolCall, hint string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%spruned %s result] %s", session.NoticePrefix, toolOf(m, call), occurrence(m))
	if hint != "" {
		fmt.Fprintf(&b, " · %s", hint)
	}
	fmt.Fprintf(&b, " · %s; recover: %s", sizeText(m.TextChars(), m.Images()), recoverHint(m))
	return b.String()
}

// excerptNotice keeps head and tail of an error result's text, each cut to
// at most n code points on a code-point (and combining-sequence) boundary.
func excerptNotice(m *session.Message, call session.ToolCall, hint string, text string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%spruned %s error result, head and tail kept] %s", session.NoticePrefix, toolOf(m, call), occurrence(m))
	if hint != "" {
		fmt.Fprintf(&b, " · %s", hint)
	}
	fmt.Fprintf(&b, " · %s; recover: %s\n", sizeText(m.TextChars(), m.Images()), recoverHint(m))
	head, tail, omitted := headTail(text, n)
	b.WriteString(head)
	b.WriteString("\n[… ")
	fmt.Fprintf(&b, "%d chars omitted", omitted)
	b.WriteString(" …]\n")
	b.WriteString(tail)
	return b.String()
}

// imageNotice replaces one image block of an old result.
func imageNotice(m *session.Message, mime string, b64len int) string {
	if mime == "" {
		mime = "image"
	}
	return fmt.Sprintf("%spruned %s image] %s · %d bytes base64, ~%d tokens; recover: %s",
		session.NoticePrefix, mime, occurrence(m), b64len, estimate.ImageTokens, recoverHint(m))
}

// extends reports whether r continues the previous grapheme (combining mark,
// zero-width joiner, variation selector), so a cut must not fall before it.
func extends(r rune) bool {
	return r == 0x200D || (r >= 0xFE00 && r <= 0xFE0F) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) ||
		(r >= 0x1F3FB && r <= 0x1F3FF) || (r >= 0xE0020 && r <= 0xE007F)
}

// headTail returns the first and last n code points of s, cut on code-point
// boundaries and never inside a combining sequence or a ZWJ emoji sequence,
// and how many code points lie between them. Invalid UTF-8 (and lone
// surrogates, decoded as U+FFFD) never produce half characters; each
// invalid byte counts one code point, as utf8.RuneCountInString counts it.
func headTail(s string, n int) (head, tail string, omitted int) {
	if !utf8.ValidString(s) {
		return headTailRunes(s, n)
	}
	// valid UTF-8: the cuts are byte offsets of s, found without a rune
	// slice of the whole text
	total := utf8.RuneCountInString(s)
	if total <= 2*n {
		return s, "", 0
	}
	h, hn := 0, n // hn: code points in s[:h]
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[h:])
		h += size
	}
	for h > 0 {
		r, _ := utf8.DecodeRuneInString(s[h:])
		p, size := utf8.DecodeLastRuneInString(s[:h])
		if !extends(r) && p != 0x200D {
			break
		}
		h -= size
		hn--
	}
	t, tn := len(s), n // tn: code points in s[t:]
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeLastRuneInString(s[:t])
		t -= size
	}
	for t < len(s) {
		r, size := utf8.DecodeRuneInString(s[t:])
		p, _ := utf8.DecodeLastRuneInString(s[:t])
		if !extends(r) && p != 0x200D {
			break
		}
		t += size
		tn--
	}
	return s[:h], s[t:], total - hn - tn
}

// headTailRunes is headTail on a slice of the text's code points (invalid
// UTF-8 becomes U+FFFD in the pieces it returns).
func headTailRunes(s string, n int) (head, tail string, omitted int) {
	r := []rune(s)
	if len(r) <= 2*n {
		return s, "", 0
	}
	h := n
	for h > 0 && (extends(r[h]) || r[h-1] == 0x200D) {
		h--
	}
	t := len(r) - n
	for t < len(r) && (extends(r[t]) || r[t-1] == 0x200D) {
		t++
	}
	return string(r[:h]), string(r[t:]), t - h
}

// textOf joins the text blocks (or string content) of a raw content value,
// read as JSON.parse reads it (exact keys: a "Text" or "TYPE" key is not
// the field; a text block whose text is not a string adds nothing).
func textOf(content []byte) string {
	if s, ok := jsval.String(content); ok {
		return s
	}
	els, _ := jsval.Elements(content)
	var parts []string
	for _, el := range els {
		if jsString(el, "type") != "text" {
			continue
		}
		raw, _ := jsval.Get(el, "text")
		if t, ok := jsval.String(raw); ok {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// textContent encodes one text block as a content array, JSON.stringify-style.
func textContent(text string) []byte {
	b := []byte(`[{"type":"text","text":`)
	b = session.AppendJSString(b, text)
	return append(b, "}]"...)
}
