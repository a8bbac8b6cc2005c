#include "textflag.h"

// func addRows(out, v, nz []float64, rows, dim, stride int)
//
// R0 the current row of out, R1 of v, R2 of nz (addresses), R3 rows
// left, R4 dim·8, R5 stride·8, R6 the byte offset within the row.
TEXT ·addRows(SB), NOSPLIT, $0-96
	MOVD out_base+0(FP), R0
	MOVD v_base+24(FP), R1
	MOVD nz_base+48(FP), R2
	MOVD rows+72(FP), R3
	MOVD dim+80(FP), R4
	MOVD stride+88(FP), R5
	Get R4
	I64Const $3
	I64Shl
	Set R4
	Get R5
	I64Const $3
	I64Shl
	Set R5

	Block
	Get R3
	I64Eqz
	Get R4
	I64Eqz
	I32Or
	BrIf $0
	Loop
		I64Const $0
		Set R6
		Loop
			// out[c] = v[c] + nz[c]
			Get R0
			Get R6
			I64Add
			I32WrapI64
			Get R1
			Get R6
			I64Add
			I32WrapI64
			F64Load $0
			Get R2
			Get R6
			I64Add
			I32WrapI64
			F64Load $0
			F64Add
			F64Store $0
			Get R6
			I64Const $8
			I64Add
			Tee R6
			Get R4
			I64LtU
			BrIf $0
		End
		Get R0
		Get R5
		I64Add
		Set R0
		Get R1
		Get R4
		I64Add
		Set R1
		Get R2
		Get R4
		I64Add
		Set R2
		Get R3
		I64Const $1
		I64Sub
		Tee R3
		I64Eqz
		I32Eqz
		BrIf $0
	End
	End
	RET
