package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"
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
	// ViewMessage reads the mapping in place: the same error, fn's
	// reading stopped by it
	err = ctx.ViewMessage(ctx.Messages[1], func(b []byte) error { _ = bytes.Count(b, []byte("x")); return nil })
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("ViewMessage after truncation: %v", err)
	}
	// ReadMessage reads a small message from the file (a short read) and
	// views a large one in place (a fault): the same error for both, fn
	// not called on a short read
	for i, m := range ctx.Messages {
		called := false
		err = ctx.ReadMessage(m, func(b []byte) error { called = i == 1; _ = bytes.Count(b, []byte("x")); return nil })
		if err == nil || !strings.Contains(err.Error(), "changed while it was read") || called {
			t.Fatalf("ReadMessage of message %d after truncation: %v (fn called: %v)", i, err, called)
		}
	}
	for i := range ctx.Branch {
		be := &ctx.Branch[i]
		if _, n, _ := ctx.entryPlace(be); n > 0 {
			err = ctx.ViewEntryBytes(be, 0, int(n), func(b []byte) error { return nil })
			if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
				t.Fatalf("ViewEntryBytes of entry %d after truncation: %v", i, err)
			}
			err = ctx.ViewEntryLine(be, func(b []byte) error { _ = bytes.Count(b, []byte("x")); return nil })
			if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
				t.Fatalf("ViewEntryLine of entry %d after truncation: %v", i, err)
			}
		}
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

// ViewMessage passes what AppendMessage appends (in place for a mapped
// input, from a buffer for a streamed one), and a recorded ContentRange is
// where the "content" value is in those bytes, as ValueRange finds it
// (the last "content" member, escaped keys decoded) — on every message of
// the shipped sessions and the oracle's context inputs.
func TestViewMessageAndContentRange(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/cases/*/session.jsonl", "../../testdata/condense-oracle/*/requests/*.context.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	ranges := 0
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ctx := range []*Context{readFile(t, p), streamed} {
			for i, m := range ctx.Messages {
				want, err := ctx.AppendMessage(nil, m)
				if err != nil {
					t.Fatal(err)
				}
				var got []byte
				if err := ctx.ViewMessage(m, func(b []byte) error { got = bytes.Clone(b); return nil }); err != nil {
					t.Fatalf("%s message %d: %v", p, i, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s message %d: ViewMessage passed %q, AppendMessage %q", p, i, got, want)
				}
				cs, ce, ok := m.ContentRange()
				if !ok {
					continue
				}
				ranges++
				s, e, found := ValueRange(want, "content")
				if !found || s != cs || e != ce {
					t.Fatalf("%s message %d: ContentRange %d–%d, ValueRange %d–%d (%v) in %q", p, i, cs, ce, s, e, found, want)
				}
			}
		}
	}
	if ranges == 0 {
		t.Fatal("no content range recorded: the test proves nothing")
	}
}

// A recorded ContentRange follows JSON.parse on odd keys: a repeated
// "content" (the last wins) and an escaped one.
func TestContentRangeOddKeys(t *testing.T) {
	for _, msg := range []string{
		`{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"a"}],"content":"b","isError":false}`,
		`{"role":"toolResult","toolCallId":"c1","toolName":"read","content":"a","con\u0074ent":[{"type":"text","text":"b"}]}`,
		`{"role":"toolResult","toolCallId":"c1","toolName":"read","con\u0074ent":[],"content" : "b" }`,
	} {
		in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n" +
			`{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":` + msg + "}\n"
		ctx, err := Read(strings.NewReader(in), strings.NewReader(in), ReadOptions{})
		if err != nil || len(ctx.Messages) != 1 {
			t.Fatalf("%s: %v", msg, err)
		}
		m := ctx.Messages[0]
		b, _ := ctx.AppendMessage(nil, m)
		cs, ce, ok := m.ContentRange()
		s, e, _ := ValueRange(b, "content")
		if !ok || cs != s || ce != e {
			t.Fatalf("%s: ContentRange %d–%d %v, ValueRange %d–%d", msg, cs, ce, ok, s, e)
		}
	}
}

// ContentChars as recorded is ContentChars of the content's bytes, and
// ModelChars of a message whose content is replaced follows from it: on
// every message of the shipped sessions with a recorded range, for
// replacements with and without images (and escaped look-alikes).
func TestContentCharsComposesModelChars(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sessions/*.jsonl")
	more, _ := filepath.Glob("../../testdata/cases/*/session.jsonl")
	repl := []string{`[]`, `""`, `"é\n"`, `[{"type":"text","text":"[pruner: x]"}]`,
		`[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"t"}]`,
		`[{"type":"im\u0061ge","data":"AAAA"}, {"type" : "image"}]`, `{"type":"image"}`}
	checked := 0
	for _, p := range append(paths, more...) {
		ctx := readFile(t, p)
		for i, m := range ctx.Messages {
			cs, ce, ok1 := m.ContentRange()
			cc, ok2 := m.ContentChars()
			before, ok3 := ctx.ModelChars(m)
			if ok1 != ok2 || !ok1 || !ok3 {
				continue
			}
			b, _ := ctx.AppendMessage(nil, m)
			if got := ContentChars(b[cs:ce]); got != cc {
				t.Fatalf("%s message %d: recorded ContentChars %d, of the bytes %d", p, i, cc, got)
			}
			for _, r := range append(repl, string(b[cs:ce])) {
				nb := append(append(append([]byte(nil), b[:cs]...), r...), b[ce:]...)
				if got, want := before-cc+ContentChars([]byte(r)), ModelChars(nb); got != want {
					t.Fatalf("%s message %d content %s: composed %d, ModelChars %d", p, i, r, got, want)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no message checked: the test proves nothing")
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
						t.Fatalf("%s line %d: bytes %v: %q, %v", filepath.Base(p), be.Line(), r, got, err)
					}
				}
				if !bytes.Equal(line, want) {
					t.Fatalf("%s line %d: the line EntryLine returned changed", filepath.Base(p), be.Line())
				}
				if got, err := ctx.AppendEntryBytes([]byte("x"), be, 1, len(want)); err == nil || string(got) != "x" {
					t.Fatalf("%s line %d: a range past the line: %q, %v", filepath.Base(p), be.Line(), got, err)
				}
			}
		}
	}
}

// ReadMessage passes what ViewMessage passes (read from the file for a
// mapped input up to readCopyMax, viewed in place past it, from a buffer
// for a streamed one), and ViewEntryBytes what AppendEntryBytes appends,
// on every message and branch entry of the shipped sessions, the oracle's
// context inputs and a session with a line past readCopyMax.
func TestReadMessageAgreesWithView(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../testdata/sessions/*.jsonl", "../../testdata/cases/*/session.jsonl", "../../testdata/condense-oracle/*/requests/*.context.jsonl"} {
		p, _ := filepath.Glob(g)
		paths = append(paths, p...)
	}
	big := filepath.Join(t.TempDir(), "big.jsonl")
	in := hdr + msgLine("a", "", "user", `"`+strings.Repeat("x", readCopyMax+10)+`"`) + msgLine("b", "a", "user", `"last"`)
	if err := os.WriteFile(big, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, big)
	msgs, entries, large := 0, 0, 0
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		streamed, err := Read(bytes.NewReader(data), bytes.NewReader(data), ReadOptions{Branch: true})
		if err != nil {
			t.Fatal(err)
		}
		mapped, err := func() (*Context, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			t.Cleanup(func() { f.Close() })
			return Read(f, f, ReadOptions{Branch: true})
		}()
		if err != nil {
			t.Fatal(err)
		}
		if mapped.m == nil {
			t.Fatalf("%s: file input not mapped", p)
		}
		for _, ctx := range []*Context{mapped, streamed} {
			for i, m := range ctx.Messages {
				var want, got []byte
				if err := ctx.ViewMessage(m, func(b []byte) error { want = bytes.Clone(b); return nil }); err != nil {
					t.Fatalf("%s message %d: %v", p, i, err)
				}
				if err := ctx.ReadMessage(m, func(b []byte) error { got = bytes.Clone(b); return nil }); err != nil {
					t.Fatalf("%s message %d: %v", p, i, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s message %d: ReadMessage passed %q, ViewMessage %q", p, i, got, want)
				}
				msgs++
				if len(got) > readCopyMax {
					large++
				}
			}
			for i := range ctx.Branch {
				be := &ctx.Branch[i]
				_, n, err := ctx.entryPlace(be)
				if err != nil || n == 0 {
					continue
				}
				for _, r := range [][2]int{{0, int(n)}, {1, int(n) - 2}, {int(n) / 2, int(n) - int(n)/2}, {0, 0}} {
					if r[1] < 0 {
						continue
					}
					want, err := ctx.AppendEntryBytes(nil, be, r[0], r[1])
					if err != nil {
						t.Fatal(err)
					}
					var got []byte
					if err := ctx.ViewEntryBytes(be, r[0], r[1], func(b []byte) error { got = bytes.Clone(b); return nil }); err != nil {
						t.Fatalf("%s entry %d: %v", p, i, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s entry %d bytes %d+%d: ViewEntryBytes passed %q, AppendEntryBytes %q", p, i, r[0], r[1], got, want)
					}
					entries++
				}
			}
		}
	}
	if msgs < 100 || entries < 100 || large == 0 {
		t.Fatalf("%d messages (%d large), %d entry ranges: the inputs do not cover the case", msgs, large, entries)
	}
}

// ViewEntryBytes of a mapped input passes the bytes where they are mapped,
// their pages mapped a window ahead (view): across many windows, read in
// file order, backwards and at random, after the render cursor gave pages
// back, it passes what AppendEntryBytes appends; ViewEntryLine passes what
// EntryLine returns.
func TestViewEntryBytesAcrossWindows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	var b strings.Builder
	b.WriteString(hdr)
	rng := rand.New(rand.NewPCG(40, 1))
	parent := ""
	for i := range 900 {
		id := fmt.Sprintf("m%d", i)
		b.WriteString(msgLine(id, parent, "user", `"`+strings.Repeat(string(rune('a'+i%26)), rng.IntN(40000))+`"`))
		parent = id
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := readFile(t, p)
	if ctx.m == nil || len(ctx.m.data) < 8*popAhead {
		t.Fatalf("not mapped, or too small to cross windows")
	}
	n := len(ctx.Branch)
	order := make([]int, 0, 3*n)
	for i := range n {
		order = append(order, i)
	}
	for i := n - 1; i >= 0; i-- {
		order = append(order, i)
	}
	for range n {
		order = append(order, rng.IntN(n))
	}
	for _, i := range order {
		be := &ctx.Branch[i]
		_, ln, err := ctx.entryPlace(be)
		if err != nil {
			t.Fatal(err)
		}
		off := rng.IntN(int(ln) + 1)
		k := rng.IntN(int(ln) - off + 1)
		want, err := ctx.AppendEntryBytes(nil, be, off, k)
		if err != nil {
			t.Fatal(err)
		}
		line, err := ctx.EntryLine(be)
		if err != nil {
			t.Fatal(err)
		}
		line = bytes.Clone(line)
		err = ctx.ViewEntryLine(be, func(got []byte) error {
			if !bytes.Equal(got, line) {
				t.Fatalf("entry %d: ViewEntryLine's %d bytes are not EntryLine's %d", i, len(got), len(line))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = ctx.ViewEntryBytes(be, off, k, func(got []byte) error {
			if !bytes.Equal(got, want) {
				t.Fatalf("entry %d bytes %d+%d: %d bytes differ from AppendEntryBytes's", i, off, k, len(got))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if ctx.m.noPopulate == (runtime.GOOS == "linux") {
		t.Errorf("populate on %s: noPopulate %v", runtime.GOOS, ctx.m.noPopulate)
	}
}

// ReadMessage reads a message where it is mapped when the input is small
// enough that no page of it is given back (resident: a copy is a read call
// for nothing), and copies it from the file when the input is larger (its
// pages behind the render's cursor are given back): the bytes passed are
// the mapping's in the first case, a buffer's in the second.
func TestReadMessageInPlaceWhenResident(t *testing.T) {
	for _, c := range []struct {
		name    string
		pad     int
		inPlace bool
	}{{"small", 10, true}, {"large", dropEvery + window + 10, false}} {
		p := filepath.Join(t.TempDir(), c.name+".jsonl")
		in := hdr + msgLine("a", "", "user", `"`+strings.Repeat("x", c.pad)+`"`) + msgLine("b", "a", "user", `"last"`)
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := readFile(t, p)
		if ctx.m == nil || ctx.m.resident() != c.inPlace {
			t.Fatalf("%s: mapped %v, resident %v", c.name, ctx.m != nil, ctx.m != nil && ctx.m.resident())
		}
		last := ctx.Messages[len(ctx.Messages)-1]
		var got []byte
		if err := ctx.ReadMessage(last, func(b []byte) error { got = b; return nil }); err != nil {
			t.Fatal(err)
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(ctx.m.data)))
		at := uintptr(unsafe.Pointer(unsafe.SliceData(got)))
		if mapped := at >= start && at < start+uintptr(len(ctx.m.data)); mapped != c.inPlace {
			t.Errorf("%s input: message read in place %v, want %v (%q)", c.name, mapped, c.inPlace, got)
		}
		if !bytes.Contains(got, []byte(`"last"`)) {
			t.Errorf("%s input: ReadMessage passed %q", c.name, got)
		}
	}
}
