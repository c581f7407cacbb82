package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// v1 session whose third entry has a field of an unusual type (a numeric
// toolCallId): pi keeps the line, and so must every reader, or the v1 ids
// of every later entry shift by one (query --entry printed the next result).
const v1Shift = `{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"q","timestamp":1}}
{"type":"message","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":5,"toolName":"bash","content":[{"type":"text","text":"odd"}],"timestamp":2}}
{"type":"message","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"wanted"}],"timestamp":3}}
`

func TestFindV1IDsMatchRead(t *testing.T) {
	ctx, _ := readString(t, v1Shift)
	var found []Found
	if err := Find(strings.NewReader(v1Shift), func(f Found) bool { found = append(found, f); return true }); err != nil {
		t.Fatal(err)
	}
	if len(found) != len(ctx.Messages) {
		t.Fatalf("Find found %d messages, Read %d", len(found), len(ctx.Messages))
	}
	for i, m := range ctx.Messages {
		b, _ := ctx.AppendMessage(nil, m)
		if found[i].EntryID != m.EntryID() || !bytes.Equal(found[i].Message, b) {
			t.Errorf("message %d: Find %s %s, Read %s %s", i, found[i].EntryID, found[i].Message, m.EntryID(), b)
		}
	}
	if found[2].EntryID != "00000003" || !bytes.Contains(found[2].Message, []byte("wanted")) {
		t.Fatalf("entry 00000003 is %s", found[2].Message)
	}
}

// Property over every shipped session: Find sees every message Read builds
// from an entry, with the same id and bytes.
func TestFindAgreesWithReadOnSessions(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		ctx := readFile(t, p)
		data, _ := os.ReadFile(p)
		byID := map[string][]byte{}
		_ = Find(bytes.NewReader(data), func(f Found) bool { byID[f.EntryID] = f.Message; return true })
		for _, m := range ctx.Messages {
			if off, ok := m.InEntry(); !ok || off < 0 {
				continue
			}
			b, _ := ctx.AppendMessage(nil, m)
			if !bytes.Equal(byID[m.EntryID()], b) {
				t.Errorf("%s: entry %s: Find %.80s, Read %.80s", filepath.Base(p), m.EntryID(), byID[m.EntryID()], b)
			}
		}
	}
}

func TestEntryReaderStreamsEveryBranch(t *testing.T) {
	in := hdr + msgLine("a", "", "user", `"q"`) +
		msgLine("b", "a", "assistant", `[{"type":"toolCall","id":7,"name":"read","arguments":{"path":".env"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"cat .env"}},{"type":"weird"}]`) +
		msgLine("x", "a", "toolResult", `[{"type":"text","text":"other branch"}]`) +
		`{"type":"custom","customType":"context-prune-index","data":{},"id":"i","parentId":"b"}` + "\n" +
		`{"type":"novel","id":"n1","parentId":"i"}` + "\n" + `{"type":"novel","id":"n2","parentId":"n1"}` + "\n"
	var warns []Warning
	er := NewEntryReader(strings.NewReader(in), EntryOptions{OnWarning: func(w Warning) { warns = append(warns, w) }})
	var got []string
	for {
		e, err := er.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := e.Type + ":" + e.ID + "<" + e.ParentID
		if e.CustomType != "" {
			s += ":" + e.CustomType
		}
		if m := e.Message; m != nil {
			s += ":" + m.Role
			for _, c := range m.ToolCalls {
				s += "[" + c.ID + " " + c.Name + " " + string(c.Arguments) + "]"
			}
		}
		got = append(got, s)
	}
	want := []string{"message:a<:user", `message:b<a:assistant[ read {"path":".env"}][c2 bash {"command":"cat .env"}]`,
		"message:x<a:toolResult", "custom:i<b:context-prune-index", "novel:n1<i", "novel:n2<n1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if er.Kind() != KindSession || er.Header().Version != 3 {
		t.Fatalf("kind %v header %+v", er.Kind(), er.Header())
	}
	if len(warns) != 1 || warns[0].Code != WarnUnknownType || warns[0].Line != 6 {
		t.Fatalf("warnings %v (want one unknown-type warning, line 6)", warns)
	}
}

func TestDeepLineIsKept(t *testing.T) {
	for _, depth := range []int{10_000, 200_000} {
		deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		in := hdr + msgLine("a", "", "user", `"q"`) +
			`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"toolResult","toolCallId":"c","toolName":"x","content":[{"type":"text","text":"t"}],"details":` + deep + `,"timestamp":2}}` + "\n"
		ctx, out := readString(t, in)
		if len(ctx.Messages) != 2 || len(ctx.Warnings) != 0 || !strings.Contains(out, deep) {
			t.Fatalf("depth %d: %d messages, warnings %v", depth, len(ctx.Messages), ctx.Warnings)
		}
	}
}

// Copy bytes, never re-encode: a key that differs from a routed one only in
// case (pi's JSON.parse keeps both) must not make pruner rewrite values.
func TestSynthCopiesBytesWithCaseTwinKeys(t *testing.T) {
	in := hdr + msgLine("a", "", "user", `"q"`) +
		`{"type":"compaction","id":"c","parentId":"a","timestamp":"2026-01-01T00:00:03.000Z","summary":"<b>S</b> & \u00e9","Summary":"other","firstKeptEntryId":"a","tokensBefore":7}` + "\n"
	_, out := readString(t, in)
	want := `{"role":"compactionSummary","summary":"<b>S</b> & \u00e9","tokensBefore":7,"timestamp":1767225603000}`
	if !strings.HasPrefix(out, want+"\n") {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}

func TestHeaderVersionAsJavaScriptReadsIt(t *testing.T) {
	body := `{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"hookMessage","content":"x","timestamp":1}}` + "\n"
	for _, c := range []struct {
		version string
		v1, v2  bool
		warn    string
	}{
		{`3`, false, false, ""},
		{`"3"`, false, false, `the string "3"; pi compares it as the number 3`},
		{`"2"`, false, true, `the string "2"`},
		{`null`, true, true, ""},
		{`7`, false, false, "header version 7 is not one pi 1.6 knows"},
		{`"v3"`, false, false, "no number"},
	} {
		in := `{"type":"session","version":` + c.version + `,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n" + body
		var warns []Warning
		er := NewEntryReader(strings.NewReader(in), EntryOptions{OnWarning: func(w Warning) { warns = append(warns, w) }})
		e, err := er.Next()
		if err != nil {
			t.Fatal(err)
		}
		if er.v1 != c.v1 || er.v2 != c.v2 || (e.ID == "a") == c.v1 {
			t.Errorf("version %s: v1 %v v2 %v id %q", c.version, er.v1, er.v2, e.ID)
		}
		joined := ""
		for _, w := range warns {
			joined += w.Msg + ";"
		}
		if (c.warn == "") != (joined == "") || !strings.Contains(joined, c.warn) {
			t.Errorf("version %s: warnings %q, want %q", c.version, joined, c.warn)
		}
	}
}

func TestInputTraps(t *testing.T) {
	// a BOM on the first line: pi 1.6 cannot parse it and reads no session
	_, err := Read(strings.NewReader("\xEF\xBB\xBF"+hdr), nil, ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "byte order mark") {
		t.Errorf("BOM header: %v", err)
	}
	// a BOM on a later line: that line is skipped, naming the BOM
	ctx, _ := readString(t, hdr+"\xEF\xBB\xBF"+msgLine("a", "", "user", `"q"`)+msgLine("b", "", "user", `"r"`))
	if len(ctx.Warnings) != 1 || ctx.Warnings[0].Code != WarnBOM || ctx.Warnings[0].Line != 2 || len(ctx.Messages) != 1 {
		t.Errorf("BOM line: %v", ctx.Warnings)
	}
	// invalid UTF-8: kept byte for byte, with a warning naming the byte
	ctx, out := readString(t, hdr+msgLine("a", "", "user", "\"caf\xe9\""))
	if len(ctx.Warnings) != 1 || ctx.Warnings[0].Code != WarnBadUTF8 || !strings.Contains(ctx.Warnings[0].Msg, "byte 1") || !strings.Contains(out, "caf\xe9") {
		t.Errorf("bad UTF-8: %v %q", ctx.Warnings, out)
	}
}

// FuzzEntries is differential: for any line after a v3 header, the entry
// EntryReader reports agrees with an independent decode of the same line by
// encoding/json (validity, type, ids, role, tool calls, tool result fields).
func FuzzEntries(f *testing.F) {
	for _, s := range []string{
		msgLine("a", "", "user", `"q"`),
		msgLine("b", "a", "assistant", `[{"type":"toolCall","id":"c","name":"read","arguments":{"path":"x","path":"y"}},{"type":"text","text":"\u005bpruner: "}]`),
		msgLine("c", "b", "toolResult", `[{"type":"text","text":"x"},{"type":"image","data":""}]`),
		`{"type":"message","id":"d","message":{"role":"toolResult","toolCallId":"c","toolName":"read","isError":true,"content":"e\u0301"}}`,
		`{"type":"message","ID":"x","id":"d","Message":{},"message":{"Role":"x","role":"user"}}`,
		`{"type":"custom","customType":"k","id":"e"}`, `[1]`, `null`, `{"type":"message","message":[]}`, `{"a":1}{"b":2}`,
	} {
		f.Add([]byte(strings.TrimSuffix(s, "\n")))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") || isBlank(line) {
			return
		}
		in := append([]byte(hdr), line...)
		var warns []Warning
		er := NewEntryReader(bytes.NewReader(in), EntryOptions{OnWarning: func(w Warning) { warns = append(warns, w) }})
		e, err := er.Next()
		var ref any
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber() // numbers too large for a float64 are still JSON
		refErr := dec.Decode(&ref)
		if refErr == nil && len(bytes.TrimLeft(line[dec.InputOffset():], " \t\r")) > 0 {
			refErr = errors.New("trailing data")
		}
		if refErr != nil && strings.Contains(refErr.Error(), "max depth") {
			return
		}
		num, isNum := ref.(json.Number)
		f, _ := num.Float64()
		falsy := ref == nil || ref == false || ref == "" || isNum && f == 0
		switch {
		case refErr != nil || falsy:
			if err != io.EOF || len(warns) != 1 {
				t.Fatalf("line %q (encoding/json: %v): reader gave %v, warnings %v", line, refErr, err, warns)
			}
			return
		case err != nil:
			t.Fatalf("valid line %q: %v, warnings %v", line, err, warns)
		}
		m, _ := ref.(map[string]any)
		str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
		if e.Type != str(m, "type") || e.ID != str(m, "id") || e.ParentID != str(m, "parentId") {
			t.Fatalf("line %q: type/id/parent %q %q %q", line, e.Type, e.ID, e.ParentID)
		}
		msg, isMsg := m["message"].(map[string]any)
		if (e.Message != nil) != (e.Type == "message" && isMsg) {
			t.Fatalf("line %q: Message %v", line, e.Message != nil)
		}
		if e.Message == nil {
			return
		}
		em := e.Message
		isErr, _ := msg["isError"].(bool)
		if em.Role != str(msg, "role") || em.ToolCallID != str(msg, "toolCallId") || em.ToolName != str(msg, "toolName") || em.IsError != isErr {
			t.Fatalf("line %q: message fields %+v", line, em)
		}
		var calls []EntryToolCall
		images := 0
		if blocks, ok := msg["content"].([]any); ok {
			for _, b := range blocks {
				bm, _ := b.(map[string]any)
				switch str(bm, "type") {
				case "toolCall":
					c := EntryToolCall{ID: str(bm, "id"), Name: str(bm, "name")}
					if args, ok := bm["arguments"].(map[string]any); ok {
						c.Path, c.HasPath = args["path"].(string)
					}
					calls = append(calls, c)
				case "image":
					images++
				}
			}
		}
		if len(calls) != len(em.ToolCalls) || images != em.Images {
			t.Fatalf("line %q: %d calls %d images, reference %d %d", line, len(em.ToolCalls), em.Images, len(calls), images)
		}
		for i := range calls {
			g := em.ToolCalls[i]
			if g.ID != calls[i].ID || g.Name != calls[i].Name || g.Path != calls[i].Path || g.HasPath != calls[i].HasPath {
				t.Fatalf("line %q: call %d %+v, reference %+v", line, i, g, calls[i])
			}
		}
	})
}

// TestLenientReadsPastABadFirstLine: with EntryOptions.Lenient (pruner
// check) no first line stops the reader — a byte order mark on the header
// (the header behind it is used, Header.BOM set), binary data, a line that
// is not JSON — and every entry after it is read; without Lenient each of
// these inputs stays ErrNotSession, as pi reads no session from it.
func TestLenientReadsPastABadFirstLine(t *testing.T) {
	const hdr = `{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/proj"}` + "\n"
	const body = `{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"q","timestamp":1}}` + "\n" +
		`{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"user","content":"r","timestamp":2}}` + "\n"
	for _, tc := range []struct {
		name, in string
		cwd      string
		bom      bool
	}{
		{"bom header", "\xEF\xBB\xBF" + hdr + body, "/proj", true},
		{"binary", "PK\x00\x03\n" + body, "", false},
		{"not json", "hello\n" + body, "", false},
		{"bom garbage", "\xEF\xBB\xBFhello\n" + body, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warns []Warning
			er := NewEntryReader(strings.NewReader(tc.in), EntryOptions{Lenient: true, OnWarning: func(w Warning) { warns = append(warns, w) }})
			var ids []string
			for {
				e, err := er.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("Lenient: %v", err)
				}
				ids = append(ids, e.ID)
			}
			if strings.Join(ids, ",") != "a,b" {
				t.Errorf("entries %q, want a,b", ids)
			}
			if h := er.Header(); h.Cwd != tc.cwd || h.BOM != tc.bom {
				t.Errorf("header %+v, want cwd %q, BOM %v", h, tc.cwd, tc.bom)
			}
			if len(warns) == 0 || warns[0].Line != 1 {
				t.Errorf("warnings %+v: want one for line 1 first", warns)
			}
			_, err := NewEntryReader(strings.NewReader(tc.in), EntryOptions{}).Next()
			if !errors.Is(err, ErrNotSession) {
				t.Errorf("without Lenient: err %v", err)
			}
		})
	}
}
