//go:build !purego

package jsonscan

import "golang.org/x/sys/cpu"

// haveAVX2 selects the AVX2 string scanner (strScanAVX2).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// strScanAVX2 is implemented in str_amd64.s.
//
//go:noescape
func strScanAVX2(b []byte) (n, cont, esc int, high bool)
