//go:build !purego

#include "textflag.h"

// TILE16 multiplies-adds one row's broadcast A value into a 16-column
// pair of accumulators: lo += a·Y8, hi += a·Y9, each product rounded to
// float32 before the add (VMULPS then VADDPS: no FMA).
#define TILE16(addr, lo, hi) VBROADCASTSS addr, Y10; VMULPS Y8, Y10, Y11; VMULPS Y9, Y10, Y12; VADDPS Y11, lo, lo; VADDPS Y12, hi, hi
#define TILE8(addr, acc) VBROADCASTSS addr, Y10; VMULPS Y8, Y10, Y11; VADDPS Y11, acc, acc

// Whole and masked (Y15: the first n mod 8 lanes) loads and stores.
#define LOADU(mem, y) VMOVUPS mem, y
#define STOREU(y, mem) VMOVUPS y, mem
#define LOADM(mem, y) VMASKMOVPS mem, Y15, y
#define STOREM(y, mem) VMASKMOVPS y, Y15, mem

// COLS8 is a tile of 4 rows × 8 columns (LOAD, STORE: whole or masked)
// over the whole of k, at C's column offset CX; loop is its label.
#define COLS8(LOAD, STORE, loop) \
	LEAQ (DX)(CX*1), AX; LEAQ (AX)(R12*2), BX; \
	LOAD((AX), Y0); LOAD((AX)(R12*1), Y2); LOAD((BX), Y4); LOAD((BX)(R12*1), Y6); \
	MOVQ SI, AX; LEAQ (DI)(CX*1), BX; MOVQ k+72(FP), R14; \
loop: \
	LOAD((BX), Y8); \
	TILE8((AX), Y0); TILE8((AX)(R8*1), Y2); TILE8((AX)(R8*2), Y4); TILE8((AX)(R9*1), Y6); \
	ADDQ R10, AX; ADDQ R11, BX; \
	DECQ R14; JNZ loop; \
	LEAQ (DX)(CX*1), AX; LEAQ (AX)(R12*2), BX; \
	STORE(Y0, (AX)); STORE(Y2, (AX)(R12*1)); STORE(Y4, (BX)); STORE(Y6, (BX)(R12*1))

// ROW8 is a tile of 1 row × 8 columns, the same way.
#define ROW8(LOAD, STORE, loop) \
	LEAQ (DX)(CX*1), AX; LOAD((AX), Y0); \
	MOVQ SI, AX; LEAQ (DI)(CX*1), BX; MOVQ k+72(FP), R14; \
loop: \
	LOAD((BX), Y8); TILE8((AX), Y0); \
	ADDQ R10, AX; ADDQ R11, BX; \
	DECQ R14; JNZ loop; \
	LEAQ (DX)(CX*1), AX; STORE(Y0, (AX))

// func kernAVX2(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int)
//
// C (m×n, row stride ldc) += A·B for m, n, k ≥ 1; A's (i, p) entry at
// a[i·sai + p·sap], B row-major with row stride ldb. Tiles of 4 rows ×
// 16 columns (then 4 × 8, then 4 × the last n mod 8 through masked
// loads and stores) held in Y0–Y7 over the whole of k, and the last m
// mod 4 rows one at a time (1 × 8, then masked): each lane is one
// output, which adds its k products in increasing order of p, as the
// scalar loop does; a masked lane reads +0 and is never stored.
//
// Registers: SI A's tile rows, DI B, DX C's tile rows, R8 sai·4, R9
// 3·sai·4, R10 sap·4, R11 ldb·4, R12 ldc·4, R13 rows left, CX the
// column offset in bytes, AX/BX the A and B pointers in the k loop, R14
// the k counter, Y15 the mask of n mod 8 lanes.
TEXT ·kernAVX2(SB), NOSPLIT, $0-80
	MOVQ a+0(FP), SI
	MOVQ sai+8(FP), R8
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	MOVQ sap+16(FP), R10
	SHLQ $2, R10
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R11
	SHLQ $2, R11
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R12
	SHLQ $2, R12
	MOVQ m+56(FP), R13
	MOVQ n+64(FP), AX
	ANDQ $7, AX
	LEAQ ·tailmask(SB), BX
	MOVQ $8, CX
	SUBQ AX, CX
	VMOVUPS (BX)(CX*4), Y15

rows:
	CMPQ R13, $4
	JLT  single
	XORQ CX, CX

cols16:
	MOVQ n+64(FP), AX
	SHLQ $2, AX
	SUBQ CX, AX
	CMPQ AX, $64
	JLT  cols8
	LEAQ (DX)(CX*1), AX
	LEAQ (AX)(R12*2), BX
	VMOVUPS (AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS (AX)(R12*1), Y2
	VMOVUPS 32(AX)(R12*1), Y3
	VMOVUPS (BX), Y4
	VMOVUPS 32(BX), Y5
	VMOVUPS (BX)(R12*1), Y6
	VMOVUPS 32(BX)(R12*1), Y7
	MOVQ SI, AX
	LEAQ (DI)(CX*1), BX
	MOVQ k+72(FP), R14

loop16:
	VMOVUPS (BX), Y8
	VMOVUPS 32(BX), Y9
	TILE16((AX), Y0, Y1)
	TILE16((AX)(R8*1), Y2, Y3)
	TILE16((AX)(R8*2), Y4, Y5)
	TILE16((AX)(R9*1), Y6, Y7)
	ADDQ R10, AX
	ADDQ R11, BX
	DECQ R14
	JNZ  loop16

	LEAQ (DX)(CX*1), AX
	LEAQ (AX)(R12*2), BX
	VMOVUPS Y0, (AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, (AX)(R12*1)
	VMOVUPS Y3, 32(AX)(R12*1)
	VMOVUPS Y4, (BX)
	VMOVUPS Y5, 32(BX)
	VMOVUPS Y6, (BX)(R12*1)
	VMOVUPS Y7, 32(BX)(R12*1)
	ADDQ $64, CX
	JMP  cols16

cols8:
	CMPQ AX, $32
	JLT  colsm
	COLS8(LOADU, STOREU, loop8)
	ADDQ $32, CX

colsm:
	MOVQ n+64(FP), AX
	SHLQ $2, AX
	CMPQ CX, AX
	JGE  nextrows
	COLS8(LOADM, STOREM, loopm)

nextrows:
	LEAQ (SI)(R8*4), SI
	LEAQ (DX)(R12*4), DX
	SUBQ $4, R13
	JMP  rows

single:
	TESTQ R13, R13
	JZ    done
	XORQ  CX, CX

scols8:
	MOVQ n+64(FP), AX
	SHLQ $2, AX
	SUBQ CX, AX
	CMPQ AX, $32
	JLT  scolsm
	ROW8(LOADU, STOREU, sloop8)
	ADDQ $32, CX
	JMP  scols8

scolsm:
	TESTQ AX, AX
	JZ    snext
	ROW8(LOADM, STOREM, sloopm)

snext:
	ADDQ R8, SI
	ADDQ R12, DX
	DECQ R13
	JMP  single

done:
	VZEROUPPER
	RET
