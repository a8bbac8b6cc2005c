//go:build !purego

#include "textflag.h"

// The squared loss's fused pass (packedSquaresAVX2): each row is read
// once, its float32 features widened into registers, its dot product
// with x summed in core/num's lane order, its residual taken, and the
// residual times the same registers added to the gradient's entries —
// the operations of packedTrDots (or packedDots), the subtraction and
// packedAxpys, in their order, on each row in turn.

// SQLOAD(k) widens row features 4k…4k+3 into Y(8+k).
#define SQLOAD(k, r) VCVTPS2PD (16*k)(SI), r

// SQFIRST sets a lane register to its first product (see packedSquares
// on why no +0 is added first).
#define SQFIRST(k, r, lane) VMULPD (32*k)(R8), r, lane

// SQTERM adds the product of features 4k…4k+3 with x to a lane
// register: the product rounded, then the sum (no FMA).
#define SQTERM(k, r, lane) \
	VMULPD (32*k)(R8), r, Y14; \
	VADDPD Y14, lane, lane

// SQFOLD combines the eight lanes (Y6: lanes 0–3, Y7: lanes 4–7) by
// num.Combine's tree ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) in every lane
// of Y6 at once — lane 0 adds as the tree says, the others the same
// pairs with their operands swapped, and a sum of two floats does not
// depend on their order — subtracts the row's label (an int8 at DX,
// widened by a load from the table at R10) in every lane, and leaves
// the residual in all four lanes of Y15: no broadcast after the sum, and
// no conversion of the label, on each row's path from its dot product to
// its weighted sum (ijcnn1's shard gradient about 5 % faster).
#define SQFOLD \
	VADDPD       Y7, Y6, Y6; \
	VPERM2F128   $1, Y6, Y6, Y7; \
	VADDPD       Y7, Y6, Y6; \
	VPERMILPD    $5, Y6, Y7; \
	VADDPD       Y7, Y6, Y6; \
	MOVBQSX      (DX), AX; \
	VBROADCASTSD (R10)(AX*8), Y14; \
	VSUBPD       Y14, Y6, Y15

// SQAXPY adds the residual (Y15) times the row's features in r to acc:
// the product rounded, then the sum (no FMA).
#define SQAXPY(r, acc) \
	VMULPD Y15, r, r; \
	VADDPD r, acc, acc

// SQNEXT advances to the next row and label and loops to label while
// rows remain.
#define SQNEXT(label) \
	ADDQ BX, SI; \
	INCQ DX; \
	DECQ CX; \
	JNE  label; \
	JMP  sqstore

// func packedSquaresAVX2(rm *float32, stride, n int, x *float64, signs *int8, nv int, acc *[32]float64, values *float64)
//
// For n ≥ 1 rows (row k at rm + k·stride bytes, 4·nv float32 read,
// 1 ≤ nv ≤ 6) with labels signs[0:n] and x holding 4·nv entries (zeros
// past the row's features), acc[j] += (row_kᵀx − signs[k])·row_k[j] for
// each row in order, j < 4·nv. Lanes are columns for the weighted sum
// (Y0–Y5 hold acc through the pass) and for the dot product (column j
// into lane j mod 8: Y6 lanes 0–3, Y7 lanes 4–7), the row's widened
// features kept in Y8–Y13 between the two; one loop per nv, so the row
// loop carries no tests. values points at float64(0) in a table of
// float64(v) for every int8 v (int8Values). Registers: SI the row, BX
// stride, CX rows left, DX signs, R8 x, DI acc, R10 values.
TEXT ·packedSquaresAVX2(SB), NOSPLIT, $0-64
	MOVQ rm+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ x+24(FP), R8
	MOVQ signs+32(FP), DX
	MOVQ nv+40(FP), R9
	MOVQ acc+48(FP), DI
	MOVQ values+56(FP), R10
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	CMPQ R9, $1
	JEQ  sq1
	CMPQ R9, $2
	JEQ  sq2
	CMPQ R9, $3
	JEQ  sq3
	CMPQ R9, $4
	JEQ  sq4
	CMPQ R9, $5
	JEQ  sq5
	JMP  sq6

// SQLOADSk widens a row's first k groups of four features into
// Y8…Y(7+k); SQDOTSk sums their products with x into the lanes (group g
// into Y6 when g is even, lanes 0–3, else Y7, lanes 4–7; columns in
// increasing order in each lane); SQAXPYSk adds the residual's terms to
// acc's first k registers.
#define SQLOADS1 SQLOAD(0, Y8)
#define SQLOADS2 SQLOADS1; SQLOAD(1, Y9)
#define SQLOADS3 SQLOADS2; SQLOAD(2, Y10)
#define SQLOADS4 SQLOADS3; SQLOAD(3, Y11)
#define SQLOADS5 SQLOADS4; SQLOAD(4, Y12)
#define SQLOADS6 SQLOADS5; SQLOAD(5, Y13)

#define SQDOTS1 SQFIRST(0, Y8, Y6); VXORPD Y7, Y7, Y7
#define SQDOTS2 SQFIRST(0, Y8, Y6); SQFIRST(1, Y9, Y7)
#define SQDOTS3 SQDOTS2; SQTERM(2, Y10, Y6)
#define SQDOTS4 SQDOTS3; SQTERM(3, Y11, Y7)
#define SQDOTS5 SQDOTS4; SQTERM(4, Y12, Y6)
#define SQDOTS6 SQDOTS5; SQTERM(5, Y13, Y7)

#define SQAXPYS1 SQAXPY(Y8, Y0)
#define SQAXPYS2 SQAXPYS1; SQAXPY(Y9, Y1)
#define SQAXPYS3 SQAXPYS2; SQAXPY(Y10, Y2)
#define SQAXPYS4 SQAXPYS3; SQAXPY(Y11, Y3)
#define SQAXPYS5 SQAXPYS4; SQAXPY(Y12, Y4)
#define SQAXPYS6 SQAXPYS5; SQAXPY(Y13, Y5)

// SQROWS(loads, dots, axpys, label) is the row loop of one width.
#define SQROWS(loads, dots, axpys, label) \
	loads; \
	dots; \
	SQFOLD; \
	axpys; \
	SQNEXT(label)

sq1:
	SQROWS(SQLOADS1, SQDOTS1, SQAXPYS1, sq1)

sq2:
	SQROWS(SQLOADS2, SQDOTS2, SQAXPYS2, sq2)

sq3:
	SQROWS(SQLOADS3, SQDOTS3, SQAXPYS3, sq3)

sq4:
	SQROWS(SQLOADS4, SQDOTS4, SQAXPYS4, sq4)

sq5:
	SQROWS(SQLOADS5, SQDOTS5, SQAXPYS5, sq5)

sq6:
	SQROWS(SQLOADS6, SQDOTS6, SQAXPYS6, sq6)

sqstore:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VZEROUPPER
	RET

// The same pass in AVX-512 (packedSquaresAVX512), two groups of four
// columns a zmm: column j still goes to lane j mod 8 of the dot product,
// which is now one register (Z6), and a row's widened features sit in
// Z8–Z10 between its dot product and its weighted sum (acc in Z0–Z2):
// per row half the vector operations of the AVX2 pass, the same
// operations on each lane and entry in the same order.

// ZSQFOLD is SQFOLD on Z6 (lanes 0–7): swapping its 256-bit halves adds
// l_i + l_(i xor 4), its 128-bit pairs then the pairs two apart, its
// neighbours last — num.Combine's tree in every lane — then the label
// (in every lane) is subtracted; the residual in all eight lanes of Z15.
#define ZSQFOLD \
	VSHUFF64X2   $0x4e, Z6, Z6, Z7; \
	VADDPD       Z7, Z6, Z6; \
	VSHUFF64X2   $0xb1, Z6, Z6, Z7; \
	VADDPD       Z7, Z6, Z6; \
	VPERMILPD    $0x55, Z6, Z7; \
	VADDPD       Z7, Z6, Z6; \
	MOVBQSX      (DX), AX; \
	VBROADCASTSD (R10)(AX*8), Z14; \
	VSUBPD       Z14, Z6, Z15

// ZSQLOAD(k, r) widens row features 8k…8k+7 into r.
#define ZSQLOAD(k, r) VCVTPS2PD (32*k)(SI), r

// ZSQTERM adds the product of features 8k…8k+7 with x to Z6.
#define ZSQTERM(k, r) \
	VMULPD (64*k)(R8), r, Z14; \
	VADDPD Z14, Z6, Z6

// ZSQAXPY adds the residual (Z15) times the features in r to acc.
#define ZSQAXPY(r, acc) \
	VMULPD Z15, r, r; \
	VADDPD r, acc, acc

#define ZSQNEXT(label) \
	ADDQ BX, SI; \
	INCQ DX; \
	DECQ CX; \
	JNE  label; \
	JMP  zsqstore

// func packedSquaresAVX512(rm *float32, stride, n int, x *float64, signs *int8, nz int, acc *[32]float64, values *float64)
//
// packedSquaresAVX2 with nv = 2·nz (1 ≤ nz ≤ 3): 8·nz float32 a row.
// Registers: SI the row, BX stride, CX rows left, DX signs, R8 x, DI
// acc, R10 values.
TEXT ·packedSquaresAVX512(SB), NOSPLIT, $0-64
	MOVQ rm+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ x+24(FP), R8
	MOVQ signs+32(FP), DX
	MOVQ nz+40(FP), R9
	MOVQ acc+48(FP), DI
	MOVQ values+56(FP), R10
	VMOVUPD 0(DI), Z0
	VMOVUPD 64(DI), Z1
	VMOVUPD 128(DI), Z2
	CMPQ R9, $1
	JEQ  zsq1
	CMPQ R9, $2
	JEQ  zsq2
	JMP  zsq3

zsq1:
	ZSQLOAD(0, Z8)
	VMULPD (R8), Z8, Z6
	ZSQFOLD
	ZSQAXPY(Z8, Z0)
	ZSQNEXT(zsq1)

zsq2:
	ZSQLOAD(0, Z8)
	ZSQLOAD(1, Z9)
	VMULPD (R8), Z8, Z6
	ZSQTERM(1, Z9)
	ZSQFOLD
	ZSQAXPY(Z8, Z0)
	ZSQAXPY(Z9, Z1)
	ZSQNEXT(zsq2)

zsq3:
	ZSQLOAD(0, Z8)
	ZSQLOAD(1, Z9)
	ZSQLOAD(2, Z10)
	VMULPD (R8), Z8, Z6
	ZSQTERM(1, Z9)
	ZSQTERM(2, Z10)
	ZSQFOLD
	ZSQAXPY(Z8, Z0)
	ZSQAXPY(Z9, Z1)
	ZSQAXPY(Z10, Z2)
	ZSQNEXT(zsq3)

zsqstore:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VZEROUPPER
	RET
