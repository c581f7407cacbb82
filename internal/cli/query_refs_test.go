package cli

import "testing"

// TestRefRanges: the not-found hint lists the refs that exist, runs
// compressed, gaps shown (it said "refs t1…t21" when t1 was a spilled
// record without a ref).
func TestRefRanges(t *testing.T) {
	for _, tc := range []struct {
		refs []string
		want string
	}{
		{nil, ""},
		{[]string{"t3"}, "t3"},
		{[]string{"t1", "t2"}, "t1, t2"},
		{[]string{"t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t11", "t12", "t13", "t14", "t15", "t16", "t17", "t18", "t19", "t20", "t21"}, "t2…t9, t11…t21"},
		{[]string{"t5", "t1", "t3", "t2", "t3", "t9"}, "t1…t3, t5, t9"},
		{[]string{"b1", "t2"}, "t2"},
	} {
		if got := refRanges("t", tc.refs); got != tc.want {
			t.Errorf("refRanges(%v) = %q, want %q", tc.refs, got, tc.want)
		}
	}
}
