package session

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// The per-line records stay as small as their doc comments say: they are
// what a session of a million lines holds per line.
func TestIndexRecordSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Message", unsafe.Sizeof(Message{}), 48},
		{"msgInfo", unsafe.Sizeof(msgInfo{}), 40},
		{"ToolCall", unsafe.Sizeof(ToolCall{}), 32},
		{"entry", unsafe.Sizeof(entry{}), 24},
		{"callSet", unsafe.Sizeof(callSet{}), 12},
		{"BranchEntry", unsafe.Sizeof(BranchEntry{}), 24},
	} {
		if c.got > c.want {
			t.Errorf("%s is %d bytes, want at most %d", c.name, c.got, c.want)
		}
	}
}

// An aref gives back the bytes it was made from: small strings packed in
// blocks, large ones in their own, across many blocks.
func TestArenaRefs(t *testing.T) {
	var a arena
	if r := a.add(nil); r != 0 || a.get(r) != "" {
		t.Fatalf("empty string: ref %x, %q", r, a.get(r))
	}
	var want []string
	var refs []aref
	for i := 0; i < 20000; i++ {
		s := strings.Repeat(string(rune('a'+i%26)), i%97+1)
		if i%1000 == 7 {
			s = strings.Repeat("x", arenaBlock/8+i) // its own block
		}
		want = append(want, s)
		refs = append(refs, a.add([]byte(s)))
	}
	for i, r := range refs {
		if got := a.get(r); got != want[i] {
			t.Fatalf("string %d: got %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(want[i]), want[i])
		}
	}
	if len(a.blocks) < 20 {
		t.Fatalf("%d blocks: the test did not cross blocks", len(a.blocks))
	}
}

// Every message of a built context — read, synthesised (summaries, custom
// messages, checkpoints) or copied by a context edit — finds its context
// through its block, mapped or streamed, and so does every message of the
// branch.
func TestMessagesFindTheirContext(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "testdata/*.jsonl", "../../testdata/condense-oracle/*/session.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	if len(paths) < 5 {
		t.Fatalf("%d sessions", len(paths))
	}
	// a context edit (a copy of the edited message), a custom message, a
	// compaction with a checkpoint (synthesised messages)
	edited := filepath.Join(t.TempDir(), "edited.jsonl")
	lines := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"aaaaaaa1","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"aaaaaaa2","parentId":"aaaaaaa1","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}],"timestamp":2}}
{"type":"message","id":"aaaaaaa3","parentId":"aaaaaaa2","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"long text"},{"type":"image","data":"AA","mimeType":"image/png"}],"isError":false,"timestamp":3}}
{"type":"context_edit","id":"aaaaaaa4","parentId":"aaaaaaa3","timestamp":"t","targetId":"aaaaaaa3","replacement":{"content":"short"}}
{"type":"custom_message","id":"aaaaaaa5","parentId":"aaaaaaa4","timestamp":"t","customType":"x","content":"note","display":true}
{"type":"compaction","id":"aaaaaaa6","parentId":"aaaaaaa5","timestamp":"t","summary":"s","firstKeptEntryId":"aaaaaaa2","tokensBefore":1,"systemMessage":{"role":"system","content":"sys"}}
{"type":"message","id":"aaaaaaa7","parentId":"aaaaaaa6","timestamp":"t","message":{"role":"user","content":"again","timestamp":4}}
`
	if err := os.WriteFile(edited, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, edited)
	for _, p := range paths {
		for _, mapped := range []bool{true, false} {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			var r io.Reader = f
			if !mapped {
				r = bufio.NewReader(f)
			}
			ctx, err := Read(r, f, ReadOptions{Branch: true, AllEntries: true})
			if err != nil {
				f.Close()
				continue // not a session: other tests say why
			}
			check := func(what string, i int, m *Message) {
				if m != nil && m.ctx() != ctx {
					t.Errorf("%s (mapped %v): %s %d (line %d) does not find its context", p, mapped, what, i, m.Line())
				}
			}
			for i, m := range ctx.Messages {
				check("message", i, m)
			}
			if p == edited {
				// the edit's copy has the new content's sizes, the original
				// (on the branch) keeps its own
				if n := len(ctx.Messages); n != 6 {
					t.Fatalf("edited session: %d messages, want 6", n)
				}
				m := ctx.Messages[3]
				if m.ToolCallID() != "c1" || m.ToolName() != "read" || m.TextChars() != 5 || m.Images() != 0 {
					t.Errorf("edited result: id %q name %q chars %d images %d, want c1 read 5 0", m.ToolCallID(), m.ToolName(), m.TextChars(), m.Images())
				}
				o := ctx.EntryMessage(&ctx.Branch[2])
				if o == nil || o == m || o.ToolCallID() != "c1" || o.TextChars() != 9 || o.Images() != 1 {
					t.Errorf("original result: %+v", o)
				}
			}
			for i := range ctx.Branch {
				check("branch entry", i, ctx.EntryMessage(&ctx.Branch[i]))
			}
			for i := range ctx.Entries {
				check("entry", i, ctx.EntryMessage(&ctx.Entries[i]))
			}
			f.Close()
		}
	}
}

// A ToolCall records its message as a reference: 32 bytes (its strings
// in its context's arena), and every call of a context refers to the
// assistant message that holds it.
func TestToolCallRefersToItsMessage(t *testing.T) {
	if n := unsafe.Sizeof(ToolCall{}); n > 32 {
		t.Errorf("ToolCall is %d bytes, want at most 32", n)
	}
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	calls := 0
	for _, p := range paths {
		ctx := readFile(t, p)
		for _, m := range ctx.Messages {
			for _, tc := range m.ToolCalls() {
				calls++
				if ctx.msg(tc.from) != m {
					t.Fatalf("%s line %d: call %q refers to another message", p, m.Line(), tc.ID())
				}
			}
		}
	}
	if calls == 0 {
		t.Fatal("no tool calls in the shipped sessions")
	}
	var ctx Context
	if ctx.msg(12345) != nil || ctx.msg(0) != nil {
		t.Error("a reference the context has no message for gives a message")
	}
}

// A branch entry is read from the context it came from: another context's
// entry is an error when this one has no entry on its line at its place
// in the index (only then can it tell).
func TestEntryLineOfAnotherContext(t *testing.T) {
	read := func(p string) *Context {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		ctx, err := Read(f, f, ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(ctx.Branch) < 3 {
			t.Fatalf("%s: a branch of %d entries", p, len(ctx.Branch))
		}
		return ctx
	}
	a, b := read("../../testdata/sessions/compact.jsonl"), read("../../testdata/sessions/large-session.jsonl")
	for i := range a.Branch {
		if _, err := a.EntryLine(&a.Branch[i]); err != nil {
			t.Fatalf("its own entry %d: %v", i, err)
		}
	}
	for _, be := range []*BranchEntry{&b.Branch[len(b.Branch)-1]} { // a has no message at its ref
		if line, err := a.EntryLine(be); err == nil {
			t.Errorf("another context's entry (line %d) read as %.60q", be.Line(), line)
		}
		if _, err := a.AppendEntryBytes(nil, be, 0, 1); err == nil {
			t.Error("another context's entry: AppendEntryBytes gave no error")
		}
	}
}
