//go:build !purego

package jsonscan

import "sync"

// haveAVX2 reports whether the AVX2 string scanner (strScanAVX2) can run:
// the CPU has AVX2, BMI2 and POPCNT and the OS saves the YMM registers (the
// conditions of golang.org/x/sys/cpu's X86.HasAVX2, HasBMI2 and HasPOPCNT).
// The CPU is asked on first use (Tape.Parse), not at package init: under a
// hypervisor every CPUID instruction traps (about 8 µs each on the VM this
// was measured on), and a process that never parses with this package —
// `pruner hook`, `pruner version` — should not pay for it at start-up.
var haveAVX2 = sync.OnceValue(func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const popcnt, osxsave = 1 << 23, 1 << 27
	if ecx1&popcnt == 0 || ecx1&osxsave == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state saved by the OS
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2, bmi2 = 1 << 5, 1 << 8
	return ebx7&avx2 != 0 && ebx7&bmi2 != 0
})

// cpuid executes the CPUID instruction for leaf eaxArg, subleaf ecxArg
// (str_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads the extended control register XCR0 (str_amd64.s).
func xgetbv() (eax, edx uint32)

// strScanAVX2 is implemented in str_amd64.s.
//
//go:noescape
func strScanAVX2(b []byte) (n, cont, esc int, high bool)
