package hostfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/pruner-dev/pruner/internal/guard"
)

func TestHostFS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("K=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".env", filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	root := filepath.ToSlash(dir)
	for _, fsys := range []guard.FS{FS{}, NewCached()} {
		fi, err := fsys.Lstat(root + "/notes.txt")
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("Lstat: %v %v", fi, err)
		}
		if to, err := fsys.ReadLink(root + "/notes.txt"); err != nil || to != ".env" {
			t.Fatalf("ReadLink: %q %v", to, err)
		}
		ents, err := fsys.ReadDir(root)
		if err != nil || len(ents) != 2 {
			t.Fatalf("ReadDir: %v %v", ents, err)
		}
		// a Windows path does not exist on a POSIX host
		if _, err := fsys.Lstat("c:/Windows"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Lstat c:/Windows: %v", err)
		}
		// a UNC path is never opened (it may connect to a server)
		if _, err := fsys.Lstat("//attacker.example/share/x"); !errors.Is(err, ErrRemote) {
			t.Fatalf("Lstat UNC: %v", err)
		}
		// the gate sees through the link
		m := guard.DefaultRules().Matcher(guard.Env{Cwd: root, Home: "/nonexistent", FS: fsys})
		if v := m.Decide(guard.Call{Tool: "read", Args: map[string]any{"path": "notes.txt"}}); v == nil || v.Rule != ".env" {
			t.Fatalf("notes.txt -> .env allowed: %+v", v)
		}
	}
	// the cache answers again without the disk
	c := NewCached()
	if _, err := c.Lstat(root + "/.env"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, ".env")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Lstat(root + "/.env"); err != nil {
		t.Fatalf("cached Lstat: %v", err)
	}
}

func TestSessionFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b/2.jsonl", "a.jsonl", "b/1.jsonl", "notes.txt", "c/x.jsonl.bak"} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := SessionFiles(dir)
	want := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b", "1.jsonl"), filepath.Join(dir, "b", "2.jsonl")}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("SessionFiles = %v, %v; want %v", got, err, want)
	}
	if _, err := SessionFiles(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory gave no error")
	}
}

func TestStreamAlias(t *testing.T) {
	for p, want := range map[string]bool{
		"/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/fd/0": true, "/dev/fd/12": true,
		"/proc/self/fd/0": true, "/proc/thread-self/fd/3": true, "/proc/4242/fd/1": true,
		"/dev/null": false, "/dev/fd": false, "/dev/fd/x": false, "/proc/self/fdinfo/0": false,
		"/proc/self/cwd": false, "/proc/abc/fd/0": false, "/tmp/dev/stdin": false, "session.jsonl": false, "": false,
	} {
		if got := StreamAlias(p) != ""; got != want {
			t.Errorf("StreamAlias(%q) = %v, want %v", p, got, want)
		}
	}
	dir := t.TempDir()
	a, b, f := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "f.jsonl")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/stdin", a); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("a", b); err != nil { // relative, two hops
		t.Fatal(err)
	}
	if got := StreamAlias(b); got != "/dev/stdin" {
		t.Errorf("StreamAlias(b -> a -> /dev/stdin) = %q", got)
	}
	if got := StreamAlias(f); got != "" {
		t.Errorf("StreamAlias(regular file) = %q", got)
	}
}
