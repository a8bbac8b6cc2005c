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

// XTAIL(t, m0, m1) splits d (BX) into R8 = d rounded down to eight and
// R9 = d mod 8, sets AX = 8 − R9, the masks of lanes 0…R9−1 into m0
// (lanes 0–3) and m1 (4–7) from laneMask (t scratch), and loads x's (DX)
// last R9 values by them into Y12 and Y13, the other lanes 0: once per
// call, for every row's tail.
#define XTAIL(t, m0, m1) \
	MOVQ       BX, R8; \
	ANDQ       $-8, R8; \
	MOVQ       BX, R9; \
	ANDQ       $7, R9; \
	MOVQ       $8, AX; \
	SUBQ       R9, AX; \
	LEAQ       laneMask<>(SB), t; \
	LEAQ       (t)(AX*8), t; \
	VMOVDQU    (t), m0; \
	VMOVDQU    32(t), m1; \
	VMASKMOVPD (DX)(R8*8), m0, Y12; \
	VMASKMOVPD 32(DX)(R8*8), m1, Y13

// FOLD4 stores the sums of four rows, their lanes 0–3 in Y0…Y3 and 4–7
// in Y4…Y7, at DI: row r's (l0+l4, l1+l5, l2+l6, l3+l7) in Y0…Y3; the
// 128-bit halves of rows 0, 1 (and 2, 3) swapped into place and added
// give ((l0+l4)+(l2+l6), (l1+l5)+(l3+l7)) of two rows in one register;
// VHADDPD adds each pair (rows 0, 2, 1, 3) and VPERMPD orders them.
// Y8–Y11 are scratch.
#define FOLD4 \
	VADDPD     Y4, Y0, Y0; \
	VADDPD     Y5, Y1, Y1; \
	VADDPD     Y6, Y2, Y2; \
	VADDPD     Y7, Y3, Y3; \
	VPERM2F128 $0x20, Y1, Y0, Y8; \
	VPERM2F128 $0x31, Y1, Y0, Y9; \
	VADDPD     Y9, Y8, Y8; \
	VPERM2F128 $0x20, Y3, Y2, Y10; \
	VPERM2F128 $0x31, Y3, Y2, Y11; \
	VADDPD     Y11, Y10, Y10; \
	VHADDPD    Y10, Y8, Y11; \
	VPERMPD    $0xD8, Y11, Y11; \
	VMOVUPD    Y11, (DI)

// FOLD1(hi) stores the sum of one row, its lanes 0–3 in Y0 and 4–7 in
// hi, at DI: Y0 + hi, then its 128-bit halves, then the pair.
#define FOLD1(hi) \
	VADDPD       hi, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD       X1, X0, X0; \
	VUNPCKHPD    X0, X0, X1; \
	VADDSD       X1, X0, X0; \
	VMOVSD       X0, (DI)

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
	TESTQ CX, CX
	JZ    done
	XTAIL(R10, Y14, Y15)

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

gfold:
	FOLD4
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
	FOLD1(Y1)
	ADDQ         $8, DI
	LEAQ         (SI)(BX*8), SI
	DECQ         CX
	JNZ          row

done:
	VZEROUPPER
	RET

// laneMask32: laneMask's doublewords. The 32 bytes from laneMask32 +
// 4·(8 − r) select lanes 0…r−1 of two 4-lane xmm registers of float32
// (VMASKMOVPS).
DATA laneMask32<>+0(SB)/8, $-1
DATA laneMask32<>+8(SB)/8, $-1
DATA laneMask32<>+16(SB)/8, $-1
DATA laneMask32<>+24(SB)/8, $-1
DATA laneMask32<>+32(SB)/8, $0
DATA laneMask32<>+40(SB)/8, $0
DATA laneMask32<>+48(SB)/8, $0
DATA laneMask32<>+56(SB)/8, $0
GLOBL laneMask32<>(SB), RODATA|NOPTR, $64


// LANES8(row, lo, hi) adds a row's eight float32 at column AX (as
// float64) times x's (Y8, Y9) to its lanes 0–3 (lo) and 4–7 (hi):
// product rounded, then sum (no FMA).
#define LANES8(row, lo, hi) \
	VCVTPS2PD (row)(AX*4), Y10; \
	VMULPD    Y8, Y10, Y10; \
	VADDPD    Y10, lo, lo; \
	VCVTPS2PD 16(row)(AX*4), Y11; \
	VMULPD    Y9, Y11, Y11; \
	VADDPD    Y11, hi, hi

// TAILLO(row, lo) adds the row's columns d8 … d8+3 that exist (mask X14;
// the others load 0, and x's (Y12) too, adding 0·0 = +0) to lanes 0–3;
// TAILHI(row, hi) columns d8+4 … d8+7 (mask X15, x in Y13) to lanes 4–7.
#define TAILLO(row, lo) \
	VMASKMOVPS (row)(R8*4), X14, X10; \
	VCVTPS2PD  X10, Y10; \
	VMULPD     Y12, Y10, Y10; \
	VADDPD     Y10, lo, lo
#define TAILHI(row, hi) \
	VMASKMOVPS 16(row)(R8*4), X15, X11; \
	VCVTPS2PD  X11, Y11; \
	VMULPD     Y13, Y11, Y11; \
	VADDPD     Y11, hi, hi

// func dotsAtAVX2(f *float32, off *int, n int, x *float64, d int, out *float64)
//
// out[k] = Σ_j float64(row_k[j])·x[j] over the d columns of n rows (row k
// at f + 4·off[k]) in the lane order of lanes.go: column j to lane
// j mod 8 from +0, lanes 0–3 in one register and 4–7 in another, the
// tree ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) — dotsAVX2 on float32
// rows at offsets, which VCVTPS2PD widens exactly. Four rows at a time
// (x's eight columns loaded once for the four, FOLD4), then one at a
// time; the last d mod 8 columns by masked loads.
//
// Registers: R10 f, R13 off, DX x, DI out, BX d, R8 d rounded down to
// eight, R9 d mod 8, CX rows left, AX the column; SI R11 R12 R14 the
// rows.
TEXT ·dotsAtAVX2(SB), NOSPLIT, $0-48
	MOVQ f+0(FP), R10
	MOVQ off+8(FP), R13
	MOVQ n+16(FP), CX
	MOVQ x+24(FP), DX
	MOVQ d+32(FP), BX
	MOVQ out+40(FP), DI
	TESTQ CX, CX
	JZ    fdone
	XTAIL(R11, Y10, Y11)
	LEAQ       laneMask32<>(SB), R11
	LEAQ       (R11)(AX*4), R11
	VMOVDQU    (R11), X14
	VMOVDQU    16(R11), X15

fgroup:
	CMPQ CX, $4
	JLT  frest
	MOVQ 0(R13), SI
	MOVQ 8(R13), R11
	MOVQ 16(R13), R12
	MOVQ 24(R13), R14
	LEAQ (R10)(SI*4), SI
	LEAQ (R10)(R11*4), R11
	LEAQ (R10)(R12*4), R12
	LEAQ (R10)(R14*4), R14
	ADDQ $32, R13
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX

fgeight:
	CMPQ    AX, R8
	JGE     fgtail
	VMOVUPD (DX)(AX*8), Y8
	VMOVUPD 32(DX)(AX*8), Y9
	LANES8(SI, Y0, Y4)
	LANES8(R11, Y1, Y5)
	LANES8(R12, Y2, Y6)
	LANES8(R14, Y3, Y7)
	ADDQ    $8, AX
	JMP     fgeight

fgtail:
	TESTQ R9, R9
	JZ    fgfold
	TAILLO(SI, Y0)
	TAILLO(R11, Y1)
	TAILLO(R12, Y2)
	TAILLO(R14, Y3)
	CMPQ  R9, $4
	JLE   fgfold // lanes 4–7 would add +0
	TAILHI(SI, Y4)
	TAILHI(R11, Y5)
	TAILHI(R12, Y6)
	TAILHI(R14, Y7)

fgfold:
	FOLD4
	ADDQ       $32, DI
	SUBQ       $4, CX
	JMP        fgroup

	// The last n mod 4 rows one at a time.
frest:
	TESTQ CX, CX
	JZ    fdone

frow:
	MOVQ   0(R13), SI
	LEAQ   (R10)(SI*4), SI
	ADDQ   $8, R13
	VXORPD Y0, Y0, Y0
	VXORPD Y4, Y4, Y4
	XORQ   AX, AX

feight:
	CMPQ    AX, R8
	JGE     ftail
	VMOVUPD (DX)(AX*8), Y8
	VMOVUPD 32(DX)(AX*8), Y9
	LANES8(SI, Y0, Y4)
	ADDQ    $8, AX
	JMP     feight

ftail:
	TESTQ R9, R9
	JZ    ffold
	TAILLO(SI, Y0)
	TAILHI(SI, Y4)

ffold:
	FOLD1(Y4)
	ADDQ         $8, DI
	DECQ         CX
	JNZ          frow

fdone:
	VZEROUPPER
	RET
