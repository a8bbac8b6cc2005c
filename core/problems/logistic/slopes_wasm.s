//go:build !purego

#include "textflag.h"

// The passes of slopes_wasm.go around num.ExpTo. Linear-memory addresses
// are the low 32 bits of Go's 64-bit pointers; the loops are
// WebAssembly's own (Block/Loop/BrIf).

// K(bits) pushes the float64 of bits.
#define K(bits) I64Const $bits; F64ReinterpretI64
// NB pushes −b for the row at t (R3): −1 for class 1, +1 otherwise, the
// class y[first + t] when idx (R4) is nil, else y[idx[t]] (the load at a
// nil idx reads low memory, discarded by the select).
#define NB K(0xbff0000000000000); K(0x3ff0000000000000); Get R2; Get R5; Get R3; I64Add; Get R4; Get R3; I64Const $3; I64Shl; I64Add; I32WrapI64; I64Load $0; Get R4; I64Eqz; Select; I64Add; I32WrapI64; I32Load8U $0; I32Const $1; I32Eq; Select
// ARGS loads y, idx and first into R2, R4 and R5, and zeroes t (R3).
#define ARGS MOVD z+0(FP), R0; MOVD e+8(FP), R1; MOVD n+16(FP), R6; MOVD y+24(FP), R2; MOVD idx+32(FP), R4; MOVD first+40(FP), R5; I64Const $0; Set R3
// STEP advances z (R0) and e (R1) by one value and t (R3) by one.
#define STEP Get R0; I64Const $8; I64Add; Set R0; Get R1; I64Const $8; I64Add; Set R1; Get R3; I64Const $1; I64Add; Set R3

// func slopesPre(z, e *float64, n int, y *uint8, idx *int, first int)
//
// Registers: R0 z at t, R1 e at t, R2 y, R3 t, R4 idx, R5 first, R6 n;
// F16 s.
TEXT ·slopesPre(SB), NOSPLIT, $0-48
	ARGS
	Block
	Loop
		Get R3
		Get R6
		I64GeU
		BrIf $1
		NB
		Get R0
		I32WrapI64
		F64Load $0
		F64Mul
		Set F16
		Get R0
		I32WrapI64
		Get F16
		F64Store $0
		Get R1
		I32WrapI64
		Get F16
		F64Abs
		F64Neg
		F64Store $0
		STEP
		Br $0
	End
	End
	RET

// func slopesPost(z, e *float64, n int, y *uint8, idx *int, first int)
//
// Registers as slopesPre's; F16 e[t].
TEXT ·slopesPost(SB), NOSPLIT, $0-48
	ARGS
	Block
	Loop
		Get R3
		Get R6
		I64GeU
		BrIf $1
		Get R1
		I32WrapI64
		F64Load $0
		Set F16
		Get R0
		I32WrapI64
		NB
		K(0x3ff0000000000000)
		Get F16
		Get R0
		I32WrapI64
		F64Load $0
		K(0)
		F64Ge
		Select
		K(0x3ff0000000000000)
		Get F16
		F64Add
		F64Div
		F64Mul
		F64Store $0
		STEP
		Br $0
	End
	End
	RET
