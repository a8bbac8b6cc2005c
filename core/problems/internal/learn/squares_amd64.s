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
	CMPQ CX, $4
	JLT  zsqone
	// Pairs of rows through the pipeline below (zp1–zp3), then an odd
	// last row (R12) by the one-row loop.
	MOVQ CX, R12
	ANDQ $1, R12
	SHRQ $1, CX
	LEAQ (SI)(BX*1), R11
	CMPQ R9, $1
	JEQ  zp1
	CMPQ R9, $2
	JEQ  zp2
	JMP  zp3

zptail:
	MOVQ  R12, CX
	TESTQ CX, CX
	JEQ   zsqstore

zsqone:
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

// The pipeline (four rows or more): rows two at a time, and each pair's
// weighted sum two pairs after its dot products in program order. The
// one-row loop's path from a row's load to its weighted sum is about
// forty cycles of latency (widening, three products and sums, the lane
// tree, the label) with twenty vector operations a row, and its weighted
// sum's six operations wait in the scheduler the whole time: the loop
// ran at the rows in flight that the scheduler holds, not at its pipes.
// Issued two pairs later, the weighted sum finds its residuals ready.
// The two rows' lane trees share their shuffles and adds, one register
// each stage (per two rows 4 shuffles and 3 adds in place of 6 and 6).
// Every lane and entry gets the same operations in the same order as in
// the one-row loop: the bits do not move (TestPackedSquares,
// TestPackedSquaresPipeline). ijcnn1's shard gradient (min of 3,000
// interleaved runs): 0.82 of the one-row loop's time.
//
// A pair's registers (a set): rows k and k+1 widened (f0–f2 and
// g0–g2) and their residuals, broadcast (ra, rb). Three sets: A
// (Z8–Z13, Z25, Z26), B (Z16–Z21, Z27, Z28), C (Z14, Z15, Z22–Z24,
// Z29, Z31, Z6); Z3 and Z4 the two dot products, Z5 and Z7 temporaries,
// Z30 a label. Rows k and k+1 at SI and R11, CX pairs left.

// ZPDOT1–3(base, f0, f1, f2, dot) widen a row's 8·nz features at base
// into f0… and sum their products with x into dot (column j in lane
// j mod 8, in column order: the one-row loop's lanes).
#define ZPDOT1(base, f0, f1, f2, dot) \
	VCVTPS2PD 0(base), f0; \
	VMULPD    0(R8), f0, dot

#define ZPDOT2(base, f0, f1, f2, dot) \
	ZPDOT1(base, f0, f1, f2, dot); \
	VCVTPS2PD 32(base), f1; \
	VMULPD    64(R8), f1, Z5; \
	VADDPD    Z5, dot, dot

#define ZPDOT3(base, f0, f1, f2, dot) \
	ZPDOT2(base, f0, f1, f2, dot); \
	VCVTPS2PD 64(base), f2; \
	VMULPD    128(R8), f2, Z5; \
	VADDPD    Z5, dot, dot

// ZPPAIR(dot, f0, f1, f2, g0, g1, g2, ra, rb) computes the residuals of
// rows k (at SI) and k+1 (at R11) into ra and rb, broadcast, and moves
// to the next pair. The lane tree of both rows at once: [a.0–3, b.0–3]
// + [a.4–7, b.4–7] (lane i + lane i+4 of each row), then the 128-bit
// pairs two apart, then neighbours — num.Combine's tree in every lane
// of each row's half (operands swapped in some lanes; a sum of two
// floats does not depend on their order) — row k's dot product in
// lanes 0–3, row k+1's in lanes 4–7.
#define ZPPAIR(dot, f0, f1, f2, g0, g1, g2, ra, rb) \
	dot(SI, f0, f1, f2, Z3); \
	dot(R11, g0, g1, g2, Z4); \
	VSHUFF64X2   $0xee, Z4, Z3, Z7; \
	VSHUFF64X2   $0x44, Z4, Z3, Z4; \
	VADDPD       Z7, Z4, Z3; \
	VSHUFF64X2   $0xb1, Z3, Z3, Z7; \
	VADDPD       Z7, Z3, Z3; \
	VPERMILPD    $0x55, Z3, Z7; \
	VADDPD       Z7, Z3, Z3; \
	VSHUFF64X2   $0x00, Z3, Z3, ra; \
	MOVBQSX      0(DX), AX; \
	VBROADCASTSD (R10)(AX*8), Z30; \
	VSUBPD       Z30, ra, ra; \
	VSHUFF64X2   $0xff, Z3, Z3, rb; \
	MOVBQSX      1(DX), AX; \
	VBROADCASTSD (R10)(AX*8), Z30; \
	VSUBPD       Z30, rb, rb; \
	LEAQ         (SI)(BX*2), SI; \
	LEAQ         (R11)(BX*2), R11; \
	ADDQ         $2, DX

// ZPAXPY1–3(f0, f1, f2, res) add the residual times a row's features
// to acc (Z0–Z2).
#define ZPAXPY1(f0, f1, f2, res) \
	VMULPD res, f0, f0; \
	VADDPD f0, Z0, Z0

#define ZPAXPY2(f0, f1, f2, res) \
	ZPAXPY1(f0, f1, f2, res); \
	VMULPD res, f1, f1; \
	VADDPD f1, Z1, Z1

#define ZPAXPY3(f0, f1, f2, res) \
	ZPAXPY2(f0, f1, f2, res); \
	VMULPD res, f2, f2; \
	VADDPD f2, Z2, Z2

// ZPSUMS(axpy, f0, f1, f2, g0, g1, g2, ra, rb) adds a pair's terms, row
// k's then row k+1's.
#define ZPSUMS(axpy, f0, f1, f2, g0, g1, g2, ra, rb) \
	axpy(f0, f1, f2, ra); \
	axpy(g0, g1, g2, rb)

zp1:
	ZPPAIR(ZPDOT1, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPPAIR(ZPDOT1, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	SUBQ $2, CX
	JEQ  zp1ab

zp1loop:
	ZPPAIR(ZPDOT1, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY1, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	DECQ CX
	JEQ  zp1bc
	ZPPAIR(ZPDOT1, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY1, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	DECQ CX
	JEQ  zp1ca
	ZPPAIR(ZPDOT1, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY1, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	DECQ CX
	JNE  zp1loop

zp1ab:
	ZPSUMS(ZPAXPY1, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY1, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	JMP  zptail

zp1bc:
	ZPSUMS(ZPAXPY1, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY1, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	JMP  zptail

zp1ca:
	ZPSUMS(ZPAXPY1, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY1, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	JMP  zptail

zp2:
	ZPPAIR(ZPDOT2, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPPAIR(ZPDOT2, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	SUBQ $2, CX
	JEQ  zp2ab

zp2loop:
	ZPPAIR(ZPDOT2, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY2, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	DECQ CX
	JEQ  zp2bc
	ZPPAIR(ZPDOT2, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY2, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	DECQ CX
	JEQ  zp2ca
	ZPPAIR(ZPDOT2, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY2, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	DECQ CX
	JNE  zp2loop

zp2ab:
	ZPSUMS(ZPAXPY2, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY2, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	JMP  zptail

zp2bc:
	ZPSUMS(ZPAXPY2, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY2, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	JMP  zptail

zp2ca:
	ZPSUMS(ZPAXPY2, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY2, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	JMP  zptail

zp3:
	ZPPAIR(ZPDOT3, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPPAIR(ZPDOT3, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	SUBQ $2, CX
	JEQ  zp3ab

zp3loop:
	ZPPAIR(ZPDOT3, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY3, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	DECQ CX
	JEQ  zp3bc
	ZPPAIR(ZPDOT3, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY3, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	DECQ CX
	JEQ  zp3ca
	ZPPAIR(ZPDOT3, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY3, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	DECQ CX
	JNE  zp3loop

zp3ab:
	ZPSUMS(ZPAXPY3, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	ZPSUMS(ZPAXPY3, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	JMP  zptail

zp3bc:
	ZPSUMS(ZPAXPY3, Z16, Z17, Z18, Z19, Z20, Z21, Z27, Z28)
	ZPSUMS(ZPAXPY3, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	JMP  zptail

zp3ca:
	ZPSUMS(ZPAXPY3, Z14, Z15, Z22, Z23, Z24, Z29, Z31, Z6)
	ZPSUMS(ZPAXPY3, Z8, Z9, Z10, Z11, Z12, Z13, Z25, Z26)
	JMP  zptail

zsqstore:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VZEROUPPER
	RET
