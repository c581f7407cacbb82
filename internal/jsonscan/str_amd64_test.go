//go:build !purego

package jsonscan

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestHaveAVX2IsXSysCPU: the package's own CPUID reading selects the AVX2
// scanner exactly when golang.org/x/sys/cpu (which it replaces, to keep
// CPUID out of every pruner process's start-up) would have.
func TestHaveAVX2IsXSysCPU(t *testing.T) {
	if strings.Contains(os.Getenv("GODEBUG"), "cpu.") {
		t.Skip("GODEBUG turns CPU features off for x/sys/cpu only")
	}
	want := cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
	if got := haveAVX2(); got != want {
		t.Fatalf("haveAVX2() = %v, x/sys/cpu says %v", got, want)
	}
	var tp Tape
	if err := tp.Parse([]byte(`"` + strings.Repeat("x", 100) + `"`)); err != nil {
		t.Fatal(err)
	}
	if tp.avx2 != want {
		t.Fatalf("Parse left avx2 = %v, want %v", tp.avx2, want)
	}
}

// BenchmarkStrScanAVX2Call is one call of the AVX2 string scanner on a
// 64-byte plain string: its fixed cost, paid once for every string the tape
// scans with it (~154,000 at 200 MB). With its constants built through a
// legacy-SSE MOVQ each after the first 256-bit broadcast (an SSE/AVX state
// transition each on the 2-vCPU Xeon this was measured on) a call took
// ~1,000 ns; broadcast from memory, ~5 ns.
func BenchmarkStrScanAVX2Call(b *testing.B) {
	if !haveAVX2() {
		b.Skip("no AVX2")
	}
	s := []byte(strings.Repeat("a", 64))
	for b.Loop() {
		if n, _, _, _ := strScanAVX2(s); n != 64 {
			b.Fatalf("scanned %d bytes of 64", n)
		}
	}
}

// BenchmarkUnquoteAVX2Call is one call of the AVX2 unquote on a 200-byte
// body with an escape every 14 bytes (as result texts have them).
func BenchmarkUnquoteAVX2Call(b *testing.B) {
	if !haveAVX2() {
		b.Skip("no AVX2")
	}
	s := []byte(strings.Repeat(`abcdefghijkl\n`, 15))
	d := make([]byte, len(s))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		unquoteAVX2(d, s, 0, 0, 0, 0)
	}
}
