//go:build amd64 && !purego

#include "textflag.h"

// Exp's constants (num.go), each four times (one per AVX2 lane; the SSE2
// loop reads the first two). The linker aligns a 32-byte symbol to 32
// bytes, as SSE2's packed-arithmetic memory operands need (16).
DATA expAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA expAbs<>+8(SB)/8, $0x7fffffffffffffff
DATA expAbs<>+16(SB)/8, $0x7fffffffffffffff
DATA expAbs<>+24(SB)/8, $0x7fffffffffffffff
GLOBL expAbs<>(SB), RODATA|NOPTR, $32
DATA expNearZero<>+0(SB)/8, $0x3e30000000000000
DATA expNearZero<>+8(SB)/8, $0x3e30000000000000
DATA expNearZero<>+16(SB)/8, $0x3e30000000000000
DATA expNearZero<>+24(SB)/8, $0x3e30000000000000
GLOBL expNearZero<>(SB), RODATA|NOPTR, $32
DATA expFastMax<>+0(SB)/8, $0x4085e00000000000
DATA expFastMax<>+8(SB)/8, $0x4085e00000000000
DATA expFastMax<>+16(SB)/8, $0x4085e00000000000
DATA expFastMax<>+24(SB)/8, $0x4085e00000000000
GLOBL expFastMax<>(SB), RODATA|NOPTR, $32
DATA expLog2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+8(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+16(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+24(SB)/8, $0x3ff71547652b82fe
GLOBL expLog2e<>(SB), RODATA|NOPTR, $32
DATA expHalf<>+0(SB)/8, $0x3fe0000000000000
DATA expHalf<>+8(SB)/8, $0x3fe0000000000000
DATA expHalf<>+16(SB)/8, $0x3fe0000000000000
DATA expHalf<>+24(SB)/8, $0x3fe0000000000000
GLOBL expHalf<>(SB), RODATA|NOPTR, $32
DATA expLn2Hi<>+0(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+8(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+16(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+24(SB)/8, $0x3fe62e42fee00000
GLOBL expLn2Hi<>(SB), RODATA|NOPTR, $32
DATA expLn2Lo<>+0(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+8(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+16(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+24(SB)/8, $0x3dea39ef35793c76
GLOBL expLn2Lo<>(SB), RODATA|NOPTR, $32
DATA expP1<>+0(SB)/8, $0x3fc5555555555555
DATA expP1<>+8(SB)/8, $0x3fc5555555555555
DATA expP1<>+16(SB)/8, $0x3fc5555555555555
DATA expP1<>+24(SB)/8, $0x3fc5555555555555
GLOBL expP1<>(SB), RODATA|NOPTR, $32
DATA expP2<>+0(SB)/8, $0xbf66c16c16bebd93
DATA expP2<>+8(SB)/8, $0xbf66c16c16bebd93
DATA expP2<>+16(SB)/8, $0xbf66c16c16bebd93
DATA expP2<>+24(SB)/8, $0xbf66c16c16bebd93
GLOBL expP2<>(SB), RODATA|NOPTR, $32
DATA expP3<>+0(SB)/8, $0x3f11566aaf25de2c
DATA expP3<>+8(SB)/8, $0x3f11566aaf25de2c
DATA expP3<>+16(SB)/8, $0x3f11566aaf25de2c
DATA expP3<>+24(SB)/8, $0x3f11566aaf25de2c
GLOBL expP3<>(SB), RODATA|NOPTR, $32
DATA expP4<>+0(SB)/8, $0xbebbbd41c5d26bf1
DATA expP4<>+8(SB)/8, $0xbebbbd41c5d26bf1
DATA expP4<>+16(SB)/8, $0xbebbbd41c5d26bf1
DATA expP4<>+24(SB)/8, $0xbebbbd41c5d26bf1
GLOBL expP4<>(SB), RODATA|NOPTR, $32
DATA expP5<>+0(SB)/8, $0x3e66376972bea4d0
DATA expP5<>+8(SB)/8, $0x3e66376972bea4d0
DATA expP5<>+16(SB)/8, $0x3e66376972bea4d0
DATA expP5<>+24(SB)/8, $0x3e66376972bea4d0
GLOBL expP5<>(SB), RODATA|NOPTR, $32
DATA expOne<>+0(SB)/8, $0x3ff0000000000000
DATA expOne<>+8(SB)/8, $0x3ff0000000000000
DATA expOne<>+16(SB)/8, $0x3ff0000000000000
DATA expOne<>+24(SB)/8, $0x3ff0000000000000
GLOBL expOne<>(SB), RODATA|NOPTR, $32
DATA expTwo<>+0(SB)/8, $0x4000000000000000
DATA expTwo<>+8(SB)/8, $0x4000000000000000
DATA expTwo<>+16(SB)/8, $0x4000000000000000
DATA expTwo<>+24(SB)/8, $0x4000000000000000
GLOBL expTwo<>(SB), RODATA|NOPTR, $32
// The exponent bias as four int32 lanes (k sits in the low 128 bits, or
// the low 64 for SSE2, whose upper lanes are then zero-extended away).
DATA expBias<>+0(SB)/4, $1023
DATA expBias<>+4(SB)/4, $1023
DATA expBias<>+8(SB)/4, $1023
DATA expBias<>+12(SB)/4, $1023
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
	PUNPCKLLQ X15, X3 // the two low int32 lanes to int64
	PSLLQ     $52, X3
	MULPD     X3, X13
	MOVUPD    X13, (DI)(AX*8)
	ADDQ      $2, AX
	JMP       loop

done:
	MOVQ AX, ret+24(FP)
	RET

// func expQuads(dst, src *float64, n int) int
//
// expPairs with AVX2, four values per step (n a multiple of 4), for CPUs
// that have it (hasAVX2). VEX operands read src2, src1, dst: dst = src1
// op src2, so every subtraction keeps Exp's operand order.
TEXT ·expQuads(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX

qloop:
	CMPQ AX, CX
	JGE  qdone
	VMOVUPD (SI)(AX*8), Y0 // x

	// Fast range: 2⁻²⁸ ≤ |x| ≤ 700 in all four lanes (false on NaN).
	VANDPD    expAbs<>(SB), Y0, Y1 // |x|
	VMOVUPD   expNearZero<>(SB), Y2
	VCMPPD    $2, Y1, Y2, Y2 // 2⁻²⁸ ≤ |x|
	VCMPPD    $2, expFastMax<>(SB), Y1, Y3 // |x| ≤ 700
	VANDPD    Y3, Y2, Y2
	VMOVMSKPD Y2, BX
	CMPQ      BX, $15
	JNE       qdone

	// k = int(log2e·x ± ½), truncated toward zero.
	VMULPD      expLog2e<>(SB), Y0, Y1
	VMOVUPD     expAbs<>(SB), Y2
	VANDNPD     Y0, Y2, Y2 // ¬abs ∧ x: the sign of x
	VORPD       expHalf<>(SB), Y2, Y2 // ±½
	VADDPD      Y2, Y1, Y1 // log2e·x ± ½
	VCVTTPD2DQY Y1, X3 // k, four int32 lanes
	VCVTDQ2PD   X3, Y4 // float64(k)

	// hi = x − k·ln2Hi, lo = k·ln2Lo, r = hi − lo.
	VMULPD expLn2Hi<>(SB), Y4, Y5
	VSUBPD Y5, Y0, Y6 // hi
	VMULPD expLn2Lo<>(SB), Y4, Y4 // lo
	VSUBPD Y4, Y6, Y7 // r

	// t = r², c = r − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))).
	VMULPD Y7, Y7, Y8 // t
	VMULPD expP5<>(SB), Y8, Y9
	VADDPD expP4<>(SB), Y9, Y9
	VMULPD Y8, Y9, Y9
	VADDPD expP3<>(SB), Y9, Y9
	VMULPD Y8, Y9, Y9
	VADDPD expP2<>(SB), Y9, Y9
	VMULPD Y8, Y9, Y9
	VADDPD expP1<>(SB), Y9, Y9
	VMULPD Y8, Y9, Y9
	VSUBPD Y9, Y7, Y10 // c

	// y = 1 − ((lo − r·c/(2 − c)) − hi).
	VMULPD  Y10, Y7, Y11 // r·c
	VMOVUPD expTwo<>(SB), Y12
	VSUBPD  Y10, Y12, Y12 // 2 − c
	VDIVPD  Y12, Y11, Y11
	VSUBPD  Y11, Y4, Y4 // lo − r·c/(2 − c)
	VSUBPD  Y6, Y4, Y4
	VMOVUPD expOne<>(SB), Y13
	VSUBPD  Y4, Y13, Y13 // y

	// y·2^k: the exponent field (k + 1023) << 52.
	VPADDD    expBias<>(SB), X3, X3
	VPMOVZXDQ X3, Y3
	VPSLLQ    $52, Y3, Y3
	VMULPD    Y3, Y13, Y13
	VMOVUPD   Y13, (DI)(AX*8)
	ADDQ      $4, AX
	JMP       qloop

qdone:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
