//go:build !purego

#include "textflag.h"

// TRANSPOSE4 turns four loaded rows a, b, c, e (four floats each) into
// the four columns (a_k, b_k, c_k, e_k), k = 0 … 3, using t0–t3:
// t0 = (a0 b0 a1 b1), t1 = (a2 b2 a3 b3), t2 = (c0 e0 c1 e1),
// t3 = (c2 e2 c3 e3), then a = (a0 b0 c0 e0), b = (a1 b1 c1 e1),
// c = (a2 b2 c2 e2), e = (a3 b3 c3 e3).
#define TRANSPOSE4(a, b, c, e, t0, t1, t2, t3) \
	VUNPCKLPS b, a, t0; \
	VUNPCKHPS b, a, t1; \
	VUNPCKLPS e, c, t2; \
	VUNPCKHPS e, c, t3; \
	VMOVLHPS t2, t0, a; \
	VMOVHLPS t0, t2, b; \
	VMOVLHPS t3, t1, c; \
	VMOVHLPS t1, t3, e

// ACC4 adds the four columns' products with x_j … x_{j+3} (Y8–Y11) to
// acc, column after column: each lane (row) sums left to right.
// Columns past the row's end (the tail step) load as 0 on both sides:
// their products are +0 and leave the sum's bits alone (the sum is
// never −0: it starts at +0).
#define ACC4(a, b, c, e, acc) \
	VCVTPS2PD a, Y12; \
	VMULPD Y8, Y12, Y12; \
	VADDPD Y12, acc, acc; \
	VCVTPS2PD b, Y12; \
	VMULPD Y9, Y12, Y12; \
	VADDPD Y12, acc, acc; \
	VCVTPS2PD c, Y12; \
	VMULPD Y10, Y12, Y12; \
	VADDPD Y12, acc, acc; \
	VCVTPS2PD e, Y12; \
	VMULPD Y11, Y12, Y12; \
	VADDPD Y12, acc, acc

// ROWPTRS loads the eight row pointers f + 4·off[k] into AX BX CX DX SI
// DI R8 R9 (R10 = f, R13 = off) and advances R13 by eight offsets.
#define ROWPTRS \
	MOVQ 0(R13), AX; \
	MOVQ 8(R13), BX; \
	MOVQ 16(R13), CX; \
	MOVQ 24(R13), DX; \
	MOVQ 32(R13), SI; \
	MOVQ 40(R13), DI; \
	MOVQ 48(R13), R8; \
	MOVQ 56(R13), R9; \
	LEAQ (R10)(AX*4), AX; \
	LEAQ (R10)(BX*4), BX; \
	LEAQ (R10)(CX*4), CX; \
	LEAQ (R10)(DX*4), DX; \
	LEAQ (R10)(SI*4), SI; \
	LEAQ (R10)(DI*4), DI; \
	LEAQ (R10)(R8*4), R8; \
	LEAQ (R10)(R9*4), R9; \
	ADDQ $64, R13

// func dotsF32AVX2(f *float32, off *int, groups int, x *float64, n int, mask *tailMask, out *float64)
//
// For each of groups groups of eight rows (row k of a group starts at
// f + off[k]; off advances by eight per group), out[k] = Σ_j
// float64(row_k[j])·x[j] over the row's columns, each sum from +0 left
// to right: the bits of dot4Rows' chains. Columns run four at a time
// up to n (a multiple of 4); mask, when not nil, covers the 1–3 columns
// past n with masked loads. Lanes are rows (Y13 rows 0–3, Y14 rows 4–7);
// each step loads four columns of the eight rows and transposes them.
// Registers: AX BX CX DX SI DI R8 R9 the rows, R10 x, R11 n, R12 j.
TEXT ·dotsF32AVX2(SB), NOSPLIT, $0-56
group:
	MOVQ groups+16(FP), R12
	TESTQ R12, R12
	JEQ  end
	DECQ R12
	MOVQ R12, groups+16(FP)
	MOVQ f+0(FP), R10
	MOVQ off+8(FP), R13
	ROWPTRS
	MOVQ R13, off+8(FP)
	MOVQ x+24(FP), R10
	MOVQ n+32(FP), R11
	XORQ R12, R12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14

loop:
	CMPQ R12, R11
	JGE  tail
	VBROADCASTSD 0(R10)(R12*8), Y8
	VBROADCASTSD 8(R10)(R12*8), Y9
	VBROADCASTSD 16(R10)(R12*8), Y10
	VBROADCASTSD 24(R10)(R12*8), Y11
	VMOVUPS (AX)(R12*4), X0
	VMOVUPS (BX)(R12*4), X1
	VMOVUPS (CX)(R12*4), X2
	VMOVUPS (DX)(R12*4), X3
	TRANSPOSE4(X0, X1, X2, X3, X4, X5, X6, X7)
	ACC4(X0, X1, X2, X3, Y13)
	VMOVUPS (SI)(R12*4), X0
	VMOVUPS (DI)(R12*4), X1
	VMOVUPS (R8)(R12*4), X2
	VMOVUPS (R9)(R12*4), X3
	TRANSPOSE4(X0, X1, X2, X3, X4, X5, X6, X7)
	ACC4(X0, X1, X2, X3, Y14)
	ADDQ $4, R12
	JMP  loop

tail:
	MOVQ mask+40(FP), R13
	TESTQ R13, R13
	JEQ  store
	VMOVDQU 16(R13), Y15
	VMASKMOVPD (R10)(R12*8), Y15, Y12
	VPERMPD $0x00, Y12, Y8
	VPERMPD $0x55, Y12, Y9
	VPERMPD $0xaa, Y12, Y10
	VPERMPD $0xff, Y12, Y11
	VMOVDQU 0(R13), X15
	VMASKMOVPS (AX)(R12*4), X15, X0
	VMASKMOVPS (BX)(R12*4), X15, X1
	VMASKMOVPS (CX)(R12*4), X15, X2
	VMASKMOVPS (DX)(R12*4), X15, X3
	TRANSPOSE4(X0, X1, X2, X3, X4, X5, X6, X7)
	ACC4(X0, X1, X2, X3, Y13)
	VMASKMOVPS (SI)(R12*4), X15, X0
	VMASKMOVPS (DI)(R12*4), X15, X1
	VMASKMOVPS (R8)(R12*4), X15, X2
	VMASKMOVPS (R9)(R12*4), X15, X3
	TRANSPOSE4(X0, X1, X2, X3, X4, X5, X6, X7)
	ACC4(X0, X1, X2, X3, Y14)

store:
	MOVQ out+48(FP), R13
	VMOVUPD Y13, 0(R13)
	VMOVUPD Y14, 32(R13)
	ADDQ $64, R13
	MOVQ R13, out+48(FP)
	JMP  group

end:
	VZEROUPPER
	RET

// AXPYROW adds k·row[j … j+3] (k broadcast in kr) to Y0, from the row's
// float32 in Y1.
#define AXPYROW(row, kr) \
	VCVTPS2PD (row)(R12*4), Y1; \
	VMULPD kr, Y1, Y1; \
	VADDPD Y1, Y0, Y0

// AXPYTAIL is AXPYROW for the masked tail (mask X3).
#define AXPYTAIL(row, kr) \
	VMASKMOVPS (row)(R12*4), X3, X1; \
	VCVTPS2PD X1, Y1; \
	VMULPD kr, Y1, Y1; \
	VADDPD Y1, Y0, Y0

// func axpysF32AVX2(f *float32, off *int, groups int, c *float64, n int, mask *tailMask, out *float64)
//
// For each of groups groups of eight rows (as dotsF32AVX2) with
// coefficients c[0:8] (c advances by eight per group), out[j] = ((out[j]
// + c0·row_0[j]) + c1·row_1[j]) + … + c7·row_7[j]: each entry's terms in
// row order, the bits of axpy4Rows row group after row group.
// Entries run four at a time up to n; mask covers the 1–3 past n with
// masked loads and a masked store. Registers: rows as dotsF32AVX2, R10
// out, R11 n, R12 j, Y8–Y15 the coefficients.
TEXT ·axpysF32AVX2(SB), NOSPLIT, $0-56
agroup:
	MOVQ groups+16(FP), R12
	TESTQ R12, R12
	JEQ  aend
	DECQ R12
	MOVQ R12, groups+16(FP)
	MOVQ f+0(FP), R10
	MOVQ off+8(FP), R13
	ROWPTRS
	MOVQ R13, off+8(FP)
	MOVQ c+24(FP), R13
	VBROADCASTSD 0(R13), Y8
	VBROADCASTSD 8(R13), Y9
	VBROADCASTSD 16(R13), Y10
	VBROADCASTSD 24(R13), Y11
	VBROADCASTSD 32(R13), Y12
	VBROADCASTSD 40(R13), Y13
	VBROADCASTSD 48(R13), Y14
	VBROADCASTSD 56(R13), Y15
	ADDQ $64, R13
	MOVQ R13, c+24(FP)
	MOVQ out+48(FP), R10
	MOVQ n+32(FP), R11
	XORQ R12, R12

aloop:
	CMPQ R12, R11
	JGE  atail
	VMOVUPD (R10)(R12*8), Y0
	AXPYROW(AX, Y8)
	AXPYROW(BX, Y9)
	AXPYROW(CX, Y10)
	AXPYROW(DX, Y11)
	AXPYROW(SI, Y12)
	AXPYROW(DI, Y13)
	AXPYROW(R8, Y14)
	AXPYROW(R9, Y15)
	VMOVUPD Y0, (R10)(R12*8)
	ADDQ $4, R12
	JMP  aloop

atail:
	MOVQ mask+40(FP), R13
	TESTQ R13, R13
	JEQ  agroup
	VMOVDQU 16(R13), Y2
	VMOVDQU 0(R13), X3
	VMASKMOVPD (R10)(R12*8), Y2, Y0
	AXPYTAIL(AX, Y8)
	AXPYTAIL(BX, Y9)
	AXPYTAIL(CX, Y10)
	AXPYTAIL(DX, Y11)
	AXPYTAIL(SI, Y12)
	AXPYTAIL(DI, Y13)
	AXPYTAIL(R8, Y14)
	AXPYTAIL(R9, Y15)
	VMASKMOVPD Y0, Y2, (R10)(R12*8)
	JMP  agroup

aend:
	VZEROUPPER
	RET
