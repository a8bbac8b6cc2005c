#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
#define ADDR(base, off) Get base; Get off; I64Add; I32WrapI64
// F64 pushes the float at base + off; MUL pushes w·x[base + off].
#define F64(base, off) ADDR(base, off); F64Load $0
#define MUL(w, base, off) Get w; F64(base, off); F64Mul
// BLOCK sets reg = x + col·(d·8) for the column cols[e+k], trapping when
// it is not a block of x (Go would panic).
#define BLOCK(k, reg) Get R2; Get R5; I64Const $3; I64Shl; I64Add; I32WrapI64; I64Load $(8*k); Tee reg; Get R7; I64GeU; If; Unreachable; End; Get reg; Get R6; I64Mul; Get R1; I64Add; Set reg
// WEIGHT sets freg = vals[e+k].
#define WEIGHT(k, freg) Get R3; Get R5; I64Const $3; I64Shl; I64Add; I32WrapI64; F64Load $(8*k); Set freg
// NEXT advances the block offset R12 by one value and loops while it is
// inside the block (R6 bytes).
#define NEXT Get R12; I64Const $8; I64Add; Tee R12; Get R6; I64LtU; BrIf $0

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

	// four neighbours per pass: acc[c] = acc[c] + ((w1·o1[c] + w2·o2[c]) + (w3·o3[c] + w4·o4[c]))
	Block
	Loop
		Get R5
		I64Const $4
		I64Add
		Get R4
		I64GtU
		BrIf $1
		BLOCK(0, R8)
		BLOCK(1, R9)
		BLOCK(2, R10)
		BLOCK(3, R11)
		WEIGHT(0, F16)
		WEIGHT(1, F17)
		WEIGHT(2, F18)
		WEIGHT(3, F19)
		I64Const $0
		Set R12
		Loop
			ADDR(R0, R12)
			F64(R0, R12)
			MUL(F16, R8, R12)
			MUL(F17, R9, R12)
			F64Add
			MUL(F18, R10, R12)
			MUL(F19, R11, R12)
			F64Add
			F64Add
			F64Add
			F64Store $0
			NEXT
		End
		Get R5
		I64Const $4
		I64Add
		Set R5
		Br $0
	End
	End

	// the remaining neighbours, one at a time: acc[c] = acc[c] + w·o[c]
	Block
	Loop
		Get R5
		Get R4
		I64GeU
		BrIf $1
		BLOCK(0, R8)
		WEIGHT(0, F16)
		I64Const $0
		Set R12
		Loop
			ADDR(R0, R12)
			F64(R0, R12)
			MUL(F16, R8, R12)
			F64Add
			F64Store $0
			NEXT
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
