package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file input is memory-mapped; a reader is streamed. Both must give the
// same context, byte for byte, on every shipped session.
func TestMappedAndStreamedAgree(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		mapped := readFile(t, p)
		if mapped.m == nil {
			t.Fatalf("%s: file input not mapped", p)
		}
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := render(t, mapped), render(t, streamed); !bytes.Equal(a, b) {
			t.Errorf("%s: mapped and streamed contexts differ", filepath.Base(p))
		}
		if len(mapped.Warnings) != len(streamed.Warnings) || mapped.Lines != streamed.Lines || mapped.Bytes != streamed.Bytes {
			t.Errorf("%s: warnings %d/%d, lines %d/%d, bytes %d/%d", filepath.Base(p), len(mapped.Warnings), len(streamed.Warnings),
				mapped.Lines, streamed.Lines, mapped.Bytes, streamed.Bytes)
		}
	}
}

// A mapped file truncated under pruner (pi rewriting it) gives an error
// naming the cause, never a crash.
func TestMappedFileTruncatedIsAnError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	in := hdr + msgLine("a", "", "user", `"`+strings.Repeat("x", 3<<20)+`"`) + msgLine("b", "a", "user", `"last"`)
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := readFile(t, p)
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err := ctx.AppendMessage(nil, ctx.Messages[1])
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("after truncation: %v", err)
	}
}

// A line of 2 GiB or more (past the 32-bit offsets of the index) is skipped
// with a warning naming its length — never a panic. The file is sparse, so
// the test costs no disk.
func TestLineOver2GiBIsSkipped(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 2 GiB sparse file")
	}
	p := filepath.Join(t.TempDir(), "huge.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	head := hdr + msgLine("a", "", "user", `"before"`)
	tail := "\n" + msgLine("b", "a", "user", `"after"`)
	const huge = 1<<31 + 16
	if _, err := f.WriteString(head + "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(tail), int64(len(head))+huge); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	ctx := readFile(t, p)
	found := false
	for _, w := range ctx.Warnings {
		found = found || w.Code == WarnTooLong && w.Line == 3
	}
	if !found || len(ctx.Messages) != 2 {
		t.Fatalf("warnings %v, %d messages", ctx.Warnings, len(ctx.Messages))
	}
}

// Reading the last message first and then the context from its start (what
// the pipeline does) must still give pages back behind the render cursor:
// the cursor restarts when a read goes behind it.
func TestMappedCursorRestartsBehind(t *testing.T) {
	m := &mapping{data: make([]byte, 64<<20)}
	m.advance(60 << 20)
	if m.rdropped == 0 {
		t.Fatal("no pages given back after a jump forward")
	}
	m.advance(0)
	if m.rdropped != 0 {
		t.Fatalf("cursor not restarted: %d", m.rdropped)
	}
	m.advance(10 << 20)
	if m.rdropped == 0 {
		t.Fatal("no pages given back behind the restarted cursor")
	}
}

// WriteMessage writes what AppendMessage appends, for every message it
// takes (those of a mapped input rendered as read), and takes none of a
// streamed input; a context input's lines (srcWholeLine) are covered too.
func TestWriteMessageIsAppendMessage(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/condense-oracle/*/requests/*.context.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	written := 0
	for _, p := range paths {
		ctx := readFile(t, p)
		for i, m := range ctx.Messages {
			var w bytes.Buffer
			n, done, err := ctx.WriteMessage(&w, m)
			want, aerr := ctx.AppendMessage(nil, m)
			if err != nil || aerr != nil {
				t.Fatalf("%s message %d: %v / %v", p, i, err, aerr)
			}
			if !done {
				if n != 0 || w.Len() != 0 {
					t.Fatalf("%s message %d: not done, but %d bytes written", p, i, n)
				}
				continue
			}
			written++
			if n != w.Len() || !bytes.Equal(w.Bytes(), want) {
				t.Fatalf("%s message %d: WriteMessage wrote %q (%d), AppendMessage %q", p, i, w.Bytes(), n, want)
			}
		}
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range streamed.Messages {
			if _, done, _ := streamed.WriteMessage(&bytes.Buffer{}, m); done {
				t.Fatalf("%s: a streamed input's message written from a mapping", p)
			}
		}
	}
	if written == 0 {
		t.Fatal("no message written: the test proves nothing")
	}
}

// CallHint reads a call's line from the mapping for a file input: every
// call of every shipped session gets the hint a streamed read gives.
func TestCallHintMappedAndStreamedAgree(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	hints := 0
	for _, p := range paths {
		mapped := readFile(t, p)
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range mapped.Messages {
			sc := streamed.Messages[i].ToolCalls()
			for k, tc := range m.ToolCalls() {
				a, b := mapped.CallHint(tc), streamed.CallHint(sc[k])
				if a != b {
					t.Fatalf("%s message %d call %d: mapped hint %q, streamed %q", p, i, k, a, b)
				}
				if a != "" {
					hints++
				}
			}
		}
	}
	if hints == 0 {
		t.Fatal("no hint: the test proves nothing")
	}
}

// AppendEntryBytes reads a range of an entry's line as EntryLine has it,
// from a mapped file and from a reader, without touching the line
// EntryLine returned last; a range past the line is an error.
func TestAppendEntryBytesIsTheLinesRange(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		mapped, err := Read(f, f, ReadOptions{Branch: true})
		if err != nil || mapped.m == nil {
			t.Fatalf("%s: %v (mapped: %v)", p, err, mapped != nil && mapped.m != nil)
		}
		for _, ctx := range []*Context{mapped, streamed} {
			for i := range ctx.Branch {
				be := &ctx.Branch[i]
				line, err := ctx.EntryLine(be)
				if err != nil {
					t.Fatal(err)
				}
				want := append([]byte(nil), line...)
				for _, r := range [][2]int{{0, len(want)}, {len(want) / 3, len(want) / 2}, {len(want), len(want)}} {
					got, err := ctx.AppendEntryBytes([]byte("x"), be, r[0], r[1]-r[0])
					if err != nil || string(got) != "x"+string(want[r[0]:r[1]]) {
						t.Fatalf("%s line %d: bytes %v: %q, %v", filepath.Base(p), be.Line, r, got, err)
					}
				}
				if !bytes.Equal(line, want) {
					t.Fatalf("%s line %d: the line EntryLine returned changed", filepath.Base(p), be.Line)
				}
				if got, err := ctx.AppendEntryBytes([]byte("x"), be, 1, len(want)); err == nil || string(got) != "x" {
					t.Fatalf("%s line %d: a range past the line: %q, %v", filepath.Base(p), be.Line, got, err)
				}
			}
		}
	}
}
