#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
// A32(p, off) pushes float64 of the float32 at p + off (exact); X(off)
// pushes the float64 at R4 + off.
#define A32(p, off) Get p; I32WrapI64; F32Load $off; F64PromoteF32
#define X(off) Get R4; I32WrapI64; F64Load $off
// ACC(acc, p, off, v) sets acc = acc + float64(p[off])·v.
#define ACC(acc, p, off, v) Get acc; A32(p, off); Get v; F64Mul; F64Add; Set acc
// TERM(w, p, off) adds w·float64(p[off]) to the value on the stack.
#define TERM(w, p, off) Get w; A32(p, off); F64Mul; F64Add
// AXPY(off32, off64) sets out_j = (((out_j + ca·a_j) + cb·b_j) + cc·c_j)
// + ce·e_j at the rows' off32 and out's off64.
#define AXPY(off32, off64) Get R4; I32WrapI64; X(off64); TERM(F16, R0, off32); TERM(F17, R1, off32); TERM(F18, R2, off32); TERM(F19, R3, off32); F64Store $off64
// BUMP(n) advances the rows R0–R3 by n float32s and R4 by n float64s and
// takes n from R5.
#define BUMP(n) Get R0; I64Const $(4*n); I64Add; Set R0; Get R1; I64Const $(4*n); I64Add; Set R1; Get R2; I64Const $(4*n); I64Add; Set R2; Get R3; I64Const $(4*n); I64Add; Set R3; Get R4; I64Const $(8*n); I64Add; Set R4; Get R5; I64Const $n; I64Sub; Set R5

// func dot4Float32(a, b, c, e []float32, x []float64) (sa, sb, sc, se float64)
//
// Two columns per step through advancing pointers, then the odd one.
// Registers: R0–R3 the rows, R4 x, R5 columns left; F16–F19 the sums,
// F20 and F21 x_j and x_{j+1}.
TEXT ·dot4Float32(SB), NOSPLIT, $0-152
	MOVD a_base+0(FP), R0
	MOVD b_base+24(FP), R1
	MOVD c_base+48(FP), R2
	MOVD e_base+72(FP), R3
	MOVD x_base+96(FP), R4
	MOVD x_len+104(FP), R5
	I64Const $0
	F64ReinterpretI64
	Tee F16
	Tee F17
	Tee F18
	Set F19

	Block
	Loop
		Get R5
		I64Const $2
		I64LtU
		BrIf $1
		X(0)
		Set F20
		X(8)
		Set F21
		ACC(F16, R0, 0, F20)
		ACC(F16, R0, 4, F21)
		ACC(F17, R1, 0, F20)
		ACC(F17, R1, 4, F21)
		ACC(F18, R2, 0, F20)
		ACC(F18, R2, 4, F21)
		ACC(F19, R3, 0, F20)
		ACC(F19, R3, 4, F21)
		BUMP(2)
		Br $0
	End
	End
	Block
		Get R5
		I64Eqz
		BrIf $0
		X(0)
		Set F20
		ACC(F16, R0, 0, F20)
		ACC(F17, R1, 0, F20)
		ACC(F18, R2, 0, F20)
		ACC(F19, R3, 0, F20)
	End
	Get SP
	Get F16
	F64Store sa+120(FP)
	Get SP
	Get F17
	F64Store sb+128(FP)
	Get SP
	Get F18
	F64Store sc+136(FP)
	Get SP
	Get F19
	F64Store se+144(FP)
	RET

// func axpy4Float32(ca, cb, cc, ce float64, a, b, c, e []float32, out []float64)
//
// Two entries of out per step through advancing pointers, then the odd
// one. Registers: R0–R3 the rows, R4 out, R5 entries left; F16–F19 the
// four weights.
TEXT ·axpy4Float32(SB), NOSPLIT, $0-152
	Get SP
	F64Load ca+0(FP)
	Set F16
	Get SP
	F64Load cb+8(FP)
	Set F17
	Get SP
	F64Load cc+16(FP)
	Set F18
	Get SP
	F64Load ce+24(FP)
	Set F19
	MOVD a_base+32(FP), R0
	MOVD b_base+56(FP), R1
	MOVD c_base+80(FP), R2
	MOVD e_base+104(FP), R3
	MOVD out_base+128(FP), R4
	MOVD out_len+136(FP), R5

	Block
	Loop
		Get R5
		I64Const $2
		I64LtU
		BrIf $1
		AXPY(0, 0)
		AXPY(4, 8)
		BUMP(2)
		Br $0
	End
	End
	Block
		Get R5
		I64Eqz
		BrIf $0
		AXPY(0, 0)
	End
	RET
