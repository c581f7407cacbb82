package jsval

import (
	"strconv"
	"testing"
)

// TestArrayIndex: arrayIndex answers as strconv's parse of a canonical
// decimal below 2³²−1 does (JavaScript's array index), and a key that is
// not one costs no allocation.
func TestArrayIndex(t *testing.T) {
	ref := func(k string) (uint32, bool) {
		if k == "" || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
			return 0, false
		}
		n, err := strconv.ParseUint(k, 10, 64)
		if err != nil || n >= 1<<32-1 {
			return 0, false
		}
		return uint32(n), true
	}
	for _, k := range []string{"", "0", "00", "01", "7", "10", "role", "1a", "a1", "+1", "-1", " 1", "1 ", "1_0", "1e3", "1.5",
		"4294967294", "4294967295", "4294967296", "9999999999", "99999999999", "١", "０"} {
		n, ok := arrayIndex(k)
		wn, wok := ref(k)
		if n != wn || ok != wok {
			t.Errorf("arrayIndex(%q) = %d, %v; want %d, %v", k, n, ok, wn, wok)
		}
	}
	ok := true
	if a := testing.AllocsPerRun(100, func() { _, ok = arrayIndex("content") }); a != 0 || ok {
		t.Errorf("arrayIndex of a key that is no number: %v allocations (an index: %v)", a, ok)
	}
}
