//go:build amd64 && !purego

#include "textflag.h"

// Constants, each twice (one per SSE2 lane); 16-byte symbols are 16-byte
// aligned by the linker, as the packed-arithmetic memory operands need.
DATA expAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA expAbs<>+8(SB)/8, $0x7fffffffffffffff
GLOBL expAbs<>(SB), RODATA|NOPTR, $16
DATA expNearZero<>+0(SB)/8, $0x3e30000000000000
DATA expNearZero<>+8(SB)/8, $0x3e30000000000000
GLOBL expNearZero<>(SB), RODATA|NOPTR, $16
DATA expFastMax<>+0(SB)/8, $0x4085e00000000000
DATA expFastMax<>+8(SB)/8, $0x4085e00000000000
GLOBL expFastMax<>(SB), RODATA|NOPTR, $16
DATA expLog2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+8(SB)/8, $0x3ff71547652b82fe
GLOBL expLog2e<>(SB), RODATA|NOPTR, $16
DATA expHalf<>+0(SB)/8, $0x3fe0000000000000
DATA expHalf<>+8(SB)/8, $0x3fe0000000000000
GLOBL expHalf<>(SB), RODATA|NOPTR, $16
DATA expLn2Hi<>+0(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+8(SB)/8, $0x3fe62e42fee00000
GLOBL expLn2Hi<>(SB), RODATA|NOPTR, $16
DATA expLn2Lo<>+0(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+8(SB)/8, $0x3dea39ef35793c76
GLOBL expLn2Lo<>(SB), RODATA|NOPTR, $16
DATA expP1<>+0(SB)/8, $0x3fc5555555555555
DATA expP1<>+8(SB)/8, $0x3fc5555555555555
GLOBL expP1<>(SB), RODATA|NOPTR, $16
DATA expP2<>+0(SB)/8, $0xbf66c16c16bebd93
DATA expP2<>+8(SB)/8, $0xbf66c16c16bebd93
GLOBL expP2<>(SB), RODATA|NOPTR, $16
DATA expP3<>+0(SB)/8, $0x3f11566aaf25de2c
DATA expP3<>+8(SB)/8, $0x3f11566aaf25de2c
GLOBL expP3<>(SB), RODATA|NOPTR, $16
DATA expP4<>+0(SB)/8, $0xbebbbd41c5d26bf1
DATA expP4<>+8(SB)/8, $0xbebbbd41c5d26bf1
GLOBL expP4<>(SB), RODATA|NOPTR, $16
DATA expP5<>+0(SB)/8, $0x3e66376972bea4d0
DATA expP5<>+8(SB)/8, $0x3e66376972bea4d0
GLOBL expP5<>(SB), RODATA|NOPTR, $16
DATA expOne<>+0(SB)/8, $0x3ff0000000000000
DATA expOne<>+8(SB)/8, $0x3ff0000000000000
GLOBL expOne<>(SB), RODATA|NOPTR, $16
DATA expTwo<>+0(SB)/8, $0x4000000000000000
DATA expTwo<>+8(SB)/8, $0x4000000000000000
GLOBL expTwo<>(SB), RODATA|NOPTR, $16
// The exponent bias as two int32 lanes (k sits in the low 64 bits).
DATA expBias<>+0(SB)/4, $1023
DATA expBias<>+4(SB)/4, $1023
DATA expBias<>+8(SB)/4, $0
DATA expBias<>+12(SB)/4, $0
GLOBL expBias<>(SB), RODATA|NOPTR, $16

// func expPairs(dst, src *float64, n int) int
//
// Exp's body (num.go) on two values per step, with SSE2 (every amd64 has
// it): the same operations in the same order, no fused multiply-add. It
// stops at the first pair with a value outside 2⁻²⁸ ≤ |x| ≤ 700 (NaN
// included: the ordered comparisons fail on it), where Exp takes another
// branch, and returns how many values it wrote; n is even.
TEXT ·expPairs(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	PXOR X15, X15

loop:
	CMPQ AX, CX
	JGE  done
	MOVUPD (SI)(AX*8), X0 // x

	// Fast range: 2⁻²⁸ ≤ |x| ≤ 700 in both lanes, so that k ∈ [−1010, 1010].
	MOVAPD  X0, X1
	ANDPD   expAbs<>(SB), X1 // |x|
	MOVAPD  expNearZero<>(SB), X2
	CMPPD   X1, X2, $2 // X2 = 2⁻²⁸ ≤ |x| (Go's order: src, dst)
	MOVAPD  X1, X3
	CMPPD   expFastMax<>(SB), X3, $2 // X3 = |x| ≤ 700
	ANDPD   X3, X2
	MOVMSKPD X2, BX
	CMPQ    BX, $3
	JNE     done

	// k = int(log2e·x ± ½), truncated toward zero as Go's conversion.
	MOVAPD    expLog2e<>(SB), X1
	MULPD     X0, X1 // log2e·x
	MOVAPD    expAbs<>(SB), X2
	ANDNPD    X0, X2 // sign of x
	ORPD      expHalf<>(SB), X2 // ±½
	ADDPD     X2, X1 // log2e·x ± ½ (a − ½ = a + (−½) exactly)
	CVTTPD2PL X1, X3 // k, two int32 lanes
	CVTPL2PD  X3, X4 // float64(k)

	// hi = x − k·ln2Hi, lo = k·ln2Lo, r = hi − lo.
	MOVAPD X4, X5
	MULPD  expLn2Hi<>(SB), X5
	MOVAPD X0, X6
	SUBPD  X5, X6 // hi
	MULPD  expLn2Lo<>(SB), X4 // lo
	MOVAPD X6, X7
	SUBPD  X4, X7 // r

	// t = r², c = r − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))).
	MOVAPD X7, X8
	MULPD  X7, X8 // t
	MOVAPD X8, X9
	MULPD  expP5<>(SB), X9
	ADDPD  expP4<>(SB), X9
	MULPD  X8, X9
	ADDPD  expP3<>(SB), X9
	MULPD  X8, X9
	ADDPD  expP2<>(SB), X9
	MULPD  X8, X9
	ADDPD  expP1<>(SB), X9
	MULPD  X8, X9
	MOVAPD X7, X10
	SUBPD  X9, X10 // c

	// y = 1 − ((lo − r·c/(2 − c)) − hi).
	MOVAPD X7, X11
	MULPD  X10, X11 // r·c
	MOVAPD expTwo<>(SB), X12
	SUBPD  X10, X12 // 2 − c
	DIVPD  X12, X11
	SUBPD  X11, X4 // lo − r·c/(2 − c)
	SUBPD  X6, X4
	MOVAPD expOne<>(SB), X13
	SUBPD  X4, X13 // y

	// y·2^k: the exponent field (k + 1023) << 52, exact as in Exp.
	PADDL     expBias<>(SB), X3
	PUNPCKLLQ X15, X3
	PSLLQ     $52, X3
	MULPD     X3, X13
	MOVUPD    X13, (DI)(AX*8)
	ADDQ      $2, AX
	JMP       loop

done:
	MOVQ AX, ret+24(FP)
	RET
