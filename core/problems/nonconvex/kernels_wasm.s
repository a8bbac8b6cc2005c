#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
// L(p, off) pushes the float at p + off; MUL(w, p, off) pushes w·(p + off).
#define L(p, off) Get p; I32WrapI64; F64Load $off
#define MUL(w, p, off) Get w; L(p, off); F64Mul
// AXPY(off) sets out[off] = (((out + wa·a) + wb·b) + wc·c) + we·e at
// offset off of the current column, the weights in F16–F19 and the rows'
// pointers in R6–R9, out's in R11.
#define AXPY(off) Get R11; I32WrapI64; L(R11, off); MUL(F16, R6, off); F64Add; MUL(F17, R7, off); F64Add; MUL(F18, R8, off); F64Add; MUL(F19, R9, off); F64Add; F64Store $off
// ROWS sets R6–R9 to the four rows from R0 (R5 bytes each).
#define ROWS Get R0; Set R6; Get R6; Get R5; I64Add; Set R7; Get R7; Get R5; I64Add; Set R8; Get R8; Get R5; I64Add; Set R9
// BUMP(n) advances R6–R9 and R11 by n bytes and takes n from R10.
#define BUMP(n) Get R6; I64Const $n; I64Add; Set R6; Get R7; I64Const $n; I64Add; Set R7; Get R8; I64Const $n; I64Add; Set R8; Get R9; I64Const $n; I64Add; Set R9; Get R11; I64Const $n; I64Add; Set R11; Get R10; I64Const $n; I64Sub; Set R10

// func axpys4(z, w, out []float64)
//
// Two entries of out per step through pointers that advance, then the
// odd one; each entry's four terms in row order.
// out_j = (((out_j + wa·a_j) + wb·b_j) + wc·c_j) + we·e_j.
//
// Registers: R0 the group's first row, R1 w, R2 out, R4 rows left, R5
// bytes per row (d·8), R6–R9 the four rows' and R11 out's current column,
// R10 bytes left in a row; F16–F19 the group's four weights.
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
		Get R2
		Set R11
		Get R5
		Set R10
		L(R1, 0)
		Set F16
		L(R1, 8)
		Set F17
		L(R1, 16)
		Set F18
		L(R1, 24)
		Set F19
		Block
		Loop
			Get R10
			I64Const $16
			I64LtU
			BrIf $1
			AXPY(0)
			AXPY(8)
			BUMP(16)
			Br $0
		End
		End
		Block
			Get R10
			I64Eqz
			BrIf $0
			AXPY(0)
		End
		Get R1
		I64Const $32
		I64Add
		Set R1
		Get R0
		Get R5
		I64Const $2
		I64Shl
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
