//go:build !purego

#include "textflag.h"

// func strScanAVX2(b []byte) (n, cont, esc int, high bool)
//
// Scans string bytes from b[0], 32 at a time, past plain bytes and simple
// two-byte escapes (\" \\ \/ \b \f \n \r \t). It stops at the first '"',
// control byte (< 0x20) or other escape (\u, invalid), or when fewer than 32
// bytes are left, and returns n, the bytes consumed; cont, the UTF-8
// continuation bytes among them; esc, the simple escapes among them; high,
// whether any of them is >= 0x80.
TEXT ·strScanAVX2(SB), NOSPLIT, $0-49
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ SI, DI          // start
	LEAQ (SI)(DX*1), R11 // end
	XORQ R8, R8          // cont
	XORQ R9, R9          // high (OR of masks)
	XORQ R12, R12        // esc

	MOVL $0x22, AX
	MOVD AX, X1
	VPBROADCASTB X1, Y1  // '"'
	MOVL $0x5c, AX
	MOVD AX, X2
	VPBROADCASTB X2, Y2  // '\\'
	MOVL $0x1f, AX
	MOVD AX, X3
	VPBROADCASTB X3, Y3  // 0x1f
	MOVL $0xc0, AX
	MOVD AX, X4
	VPBROADCASTB X4, Y4  // 0xc0
	MOVL $0x80, AX
	MOVD AX, X5
	VPBROADCASTB X5, Y5  // 0x80

loop:
	MOVQ R11, AX
	SUBQ SI, AX
	CMPQ AX, $32
	JB   done
	VMOVDQU (SI), Y0
	VPCMPEQB Y0, Y1, Y6
	VPCMPEQB Y0, Y2, Y7
	VPOR     Y6, Y7, Y6
	VPMINUB  Y0, Y3, Y7
	VPCMPEQB Y0, Y7, Y7
	VPOR     Y6, Y7, Y6
	VPMOVMSKB Y6, AX     // special bytes
	VPMOVMSKB Y0, BX     // bytes >= 0x80
	VPAND    Y0, Y4, Y7
	VPCMPEQB Y7, Y5, Y7
	VPMOVMSKB Y7, CX     // continuation bytes
	TESTL AX, AX
	JNZ   found
	ORL   BX, R9
	POPCNTL CX, CX
	ADDQ  CX, R8
	ADDQ  $32, SI
	JMP   loop

found:
	TZCNTL AX, AX        // index of the first special byte
	BZHIL  AX, BX, BX    // masks of the bytes before it
	BZHIL  AX, CX, CX
	ORL    BX, R9
	POPCNTL CX, CX
	ADDQ   CX, R8
	ADDQ   AX, SI
	MOVBLZX (SI), AX
	CMPB   AL, $0x5c
	JNE    done          // '"' or a control byte
	LEAQ   1(SI), BX
	CMPQ   BX, R11
	JAE    done
	MOVBLZX (BX), AX
	CMPB   AL, $'n'
	JEQ    simple
	CMPB   AL, $0x22
	JEQ    simple
	CMPB   AL, $0x5c
	JEQ    simple
	CMPB   AL, $'t'
	JEQ    simple
	CMPB   AL, $'/'
	JEQ    simple
	CMPB   AL, $'r'
	JEQ    simple
	CMPB   AL, $'b'
	JEQ    simple
	CMPB   AL, $'f'
	JEQ    simple
	JMP    done          // \u or an invalid escape: for the caller

simple:
	INCQ   R12
	ADDQ   $2, SI
	JMP    loop

done:
	VZEROUPPER
	SUBQ DI, SI
	MOVQ SI, n+24(FP)
	MOVQ R8, cont+32(FP)
	MOVQ R12, esc+40(FP)
	TESTL R9, R9
	SETNE high+48(FP)
	RET
