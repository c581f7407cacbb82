package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceKeepsPermissionsAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.jsonl")
	if err := os.WriteFile(p, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new\n"))
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Fatalf("target changed before Commit: %q", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Fatalf("after Commit: %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("files left: %v", es)
	}
}

func TestAbortLeavesTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("keep"), 0o644)
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "keep" {
		t.Fatalf("target %q after Abort", b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("files left: %v", es)
	}
	if err := WriteFile(filepath.Join(dir, "new"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "new")); st.Mode().Perm() != 0o600 {
		t.Errorf("WriteFile mode %v", st.Mode().Perm())
	}
}

// TestWriteErrorIsKept: a failed Write is remembered; Commit returns it and
// never renames a short file over the target, and leaves no temp file.
func TestWriteErrorIsKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.jsonl")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("first part\n")); err != nil {
		t.Fatal(err)
	}
	f.Temp().Close() // the disk goes away: every write from here fails
	_, werr := f.Write([]byte("lost\n"))
	if werr == nil {
		t.Fatal("a write to a closed file succeeded")
	}
	if _, err := f.Write([]byte("more\n")); err != werr {
		t.Errorf("a later write returned %v, want the first error %v", err, werr)
	}
	if err := f.Commit(); err != werr {
		t.Fatalf("Commit = %v, want the write error %v", err, werr)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Fatalf("a truncated file replaced the target: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}
