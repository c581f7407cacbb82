package index

import "testing"

// A bare id is kept as a length of its first record key: a legacy record
// whose id looks like an occurrence key ("a@1", no result time) shares
// that key with the occurrence of "a" at 1, and each bare id is still its
// own (not what splitting the key at '@' would make of it).
func TestBareIDsOfSharedKey(t *testing.T) {
	s := &State{}
	ts := int64(1)
	s.indexRecord(Record{ToolCallID: "a@1", ToolName: "read"}, "", false)
	s.indexRecord(Record{ToolCallID: "a", ToolName: "read", ResultTimestamp: &ts}, "", false)
	s.indexRecord(Record{ToolCallID: "b", ToolName: "bash", ResultTimestamp: &ts}, "", false)
	want := []string{"a@1", "a", "b"}
	if len(s.bare.first) != len(want) {
		t.Fatalf("%d bare ids, want %d", len(s.bare.first), len(want))
	}
	for i, id := range want {
		if got := s.bareID(int32(i)); got != id {
			t.Errorf("bare id %d: %q, want %q", i, got, id)
		}
		if n := s.bareCount(id); n != 1 {
			t.Errorf("bareCount(%q) = %d, want 1", id, n)
		}
	}
	if s.bareCount("a@") != 0 || s.bareCount("") != 0 {
		t.Error("a prefix of a key found as a bare id")
	}
	c := s.Clone()
	c.indexRecord(Record{ToolCallID: "c", ToolName: "bash"}, "", false)
	if c.bareCount("c") != 1 || s.bareCount("c") != 0 || c.bareCount("a@1") != 1 {
		t.Error("a clone's bare ids are not its own")
	}
}
