//go:build amd64 && !purego

#include "textflag.h"

// laneMask: eight all-ones quadwords then eight zeros. The 64 bytes from
// laneMask + 8·(8 − r) select lanes 0…r−1 of two 4-lane registers.
DATA laneMask<>+0(SB)/8, $-1
DATA laneMask<>+8(SB)/8, $-1
DATA laneMask<>+16(SB)/8, $-1
DATA laneMask<>+24(SB)/8, $-1
DATA laneMask<>+32(SB)/8, $-1
DATA laneMask<>+40(SB)/8, $-1
DATA laneMask<>+48(SB)/8, $-1
DATA laneMask<>+56(SB)/8, $-1
DATA laneMask<>+64(SB)/8, $0
DATA laneMask<>+72(SB)/8, $0
DATA laneMask<>+80(SB)/8, $0
DATA laneMask<>+88(SB)/8, $0
DATA laneMask<>+96(SB)/8, $0
DATA laneMask<>+104(SB)/8, $0
DATA laneMask<>+112(SB)/8, $0
DATA laneMask<>+120(SB)/8, $0
GLOBL laneMask<>(SB), RODATA|NOPTR, $128

// func dotsAVX2(z, x, out *float64, d, n int)
//
// Four rows at a time (their lanes in Y0–Y7, x's eight columns loaded
// once for the four), then one at a time. Per row: Y0 holds lanes 0–3 and Y1 lanes 4–7 (lanes.go); each step of
// eight columns adds z_j·x_j (VMULPD, then VADDPD: no FMA) to lane
// j mod 8. The last r = d mod 8 columns come by VMASKMOVPD with the masks
// Y14, Y15, beside x's last r values loaded once into Y12, Y13 the same
// way; masked lanes read 0 and so add +0. Then Y0 + Y1 = (l0+l4, l1+l5,
// l2+l6, l3+l7), its halves added give ((l0+l4)+(l2+l6), (l1+l5)+(l3+l7)),
// and their sum is the tree's.
//
// Registers: SI the row, DX x, DI out, BX d, R8 d rounded down to eight,
// R9 d mod 8, CX rows left, AX the column.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-40
	MOVQ z+0(FP), SI
	MOVQ x+8(FP), DX
	MOVQ out+16(FP), DI
	MOVQ d+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ BX, R8
	ANDQ $-8, R8
	MOVQ BX, R9
	ANDQ $7, R9
	TESTQ CX, CX
	JZ    done

	// The tail's masks and x's tail, once.
	MOVQ       $8, AX
	SUBQ       R9, AX
	LEAQ       laneMask<>(SB), R10
	LEAQ       (R10)(AX*8), R10
	VMOVDQU    (R10), Y14
	VMOVDQU    32(R10), Y15
	VMASKMOVPD (DX)(R8*8), Y14, Y12
	VMASKMOVPD 32(DX)(R8*8), Y15, Y13

	// Four rows at a time while four remain.
group:
	CMPQ CX, $4
	JLT  rest
	LEAQ (SI)(BX*8), R11
	LEAQ (R11)(BX*8), R12
	LEAQ (R12)(BX*8), R13
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX

geight:
	CMPQ    AX, R8
	JGE     gtail
	VMOVUPD (DX)(AX*8), Y8
	VMOVUPD 32(DX)(AX*8), Y9
	VMULPD  (SI)(AX*8), Y8, Y10
	VADDPD  Y10, Y0, Y0
	VMULPD  32(SI)(AX*8), Y9, Y11
	VADDPD  Y11, Y4, Y4
	VMULPD  (R11)(AX*8), Y8, Y10
	VADDPD  Y10, Y1, Y1
	VMULPD  32(R11)(AX*8), Y9, Y11
	VADDPD  Y11, Y5, Y5
	VMULPD  (R12)(AX*8), Y8, Y10
	VADDPD  Y10, Y2, Y2
	VMULPD  32(R12)(AX*8), Y9, Y11
	VADDPD  Y11, Y6, Y6
	VMULPD  (R13)(AX*8), Y8, Y10
	VADDPD  Y10, Y3, Y3
	VMULPD  32(R13)(AX*8), Y9, Y11
	VADDPD  Y11, Y7, Y7
	ADDQ    $8, AX
	JMP     geight

gtail:
	TESTQ R9, R9
	JZ    gfold
	VMASKMOVPD (SI)(R8*8), Y14, Y10
	VMULPD     Y12, Y10, Y10
	VADDPD     Y10, Y0, Y0
	VMASKMOVPD (R11)(R8*8), Y14, Y10
	VMULPD     Y12, Y10, Y10
	VADDPD     Y10, Y1, Y1
	VMASKMOVPD (R12)(R8*8), Y14, Y10
	VMULPD     Y12, Y10, Y10
	VADDPD     Y10, Y2, Y2
	VMASKMOVPD (R13)(R8*8), Y14, Y10
	VMULPD     Y12, Y10, Y10
	VADDPD     Y10, Y3, Y3
	CMPQ  R9, $4
	JLE   gfold // lanes 4–7 would add +0
	VMASKMOVPD 32(SI)(R8*8), Y15, Y11
	VMULPD     Y13, Y11, Y11
	VADDPD     Y11, Y4, Y4
	VMASKMOVPD 32(R11)(R8*8), Y15, Y11
	VMULPD     Y13, Y11, Y11
	VADDPD     Y11, Y5, Y5
	VMASKMOVPD 32(R12)(R8*8), Y15, Y11
	VMULPD     Y13, Y11, Y11
	VADDPD     Y11, Y6, Y6
	VMASKMOVPD 32(R13)(R8*8), Y15, Y11
	VMULPD     Y13, Y11, Y11
	VADDPD     Y11, Y7, Y7

	// Row r's (l0+l4, l1+l5, l2+l6, l3+l7) in Y0…Y3; the 128-bit halves
	// of rows 0, 1 (and 2, 3) swapped into place and added give
	// ((l0+l4)+(l2+l6), (l1+l5)+(l3+l7)) of two rows in one register;
	// VHADDPD adds each pair (rows 0, 2, 1, 3) and VPERMPD orders them.
gfold:
	VADDPD     Y4, Y0, Y0
	VADDPD     Y5, Y1, Y1
	VADDPD     Y6, Y2, Y2
	VADDPD     Y7, Y3, Y3
	VPERM2F128 $0x20, Y1, Y0, Y8
	VPERM2F128 $0x31, Y1, Y0, Y9
	VADDPD     Y9, Y8, Y8
	VPERM2F128 $0x20, Y3, Y2, Y10
	VPERM2F128 $0x31, Y3, Y2, Y11
	VADDPD     Y11, Y10, Y10
	VHADDPD    Y10, Y8, Y11
	VPERMPD    $0xD8, Y11, Y11
	VMOVUPD    Y11, (DI)
	ADDQ       $32, DI
	LEAQ       (R13)(BX*8), SI
	SUBQ       $4, CX
	JMP        group

	// The last n mod 4 rows one at a time.
rest:
	TESTQ CX, CX
	JZ    done

row:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	XORQ   AX, AX

eight:
	CMPQ    AX, R8
	JGE     tail
	VMOVUPD (SI)(AX*8), Y2
	VMULPD  (DX)(AX*8), Y2, Y2
	VADDPD  Y2, Y0, Y0
	VMOVUPD 32(SI)(AX*8), Y3
	VMULPD  32(DX)(AX*8), Y3, Y3
	VADDPD  Y3, Y1, Y1
	ADDQ    $8, AX
	JMP     eight

tail:
	TESTQ      R9, R9
	JZ         fold
	VMASKMOVPD (SI)(R8*8), Y14, Y2
	VMULPD     Y12, Y2, Y2
	VADDPD     Y2, Y0, Y0
	VMASKMOVPD 32(SI)(R8*8), Y15, Y3
	VMULPD     Y13, Y3, Y3
	VADDPD     Y3, Y1, Y1

fold:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VMOVSD       X0, (DI)
	ADDQ         $8, DI
	LEAQ         (SI)(BX*8), SI
	DECQ         CX
	JNZ          row

done:
	VZEROUPPER
	RET
