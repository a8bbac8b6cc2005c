//go:build !purego

#include "textflag.h"

// ·tailmask is eight all-ones then eight zero int32s: the eight at
// ·tailmask + 4·(8 − r) enable the first r lanes of a masked load or
// store (here and in patch_amd64.s).
DATA ·tailmask+0(SB)/8, $0xffffffffffffffff
DATA ·tailmask+8(SB)/8, $0xffffffffffffffff
DATA ·tailmask+16(SB)/8, $0xffffffffffffffff
DATA ·tailmask+24(SB)/8, $0xffffffffffffffff
DATA ·tailmask+32(SB)/8, $0
DATA ·tailmask+40(SB)/8, $0
DATA ·tailmask+48(SB)/8, $0
DATA ·tailmask+56(SB)/8, $0
GLOBL ·tailmask(SB), RODATA|NOPTR, $64

// MAC adds the eight products x·y, each rounded to float32 (VMULPS,
// then VADDPS: no FMA), to the eight lanes of acc.
#define MAC(y, x, acc, t) VMULPS y, x, t; VADDPS t, acc, acc

// REDUCE combines acc's lanes by num's tree ((l0+l4)+(l2+l6)) +
// ((l1+l5)+(l3+l7)) (x is acc's low half) and adds the sum to the
// float32 at mem: fold the high half onto the low (l0+l4, l1+l5, l2+l6,
// l3+l7), the high pair onto the low (…+(l2+l6), …+(l3+l7)), then lane
// 1 onto lane 0.
#define REDUCE(acc, x, mem) VEXTRACTF128 $1, acc, X12; VADDPS X12, x, x; VMOVHLPS x, x, X12; VADDPS X12, x, x; VMOVSHDUP x, X12; VADDSS X12, x, x; VADDSS mem, x, x; VMOVSS x, mem

// REDUCE4 combines the lanes of four accumulators a, b, c, d (the
// outputs of four consecutive columns) by the same tree, all at once,
// and adds the four sums to the four float32s at mem: pair the halves
// (VPERM2F128) and add them, giving each output's (l0+l4, l1+l5,
// l2+l6, l3+l7); gather the low and high pairs (VSHUFPS) and add them,
// giving (…+(l2+l6), …+(l3+l7)); gather those two and add them; then
// the four sums in column order (VUNPCKLPS) onto C. Y8–Y14 are scratch.
#define REDUCE4(a, b, c, d, mem) \
	VPERM2F128 $0x20, b, a, Y8; VPERM2F128 $0x31, b, a, Y9; VADDPS Y9, Y8, Y8; \
	VPERM2F128 $0x20, d, c, Y10; VPERM2F128 $0x31, d, c, Y11; VADDPS Y11, Y10, Y10; \
	VSHUFPS $0x44, Y10, Y8, Y12; VSHUFPS $0xEE, Y10, Y8, Y13; VADDPS Y13, Y12, Y12; \
	VSHUFPS $0x88, Y12, Y12, Y13; VSHUFPS $0xDD, Y12, Y12, Y14; VADDPS Y14, Y13, Y13; \
	VEXTRACTF128 $1, Y13, X14; VUNPCKLPS X14, X13, X13; \
	VADDPS mem, X13, X13; VMOVUPS X13, mem

// BLOCK24 is one step of a 2×4 tile: A's two rows at (AX) and
// (AX)(R8*1), B's four rows at (R14), (R14)(R8*1), (R14)(R8*2),
// (R14)(R11*1), through load (VMOVUPS, or the masked tail's load).
#define LOADU(mem, y) VMOVUPS mem, y
#define LOADM(mem, y) VMASKMOVPS mem, Y15, y
#define BLOCK24(LOAD) \
	LOAD((AX), Y8); LOAD((AX)(R8*1), Y9); \
	LOAD((R14), Y10); MAC(Y10, Y8, Y0, Y12); MAC(Y10, Y9, Y4, Y13); \
	LOAD((R14)(R8*1), Y11); MAC(Y11, Y8, Y1, Y12); MAC(Y11, Y9, Y5, Y13); \
	LOAD((R14)(R8*2), Y10); MAC(Y10, Y8, Y2, Y12); MAC(Y10, Y9, Y6, Y13); \
	LOAD((R14)(R11*1), Y11); MAC(Y11, Y8, Y3, Y12); MAC(Y11, Y9, Y7, Y13)
#define BLOCK21(LOAD) \
	LOAD((AX), Y8); LOAD((AX)(R8*1), Y9); \
	LOAD((R14), Y10); MAC(Y10, Y8, Y0, Y12); MAC(Y10, Y9, Y4, Y13)
#define BLOCK14(LOAD) \
	LOAD((AX), Y8); \
	LOAD((R14), Y10); MAC(Y10, Y8, Y0, Y12); \
	LOAD((R14)(R8*1), Y11); MAC(Y11, Y8, Y1, Y13); \
	LOAD((R14)(R8*2), Y10); MAC(Y10, Y8, Y2, Y12); \
	LOAD((R14)(R11*1), Y11); MAC(Y11, Y8, Y3, Y13)
#define BLOCK11(LOAD) \
	LOAD((AX), Y8); LOAD((R14), Y10); MAC(Y10, Y8, Y0, Y12)

// TILE runs one tile over the whole of k: its k/8 full blocks, then
// the masked tail when R10 = k mod 8 is not 0 (loop, tail and done are
// its labels). AX walks A's rows from SI, R14 B's from BX, CX counts
// the blocks.
#define TILE(BLOCK, loop, tail, done) \
	MOVQ SI, AX; MOVQ BX, R14; \
	MOVQ k+40(FP), CX; SHRQ $3, CX; JZ tail; \
loop: \
	BLOCK(LOADU); \
	ADDQ $32, AX; ADDQ $32, R14; \
	DECQ CX; JNZ loop; \
tail: \
	TESTQ R10, R10; JZ done; \
	BLOCK(LOADM); \
done:

// LANES sets, from R8 = a row's length (k or p), R10 = its length mod
// 8, Y15 the mask of that many lanes, R8 a row's bytes and R11 three
// rows' bytes.
#define LANES \
	MOVQ R8, R10; ANDQ $7, R10; \
	LEAQ ·tailmask(SB), AX; MOVQ $8, CX; SUBQ R10, CX; VMOVUPS (AX)(CX*4), Y15; \
	SHLQ $2, R8; LEAQ (R8)(R8*2), R11

#define ZERO4(a, b, c, d) VXORPS a, a, a; VXORPS b, b, b; VXORPS c, c, c; VXORPS d, d, d

// func kernNTAVX2(a, b, c *float32, m, n, k int)
//
// C (m×n) += A (m×k)·B (n×k)ᵀ, all row-major, for m, n, k ≥ 1, every
// output in lanes.go's order: each YMM accumulator is one output's
// eight lanes (term p in lane p mod 8, from +0), loading eight
// consecutive p of an A row and a B row; the tail k mod 8 through
// masked loads, whose disabled lanes read +0 and add +0·+0 = +0, which
// changes no lane; then REDUCE4 (four columns at once) or REDUCE.
// Column blocks of 4 rows of B, each down every pair of A's rows in
// 2×4 tiles (eight accumulators, six loads per eight multiply–adds),
// an odd last row in 1×4, so the four B rows stay in L1 while A passes;
// then the last n mod 4 columns one at a time (2×1, 1×1).
//
// Registers: SI A's tile rows, DI B, DX C's tile rows, R8 k·4 (a row's
// bytes), R11 3·k·4, R12 n·4, R9 rows left, R13 the tile's column
// offset in C (bytes), BX B's tile rows, R10 k mod 8, Y15 the tail's
// mask, Y0–Y7 the accumulators, Y8–Y14 loads, products and REDUCE4's
// scratch.
TEXT ·kernNTAVX2(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ c+16(FP), DX
	MOVQ m+24(FP), R9
	MOVQ n+32(FP), R12
	SHLQ $2, R12
	MOVQ k+40(FP), R8
	LANES

	MOVQ DI, BX
	XORQ R13, R13

quads:
	MOVQ R12, AX
	SUBQ R13, AX
	CMPQ AX, $16
	JLT  singles
	MOVQ a+0(FP), SI
	MOVQ c+16(FP), DX
	MOVQ m+24(FP), R9

qpairs:
	CMPQ R9, $2
	JLT  qodd
	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y4, Y5, Y6, Y7)
	TILE(BLOCK24, loop24, tail24, done24)
	LEAQ (DX)(R13*1), AX
	REDUCE4(Y0, Y1, Y2, Y3, (AX))
	ADDQ R12, AX
	REDUCE4(Y4, Y5, Y6, Y7, (AX))
	LEAQ (SI)(R8*2), SI
	LEAQ (DX)(R12*2), DX
	SUBQ $2, R9
	JMP  qpairs

qodd:
	TESTQ R9, R9
	JZ    qnext
	ZERO4(Y0, Y1, Y2, Y3)
	TILE(BLOCK14, loop14, tail14, done14)
	LEAQ (DX)(R13*1), AX
	REDUCE4(Y0, Y1, Y2, Y3, (AX))

qnext:
	LEAQ (BX)(R8*4), BX
	ADDQ $16, R13
	JMP  quads

singles:
	CMPQ R13, R12
	JGE  done
	MOVQ a+0(FP), SI
	MOVQ c+16(FP), DX
	MOVQ m+24(FP), R9

spairs:
	CMPQ R9, $2
	JLT  sodd
	VXORPS Y0, Y0, Y0
	VXORPS Y4, Y4, Y4
	TILE(BLOCK21, loop21, tail21, done21)
	LEAQ (DX)(R13*1), AX
	REDUCE(Y0, X0, 0(AX))
	ADDQ R12, AX
	REDUCE(Y4, X4, 0(AX))
	LEAQ (SI)(R8*2), SI
	LEAQ (DX)(R12*2), DX
	SUBQ $2, R9
	JMP  spairs

sodd:
	TESTQ R9, R9
	JZ    snext
	VXORPS Y0, Y0, Y0
	TILE(BLOCK11, loop11, tail11, done11)
	LEAQ (DX)(R13*1), AX
	REDUCE(Y0, X0, 0(AX))

snext:
	ADDQ R8, BX
	ADDQ $4, R13
	JMP  singles

done:
	VZEROUPPER
	RET

// func rowSumsAsm(a *float32, rows, p int, out *float32)
//
// rowSumsGo for rows, p ≥ 1: out[r] += the lanes of row r in lanes.go's
// order, one YMM accumulator per row (value j in lane j mod 8, from
// +0), the tail p mod 8 through masked loads (+0 in the disabled lanes,
// which changes no lane), four rows at a time (REDUCE4 onto four
// consecutive outputs), then one (REDUCE).
//
// Registers: SI the rows, R8 p·4, R11 3·p·4, R9 rows left, R10 p mod 8,
// DX out, AX the pointer in the pass, CX the blocks left, Y15 the mask.
TEXT ·rowSumsAsm(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ rows+8(FP), R9
	MOVQ p+16(FP), R8
	MOVQ out+24(FP), DX
	LANES

rquad:
	CMPQ R9, $4
	JLT  rone
	ZERO4(Y0, Y1, Y2, Y3)
	MOVQ SI, AX
	MOVQ p+16(FP), CX
	SHRQ $3, CX
	JZ   rqtail

rqloop:
	VADDPS (AX), Y0, Y0
	VADDPS (AX)(R8*1), Y1, Y1
	VADDPS (AX)(R8*2), Y2, Y2
	VADDPS (AX)(R11*1), Y3, Y3
	ADDQ   $32, AX
	DECQ   CX
	JNZ    rqloop

rqtail:
	TESTQ R10, R10
	JZ    rqdone
	VMASKMOVPS (AX), Y15, Y4
	VMASKMOVPS (AX)(R8*1), Y15, Y5
	VMASKMOVPS (AX)(R8*2), Y15, Y6
	VMASKMOVPS (AX)(R11*1), Y15, Y7
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3

rqdone:
	REDUCE4(Y0, Y1, Y2, Y3, (DX))
	LEAQ (SI)(R8*4), SI
	ADDQ $16, DX
	SUBQ $4, R9
	JMP  rquad

rone:
	TESTQ R9, R9
	JZ    rdone
	VXORPS Y0, Y0, Y0
	MOVQ SI, AX
	MOVQ p+16(FP), CX
	SHRQ $3, CX
	JZ   rotail

roloop:
	VADDPS (AX), Y0, Y0
	ADDQ   $32, AX
	DECQ   CX
	JNZ    roloop

rotail:
	TESTQ R10, R10
	JZ    rodone
	VMASKMOVPS (AX), Y15, Y4
	VADDPS Y4, Y0, Y0

rodone:
	REDUCE(Y0, X0, (DX))
	ADDQ R8, SI
	ADDQ $4, DX
	DECQ R9
	JMP  rone

rdone:
	VZEROUPPER
	RET
