package sessionfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func old(t *testing.T, path string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
}

func setup(t *testing.T, content string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
	old(t, path)
	return dir, path
}

// appendAll copies the original and appends extra.
func appendAll(fl *File, extra string) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.Copy(w, io.NewSectionReader(fl.Reader(), 0, fl.Size())); err != nil {
			return err
		}
		_, err := io.WriteString(w, extra)
		return err
	}
}

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestReplaceThroughSymlink(t *testing.T) {
	dir, path := setup(t, "a\nb\n")
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	fl, err := Open(link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	var verified string
	_, err = fl.Replace(context.Background(), appendAll(fl, "c\n"), func(f *os.File) error {
		b, _ := io.ReadAll(f)
		verified = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if verified != "a\nb\nc\n" {
		t.Fatalf("verify saw %q", verified)
	}
	if b, _ := os.ReadFile(path); string(b) != "a\nb\nc\n" {
		t.Fatalf("target = %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", fi.Mode().Perm())
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("left behind: %v", l)
	}
}

func TestRefusesLiveAndReadOnly(t *testing.T) {
	_, path := setup(t, "a\n")
	now := time.Now()
	os.Chtimes(path, now, now)
	var le *LiveError
	if _, err := Open(path, Options{}); !errors.As(err, &le) {
		t.Fatalf("fresh file: %v, want LiveError", err)
	}
	if fl, err := Open(path, Options{Force: true}); err != nil {
		t.Fatalf("--force: %v", err)
	} else {
		fl.Close()
	}
	old(t, path)
	os.Chmod(path, 0o444)
	var ro *ReadOnlyError
	if _, err := Open(path, Options{}); !errors.As(err, &ro) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("read-only: %v", err)
	}
}

func TestRefusesGrowth(t *testing.T) {
	for _, when := range []string{"before", "during verify"} {
		t.Run(when, func(t *testing.T) {
			dir, path := setup(t, "a\n")
			fl, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer fl.Close()
			grow := func() {
				f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				f.WriteString("pi\n")
				f.Close()
			}
			if when == "before" {
				grow()
			}
			_, err = fl.Replace(context.Background(), appendAll(fl, "x\n"), func(*os.File) error {
				if when != "before" {
					grow()
				}
				return nil
			})
			var le *LiveError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "changed while pruning") {
				t.Fatalf("err = %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != "a\npi\n" {
				t.Fatalf("target = %q", b)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Fatalf("left behind: %v", l)
			}
		})
	}
}

func TestMovesStrayAppend(t *testing.T) {
	_, path := setup(t, "a\n")
	fl, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	fl.beforeRename = func() { // pi appends after the last check, before the rename
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString("pi-line\n")
		f.Close()
	}
	rep, err := fl.Replace(context.Background(), appendAll(fl, "ours\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Moved != 8 {
		t.Fatalf("moved %d bytes, want 8", rep.Moved)
	}
	if b, _ := os.ReadFile(path); string(b) != "a\nours\npi-line\n" {
		t.Fatalf("target = %q", b)
	}
}

func TestInterruptAndVerifyFailureLeaveNothing(t *testing.T) {
	dir, path := setup(t, strings.Repeat("line\n", 1000))
	fl, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	ctx, cancel := context.WithCancel(context.Background())
	_, err = fl.Replace(ctx, func(w io.Writer) error {
		io.WriteString(w, "partial")
		cancel()
		for i := 0; i < 3000; i++ {
			if _, err := io.WriteString(w, strings.Repeat("x", 1024)); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	_, err = fl.Replace(context.Background(), appendAll(fl, "x\n"), func(*os.File) error { return errors.New("bad line") })
	if err == nil || err.Error() != "bad line" {
		t.Fatalf("verify: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != strings.Repeat("line\n", 1000) {
		t.Fatal("target changed")
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("left behind: %v", l)
	}
}
