package spool

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestTeeKeepsWhatWasRead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	in := strings.Repeat(`{"type":"message"}`+"\n", 100000) // past the 1 MiB buffer
	sp, r, err := Tee(iotest.HalfReader(strings.NewReader(in)), "spool-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != in {
		t.Fatalf("the tee reader changed the stream: %d bytes, %v", len(got), err)
	}
	if err := sp.Flush(); err != nil {
		t.Fatal(err)
	}
	again := make([]byte, len(in))
	if _, err := sp.ReadAt(again, 0); err != nil || string(again) != in {
		t.Fatalf("ReadAt after Flush: %v", err)
	}
	closeRemoves(t, sp)
}

func TestCopyReadsFromTheStart(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	in := "line 1\nline 2\n"
	sp, err := Copy(strings.NewReader(in), "spool-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := sp.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(sp)
	if err != nil || string(got) != in {
		t.Fatalf("Read = %q, %v", got, err)
	}
	b := make([]byte, 6)
	if _, err := sp.ReadAt(b, 7); err != nil || string(b) != "line 2" {
		t.Fatalf("ReadAt(7) = %q, %v", b, err)
	}
	closeRemoves(t, sp)
}

func TestCopyFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	r := io.MultiReader(bytes.NewReader([]byte("part")), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, err := Copy(r, "spool-*.jsonl"); err != io.ErrUnexpectedEOF {
		t.Fatalf("err = %v, want the reader's", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %d files in the temp dir", len(ents))
	}
}

func closeRemoves(t *testing.T, sp *File) {
	t.Helper()
	name := sp.tmp.Name()
	if filepath.Dir(name) != os.TempDir() {
		t.Fatalf("spool %s is not in the temp dir", name)
	}
	if err := sp.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("Close left %s: %v", name, err)
	}
}

// TestTextsReadBack: texts appended are read back at their offsets,
// whether still buffered or written, between appends; Close removes the
// file.
func TestTextsReadBack(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	tx, err := NewTexts("texts-*")
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	var want []string
	for i := range 3000 {
		s := strings.Repeat(string(rune('a'+i%26)), 1+i*7%500) // past the buffer, in many writes
		off, err := tx.Append(s)
		if err != nil {
			t.Fatal(err)
		}
		offs, want = append(offs, off), append(want, s)
		if i%100 == 0 { // a read between appends: the buffered text too
			j := i / 2
			got := make([]byte, len(want[j]))
			if _, err := tx.ReadAt(got, offs[j]); err != nil || string(got) != want[j] {
				t.Fatalf("text %d read back at append %d: %q, %v", j, i, got, err)
			}
		}
	}
	for j := range want {
		got := make([]byte, len(want[j]))
		if _, err := tx.ReadAt(got, offs[j]); err != nil || string(got) != want[j] {
			t.Fatalf("text %d: %q, %v", j, got, err)
		}
	}
	for j := len(want) - 1; j >= 0; j -= 3 { // backwards: the read-ahead window moves back
		got := make([]byte, len(want[j]))
		if _, err := tx.ReadAt(got, offs[j]); err != nil || string(got) != want[j] {
			t.Fatalf("text %d read backwards: %q, %v", j, got, err)
		}
	}
	big := strings.Repeat("z", textsWindow) // longer than the window: read on its own
	off, err := tx.Append(big)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(big))
	if _, err := tx.ReadAt(got, off); err != nil || string(got) != big {
		t.Fatalf("a text longer than the window: %v", err)
	}
	if _, err := tx.ReadAt(make([]byte, 10), off+int64(len(big))-5); err == nil {
		t.Fatal("a read past the end succeeded")
	}
	name := tx.tmp.Name()
	if err := tx.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("Close left %s: %v", name, err)
	}
}
