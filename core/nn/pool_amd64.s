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

// func poolAVX2(a *float32, c, h, w int, out *float32, arg *uint8)
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
TEXT ·poolAVX2(SB), NOSPLIT, $0-48
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
