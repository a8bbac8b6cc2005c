//go:build !purego

#include "textflag.h"

DATA win255<>+0(SB)/8, $255.0
GLOBL win255<>(SB), RODATA|NOPTR, $8

// winCol: the bits of a window's first column in its offsets word
// (bits 3–7 of the first two bytes), for PEXT.
DATA winCol<>+0(SB)/8, $0xf8f8
GLOBL winCol<>(SB), RODATA|NOPTR, $8

// WROW(p, w, havei) starts the next view row: its set row idx[k] (idx
// advancing), or first + k when idx is nil (first advancing either way);
// p its first window, w its windows (havei a label of the caller's own).
#define WROW(p, w, havei) \
	MOVQ R12, AX; \
	TESTQ R11, R11; \
	JEQ  havei; \
	MOVQ (R11), AX; \
	ADDQ $8, R11; \
havei: \
	INCQ R12; \
	MOVQ (R8)(AX*8), p; \
	MOVQ 8(R8)(AX*8), w; \
	SUBQ p, w; \
	SHLQ $4, p; \
	ADDQ R10, p

// WIN(p, acc, t, zx, zp, yp) adds the window at p to the lanes in acc: x
// at its eight columns from its first (PEXT of the offsets word into t),
// permuted by the offsets (VPERMPD reads bits 0–2 of each quadword),
// times the bytes widened to float64, each product rounded, then summed
// (no FMA). zx, zp scratch, yp zp's ymm half.
#define WIN(p, acc, t, zx, zp, yp) \
	MOVQ      8(p), t; \
	PEXTQ     winCol<>(SB), t, t; \
	VPMOVZXBQ 8(p), zx; \
	VPERMPD   (DX)(t*8), zx, zx; \
	VPMOVZXBD (p), yp; \
	VCVTDQ2PD yp, zp; \
	VMULPD    zx, zp, zp; \
	VADDPD    zp, acc, acc

// WFOLD(acc, yacc, xacc, o) stores num's tree of the eight lanes in acc
// (ymm half yacc, xmm xacc), divided by 255, at DI + o: lanes 0–3 plus
// 4–7, its halves added, the pair added — the term-by-term kernel's
// fold.
#define WFOLD(acc, yacc, xacc, o) \
	VEXTRACTF64X4 $1, acc, Y6; \
	VADDPD        Y6, yacc, yacc; \
	VEXTRACTF128  $1, yacc, X6; \
	VADDPD        X6, xacc, xacc; \
	VPERMILPD     $1, xacc, X6; \
	VADDSD        X6, xacc, xacc; \
	VDIVSD        X15, xacc, xacc; \
	VMOVSD        xacc, (o)(DI)

// func wdotsPixAVX512(start *int, rec *uint64, idx *int, first, n int, x *float64, out *float64)
//
// For each of the n view rows (set row idx[k], or first + k when idx is
// nil) out[k] = GatherDot(col[a:b], pix[a:b], x)/255 over the row's
// stored terms, by its windows (win_amd64.go): x finite, every window's
// eight columns within x. Rows two at a time, their windows interleaved
// while both have some (each row's sum is one chain of dependent adds, a
// window's latency each; two chains fill the pipes), then the longer
// row's last windows, then the odd last row alone.
//
// Registers: R8 start, R10 rec, R11 idx, R12 first, DX x, DI out, SI and
// R9 the two rows' windows, R14 and R13 their windows left after the
// shared ones, CX the shared ones, AX BX columns, Z0 Z1 the lanes, X15
// 255; the rows left are kept in n's argument slot.
TEXT ·wdotsPixAVX512(SB), NOSPLIT, $0-56
	MOVQ start+0(FP), R8
	MOVQ rec+8(FP), R10
	MOVQ idx+16(FP), R11
	MOVQ first+24(FP), R12
	MOVQ x+40(FP), DX
	MOVQ out+48(FP), DI
	VMOVSD win255<>(SB), X15

pair:
	MOVQ n+32(FP), AX
	CMPQ AX, $2
	JLT  last
	SUBQ $2, AX
	MOVQ AX, n+32(FP)
	WROW(SI, R14, havea)
	WROW(R9, R13, haveb)
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	MOVQ   R14, CX
	CMPQ   R13, CX
	CMOVQLT R13, CX
	SUBQ   CX, R14
	SUBQ   CX, R13
	TESTQ  CX, CX
	JEQ    resta

both:
	WIN(SI, Z0, AX, Z2, Z3, Y3)
	WIN(R9, Z1, BX, Z4, Z5, Y5)
	ADDQ $16, SI
	ADDQ $16, R9
	DECQ CX
	JNE  both

resta:
	TESTQ R14, R14
	JEQ   restb

onea:
	WIN(SI, Z0, AX, Z2, Z3, Y3)
	ADDQ $16, SI
	DECQ R14
	JNE  onea

restb:
	TESTQ R13, R13
	JEQ   fold2

oneb:
	WIN(R9, Z1, BX, Z4, Z5, Y5)
	ADDQ $16, R9
	DECQ R13
	JNE  oneb

fold2:
	WFOLD(Z0, Y0, X0, 0)
	WFOLD(Z1, Y1, X1, 8)
	ADDQ $16, DI
	JMP  pair

last:
	TESTQ AX, AX
	JEQ   done
	WROW(SI, R14, havel)
	VPXORQ Z0, Z0, Z0
	TESTQ  R14, R14
	JEQ    fold1

onel:
	WIN(SI, Z0, AX, Z2, Z3, Y3)
	ADDQ $16, SI
	DECQ R14
	JNE  onel

fold1:
	WFOLD(Z0, Y0, X0, 0)

done:
	VZEROUPPER
	RET
