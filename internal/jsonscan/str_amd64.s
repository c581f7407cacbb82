//go:build !purego

#include "textflag.h"

// COUNT_ALL adds the window in Y0 to cont (R8) and high (R9). Clobbers BX,
// CX, Y7.
#define COUNT_ALL \
	VPMOVMSKB Y0, BX \
	VPAND    Y0, Y4, Y7 \
	VPCMPEQB Y7, Y5, Y7 \
	VPMOVMSKB Y7, CX \
	ORL   BX, R9 \
	POPCNTL CX, CX \
	ADDQ  CX, R8

// strBytes are the bytes strScanAVX2 compares each window's with,
// broadcast from memory at its start: '"', '\\', 0x1f, 0xc0, 0x80, then the
// second bytes of the simple escapes b f n r t. Built instead from a
// general register each (MOVQ to an X register, legacy SSE, after the
// first 256-bit broadcast: an SSE/AVX state transition each on the Xeon
// this was measured on), a call cost ~1,000 ns (BenchmarkStrScanAVX2Call;
// 5 ns now), ~85% of the scanner's perf samples at 200 MB (~154,000 calls):
// 200 MB `now -q` went 1.16 → 1.00 s CPU.
DATA strBytes<>+0(SB)/1, $0x22
DATA strBytes<>+1(SB)/1, $0x5c
DATA strBytes<>+2(SB)/1, $0x1f
DATA strBytes<>+3(SB)/1, $0xc0
DATA strBytes<>+4(SB)/1, $0x80
DATA strBytes<>+5(SB)/1, $0x62
DATA strBytes<>+6(SB)/1, $0x66
DATA strBytes<>+7(SB)/1, $0x6e
DATA strBytes<>+8(SB)/1, $0x72
DATA strBytes<>+9(SB)/1, $0x74
GLOBL strBytes<>(SB), RODATA|NOPTR, $10

// func strScanAVX2(b []byte) (n, cont, esc int, high bool)
//
// Scans string bytes from b[0] in 32-byte windows (b[0:32], b[32:64], …;
// only whole windows), past plain bytes and simple two-byte escapes (\" \\
// \b \f \n \r \t). It stops at the first unescaped '"' or control byte
// (< 0x20), at the backslash of any other escape (\/, \u, invalid: the Go
// loop flags them, SlashEscaped, UEscaped) or of an
// escape whose second byte is not in a whole window, or at the end of the
// last whole window, and returns n, the bytes consumed; cont, the UTF-8
// continuation bytes among them; esc, the simple escapes among them; high,
// whether any of them is >= 0x80.
//
// A window with a backslash finds its escapes with bit masks (no branch per
// escape): the backslashes that start an escape are those at the start of
// an odd-length position in a run, carried from window to window (the
// method of simdjson's string scanner).
TEXT ·strScanAVX2(SB), NOSPLIT, $0-49
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ SI, DI          // start
	LEAQ (SI)(DX*1), R11 // end
	XORQ R8, R8          // cont
	XORQ R9, R9          // high (OR of masks)
	XORQ R12, R12        // esc
	XORQ R13, R13        // 1: the previous window's last byte starts an escape

	VPBROADCASTB strBytes<>+0(SB), Y1 // '"'
	VPBROADCASTB strBytes<>+1(SB), Y2 // '\\'
	VPBROADCASTB strBytes<>+2(SB), Y3 // 0x1f
	VPBROADCASTB strBytes<>+3(SB), Y4 // 0xc0
	VPBROADCASTB strBytes<>+4(SB), Y5 // 0x80
	VPBROADCASTB strBytes<>+5(SB), Y9 // 'b'
	VPBROADCASTB strBytes<>+6(SB), Y10 // 'f'
	VPBROADCASTB strBytes<>+7(SB), Y11 // 'n'
	VPBROADCASTB strBytes<>+8(SB), Y12 // 'r'
	VPBROADCASTB strBytes<>+9(SB), Y13 // 't'

loop:
	MOVQ R11, AX
	SUBQ SI, AX
	CMPQ AX, $32
	JB   tail
	VMOVDQU (SI), Y0
	VPCMPEQB Y0, Y2, Y7
	VPMOVMSKB Y7, R10    // backslashes
	VPCMPEQB Y0, Y1, Y6
	VPMINUB  Y0, Y3, Y7
	VPCMPEQB Y0, Y7, Y7
	VPOR     Y6, Y7, Y6
	VPMOVMSKB Y6, AX     // quotes and control bytes
	MOVL  R10, BX
	ORL   R13, BX
	JNZ   escapes
	TESTL AX, AX
	JNZ   stop
	COUNT_ALL
	ADDQ  $32, SI
	JMP   loop

escapes:
	// bs: the backslashes, less one escaped by the previous window
	MOVL R13, BX
	NOTL BX
	ANDL BX, R10
	// follows: the bytes right after a backslash
	MOVL R10, CX
	SHLL $1, CX
	ORL  R13, CX
	// odd-position run starts, added to the runs: the carry out of the
	// window is whether its last byte starts an escape
	MOVL CX, BX
	NOTL BX
	ANDL R10, BX
	ANDL $0xaaaaaaaa, BX
	ADDL R10, BX
	SETCS DL
	MOVBLZX DL, DX
	SHLL $1, BX
	XORL $0x55555555, BX
	ANDL CX, BX          // BX: the escaped bytes
	MOVL BX, CX
	NOTL CX
	ANDL CX, R10         // R10: the backslashes that start an escape
	// the bytes a simple escape may have second
	VPCMPEQB Y0, Y1, Y6
	VPCMPEQB Y0, Y2, Y7
	VPOR     Y6, Y7, Y6
	VPCMPEQB Y0, Y9, Y7
	VPOR     Y6, Y7, Y6
	VPCMPEQB Y0, Y10, Y7
	VPOR     Y6, Y7, Y6
	VPCMPEQB Y0, Y11, Y7
	VPOR     Y6, Y7, Y6
	VPCMPEQB Y0, Y12, Y7
	VPOR     Y6, Y7, Y6
	VPCMPEQB Y0, Y13, Y7
	VPOR     Y6, Y7, Y6
	VPMOVMSKB Y6, CX
	NOTL CX
	ANDL BX, CX          // CX: escaped bytes that make no simple escape
	TESTL $1, CX
	JNZ   badprev
	NOTL BX
	ANDL BX, AX          // unescaped quotes and control bytes
	SHRL $1, CX
	ORL  CX, AX          // and the backslashes of other escapes
	TESTL AX, AX
	JNZ   escstop
	COUNT_ALL
	POPCNTL R10, R10
	ADDQ  R10, R12
	MOVQ  DX, R13
	ADDQ  $32, SI
	JMP   loop

escstop:
	TZCNTL AX, CX
	BZHIL  CX, R10, R10
	POPCNTL R10, R10
	ADDQ   R10, R12
	XORQ   R13, R13
	JMP    stop

stop:
	// AX: the first stop in the window; count the bytes before it
	TZCNTL AX, AX
	VPMOVMSKB Y0, BX     // bytes >= 0x80
	VPAND    Y0, Y4, Y7
	VPCMPEQB Y7, Y5, Y7
	VPMOVMSKB Y7, CX     // continuation bytes
	BZHIL  AX, BX, BX
	BZHIL  AX, CX, CX
	ORL    BX, R9
	POPCNTL CX, CX
	ADDQ   CX, R8
	ADDQ   AX, SI
	JMP    done

badprev:
	// the previous window's last byte starts an escape that is not simple:
	// stop at it, uncounted
	SUBQ $1, SI
	DECQ R12
	JMP  done

tail:
	TESTQ R13, R13
	JZ    done
	SUBQ  $1, SI         // an escape cut by the end of the whole windows
	DECQ  R12

done:
	VZEROUPPER
	SUBQ DI, SI
	MOVQ SI, n+24(FP)
	MOVQ R8, cont+32(FP)
	MOVQ R12, esc+40(FP)
	TESTL R9, R9
	SETNE high+48(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
