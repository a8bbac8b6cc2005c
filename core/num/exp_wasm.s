//go:build wasm && !purego

#include "textflag.h"

// K pushes the float64 with the given bit pattern: Exp's constants
// (num.go) exactly, with no decimal conversion in the assembler.
#define K(bits) I64Const $bits; F64ReinterpretI64

// INRANGE(x) pushes 2⁻²⁸ ≤ |x| ≤ 700 (an i32; false on NaN, as the
// ordered comparisons fail on it): Exp's common path, where k ∈ [−1010,
// 1010].
#define INRANGE(x) Get x; F64Abs; K(0x3e30000000000000); F64Ge; Get x; F64Abs; K(0x4085e00000000000); F64Le; I32And

// KF(x, k): k = int(log2e·x ± ½), truncated toward zero as Go's
// conversion (a − ½ = a + (−½) exactly), kept as the bits of k + 1.5·2⁵²
// (exact for |k| < 2⁵¹), whose low bits are k in two's complement: F64Trunc
// is one instruction where I64TruncF64S is seven (V8 checks it for a trap).
#define KF(x, k) Get x; K(0x3ff71547652b82fe); F64Mul; K(0x3fe0000000000000); Get x; F64Copysign; F64Add; F64Trunc; K(0x4338000000000000); F64Add; I64ReinterpretF64; Set k

// FK(k) pushes float64(k) (+0 for k = 0, as Go's conversion), exactly.
#define FK(k) Get k; F64ReinterpretI64; K(0x4338000000000000); F64Sub

// LO(k) pushes lo = float64(k)·ln2Lo (recomputed where it is needed, the
// same operation and so the same value, to spare a local).
#define LO(k) FK(k); K(0x3dea39ef35793c76); F64Mul

// HLRT(x, k, hi, r, t): hi = x − float64(k)·ln2Hi, r = hi − lo, t = r·r.
#define HLRT(x, k, hi, r, t) Get x; FK(k); K(0x3fe62e42fee00000); F64Mul; F64Sub; Tee hi; LO(k); F64Sub; Tee r; Get r; F64Mul; Set t

// C(r, t, c): c = r − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))).
#define C(r, t, c) Get r; Get t; K(0x3fc5555555555555); Get t; K(0xbf66c16c16bebd93); Get t; K(0x3f11566aaf25de2c); Get t; K(0xbebbbd41c5d26bf1); Get t; K(0x3e66376972bea4d0); F64Mul; F64Add; F64Mul; F64Add; F64Mul; F64Add; F64Mul; F64Add; F64Mul; F64Sub; Set c

// Y(off, k, r, c, hi) stores (1 − ((lo − r·c/(2 − c)) − hi))·2^k at
// dst + off, the power of two built in its exponent field as in Exp (the
// magic number's own bits shift out).
#define Y(off, k, r, c, hi) Get R0; I32WrapI64; K(0x3ff0000000000000); LO(k); Get r; Get c; F64Mul; K(0x4000000000000000); Get c; F64Sub; F64Div; F64Sub; Get hi; F64Sub; F64Sub; Get k; I64Const $1023; I64Add; I64Const $52; I64Shl; F64ReinterpretI64; F64Mul; F64Store $off

// func expRun(dst, src *float64, n int) int
//
// Exp's body (num.go) as WebAssembly with structured loops (Go's compiled
// loops send every jump through the function's block dispatcher): the
// same IEEE operations in the same order, and WebAssembly has no fused
// multiply-add, so the same bits. Four values per step, their operations
// interleaved phase by phase: one exp is a chain of dependent operations
// (about a hundred cycles) that the processor overlaps only with what
// sits near it in its window; then one value at a time (the tail, or a
// step holding a value outside 2⁻²⁸ ≤ |x| ≤ 700, NaN included, where Exp
// takes another branch). It stops at the first such value and returns
// how many values it wrote.
//
// Registers: R0 dst, R1 src, R2 values left, R3 the count; value v of a
// step has k (KF's form) in R(4+v) and x (then c), hi, r, t in
// F(16+4v)–F(19+4v).
TEXT ·expRun(SB), NOSPLIT, $0-32
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD n+16(FP), R2
	I64Const $0
	Set R3

	Block
	Loop
		Get R2
		I64Const $4
		I64LtU
		BrIf $1
		Get R1
		I32WrapI64
		F64Load $0
		Set F16
		Get R1
		I32WrapI64
		F64Load $8
		Set F20
		Get R1
		I32WrapI64
		F64Load $16
		Set F24
		Get R1
		I32WrapI64
		F64Load $24
		Set F28
		INRANGE(F16)
		INRANGE(F20)
		I32And
		INRANGE(F24)
		I32And
		INRANGE(F28)
		I32And
		I32Eqz
		BrIf $1
		KF(F16, R4)
		KF(F20, R5)
		KF(F24, R6)
		KF(F28, R7)
		HLRT(F16, R4, F17, F18, F19)
		HLRT(F20, R5, F21, F22, F23)
		HLRT(F24, R6, F25, F26, F27)
		HLRT(F28, R7, F29, F30, F31)
		C(F18, F19, F16)
		C(F22, F23, F20)
		C(F26, F27, F24)
		C(F30, F31, F28)
		Y(0, R4, F18, F16, F17)
		Y(8, R5, F22, F20, F21)
		Y(16, R6, F26, F24, F25)
		Y(24, R7, F30, F28, F29)
		Get R0
		I64Const $32
		I64Add
		Set R0
		Get R1
		I64Const $32
		I64Add
		Set R1
		Get R2
		I64Const $4
		I64Sub
		Set R2
		Get R3
		I64Const $4
		I64Add
		Set R3
		Br $0
	End
	End

	Block
	Loop
		Get R2
		I64Eqz
		BrIf $1
		Get R1
		I32WrapI64
		F64Load $0
		Set F16
		INRANGE(F16)
		I32Eqz
		BrIf $1
		KF(F16, R4)
		HLRT(F16, R4, F17, F18, F19)
		C(F18, F19, F16)
		Y(0, R4, F18, F16, F17)
		Get R0
		I64Const $8
		I64Add
		Set R0
		Get R1
		I64Const $8
		I64Add
		Set R1
		Get R2
		I64Const $1
		I64Sub
		Set R2
		Get R3
		I64Const $1
		I64Add
		Set R3
		Br $0
	End
	End
	MOVD R3, ret+24(FP)
	RET
