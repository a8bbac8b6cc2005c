//go:build wasm && !purego

#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
// L(p, off) pushes the float at p + off.
#define L(p, off) Get p; I32WrapI64; F64Load $off
// LANE(acc, off) adds z·x at byte offset off of the row's (R6) and x's
// (R7) current column to the lane acc.
#define LANE(acc, off) Get acc; L(R6, off); L(R7, off); F64Mul; F64Add; Set acc
// TAIL(k, acc, off) adds the tail's k-th term (0-based) to acc if the
// tail (R9 terms) has it, else leaves the enclosing block.
#define TAIL(k, acc, off) Get R9; I64Const $k; I64LeU; BrIf $0; LANE(acc, off)

// func dotsWasm(z, x, out *float64, d, n int)
//
// Dots in the lane order of lanes.go: one row at a time, its eight lanes
// in F16–F23, eight columns per step through pointers that advance, then
// the last d mod 8 terms into lanes 0…, then the tree
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)). WebAssembly rounds each
// multiply and add apart (it has no fused multiply-add), so the bits are
// dotsGo's.
//
// Registers: R0 the row, R1 x, R2 out, R4 rows left, R5 the row's bytes
// (8d), R9 d mod 8, R10 the bytes of its whole steps; R6 and R7 the row's
// and x's current column, R8 where the whole steps end.
TEXT ·dotsWasm(SB), NOSPLIT, $0-40
	MOVD z+0(FP), R0
	MOVD x+8(FP), R1
	MOVD out+16(FP), R2
	MOVD d+24(FP), R5
	MOVD n+32(FP), R4
	Get R5
	I64Const $7
	I64And
	Set R9
	Get R5
	I64Const $-8
	I64And
	I64Const $3
	I64Shl
	Set R10
	Get R5
	I64Const $3
	I64Shl
	Set R5

	Block
	Loop
		Get R4
		I64Eqz
		BrIf $1
		I64Const $0
		F64ReinterpretI64
		Tee F16
		Tee F17
		Tee F18
		Tee F19
		Tee F20
		Tee F21
		Tee F22
		Set F23
		Get R0
		Set R6
		Get R1
		Set R7
		Get R0
		Get R10
		I64Add
		Set R8
		Block
		Loop
			Get R6
			Get R8
			I64GeU
			BrIf $1
			LANE(F16, 0)
			LANE(F17, 8)
			LANE(F18, 16)
			LANE(F19, 24)
			LANE(F20, 32)
			LANE(F21, 40)
			LANE(F22, 48)
			LANE(F23, 56)
			Get R6
			I64Const $64
			I64Add
			Set R6
			Get R7
			I64Const $64
			I64Add
			Set R7
			Br $0
		End
		End
		Block
			TAIL(0, F16, 0)
			TAIL(1, F17, 8)
			TAIL(2, F18, 16)
			TAIL(3, F19, 24)
			TAIL(4, F20, 32)
			TAIL(5, F21, 40)
			TAIL(6, F22, 48)
		End
		Get R2
		I32WrapI64
		Get F16
		Get F20
		F64Add
		Get F18
		Get F22
		F64Add
		F64Add
		Get F17
		Get F21
		F64Add
		Get F19
		Get F23
		F64Add
		F64Add
		F64Add
		F64Store $0
		Get R2
		I64Const $8
		I64Add
		Set R2
		Get R0
		Get R5
		I64Add
		Set R0
		Get R4
		I64Const $1
		I64Sub
		Set R4
		Br $0
	End
	End
	RET
