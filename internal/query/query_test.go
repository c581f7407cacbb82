package query

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/session"
)

const sess = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}}],"timestamp":2}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"ORIGINAL"}],"isError":false,"timestamp":3}}
`

func read(t *testing.T, s string) *session.Context {
	t.Helper()
	r := strings.NewReader(s)
	ctx, err := session.Read(r, r, session.ReadOptions{AllEntries: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

type file struct{ *bytes.Reader }

func (file) Close() error { return nil }

func TestMessagesAndBackups(t *testing.T) {
	masked := strings.Replace(sess, `"text":"ORIGINAL"`, `"text":"`+session.NoticePrefix+`read x]"`, 1)
	ctx := read(t, masked)
	ms, err := Messages(ctx, Selector{Call: "c1"})
	if err != nil || len(ms) != 1 || ms[0].EntryID != "a3" || ms[0].Line != 4 || !IsNotice(ms[0].Msg) {
		t.Fatalf("Messages(--call c1) = %+v, %v", ms, err)
	}
	if ms, _ := Messages(ctx, Selector{Call: "c1", TS: "4"}); len(ms) != 0 {
		t.Fatalf("a --ts no result has matched %d", len(ms))
	}
	byEntry, _ := Messages(ctx, Selector{Entry: "a3"})
	if len(byEntry) != 1 || !bytes.Equal(byEntry[0].Msg, ms[0].Msg) {
		t.Fatalf("Messages(--entry a3) = %+v", byEntry)
	}
	files := map[string]string{"s.jsonl.orig-1": masked, "s.jsonl.orig-2": sess}
	open := func(p string) (File, error) {
		s, ok := files[p]
		if !ok {
			return nil, errors.New("no such file")
		}
		return file{bytes.NewReader([]byte(s))}, nil
	}
	orig, from := FromBackups([]string{"gone", "s.jsonl.orig-1", "s.jsonl.orig-2"}, open, ms[0])
	if from != "s.jsonl.orig-2" || !bytes.Contains(orig, []byte("ORIGINAL")) {
		t.Fatalf("FromBackups = %q from %q, want the original from the second backup", orig, from)
	}
	if orig, from := FromBackups([]string{"s.jsonl.orig-1"}, open, ms[0]); orig != nil || from != "" {
		t.Fatalf("a backup holding the notice too gave %q from %q", orig, from)
	}
}

func TestStateWithoutFlushIsTheRebuild(t *testing.T) {
	r := strings.NewReader(sess)
	ctx, err := session.Read(r, r, session.ReadOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := State(ctx, nil)
	if err != nil || st.Entries != 0 {
		t.Fatalf("State = %+v, %v", st, err)
	}
}
