#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
#define ADDR(base, off) Get base; Get off; I64Add; I32WrapI64
// F64 pushes the float at base + off; MUL pushes w·z[base + off].
#define F64(base, off) ADDR(base, off); F64Load $0
#define MUL(w, base, off) Get w; F64(base, off); F64Mul
// ACC sets acc = acc + v·z[base + off].
#define ACC(acc, v, base, off) Get acc; MUL(v, base, off); F64Add; Set acc
// ROWS sets R6–R9 to the four rows from R0 (R5 bytes each).
#define ROWS Get R0; Set R6; Get R6; Get R5; I64Add; Set R7; Get R7; Get R5; I64Add; Set R8; Get R8; Get R5; I64Add; Set R9

// func dots4(z, x, out []float64)
//
// Registers: R0 the group's first row, R1 x, R3 out, R4 rows left, R5
// bytes per row (d·8), R6–R9 the group's four rows, R10 the byte offset
// in a row; F16–F19 the four sums, F20 x_j.
TEXT ·dots4(SB), NOSPLIT, $0-72
	MOVD z_base+0(FP), R0
	MOVD x_base+24(FP), R1
	MOVD x_len+32(FP), R5
	MOVD out_base+48(FP), R3
	MOVD out_len+56(FP), R4
	Get R5
	I64Const $3
	I64Shl
	Set R5

	Block
	Loop
		Get R4
		I64Const $4
		I64LtU
		BrIf $1
		ROWS
		I64Const $0
		F64ReinterpretI64
		Tee F16
		Tee F17
		Tee F18
		Set F19
		I64Const $0
		Set R10
		Block
		Loop
			Get R10
			Get R5
			I64GeU
			BrIf $1
			F64(R1, R10)
			Set F20
			ACC(F16, F20, R6, R10)
			ACC(F17, F20, R7, R10)
			ACC(F18, F20, R8, R10)
			ACC(F19, F20, R9, R10)
			Get R10
			I64Const $8
			I64Add
			Set R10
			Br $0
		End
		End
		Get R3
		I32WrapI64
		Get F16
		F64Store $0
		Get R3
		I32WrapI64
		Get F17
		F64Store $8
		Get R3
		I32WrapI64
		Get F18
		F64Store $16
		Get R3
		I32WrapI64
		Get F19
		F64Store $24
		Get R3
		I64Const $32
		I64Add
		Set R3
		Get R9
		Get R5
		I64Add
		Set R0
		Get R4
		I64Const $4
		I64Sub
		Set R4
		Br $0
	End
	End
	RET

// func axpys4(z, w, out []float64)
//
// Registers: R0 the group's first row, R1 w, R2 out, R4 rows left, R5
// bytes per row (d·8), R6–R9 the group's four rows, R10 the byte offset
// in a row; F16–F19 the group's four weights.
// out_j = (((out_j + wa·a_j) + wb·b_j) + wc·c_j) + we·e_j.
TEXT ·axpys4(SB), NOSPLIT, $0-72
	MOVD z_base+0(FP), R0
	MOVD w_base+24(FP), R1
	MOVD w_len+32(FP), R4
	MOVD out_base+48(FP), R2
	MOVD out_len+56(FP), R5
	Get R5
	I64Const $3
	I64Shl
	Set R5

	Block
	Loop
		Get R4
		I64Const $4
		I64LtU
		BrIf $1
		ROWS
		Get R1
		I32WrapI64
		F64Load $0
		Set F16
		Get R1
		I32WrapI64
		F64Load $8
		Set F17
		Get R1
		I32WrapI64
		F64Load $16
		Set F18
		Get R1
		I32WrapI64
		F64Load $24
		Set F19
		I64Const $0
		Set R10
		Block
		Loop
			Get R10
			Get R5
			I64GeU
			BrIf $1
			ADDR(R2, R10)
			F64(R2, R10)
			MUL(F16, R6, R10)
			F64Add
			MUL(F17, R7, R10)
			F64Add
			MUL(F18, R8, R10)
			F64Add
			MUL(F19, R9, R10)
			F64Add
			F64Store $0
			Get R10
			I64Const $8
			I64Add
			Set R10
			Br $0
		End
		End
		Get R1
		I64Const $32
		I64Add
		Set R1
		Get R9
		Get R5
		I64Add
		Set R0
		Get R4
		I64Const $4
		I64Sub
		Set R4
		Br $0
	End
	End
	RET

// K pushes the float64 with the given bit pattern.
#define K(bits) I64Const $bits; F64ReinterpretI64
// MARGIN(off): s = −y·s at s + off, and e = −|s| at e + off.
#define MARGIN(off) Get R1; I32WrapI64; Get R0; I32WrapI64; F64Load $off; F64Neg; Get R1; I32WrapI64; F64Load $off; F64Mul; Tee F16; F64Store $off; Get R2; I32WrapI64; Get F16; F64Abs; F64Neg; F64Store $off
// SIGMOID(off): s = −y·(n/(1 + e)) at s + off, with n = 1 if s ≥ 0 and
// e below (a select, as the Go version's conditional move).
#define SIGMOID(off) Get R2; I32WrapI64; F64Load $off; Set F17; Get R1; I32WrapI64; Get R0; I32WrapI64; F64Load $off; F64Neg; K(0x3ff0000000000000); Get F17; Get R1; I32WrapI64; F64Load $off; K(0); F64Ge; Select; K(0x3ff0000000000000); Get F17; F64Add; F64Div; F64Mul; F64Store $off
// NEXT(n) advances R0–R2 by n values and takes n from the count R3.
#define NEXT(n) Get R0; I64Const $(8*n); I64Add; Set R0; Get R1; I64Const $(8*n); I64Add; Set R1; Get R2; I64Const $(8*n); I64Add; Set R2; Get R3; I64Const $n; I64Sub; Set R3

// func margins(y, s, e []float64)
//
// The Go version's loop (kernels_go.go), two samples per step then one.
// Registers: R0 y, R1 s, R2 e, R3 samples left; F16 the margin.
TEXT ·margins(SB), NOSPLIT, $0-72
	MOVD y_base+0(FP), R0
	MOVD s_base+24(FP), R1
	MOVD s_len+32(FP), R3
	MOVD e_base+48(FP), R2

	Block
	Loop
		Get R3
		I64Const $2
		I64LtU
		BrIf $1
		MARGIN(0)
		MARGIN(8)
		NEXT(2)
		Br $0
	End
	End
	Block
		Get R3
		I64Eqz
		BrIf $0
		MARGIN(0)
	End
	RET

// func sigmoids(y, s, e []float64)
//
// The Go version's loop (kernels_go.go), two samples per step then one.
// Registers: R0 y, R1 s, R2 e, R3 samples left; F17 e.
TEXT ·sigmoids(SB), NOSPLIT, $0-72
	MOVD y_base+0(FP), R0
	MOVD s_base+24(FP), R1
	MOVD s_len+32(FP), R3
	MOVD e_base+48(FP), R2

	Block
	Loop
		Get R3
		I64Const $2
		I64LtU
		BrIf $1
		SIGMOID(0)
		SIGMOID(8)
		NEXT(2)
		Br $0
	End
	End
	Block
		Get R3
		I64Eqz
		BrIf $0
		SIGMOID(0)
	End
	RET
