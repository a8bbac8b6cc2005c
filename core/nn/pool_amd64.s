//go:build !purego

#include "textflag.h"

// The window positions 3, 2, 1 as int32 lanes, VPSHUFB's selection of
// each 32-bit lane's low byte into a 128-bit lane's first four, and the
// sign bits.
DATA pool3<>+0(SB)/8, $0x0000000300000003
DATA pool3<>+8(SB)/8, $0x0000000300000003
DATA pool3<>+16(SB)/8, $0x0000000300000003
DATA pool3<>+24(SB)/8, $0x0000000300000003
GLOBL pool3<>(SB), RODATA|NOPTR, $32
DATA pool2<>+0(SB)/8, $0x0000000200000002
DATA pool2<>+8(SB)/8, $0x0000000200000002
DATA pool2<>+16(SB)/8, $0x0000000200000002
DATA pool2<>+24(SB)/8, $0x0000000200000002
GLOBL pool2<>(SB), RODATA|NOPTR, $32
DATA pool1<>+0(SB)/8, $0x0000000100000001
DATA pool1<>+8(SB)/8, $0x0000000100000001
DATA pool1<>+16(SB)/8, $0x0000000100000001
DATA pool1<>+24(SB)/8, $0x0000000100000001
GLOBL pool1<>(SB), RODATA|NOPTR, $32
DATA poolbytes<>+0(SB)/8, $0x808080800c080400
DATA poolbytes<>+8(SB)/8, $0x8080808080808080
DATA poolbytes<>+16(SB)/8, $0x808080800c080400
DATA poolbytes<>+24(SB)/8, $0x8080808080808080
GLOBL poolbytes<>(SB), RODATA|NOPTR, $32
DATA poolsign<>+0(SB)/8, $0x8000000080000000
DATA poolsign<>+8(SB)/8, $0x8000000080000000
DATA poolsign<>+16(SB)/8, $0x8000000080000000
DATA poolsign<>+24(SB)/8, $0x8000000080000000
GLOBL poolsign<>(SB), RODATA|NOPTR, $32

// MAX32 sets r to max32(x, y) lane by lane as Go's max compiles on
// amd64, so that ties, ±0 and NaNs (their payloads too) come out as
// poolReLUGo's: −(m1 | min(m1, −x)) with m1 = min(−x, −y), min being
// MINPS's (the first operand where it is below the second, else the
// second). Y11–Y13 are scratch; r may be x or y.
#define MAX32(x, y, r) \
	VXORPS poolsign<>(SB), x, Y11; VXORPS poolsign<>(SB), y, Y12; \
	VMINPS Y12, Y11, Y13; VMINPS Y11, Y13, Y12; VORPS Y13, Y12, Y12; \
	VXORPS poolsign<>(SB), Y12, r

// WINDOWS computes eight windows from the 16 values of each row loaded
// by LOAD into Y0, Y1 (row 2y) and Y2, Y3 (row 2y+1): the even and odd
// columns (VSHUFPS, windows in the order 0 1 4 5 2 3 6 7), their
// maxima, the first position holding the maximum (3, then 2, 1, 0
// where equal), max32(m, 0); then both back in window order (VPERMPD)
// in Y10 (the outputs) and X8 (the positions, a byte each).
#define WINDOWS(LOAD0, LOAD1) \
	LOAD0((AX), Y0); LOAD1(32(AX), Y1); LOAD0((AX)(R10*1), Y2); LOAD1(32(AX)(R10*1), Y3); \
	VSHUFPS $0x88, Y1, Y0, Y4; VSHUFPS $0xdd, Y1, Y0, Y5; \
	VSHUFPS $0x88, Y3, Y2, Y6; VSHUFPS $0xdd, Y3, Y2, Y7; \
	MAX32(Y4, Y5, Y8); MAX32(Y6, Y7, Y9); MAX32(Y8, Y9, Y10); \
	VMOVUPS pool3<>(SB), Y8; \
	VCMPPS $0, Y10, Y6, Y12; VBLENDVPS Y12, pool2<>(SB), Y8, Y8; \
	VCMPPS $0, Y10, Y5, Y12; VBLENDVPS Y12, pool1<>(SB), Y8, Y8; \
	VCMPPS $0, Y10, Y4, Y12; VANDNPS Y8, Y12, Y8; \
	VXORPS Y9, Y9, Y9; MAX32(Y10, Y9, Y10); \
	VPERMPD $0xd8, Y10, Y10; VPERMPD $0xd8, Y8, Y8; \
	VPSHUFB poolbytes<>(SB), Y8, Y8; VEXTRACTI128 $1, Y8, X12; VPUNPCKLDQ X12, X8, X8

#define LOADU(mem, y) VMOVUPS mem, y
#define LOADM0(mem, y) VMASKMOVPS mem, Y14, y
#define LOADM1(mem, y) VMASKMOVPS mem, Y15, y

// func poolAsm(a *float32, c, h, w int, out *float32, arg *uint8)
//
// poolReLUGo for c ≥ 1, h, w ≥ 2: eight windows at a time (max32 as Go
// compiles it, the positions by compares and blends, no branch), the
// last ow mod 8 of a row with masked loads, a masked store of the
// outputs and the positions a byte at a time.
//
// Registers: SI the plane, R8 channels left, R9 rows of windows left,
// R10 a row's bytes (w·4), R11 ow, R12 the windows left in the row, AX
// the row pair's window, DX out, DI arg, R13 a plane's bytes, BX the
// row pair, CX and R14 scratch.
TEXT ·poolAsm(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ c+8(FP), R8
	MOVQ w+24(FP), R10
	MOVQ R10, R11
	SHRQ $1, R11
	SHLQ $2, R10
	MOVQ h+16(FP), R13
	IMULQ R10, R13
	MOVQ out+32(FP), DX
	MOVQ arg+40(FP), DI

plane:
	MOVQ h+16(FP), R9
	SHRQ $1, R9
	MOVQ SI, BX

rowpair:
	MOVQ BX, AX
	MOVQ R11, R12

win8:
	CMPQ R12, $8
	JLT  wintail
	WINDOWS(LOADU, LOADU)
	VMOVUPS Y10, (DX)
	MOVQ X8, (DI)
	ADDQ $64, AX
	ADDQ $32, DX
	ADDQ $8, DI
	SUBQ $8, R12
	JMP  win8

wintail:
	TESTQ R12, R12
	JZ    nextrow
	// Masks: Y14 the first min(2r, 8) lanes, Y15 the next 2r − 8.
	LEAQ ·tailmask(SB), CX
	LEAQ (R12)(R12*1), R14
	CMPQ R14, $8
	JLE  lo
	MOVQ $8, R14
lo:
	NEGQ R14
	VMOVUPS 32(CX)(R14*4), Y14
	LEAQ -8(R12)(R12*1), R14
	TESTQ R14, R14
	JGE  hi
	XORQ R14, R14
hi:
	NEGQ R14
	VMOVUPS 32(CX)(R14*4), Y15
	WINDOWS(LOADM0, LOADM1)
	MOVQ R12, R14
	NEGQ R14
	VMOVUPS 32(CX)(R14*4), Y14
	VMASKMOVPS Y10, Y14, (DX)
	LEAQ (DX)(R12*4), DX
	MOVQ X8, CX

bytes:
	MOVB CX, (DI)
	SHRQ $8, CX
	INCQ DI
	DECQ R12
	JNZ  bytes

nextrow:
	LEAQ (BX)(R10*2), BX
	DECQ R9
	JNZ  rowpair
	ADDQ R13, SI
	DECQ R8
	JNZ  plane
	VZEROUPPER
	RET

// func unpoolAsm(dq, q *float32, arg *uint8, c, h, w int, da *float32)
//
// unpoolGo's scatter for c ≥ 1, h, w ≥ 2, writing every value of the
// windows' 2×2 blocks (the routed gradient where q > 0 and the position
// is the window's argmax, +0 elsewhere; an odd last row or column is
// left to the caller's clear): eight windows at a time — v = dq where
// q > 0 else +0, ANDed with the position's four masks, unpacked into the
// two rows' order — then one at a time.
//
// Registers: SI dq, BX q, DI arg, DX the plane, AX the row pair, R14 its
// second row, CX the window's byte offset in a row, R8 channels left,
// R9 row pairs left, R10 a row's bytes, R11 ow, R12 windows left in the
// row, R13 a plane's bytes; Y7 zero.
TEXT ·unpoolAsm(SB), NOSPLIT, $0-56
	MOVQ dq+0(FP), SI
	MOVQ q+8(FP), BX
	MOVQ arg+16(FP), DI
	MOVQ c+24(FP), R8
	MOVQ w+40(FP), R10
	MOVQ R10, R11
	SHRQ $1, R11
	SHLQ $2, R10
	MOVQ h+32(FP), R13
	IMULQ R10, R13
	MOVQ da+48(FP), DX
	VXORPS Y7, Y7, Y7

uplane:
	MOVQ h+32(FP), R9
	SHRQ $1, R9
	MOVQ DX, AX

urow:
	LEAQ (AX)(R10*1), R14
	MOVQ R11, R12
	XORQ CX, CX

u8:
	CMPQ R12, $8
	JLT  u1
	VMOVUPS (BX), Y0
	VCMPPS $0x1e, Y7, Y0, Y0
	VANDPS (SI), Y0, Y0
	VPMOVZXBD (DI), Y1
	VPCMPEQD Y7, Y1, Y2
	VANDPS Y2, Y0, Y2
	VPCMPEQD pool1<>(SB), Y1, Y3
	VANDPS Y3, Y0, Y3
	VPCMPEQD pool2<>(SB), Y1, Y4
	VANDPS Y4, Y0, Y4
	VPCMPEQD pool3<>(SB), Y1, Y5
	VANDPS Y5, Y0, Y5
	VUNPCKLPS Y3, Y2, Y6
	VUNPCKHPS Y3, Y2, Y8
	VPERM2F128 $0x20, Y8, Y6, Y9
	VPERM2F128 $0x31, Y8, Y6, Y10
	VMOVUPS Y9, (AX)(CX*1)
	VMOVUPS Y10, 32(AX)(CX*1)
	VUNPCKLPS Y5, Y4, Y6
	VUNPCKHPS Y5, Y4, Y8
	VPERM2F128 $0x20, Y8, Y6, Y9
	VPERM2F128 $0x31, Y8, Y6, Y10
	VMOVUPS Y9, (R14)(CX*1)
	VMOVUPS Y10, 32(R14)(CX*1)
	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $8, DI
	ADDQ $64, CX
	SUBQ $8, R12
	JMP  u8

u1:
	TESTQ R12, R12
	JZ    unext
	VMOVSS (BX), X0
	VCMPPS $0x1e, X7, X0, X0
	VMOVSS (SI), X6
	VANDPS X6, X0, X0
	VPINSRB $0, (DI), X7, X1
	VPCMPEQD X7, X1, X2
	VANDPS X2, X0, X2
	VPCMPEQD pool1<>(SB), X1, X3
	VANDPS X3, X0, X3
	VPCMPEQD pool2<>(SB), X1, X4
	VANDPS X4, X0, X4
	VPCMPEQD pool3<>(SB), X1, X5
	VANDPS X5, X0, X5
	VUNPCKLPS X3, X2, X6
	VMOVQ X6, (AX)(CX*1)
	VUNPCKLPS X5, X4, X6
	VMOVQ X6, (R14)(CX*1)
	ADDQ $4, SI
	ADDQ $4, BX
	INCQ DI
	ADDQ $8, CX
	DECQ R12
	JMP  u1

unext:
	LEAQ (AX)(R10*2), AX
	DECQ R9
	JNZ  urow
	ADDQ R13, DX
	DECQ R8
	JNZ  uplane
	VZEROUPPER
	RET

// func fillAsm(a, bias *float32, rows, p int)
//
// fillBiasGo for rows, p ≥ 1: row r of a set to bias[r], eight values a
// store, the row's last eight by a store ending at its end (which may
// overlap the one before: the same values); rows under eight values one
// at a time.
TEXT ·fillAsm(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), DI
	MOVQ bias+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ p+24(FP), R9
	LEAQ (R9*4), R10
	LEAQ -32(R10), R11

frow:
	VBROADCASTSS (SI), Y0
	CMPQ R9, $8
	JLT  fsmall
	XORQ CX, CX

floop:
	VMOVUPS Y0, (DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, R11
	JLE  floop
	VMOVUPS Y0, (DI)(R11*1)
	JMP  fnext

fsmall:
	XORQ CX, CX

fone:
	VMOVSS X0, (DI)(CX*4)
	INCQ CX
	CMPQ CX, R9
	JLT  fone

fnext:
	ADDQ R10, DI
	ADDQ $4, SI
	DECQ R8
	JNZ  frow
	VZEROUPPER
	RET
