package session

import (
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
		{"Message", unsafe.Sizeof(Message{}), 56},
		{"msgInfo", unsafe.Sizeof(msgInfo{}), 48},
		{"entry", unsafe.Sizeof(entry{}), 32},
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
