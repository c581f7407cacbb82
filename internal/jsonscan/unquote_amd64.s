//go:build !purego

#include "textflag.h"

DATA unquoteBackslash<>+0(SB)/1, $0x5c
GLOBL unquoteBackslash<>(SB), RODATA|NOPTR, $1

// func unquoteAVX2(b, s []byte, start, w, i int, flags uint8) (wOut, iOut int, flagsOut uint8)
//
// unquoteWords' loop 32 bytes at a time (see unquote_amd64.go): while
// s[i:i+32] and b[w:w+32] are in range, the window is stored at b[w]; with
// no backslash in it both move on by 32. Else its escapes are decoded in
// turn from the window's mask of backslashes (each escape's two bits
// cleared as it is decoded), not by loading the window again at each: the
// escape at p is decoded by the table shortEscapes (0: \u or no escape,
// returned for the caller with i at its backslash) and written after the
// run before it, its flags noted (TextCR for \r, TextBlankEOL for \n after
// a ' ' or '\t', past start), and the run after it, s[i+p+2:], stored after
// it 32 bytes at a time. So the next escape's place comes from the mask (a
// TZCNT), not from a load that waits for the last one's: at an escape every
// 14 bytes or so, loads in a chain were what the loop waited on. An escape
// whose second byte is past the window is decoded by the next window, which
// starts at its backslash.
//
// Registers: DI, R8 b; SI, DX s; R10 w and R11 i at the window's start; AX
// the window's backslashes left; R9 q, where its current run starts (from
// i); R14 out, where that run is in b; R12 flags; R13 the table.
TEXT ·unquoteAVX2(SB), NOSPLIT, $0-97
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), R8
	MOVQ s_base+24(FP), SI
	MOVQ s_len+32(FP), DX
	MOVQ w+56(FP), R10
	MOVQ i+64(FP), R11
	MOVBLZX flags+72(FP), R12
	LEAQ ·shortEscapes(SB), R13
	VPBROADCASTB unquoteBackslash<>(SB), Y2 // '\\' (from memory: no legacy-SSE MOVQ, see strBytes)

	// i and w are >= 0 (unsigned compares: a negative one stops the loop)
	TESTQ R11, R11
	JS    done
	TESTQ R10, R10
	JS    done

loop:
	LEAQ 32(R11), AX
	CMPQ AX, DX
	JA   done
	LEAQ 32(R10), AX
	CMPQ AX, R8
	JA   done
	VMOVDQU (SI)(R11*1), Y0
	VMOVDQU Y0, (DI)(R10*1)
	VPCMPEQB Y0, Y2, Y1
	VPMOVMSKB Y1, AX
	TESTL AX, AX
	JNZ   window
	ADDQ $32, R10
	ADDQ $32, R11
	JMP  loop

window:
	XORQ R9, R9
	MOVQ R10, R14

escape:
	TZCNTL AX, BX        // p: the next backslash that starts an escape
	ADDQ BX, R14         // the run s[i+q:i+p] is at out: out past it
	SUBQ R9, R14
	CMPL BX, $31
	JAE  cut             // its second byte is past the window
	LEAQ (R11)(BX*1), CX
	MOVBLZX 1(SI)(CX*1), CX
	MOVBLZX (R13)(CX*1), CX
	TESTL CX, CX
	JZ    uescape        // \u (or not an escape): the caller's
	CMPL CX, $0x0d
	JNE  notcr
	ORL  $1, R12         // TextCR

notcr:
	CMPL CX, $0x0a
	JNE  store
	CMPQ R14, start+48(FP)
	JLE  store
	CMPB -1(DI)(R14*1), $0x20
	JEQ  blank
	CMPB -1(DI)(R14*1), $0x09
	JNE  store

blank:
	ORL $2, R12          // TextBlankEOL

store:
	MOVB CX, (DI)(R14*1)
	INCQ R14
	BTRL BX, AX          // the backslash and the escape's second byte
	INCL BX
	BTRL BX, AX
	LEAL 1(BX), R9       // q = p+2: the run after the escape
	CMPL R9, $32
	JAE  next            // it is the next window
	LEAQ (R11)(R9*1), CX // i+q
	LEAQ 32(CX), BX
	CMPQ BX, DX
	JA   rest            // fewer than 32 bytes of s left after it
	LEAQ 32(R14), BX
	CMPQ BX, R8
	JA   rest
	VMOVDQU (SI)(CX*1), Y3
	VMOVDQU Y3, (DI)(R14*1)
	TESTL AX, AX
	JNZ   escape
	ADDQ $32, R14        // no backslash left in the window: its rest stored
	SUBQ R9, R14

next:
	ADDQ $32, R11
	MOVQ R14, R10
	JMP  loop

rest:
	ADDQ R9, R11
	MOVQ R14, R10
	JMP  loop            // (which returns: s has no window left there)

cut:
	ADDQ BX, R11         // the next window from the backslash
	MOVQ R14, R10
	JMP  loop

uescape:
	ADDQ BX, R11
	MOVQ R14, R10

done:
	VZEROUPPER
	MOVQ R10, wOut+80(FP)
	MOVQ R11, iOut+88(FP)
	MOVB R12, flagsOut+96(FP)
	RET
