package pipeline

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// loneSurrogate returns the first lone UTF-16 surrogate escape (`\udXXX`
// with no partner) in the JSON text l, or "".
func loneSurrogate(l []byte) string {
	hexAt := func(i int) (int, bool) {
		if i+6 > len(l) || l[i] != '\\' || l[i+1] != 'u' {
			return 0, false
		}
		var v int
		if _, err := fmt.Sscanf(string(l[i+2:i+6]), "%04x", &v); err != nil {
			return 0, false
		}
		return v, true
	}
	for i := 0; i < len(l); i++ {
		if l[i] != '\\' || i+1 >= len(l) {
			continue
		}
		v, ok := hexAt(i)
		if !ok {
			i++ // an escaped character, \\ included
			continue
		}
		switch {
		case v >= 0xD800 && v <= 0xDBFF:
			if w, ok := hexAt(i + 6); ok && w >= 0xDC00 && w <= 0xDFFF {
				i += 11
				continue
			}
			return string(l[i : i+6])
		case v >= 0xDC00 && v <= 0xDFFF:
			return string(l[i : i+6])
		}
		i += 5
	}
	return ""
}

func TestLoneSurrogateScanner(t *testing.T) {
	for in, want := range map[string]string{
		`"a\ud83d"`:            `\ud83d`,
		`"a\ud83d\ude00"`:      "",
		`"a\\ud83d"`:           "", // a backslash, then text
		`"a\\\ud83d"`:          `\ud83d`,
		`"\ude00x"`:            `\ude00`,
		`"\u0041\uD83Dx"`:      `\uD83D`,
		`"\ud83d\u0041"`:       `\ud83d`,
		`{"k":"\udbff\udfff"}`: "",
	} {
		if got := loneSurrogate([]byte(in)); got != want {
			t.Errorf("loneSurrogate(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestLoneSurrogatesNeverWritten: lone surrogate escapes in a session's
// results, tool call arguments and assistant texts reach no line pruner
// appends (index records' resultText and args, summaries, chain entries,
// context edits), under every variant; the properties (checkProperties)
// hold too.
func TestLoneSurrogatesNeverWritten(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n")
	parent, n := "null", 0
	add := func(ts int, msg string) {
		n++
		id := fmt.Sprintf("e%07d", n)
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:%02d.000Z","message":%s}`+"\n", id, parent, ts%60, msg)
		parent = `"` + id + `"`
	}
	big := strings.Repeat(`line of output \ud83d then more `, 80)
	for turn := 0; turn < 6; turn++ {
		ts := 1767225600000 + turn*10000
		add(turn, fmt.Sprintf(`{"role":"user","content":"do step %d \udc00","timestamp":%d}`, turn, ts))
		add(turn, fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"running \ud83d"},{"type":"toolCall","id":"c%d","name":"bash","arguments":{"command":"echo \ud83d %d"}},{"type":"toolCall","id":"r%d","name":"read","arguments":{"path":"src/f\udfff%d.go"}}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":%d}`, turn, turn, turn, turn, ts+1))
		add(turn, fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":"%s %d"}],"isError":false,"timestamp":%d}`, turn, big, turn, ts+2))
		add(turn, fmt.Sprintf(`{"role":"toolResult","toolCallId":"r%d","toolName":"read","content":[{"type":"text","text":"%s \ud800"}],"isError":%v,"timestamp":%d}`, turn, big, turn%2 == 1, ts+3))
		add(turn, fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"done \ud83d %d"}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":%d}`, turn, ts+4))
	}
	data := []byte(b.String())
	if loneSurrogate(data) == "" {
		t.Fatal("the test session holds no lone surrogate")
	}
	for vname, o := range variants(t) {
		t.Run(vname, func(t *testing.T) {
			checkProperties(t, data, o)
			r, _, sess := run(t, data, o)
			if o.Flush && (r.Flushed == nil || !r.Flushed.Changes()) {
				t.Fatalf("the flush changed nothing (%v): the test does not reach the written entries", r.FlushSkipped)
			}
			if o.Flush && !bytes.Contains(sess[len(data):], []byte(`"resultText"`)) {
				t.Fatal("no index record written")
			}
		})
	}
}
