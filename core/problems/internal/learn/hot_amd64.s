//go:build !purego

#include "textflag.h"

DATA hot255<>+0(SB)/8, $255.0
GLOBL hot255<>(SB), RODATA|NOPTR, $8

// hotTwo52 is 2⁵² as a float64: ORed into a byte b's quadword it makes
// 2⁵² + b exactly, less 2⁵² is float64(b).
DATA hotTwo52<>+0(SB)/8, $0x4330000000000000
GLOBL hotTwo52<>(SB), RODATA|NOPTR, $8

// HROW(reg, havei) points reg at the bytes of the next view row (set row
// idx[k], idx advancing, or first + k when idx is nil; first advancing
// either way): hot + row·h (AX scratch, havei a label of the caller's).
#define HROW(reg, havei) \
	MOVQ R12, AX; \
	TESTQ R11, R11; \
	JEQ  havei; \
	MOVQ (R11), AX; \
	ADDQ $8, R11; \
havei: \
	INCQ R12; \
	IMULQ R9, AX; \
	MOVQ hot+0(FP), reg; \
	ADDQ AX, reg

// HK(o, y, x) broadcasts c[o/8]/255 into y (x its xmm half).
#define HK(o, y, x) \
	VMOVSD o(DX), x; \
	VDIVSD X11, x, x; \
	VBROADCASTSD x, y

// HTERM(row, k) adds k times the four bytes of row at AX, widened to
// float64 and each product rounded, to Y0 (Y10 2⁵²: the widening by
// integer OR and a subtraction, exact, took a tenth off the pass against
// VCVTDQ2PD).
#define HTERM(row, k) \
	VPMOVZXBQ (row)(AX*1), Y1; \
	VPOR      Y10, Y1, Y1; \
	VSUBPD    Y10, Y1, Y1; \
	VMULPD k, Y1, Y1; \
	VADDPD Y1, Y0, Y0

// func hotAxpysAVX2(hot *uint8, h int, idx *int, first, n int, c *float64, offs *uint32, out *float64)
//
// For the view rows in order (set row idx[k], or first + k when idx is
// nil), out[j] = out[j] + k·float64(byte) at every hot column j, k =
// c[k]/255: four rows a pass, each chunk of four columns loaded once,
// the four rows' terms added in row order, stored once; the last 0–3 rows
// one a pass. (h a multiple of 4, at least 4.) The rows' k are computed
// as saxpysPixAVX2 computes them.
//
// Registers: R9 h, R10 offs, R11 idx, R12 first, CX rows left, DX c, DI
// out, SI BX R13 R14 the pass's rows, AX the byte in a row, R8 a chunk's
// offset in out, X11 255, Y12–Y15 the rows' k.
TEXT ·hotAxpysAVX2(SB), NOSPLIT, $0-64
	MOVQ h+8(FP), R9
	MOVQ idx+16(FP), R11
	MOVQ first+24(FP), R12
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), DX
	MOVQ offs+48(FP), R10
	MOVQ out+56(FP), DI
	VMOVSD hot255<>(SB), X11
	VBROADCASTSD hotTwo52<>(SB), Y10

four:
	CMPQ CX, $4
	JLT  one
	HROW(SI, h0)
	HROW(BX, h1)
	HROW(R13, h2)
	HROW(R14, h3)
	HK(0, Y12, X12)
	HK(8, Y13, X13)
	HK(16, Y14, X14)
	HK(24, Y15, X15)
	XORQ AX, AX

chunk4:
	MOVL    (R10)(AX*1), R8
	VMOVUPD (DI)(R8*1), Y0
	HTERM(SI, Y12)
	HTERM(BX, Y13)
	HTERM(R13, Y14)
	HTERM(R14, Y15)
	VMOVUPD Y0, (DI)(R8*1)
	ADDQ    $4, AX
	CMPQ    AX, R9
	JLT     chunk4
	ADDQ $32, DX
	SUBQ $4, CX
	JMP  four

one:
	TESTQ CX, CX
	JEQ   done
	HROW(SI, h4)
	HK(0, Y12, X12)
	XORQ AX, AX

chunk1:
	MOVL    (R10)(AX*1), R8
	VMOVUPD (DI)(R8*1), Y0
	HTERM(SI, Y12)
	VMOVUPD Y0, (DI)(R8*1)
	ADDQ    $4, AX
	CMPQ    AX, R9
	JLT     chunk1
	ADDQ $8, DX
	DECQ CX
	JMP  one

done:
	VZEROUPPER
	RET

// ZTERM(row, k) is HTERM on eight bytes (two chunks) into Z0 (Z10 2⁵²).
#define ZTERM(row, k) \
	VPMOVZXBQ (row)(AX*1), Z1; \
	VPORQ     Z10, Z1, Z1; \
	VSUBPD    Z10, Z1, Z1; \
	VMULPD    k, Z1, Z1; \
	VADDPD    Z1, Z0, Z0

// ZK(o, z, x) is HK into a zmm.
#define ZK(o, z, x) \
	VMOVSD o(DX), x; \
	VDIVSD X11, x, x; \
	VBROADCASTSD x, z

// func hotAxpysAVX512(hot *uint8, h int, idx *int, first, n int, c *float64, offs *uint32, out *float64)
//
// hotAxpysAVX2 in AVX-512 (Foundation), two chunks a register: their
// entries loaded into the register's halves from their two offsets, the
// four rows' eight bytes widened in one step; h a multiple of 8. The
// same operations on each entry in the same order: the bits of the AVX2
// kernel and of saxpy (TestHotAxpys).
TEXT ·hotAxpysAVX512(SB), NOSPLIT, $0-64
	MOVQ h+8(FP), R9
	MOVQ idx+16(FP), R11
	MOVQ first+24(FP), R12
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), DX
	MOVQ offs+48(FP), R10
	MOVQ out+56(FP), DI
	VMOVSD hot255<>(SB), X11
	VPBROADCASTQ hotTwo52<>(SB), Z10

zfour:
	CMPQ CX, $4
	JLT  zone
	HROW(SI, z0)
	HROW(BX, z1)
	HROW(R13, z2)
	HROW(R14, z3)
	ZK(0, Z12, X12)
	ZK(8, Z13, X13)
	ZK(16, Z14, X14)
	ZK(24, Z15, X15)
	XORQ AX, AX

zchunk4:
	MOVL    (R10)(AX*1), R8
	VMOVUPD (DI)(R8*1), Y0
	MOVL    4(R10)(AX*1), R8
	VINSERTF64X4 $1, (DI)(R8*1), Z0, Z0
	ZTERM(SI, Z12)
	ZTERM(BX, Z13)
	ZTERM(R13, Z14)
	ZTERM(R14, Z15)
	VEXTRACTF64X4 $1, Z0, (DI)(R8*1)
	MOVL    (R10)(AX*1), R8
	VMOVUPD Y0, (DI)(R8*1)
	ADDQ    $8, AX
	CMPQ    AX, R9
	JLT     zchunk4
	ADDQ $32, DX
	SUBQ $4, CX
	JMP  zfour

zone:
	TESTQ CX, CX
	JEQ   zdone
	HROW(SI, z4)
	ZK(0, Z12, X12)
	XORQ AX, AX

zchunk1:
	MOVL    (R10)(AX*1), R8
	VMOVUPD (DI)(R8*1), Y0
	MOVL    4(R10)(AX*1), R8
	VINSERTF64X4 $1, (DI)(R8*1), Z0, Z0
	ZTERM(SI, Z12)
	VEXTRACTF64X4 $1, Z0, (DI)(R8*1)
	MOVL    (R10)(AX*1), R8
	VMOVUPD Y0, (DI)(R8*1)
	ADDQ    $8, AX
	CMPQ    AX, R9
	JLT     zchunk1
	ADDQ $8, DX
	DECQ CX
	JMP  zone

zdone:
	VZEROUPPER
	RET
