//go:build !purego

#include "textflag.h"

// laneMaskQ: eight all-ones quadwords then eight zeros. The 64 bytes from
// laneMaskQ + 8·(8 − r) select lanes 0…r−1 of two 4-lane registers.
DATA laneMaskQ<>+0(SB)/8, $-1
DATA laneMaskQ<>+8(SB)/8, $-1
DATA laneMaskQ<>+16(SB)/8, $-1
DATA laneMaskQ<>+24(SB)/8, $-1
DATA laneMaskQ<>+32(SB)/8, $-1
DATA laneMaskQ<>+40(SB)/8, $-1
DATA laneMaskQ<>+48(SB)/8, $-1
DATA laneMaskQ<>+56(SB)/8, $-1
DATA laneMaskQ<>+64(SB)/8, $0
DATA laneMaskQ<>+72(SB)/8, $0
DATA laneMaskQ<>+80(SB)/8, $0
DATA laneMaskQ<>+88(SB)/8, $0
DATA laneMaskQ<>+96(SB)/8, $0
DATA laneMaskQ<>+104(SB)/8, $0
DATA laneMaskQ<>+112(SB)/8, $0
DATA laneMaskQ<>+120(SB)/8, $0
GLOBL laneMaskQ<>(SB), RODATA|NOPTR, $128

DATA pix255<>+0(SB)/8, $255.0
GLOBL pix255<>(SB), RODATA|NOPTR, $8

// SARGS(v) loads the arguments the two kernels share, with v the name
// of the seventh (x or c), into R8 start, R9 col, R10 pix, R11 idx, R12
// first, CX n, DX v, DI out.
#define SARGS(v) \
	MOVQ start+0(FP), R8; \
	MOVQ col+8(FP), R9; \
	MOVQ pix+16(FP), R10; \
	MOVQ idx+24(FP), R11; \
	MOVQ first+32(FP), R12; \
	MOVQ n+40(FP), CX; \
	MOVQ v+48(FP), DX; \
	MOVQ out+56(FP), DI

// SROW(done, havei) starts the next view row, or jumps to done when
// none is left: its set row idx[k] (idx advancing), or first + k when
// idx is nil (first advancing either way); SI its columns, R13 its bytes,
// R14 its stored terms (havei a label of the caller's own).
#define SROW(done, havei) \
	TESTQ CX, CX; \
	JEQ  done; \
	MOVQ R12, AX; \
	TESTQ R11, R11; \
	JEQ  havei; \
	MOVQ (R11), AX; \
	ADDQ $8, R11; \
havei: \
	INCQ R12; \
	MOVQ (R8)(AX*8), BX; \
	MOVQ 8(R8)(AX*8), R14; \
	SUBQ BX, R14; \
	LEAQ (R9)(BX*2), SI; \
	LEAQ (R10)(BX*1), R13

// WIDEN8(ob, ty, tx, lo, hi) widens the row's eight bytes from R13 + ob
// to float64: the first four into lo, the last four into hi (ty and its
// xmm half tx scratch).
#define WIDEN8(ob, ty, tx, lo, hi) \
	VPMOVZXBD (ob)(R13), ty; \
	VCVTDQ2PD tx, lo; \
	VEXTRACTI128 $1, ty, tx; \
	VCVTDQ2PD tx, hi

// XQUAD(o, lo, hi, y) loads x at the columns of the row's four terms
// from SI + o (uint16 each) into y, its xmm half lo with hi scratch: the
// four columns in one quadword load (AX), taken apart in registers (BX),
// and x at each by a scalar load, two joined into an xmm, two xmms into
// a ymm (on Zen 3 a quarter less time a shard than VGATHERDPD, whose
// loads cost as much plus its own micro-ops; the one load of four
// columns instead of four takes a load port less a term, which bounds
// the loop beside its micro-ops).
#define XQUAD(o, lo, hi, y) \
	MOVQ    (o)(SI), AX; \
	MOVWLZX AX, BX; \
	VMOVSD  (DX)(BX*8), lo; \
	SHRQ    $16, AX; \
	MOVWLZX AX, BX; \
	VMOVHPD (DX)(BX*8), lo, lo; \
	SHRQ    $16, AX; \
	MOVWLZX AX, BX; \
	VMOVSD  (DX)(BX*8), hi; \
	SHRQ    $16, AX; \
	VMOVHPD (DX)(AX*8), hi, hi; \
	VINSERTF128 $1, hi, y, y

// DOT8(oc, ob) multiplies the row's eight terms from SI + oc (columns)
// and R13 + ob (bytes) by x at their columns and adds the products to
// lanes 0–3 (Y0) and 4–7 (Y1): the bytes widened to float64, each
// product rounded, then summed (no FMA).
#define DOT8(oc, ob) \
	XQUAD(oc, X7, X9, Y7); \
	XQUAD(oc+8, X8, X10, Y8); \
	WIDEN8(ob, Y3, X3, Y4, Y5); \
	VMULPD Y7, Y4, Y4; \
	VMULPD Y8, Y5, Y5; \
	VADDPD Y4, Y0, Y0; \
	VADDPD Y5, Y1, Y1

// func sdotsPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, x *float64, out *float64)
//
// For each of the n view rows (set row idx[k], or first + k when idx is
// nil) out[k] = GatherDot(col[a:b], pix[a:b], x)/255, a = start[i],
// b = start[i+1]: the row's t-th stored term to lane t mod 8 (lanes.go of
// core/num), lanes 0–3 in Y0 and 4–7 in Y1, eight terms a step (DOT8),
// sixteen a loop turn while sixteen are left (a turn's counter and
// pointer updates are a tenth of its micro-ops at eight). The last
// r = (b−a) mod 8 terms as eight all the same: the form keeps eight
// entries of slack past its end (newSparseRows), so the eight columns
// are columns of the set (of the next rows, or the slack's 0) and x at
// them is in bounds; lanes r…7's products are then cleared by a mask
// (AND with zero bits: +0 whatever x holds there, even ±Inf or NaN),
// and adding +0 is what the masked VGATHERDPD of before did (it left x
// = +0, and +0·byte = +0): the same bits, without the gathers. Then
// num's tree: Y0 + Y1, its halves added, the pair added; divided by 255.
//
// Registers: R8 start, R9 col, R10 pix, R11 idx, R12 first, CX rows
// left, DX x, DI out, SI the row's columns, R13 its bytes, R14 terms
// left (less sixteen in the loop), AX BX columns, X15 255.
TEXT ·sdotsPixAVX2(SB), NOSPLIT, $0-64
	SARGS(x)
	VMOVSD pix255<>(SB), X15

row:
	SROW(done, havei)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	SUBQ $16, R14
	JLT  one8

loop16:
	DOT8(0, 0)
	DOT8(16, 8)
	ADDQ $32, SI
	ADDQ $16, R13
	SUBQ $16, R14
	JGE  loop16

one8:
	ADDQ $16, R14
	CMPQ R14, $8
	JLT  tail
	DOT8(0, 0)
	ADDQ $16, SI
	ADDQ $8, R13
	SUBQ $8, R14

tail:
	TESTQ R14, R14
	JEQ  fold
	MOVQ $8, AX
	SUBQ R14, AX
	LEAQ laneMaskQ<>(SB), BX
	VMOVDQU (BX)(AX*8), Y9
	VMOVDQU 32(BX)(AX*8), Y10
	XQUAD(0, X7, X11, Y7)
	XQUAD(8, X8, X12, Y8)
	WIDEN8(0, Y3, X3, Y4, Y5)
	VMULPD Y7, Y4, Y4
	VMULPD Y8, Y5, Y5
	VANDPD Y9, Y4, Y4
	VANDPD Y10, Y5, Y5
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1

fold:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VADDSD X1, X0, X0
	VDIVSD X15, X0, X0
	VMOVSD X0, (DI)
	ADDQ $8, DI
	DECQ CX
	JMP  row

done:
	VZEROUPPER
	RET

// SAXPY1(j, p, t) adds the product in the low lane of p to out at the
// column in j (zero-extended): out[j] = out[j] + p, rounded once (t
// scratch).
#define SAXPY1(j, p, t) \
	VADDSD (DI)(j*8), p, t; \
	VMOVSD t, (DI)(j*8)

// PROD4(lo, y, l1, l2, l3) splits the four products in y into the low
// lanes of lo (y's own xmm half), l1, l2 and l3.
#define PROD4(lo, y, l1, l2, l3) \
	VEXTRACTF128 $1, y, l2; \
	VPERMILPD $1, lo, l1; \
	VPERMILPD $1, l2, l3

// ADD4(o, a, b, c, d) adds the low lanes of a, b, c, d to out at the
// columns of the four terms from SI + o, loaded in one quadword (AX) and
// taken apart in registers (BX).
#define ADD4(o, a, b, c, d) \
	MOVQ    (o)(SI), AX; \
	MOVWLZX AX, BX; \
	SAXPY1(BX, a, X7); \
	SHRQ    $16, AX; \
	MOVWLZX AX, BX; \
	SAXPY1(BX, b, X8); \
	SHRQ    $16, AX; \
	MOVWLZX AX, BX; \
	SAXPY1(BX, c, X9); \
	SHRQ    $16, AX; \
	SAXPY1(AX, d, X10)

// AXPY8(oc, ob) adds k times the row's eight terms from SI + oc
// (columns) and R13 + ob (bytes) to out at their columns: the bytes
// widened to float64 and multiplied by k (Y15) four in a register, each
// product rounded, then added to its entry one by one.
#define AXPY8(oc, ob) \
	WIDEN8(ob, Y2, X2, Y3, Y2); \
	VMULPD Y3, Y15, Y3; \
	VMULPD Y2, Y15, Y2; \
	PROD4(X3, Y3, X4, X5, X6); \
	ADD4(oc, X3, X4, X5, X6); \
	PROD4(X2, Y2, X4, X5, X6); \
	ADD4(oc+8, X2, X4, X5, X6)

// func saxpysPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, c *float64, out *float64)
//
// Row after row (set row idx[k], or first + k when idx is nil), nonzero
// after nonzero: out[j] = out[j] + k·float64(v) with k = c[k]/255 —
// saxpy's operations (each entry's terms in row order; the columns of a
// row are distinct, so the order within a row does not touch the bits).
// Sixteen terms a loop turn (AXPY8 twice), then eight, four, and the
// last 0–3 one by one. The loop is bound by its micro-ops and its memory
// operations (a load of out, a store a term): four columns a load
// instead of one, and sixteen terms a turn, took about a seventh off it.
//
// Registers: R8 start, R9 col, R10 pix, R11 idx, R12 first, CX rows
// left, DX c, DI out, SI the row's columns, R13 its bytes, R14 terms
// left (less sixteen in the loop), AX BX columns, Y15 k, X14 255.
TEXT ·saxpysPixAVX2(SB), NOSPLIT, $0-64
	SARGS(c)
	VMOVSD pix255<>(SB), X14

arow:
	SROW(adone, ahavei)
	VMOVSD (DX), X15
	VDIVSD X14, X15, X15
	VBROADCASTSD X15, Y15
	SUBQ $16, R14
	JLT  a16done

aloop16:
	AXPY8(0, 0)
	AXPY8(16, 8)
	ADDQ $32, SI
	ADDQ $16, R13
	SUBQ $16, R14
	JGE  aloop16

a16done:
	ADDQ $8, R14
	JLT  a8done
	AXPY8(0, 0)
	ADDQ $16, SI
	ADDQ $8, R13
	SUBQ $8, R14

a8done:
	ADDQ $8, R14
	CMPQ R14, $4
	JLT  atail
	VPMOVZXBD (R13), X2
	VCVTDQ2PD X2, Y2
	VMULPD Y2, Y15, Y2
	PROD4(X2, Y2, X3, X4, X5)
	ADD4(0, X2, X3, X4, X5)
	ADDQ $8, SI
	ADDQ $4, R13
	SUBQ $4, R14

atail:
	TESTQ R14, R14
	JEQ  anext
	MOVBQZX (R13), AX
	VCVTSI2SDL AX, X2, X2
	VMULSD X2, X15, X2
	MOVWQZX (SI), AX
	SAXPY1(AX, X2, X6)
	ADDQ $2, SI
	INCQ R13
	DECQ R14
	JMP  atail

anext:
	ADDQ $8, DX
	DECQ CX
	JMP  arow

adone:
	VZEROUPPER
	RET
