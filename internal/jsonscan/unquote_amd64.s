//go:build !purego

#include "textflag.h"

DATA unquoteBackslash<>+0(SB)/1, $0x5c
GLOBL unquoteBackslash<>(SB), RODATA|NOPTR, $1

// func unquoteAVX2(b, s []byte, start, w, i int, flags uint8) (wOut, iOut int, flagsOut uint8)
//
// unquoteWords' loop 32 bytes at a time (see unquote_amd64.go): while
// s[i:i+32] and b[w:w+32] are in range, the window is stored at b[w]; with
// no backslash in it both move on by 32; else both move to the first
// backslash, whose escape is decoded by the table shortEscapes (0: \u or
// no escape, returned for the caller) and written at w (w+1, i+2), its
// flags noted: TextCR for \r, TextBlankEOL for \n after a ' ' or '\t' at
// b[w-1] (w > start).
TEXT ·unquoteAVX2(SB), NOSPLIT, $0-97
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), R8
	MOVQ s_base+24(FP), SI
	MOVQ s_len+32(FP), DX
	MOVQ start+48(FP), R9
	MOVQ w+56(FP), R10
	MOVQ i+64(FP), R11
	MOVBLZX flags+72(FP), R12
	LEAQ ·shortEscapes(SB), R13

	VPBROADCASTB unquoteBackslash<>(SB), Y2 // '\\' (from memory: no legacy-SSE MOVD, see strBytes)

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
	JNZ   escape
	ADDQ $32, R10
	ADDQ $32, R11
	JMP  loop

escape:
	BSFL AX, AX
	ADDQ AX, R10
	ADDQ AX, R11
	LEAQ 1(R11), AX
	CMPQ AX, DX
	JAE  done            // the backslash ends the body: the caller's
	MOVBLZX 1(SI)(R11*1), AX
	MOVBLZX (R13)(AX*1), BX
	TESTL BX, BX
	JZ    done           // \u (or not an escape): the caller's
	CMPL BX, $0x0d
	JNE  notcr
	ORL  $1, R12         // TextCR

notcr:
	CMPL BX, $0x0a
	JNE  store
	CMPQ R10, R9
	JLE  store
	MOVBLZX -1(DI)(R10*1), CX
	CMPL CX, $0x20
	JEQ  blank
	CMPL CX, $0x09
	JNE  store

blank:
	ORL $2, R12          // TextBlankEOL

store:
	MOVB BX, (DI)(R10*1)
	INCQ R10
	ADDQ $2, R11
	JMP  loop

done:
	VZEROUPPER
	MOVQ R10, wOut+80(FP)
	MOVQ R11, iOut+88(FP)
	MOVB R12, flagsOut+96(FP)
	RET
