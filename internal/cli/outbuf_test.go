package cli

import "testing"

// The stdout buffer of now and context is an eighth of the input, 64 KiB
// to 1 MiB: a 1 MB session's output touches 32 pages of buffer, not 256; a
// large one still writes a MiB at a time.
func TestOutBufSize(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want int
	}{{0, 64 << 10}, {100 << 10, 64 << 10}, {1 << 20, 128 << 10}, {8 << 20, 1 << 20}, {200 << 20, 1 << 20}, {1 << 40, 1 << 20}} {
		if got := outBufSize(c.in); got != c.want {
			t.Errorf("outBufSize(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}
