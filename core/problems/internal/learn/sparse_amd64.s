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

// XPAIR(o, r) loads x at the columns of the row's terms o/2 and o/2+1
// (uint16 at SI + o, o + 2) into the two halves of r (AX, BX scratch).
#define XPAIR(o, r) \
	MOVWQZX (o)(SI), AX; \
	MOVWQZX (o+2)(SI), BX; \
	VMOVSD  (DX)(AX*8), r; \
	VMOVHPD (DX)(BX*8), r, r

// XQUAD(o, lo, hi, y) loads x at the columns of four terms from SI + o
// into y (its xmm half lo, with hi scratch).
#define XQUAD(o, lo, hi, y) \
	XPAIR(o, lo); \
	XPAIR(o+4, hi); \
	VINSERTF128 $1, hi, y, y

// func sdotsPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, x *float64, out *float64)
//
// For each of the n view rows (set row idx[k], or first + k when idx is
// nil) out[k] = GatherDot(col[a:b], pix[a:b], x)/255, a = start[i],
// b = start[i+1]: the row's t-th stored term to lane t mod 8 (lanes.go of
// core/num), lanes 0–3 in Y0 and 4–7 in Y1, eight terms a step — x
// loaded at each column (two scalar loads joined into an xmm, two xmms
// into a ymm: on Zen 3 a quarter less time a shard than VGATHERDPD, whose
// eight loads a step cost as much plus its own micro-ops), the bytes
// widened to float64, product rounded, then sum (no FMA). The last r =
// (b−a) mod 8 terms, by a masked gather: eight columns and bytes are
// loaded all the same (the form
// keeps eight entries of slack past its end: newSparseRows), lanes r…7
// masked out of the gather, which then reads nothing there and leaves
// +0, so they add +0·byte = +0 (a byte is finite and ≥ 0). Then num's tree:
// Y0 + Y1, its halves added, the pair added; divided by 255.
//
// Registers: R8 start, R9 col, R10 pix, R11 idx, R12 first, CX rows
// left, DX x, DI out, SI the row's columns, R13 its bytes, R14 terms
// left, AX BX columns, X15 255.
TEXT ·sdotsPixAVX2(SB), NOSPLIT, $0-64
	SARGS(x)
	VMOVSD pix255<>(SB), X15

row:
	SROW(done, havei)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	CMPQ R14, $8
	JLT  tail

loop8:
	XQUAD(0, X7, X9, Y7)
	XQUAD(8, X8, X10, Y8)
	VPMOVZXBD (R13), Y3
	VCVTDQ2PD X3, Y4
	VEXTRACTI128 $1, Y3, X3
	VCVTDQ2PD X3, Y5
	VMULPD Y7, Y4, Y4
	VMULPD Y8, Y5, Y5
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	ADDQ $16, SI
	ADDQ $8, R13
	SUBQ $8, R14
	CMPQ R14, $8
	JGE  loop8

tail:
	TESTQ R14, R14
	JEQ  fold
	MOVQ $8, AX
	SUBQ R14, AX
	LEAQ laneMaskQ<>(SB), BX
	VMOVDQU (BX)(AX*8), Y9
	VMOVDQU 32(BX)(AX*8), Y10
	VPMOVZXWD (SI), Y2
	VPMOVZXBD (R13), Y3
	VCVTDQ2PD X3, Y4
	VEXTRACTI128 $1, Y3, X3
	VCVTDQ2PD X3, Y5
	VXORPD Y7, Y7, Y7
	VMOVDQU Y9, Y6
	VGATHERDPD Y6, (DX)(X2*8), Y7
	VEXTRACTI128 $1, Y2, X2
	VXORPD Y8, Y8, Y8
	VMOVDQU Y10, Y6
	VGATHERDPD Y6, (DX)(X2*8), Y8
	VMULPD Y7, Y4, Y4
	VMULPD Y8, Y5, Y5
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

// SAXPY1(dst, p, t) adds the product in the low lane of p to out at the
// column in dst (zero-extended by the caller): out[j] = out[j] + p,
// rounded once (t scratch).
#define SAXPY1(j, p, t) \
	VADDSD (DI)(j*8), p, t; \
	VMOVSD t, (DI)(j*8)

// func saxpysPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, c *float64, out *float64)
//
// Row after row (set row idx[k], or first + k when idx is nil), nonzero
// after nonzero: out[j] = out[j] + k·float64(v) with k = c[k]/255 —
// saxpy's operations in its order (each entry's terms in row order; the
// columns of a row are distinct). Four bytes at a time are widened and
// multiplied in one register (each product rounded, no FMA), then added
// to their entries one by one; the last 0–3 one by one.
//
// Registers: R8 start, R9 col, R10 pix, R11 idx, R12 first, CX rows
// left, DX c, DI out, SI the row's columns, R13 its bytes, R14 terms
// left, AX BX columns, Y15 k, X14 255.
TEXT ·saxpysPixAVX2(SB), NOSPLIT, $0-64
	SARGS(c)
	VMOVSD pix255<>(SB), X14

arow:
	SROW(adone, ahavei)
	VMOVSD (DX), X15
	VDIVSD X14, X15, X15
	VBROADCASTSD X15, Y15
	CMPQ R14, $4
	JLT  atail

aloop4:
	VPMOVZXBD (R13), X2
	VCVTDQ2PD X2, Y2
	VMULPD Y2, Y15, Y2
	VEXTRACTF128 $1, Y2, X4
	VPERMILPD $1, X2, X3
	VPERMILPD $1, X4, X5
	MOVWQZX (SI), AX
	MOVWQZX 2(SI), BX
	SAXPY1(AX, X2, X6)
	SAXPY1(BX, X3, X7)
	MOVWQZX 4(SI), AX
	MOVWQZX 6(SI), BX
	SAXPY1(AX, X4, X6)
	SAXPY1(BX, X5, X7)
	ADDQ $8, SI
	ADDQ $4, R13
	SUBQ $4, R14
	CMPQ R14, $4
	JGE  aloop4

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
