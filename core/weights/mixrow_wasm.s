// Copyright notice: part of dpsim.

#include "textflag.h"

// func MixRow(acc, x []float64, cols []int, vals []float64)
//
// Registers: R0 acc, R1 x, R2 cols, R3 vals (base addresses), R4 len(cols),
// R5 e, R6 d·8 (bytes per block), R7 rows of x (len(x)/d), R8–R11 the
// blocks of up to four neighbours, R12 the byte offset in a block;
// F16–F19 their weights. The loops are WebAssembly's own structured
// loops (Block/Loop/BrIf), not the Go backend's dispatcher.
TEXT ·MixRow(SB), NOSPLIT, $0-96
	MOVD acc_base+0(FP), R0
	MOVD acc_len+8(FP), R6
	MOVD x_base+24(FP), R1
	MOVD x_len+32(FP), R7
	MOVD cols_base+48(FP), R2
	MOVD cols_len+56(FP), R4
	MOVD vals_base+72(FP), R3
	MOVD vals_len+80(FP), R8

	// fewer weights than columns: trap, as vals[:len(cols)] panics in Go.
	Get R8
	Get R4
	I64LtU
	If
		Unreachable
	End

	Block
	// nothing to add: no block or no neighbour.
	Get R6
	I64Eqz
	Get R4
	I64Eqz
	I32Or
	BrIf $0

	Get R7
	Get R6
	I64DivU
	Set R7
	Get R6
	I64Const $3
	I64Shl
	Set R6
	I64Const $0
	Set R5

	// four neighbours per pass
	Block
	Loop
		Get R5
		I64Const $4
		I64Add
		Get R4
		I64GtU
		BrIf $1
		Get R2
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $0
		Tee R8
		Get R7
		I64GeU
		If
			Unreachable
		End
		Get R8
		Get R6
		I64Mul
		Get R1
		I64Add
		Set R8
		Get R2
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $8
		Tee R9
		Get R7
		I64GeU
		If
			Unreachable
		End
		Get R9
		Get R6
		I64Mul
		Get R1
		I64Add
		Set R9
		Get R2
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $16
		Tee R10
		Get R7
		I64GeU
		If
			Unreachable
		End
		Get R10
		Get R6
		I64Mul
		Get R1
		I64Add
		Set R10
		Get R2
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $24
		Tee R11
		Get R7
		I64GeU
		If
			Unreachable
		End
		Get R11
		Get R6
		I64Mul
		Get R1
		I64Add
		Set R11
		Get R3
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $0
		Set F16
		Get R3
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $8
		Set F17
		Get R3
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $16
		Set F18
		Get R3
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $24
		Set F19
		I64Const $0
		Set R12
		Loop
			// acc[c] = acc[c] + ((w1·o1[c] + w2·o2[c]) + (w3·o3[c] + w4·o4[c]))
			Get R0
			Get R12
			I64Add
			I32WrapI64
			Get R0
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			Get F16
			Get R8
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			F64Mul
			Get F17
			Get R9
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			Get F18
			Get R10
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			F64Mul
			Get F19
			Get R11
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			F64Add
			F64Add
			F64Store $0
			Get R12
			I64Const $8
			I64Add
			Tee R12
			Get R6
			I64LtU
			BrIf $0
		End
		Get R5
		I64Const $4
		I64Add
		Set R5
		Br $0
	End
	End

	// the remaining neighbours, one at a time
	Block
	Loop
		Get R5
		Get R4
		I64GeU
		BrIf $1
		Get R2
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $0
		Tee R8
		Get R7
		I64GeU
		If
			Unreachable
		End
		Get R8
		Get R6
		I64Mul
		Get R1
		I64Add
		Set R8
		Get R3
		Get R5
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $0
		Set F16
		I64Const $0
		Set R12
		Loop
			// acc[c] = acc[c] + w·o[c]
			Get R0
			Get R12
			I64Add
			I32WrapI64
			Get R0
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			Get F16
			Get R8
			Get R12
			I64Add
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			F64Store $0
			Get R12
			I64Const $8
			I64Add
			Tee R12
			Get R6
			I64LtU
			BrIf $0
		End
		Get R5
		I64Const $1
		I64Add
		Set R5
		Br $0
	End
	End
	End
	RET
