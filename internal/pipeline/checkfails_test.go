package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVerifyFailsOnAChangedFile: a written session that does not read back
// as the one planned fails Verify — its head changed, an appended line
// missing, an appended id the file already has (or one appended twice), a
// ref pi-condense would rebuild differently — and the file as written
// passes.
func TestVerifyFailsOnAChangedFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "sessions", "large-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	o := defaults(t)
	ctx := read(t, data)
	r, err := Run(context.Background(), ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	a, err := r.Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() < 3 || r.State == nil || r.State.Len() == 0 {
		t.Fatalf("the session appends %d entries (%d edits): no flush to check", a.Len(), a.Edits)
	}
	var out bytes.Buffer
	info, err := r.WriteSession(&out, bytes.NewReader(data), ctx.Bytes, a)
	if err != nil {
		t.Fatal(err)
	}
	written := out.Bytes()
	c := r.Check()
	// read from memory and from a file (which VerifyFrom maps)
	dir := t.TempDir()
	verify := func(b []byte, a *Appended) error {
		err := c.Verify(bytes.NewReader(b), int64(len(b)), info, a)
		f, ferr := os.Create(filepath.Join(dir, "written.jsonl"))
		if ferr != nil {
			t.Fatal(ferr)
		}
		defer f.Close()
		if _, ferr := f.Write(b); ferr != nil {
			t.Fatal(ferr)
		}
		if _, ferr := f.Seek(0, io.SeekStart); ferr != nil {
			t.Fatal(ferr)
		}
		if ferr = c.VerifyFrom(f, f, int64(len(b)), info, a); (ferr == nil) != (err == nil) {
			t.Fatalf("Verify from memory: %v, from a file: %v", err, ferr)
		}
		return err
	}
	if err := verify(written, a); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	head, tail := written[:info.BaseBytes], string(written[info.BaseBytes:])
	firstID := ctx.EntryID(&ctx.Entries[0])
	lines := strings.SplitAfter(tail, "\n")
	dupA := *a
	dupA.IDs = append([]string(nil), a.IDs...)
	dupA.IDs[2] = a.IDs[1]
	shortID := regexp.MustCompile(`"shortId":"t[0-9]+"`)
	cases := map[string]struct {
		file []byte
		a    *Appended
	}{
		"head changed":            {append(append(bytes.Clone(head[:len(head)-3]), 'x'), written[len(head)-2:]...), a},
		"last line missing":       {append(bytes.Clone(head), strings.Join(lines[:len(lines)-2], "")...), a},
		"an id the file has":      {append(bytes.Clone(head), strings.Replace(tail, `"id":"`+a.IDs[1]+`"`, `"id":"`+firstID+`"`, 1)...), withID(a, 1, firstID)},
		"an id appended twice":    {append(bytes.Clone(head), strings.Replace(tail, `"id":"`+a.IDs[2]+`"`, `"id":"`+a.IDs[1]+`"`, 1)...), &dupA},
		"a ref rebuilt otherwise": {append(bytes.Clone(head), shortID.ReplaceAllStringFunc(tail, func(string) string { return `"shortId":"t1"` })...), a},
	}
	for name, k := range cases {
		if bytes.Equal(k.file, written) {
			t.Fatalf("%s: the file is unchanged", name)
		}
		if err := verify(k.file, k.a); err == nil {
			t.Errorf("%s: Verify passed", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// withID is a with its i-th id replaced by id.
func withID(a *Appended, i int, id string) *Appended {
	b := *a
	b.IDs = append([]string(nil), a.IDs...)
	b.IDs[i] = id
	return &b
}

// TestIDSet checks idSet against a map over ids of pi's form (8 lowercase
// hex digits) and others (upper case, other lengths, uuids, empty).
func TestIDSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		switch rng.IntN(6) {
		case 0:
			return fmt.Sprintf("%08X", rng.Uint32()&0xff)
		case 1:
			return fmt.Sprintf("%07x", rng.Uint32()&0xfff)
		case 2:
			return fmt.Sprintf("%08x-%04x", rng.Uint32()&0xff, rng.Uint32()&0xffff)
		case 3:
			return []string{"", "a1", "zzzzzzzz", "0000000g", "1234567"}[rng.IntN(5)]
		}
		return fmt.Sprintf("%08x", rng.Uint32()&0x3ff)
	}
	for round := range 50 {
		n := rng.IntN(300)
		ids := make([]string, n)
		want := map[string]bool{}
		for i := range ids {
			ids[i] = gen()
			want[ids[i]] = true
		}
		s := newIDSet(n, func(i int) string { return ids[i] })
		for range 500 {
			id := gen()
			if got := s.has(id); got != want[id] {
				t.Fatalf("round %d: has(%q) = %v, want %v", round, id, got, want[id])
			}
		}
		for _, id := range ids {
			if !s.has(id) {
				t.Fatalf("round %d: has(%q) = false for a member", round, id)
			}
		}
	}
}
