//go:build !purego

#include "textflag.h"

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
// For each of groups groups of eight rows (f + 4·off[k], off advancing by eight per group) with
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

// PTERM adds Y8 times the four float32 at off(SI), as float64, to acc
// (temporary t): the products of c_k with four of row k's columns in
// packedAxpysAVX2; the product rounded, then the sum (no FMA).
#define PTERM(off, t, acc) \
	VCVTPS2PD off(SI), t; \
	VMULPD Y8, t, t; \
	VADDPD t, acc, acc

// QTERM(k, acc) adds x_{j+k} (broadcast from x at R8, j = R9) times
// four rows' feature j+k (at R10 + 128k), as float64, to acc: the
// product rounded, then the sum (no FMA).
#define QTERM(k, acc) \
	VBROADCASTSD (8*k)(R8)(R9*8), Y8; \
	VCVTPS2PD    (128*k)(R10), Y9; \
	VMULPD       Y8, Y9, Y9; \
	VADDPD       Y9, acc, acc

// QTAIL(k, acc) is QTERM when the row has a feature j+k (R11 = d − j
// features left), else it leaves for pfold.
#define QTAIL(k, acc) \
	CMPQ R11, $(k+1); \
	JLT  pfold; \
	QTERM(k, acc)

// func packedDotsAVX2(tr *float32, groups, d int, x *float64, out *float64)
//
// For each of groups feature-major groups of 32 rows (feature j of row l
// at tr[j·32 + l], groups back to back), out[l] = row l's dot product
// with x in core/num's lane order, four rows at a time with the rows in
// the SIMD lanes: register Yk holds lane k of the four rows and adds
// the products of features j ≡ k (mod 8) in increasing j from +0 (eight
// features a step, then the last d mod 8 into lanes 0…), then the tree
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) by vertical adds:
// packedTrDotsGo's bits. No shuffles and no horizontal folds, which a
// row per register pays on short rows (ijcnn1's 22). Registers: SI the
// group, CX groups, DX d, R13 d rounded down to eight, R8 x, DI out, R12
// the four rows' quarter of the group, R9 j, R10 feature j of the four
// rows, R11 features left.
TEXT ·packedDotsAVX2(SB), NOSPLIT, $0-40
	MOVQ tr+0(FP), SI
	MOVQ groups+8(FP), CX
	MOVQ d+16(FP), DX
	MOVQ x+24(FP), R8
	MOVQ out+32(FP), DI
	MOVQ DX, R13
	ANDQ $-8, R13

pgroup:
	XORQ R12, R12

pquad:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   R12, R10
	SHLQ   $4, R10
	ADDQ   SI, R10
	XORQ   R9, R9

peight:
	CMPQ R9, R13
	JGE  ptail
	QTERM(0, Y0)
	QTERM(1, Y1)
	QTERM(2, Y2)
	QTERM(3, Y3)
	QTERM(4, Y4)
	QTERM(5, Y5)
	QTERM(6, Y6)
	QTERM(7, Y7)
	ADDQ $1024, R10
	ADDQ $8, R9
	JMP  peight

ptail:
	MOVQ DX, R11
	SUBQ R9, R11
	QTAIL(0, Y0)
	QTAIL(1, Y1)
	QTAIL(2, Y2)
	QTAIL(3, Y3)
	QTAIL(4, Y4)
	QTAIL(5, Y5)
	QTAIL(6, Y6)

pfold:
	VADDPD  Y4, Y0, Y0
	VADDPD  Y6, Y2, Y2
	VADDPD  Y2, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y7, Y3, Y3
	VADDPD  Y3, Y1, Y1
	VADDPD  Y1, Y0, Y0
	MOVQ    R12, R11
	SHLQ    $5, R11
	VMOVUPD Y0, (DI)(R11*1)
	INCQ    R12
	CMPQ    R12, $8
	JLT     pquad

	ADDQ $256, DI
	MOVQ DX, R10
	SHLQ $7, R10
	ADDQ R10, SI
	DECQ CX
	JNE  pgroup
	VZEROUPPER
	RET

// PROWNEXT advances to the next row and coefficient and loops to label
// while rows remain.
#define PROWNEXT(label) \
	ADDQ BX, SI; \
	ADDQ $8, DX; \
	DECQ CX; \
	JNE  label; \
	JMP  astore

// func packedAxpysAVX2(rm *float32, stride, n int, c *float64, nv int, acc *[32]float64)
//
// For n ≥ 1 rows (row k at rm + k·stride bytes, 4·nv floats read) and
// coefficients c[0:n], acc[j] = ((acc[j] + c_0·row_0[j]) + c_1·row_1[j])
// + …, j < 4·nv: each entry's terms in row order, packedAxpysGo's bits.
// Lanes are columns: Y0–Y7 hold acc through the whole pass, one loop per
// nv (1–8) so that the row loop carries no tests. Registers: SI rm, BX
// stride, CX n, DX c, DI acc, Y8 c_k.
TEXT ·packedAxpysAVX2(SB), NOSPLIT, $0-48
	MOVQ rm+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), DX
	MOVQ nv+32(FP), AX
	MOVQ acc+40(FP), DI
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	CMPQ AX, $1
	JEQ  a1
	CMPQ AX, $2
	JEQ  a2
	CMPQ AX, $3
	JEQ  a3
	CMPQ AX, $4
	JEQ  a4
	CMPQ AX, $5
	JEQ  a5
	CMPQ AX, $6
	JEQ  a6
	CMPQ AX, $7
	JEQ  a7
	JMP  a8

a1:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PROWNEXT(a1)

a2:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PROWNEXT(a2)

a3:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PROWNEXT(a3)

a4:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PTERM(48, Y12, Y3)
	PROWNEXT(a4)

a5:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PTERM(48, Y12, Y3)
	PTERM(64, Y13, Y4)
	PROWNEXT(a5)

a6:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PTERM(48, Y12, Y3)
	PTERM(64, Y13, Y4)
	PTERM(80, Y14, Y5)
	PROWNEXT(a6)

a7:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PTERM(48, Y12, Y3)
	PTERM(64, Y13, Y4)
	PTERM(80, Y14, Y5)
	PTERM(96, Y15, Y6)
	PROWNEXT(a7)

a8:
	VBROADCASTSD (DX), Y8
	PTERM(0, Y9, Y0)
	PTERM(16, Y10, Y1)
	PTERM(32, Y11, Y2)
	PTERM(48, Y12, Y3)
	PTERM(64, Y13, Y4)
	PTERM(80, Y14, Y5)
	PTERM(96, Y15, Y6)
	PTERM(112, Y9, Y7)
	PROWNEXT(a8)

astore:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET
