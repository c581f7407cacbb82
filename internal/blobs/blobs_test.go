package blobs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pruner-dev/pruner/internal/index"
)

func TestSafeIDAndDirStayBesideTheSession(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"9de3912c-c416-4001-8272-f5230b33a0fc", "9de3912c-c416-4001-8272-f5230b33a0fc"}, // a pi id is unchanged
		{"../../ESCAPED", "______ESCAPED"},
		{"..", "__"},
		{".", "_"},
		{"/etc/passwd", "_etc_passwd"},
		{`C:\Windows`, "C__Windows"},
		{"a\x00b", "a_b"},
		{"é😀", "___"}, // é: one rune; 😀: two UTF-16 units
		{"", ""},
	} {
		if got := SafeID(tc.id); got != tc.want {
			t.Errorf("SafeID(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	if got := SafeID(strings.Repeat("x", 500)); len(got) != maxName {
		t.Errorf("a long id gives %d bytes, want %d", len(got), maxName)
	}
	if SafeID(strings.Repeat("x", 500)) == SafeID(strings.Repeat("x", 501)) {
		t.Error("two long ids share a name")
	}
	session := filepath.Join("/s", "d", "x.jsonl")
	for _, id := range []string{"../../ESCAPED", "..", "/abs", "a/../../b", strings.Repeat("../", 100)} {
		d := Dir(session, id)
		if filepath.Dir(d) != filepath.Dir(session) || !strings.HasSuffix(d, "-blobs") {
			t.Errorf("Dir(%q) = %q: not a child of the session's directory", id, d)
		}
	}
	if Dir(session, "") != "" {
		t.Error("a session without id has a blob dir")
	}
}

func TestOwned(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "id-blobs")
	ok := filepath.Join(dir, index.BlobName("toolu_1@1763689010926"))
	if p, err := Owned(dir, ok); err != nil || p != ok {
		t.Fatalf("Owned(%s) = %q, %v", ok, p, err)
	}
	for _, bad := range []string{
		filepath.Join(dir, "..", "victim.txt"),
		filepath.Join(dir, "sub", "a.txt"),
		filepath.Join(filepath.Dir(dir), "other-blobs", "a.txt"),
		filepath.Join(dir, "not a blob.txt"),
		filepath.Join(dir, "a.sh"),
		filepath.Join(dir, ".txt"),
		filepath.Join(dir, strings.Repeat("a", 200)+".txt"),
		"victim.txt",
		dir,
	} {
		if p, err := Owned(dir, bad); err == nil {
			t.Errorf("Owned(%s) = %q: a path outside the blob dir or not blob-shaped is accepted", bad, p)
		}
	}
	if _, err := Owned("", ok); err == nil {
		t.Error("no blob dir, yet a path is owned")
	}
}

// Every name BlobName makes is blob-shaped.
func TestBlobNamesAreBlobShaped(t *testing.T) {
	for _, key := range []string{"a@1", "toolu_01ABC@1763689010926", "bash:0@1", "../../x@2", strings.Repeat("é", 300) + "@3", "😀@4"} {
		if n := index.BlobName(key); !IsName(n) {
			t.Errorf("BlobName(%q) = %q is not blob-shaped", key, n)
		}
	}
}

// A plan writes nothing until Write, and Write removes what it created
// when it fails part way.
func TestPlanWritesOnlyOnWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s-blobs")
	p := NewPlan(dir)
	a, err := p.Spill("a@1", "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Spill("b@2", "beta"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("Spill touched the disk: %v", err)
	}
	if txt, ok := p.Text(a); !ok || txt != "alpha" {
		t.Fatalf("Text(%s) = %q, %v", a, txt, ok)
	}
	if got := p.Pending(); len(got) != 2 {
		t.Fatalf("Pending = %v", got)
	}
	created, err := p.Write()
	if err != nil || len(created) != 2 {
		t.Fatalf("Write = %v, %v", created, err)
	}
	if b, _ := os.ReadFile(a); string(b) != "alpha" {
		t.Fatalf("blob holds %q", b)
	}
	// a second run over the same session: the blobs are there, nothing pending
	q := NewPlan(dir)
	if _, err := q.Spill("a@1", "alpha"); err != nil {
		t.Fatal(err)
	}
	if got := q.Pending(); len(got) != 0 {
		t.Fatalf("Pending = %v, want none (same bytes on disk)", got)
	}
	// a blob there with other bytes is refused at Spill (kept inline)
	if _, err := q.Spill("b@2", "other"); err == nil {
		t.Fatal("a blob with other content was accepted")
	}
	// Write fails part way: what it created is removed again
	r := NewPlan(dir)
	if _, err := r.Spill("c@3", "gamma"); err != nil {
		t.Fatal(err)
	}
	d, err := r.Spill("d@4", "delta")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d, []byte("raced"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Write(); err == nil {
		t.Fatal("Write over a blob with other content succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, index.BlobName("c@3"))); !os.IsNotExist(err) {
		t.Fatal("a failed Write left a blob it created")
	}
	// a blob dir that is a file: Spill fails (the result stays inline)
	file := filepath.Join(t.TempDir(), "x-blobs")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan(file).Spill("a@1", "alpha"); err == nil {
		t.Fatal("a blob dir that is a file was accepted")
	}
}

func TestForSession(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(real, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	resolvedDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(resolvedDir, "id_1-blobs")
	if p := ForSession(real, "id/1"); p == nil || p.Dir() != want {
		t.Fatalf("ForSession(file) = %v, want a plan in %s", p, want)
	}
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(real, link); err == nil {
		if p := ForSession(link, "id/1"); p == nil || p.Dir() != want {
			t.Fatalf("ForSession(link) = %v, want the target's %s", p, want)
		}
	}
	for name, path := range map[string]string{"a directory": dir, "a missing file": filepath.Join(dir, "none.jsonl")} {
		if p := ForSession(path, "id"); p != nil {
			t.Errorf("ForSession(%s) = %s, want nil", name, p.Dir())
		}
	}
	if p := ForSession(real, ""); p != nil {
		t.Errorf("ForSession(no id) = %s, want nil", p.Dir())
	}
}
