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
