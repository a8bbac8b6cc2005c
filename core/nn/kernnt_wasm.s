//go:build !purego

#include "textflag.h"

// LANE adds the product of the f32s at R10 + off and R11 + off,
// rounded to float32 first (f32.mul, then f32.add), to lane l.
#define LANE(l, off) Get l; Get R10; I32WrapI64; F32Load $(off); Get R11; I32WrapI64; F32Load $(off); F32Mul; F32Add; Set l
// TAIL adds term q of the tail to lane l (= q) when q < R7 = k mod 8.
#define TAIL(l, q) Get R7; I64Const $(q); I64LeU; BrIf $0; LANE(l, 4*q)
#define ZERO(l) F32Const $(0.0); Set l
#define ZERO8 ZERO(F0); ZERO(F1); ZERO(F2); ZERO(F3); ZERO(F4); ZERO(F5); ZERO(F6); ZERO(F7)
// LANES sets, from R5 = a row's length (k or p), R7 = its length mod 8,
// R5 a row's bytes and R6 the bytes of its whole passes of eight.
#define LANES \
	Get R5; I64Const $7; I64And; Set R7; \
	Get R5; I64Const $2; I64Shl; Set R5; \
	Get R5; Get R7; I64Const $2; I64Shl; I64Sub; Set R6
// TREE sets the f32 at R2 to itself + ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7))
// of the lanes F0–F7.
#define TREE \
	Get R2; I32WrapI64; Get R2; I32WrapI64; F32Load $0; \
	Get F0; Get F4; F32Add; Get F2; Get F6; F32Add; F32Add; \
	Get F1; Get F5; F32Add; Get F3; Get F7; F32Add; F32Add; \
	F32Add; F32Add; F32Store $0

// func kernNTWasm(a, b, c *float32, m, n, k int)
//
// C (m×n) += A (m×k)·B (n×k)ᵀ, all row-major, for m, n, k ≥ 1, every
// output in lanes.go's order: its eight lanes in F0–F7 from +0, term p
// in lane p mod 8, eight terms a pass (the last k mod 8 to lanes 0… in
// turn), then num's tree ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) added to
// C's value. Structured loops (Block/Loop/BrIf), as kernWasm.
//
// Registers: R0 A's row, R1 B, R2 C's entry, R3 rows left, R4 n, R5
// k·4 (a row's bytes), R6 (k − k mod 8)·4, R7 k mod 8, R9 B's row,
// R10/R11 the A and B pointers in the pass, R12 R10's end of whole
// passes, R13 columns left.
TEXT ·kernNTWasm(SB), NOSPLIT, $0-48
	MOVD a+0(FP), R0
	MOVD b+8(FP), R1
	MOVD c+16(FP), R2
	MOVD m+24(FP), R3
	MOVD n+32(FP), R4
	MOVD k+40(FP), R5
	LANES

	Block
	Loop
		Get R3
		I64Eqz
		BrIf $1
		Get R1
		Set R9
		Get R4
		Set R13
		Block
		Loop
			Get R13
			I64Eqz
			BrIf $1
			ZERO8
			Get R0
			Set R10
			Get R9
			Set R11
			Get R0
			Get R6
			I64Add
			Set R12
			Block
			Loop
				Get R10
				Get R12
				I64GeU
				BrIf $1
				LANE(F0, 0)
				LANE(F1, 4)
				LANE(F2, 8)
				LANE(F3, 12)
				LANE(F4, 16)
				LANE(F5, 20)
				LANE(F6, 24)
				LANE(F7, 28)
				Get R10
				I64Const $32
				I64Add
				Set R10
				Get R11
				I64Const $32
				I64Add
				Set R11
				Br $0
			End
			End
			Block
			TAIL(F0, 0)
			TAIL(F1, 1)
			TAIL(F2, 2)
			TAIL(F3, 3)
			TAIL(F4, 4)
			TAIL(F5, 5)
			TAIL(F6, 6)
			End
			TREE
			Get R2
			I64Const $4
			I64Add
			Set R2
			Get R9
			Get R5
			I64Add
			Set R9
			Get R13
			I64Const $1
			I64Sub
			Set R13
			Br $0
		End
		End
		Get R0
		Get R5
		I64Add
		Set R0
		Get R3
		I64Const $1
		I64Sub
		Set R3
		Br $0
	End
	End
	RET

// VAL adds the f32 at R10 + off to lane l; VTAIL adds value q of the
// tail to lane l (= q) when q < R7 = p mod 8.
#define VAL(l, off) Get l; Get R10; I32WrapI64; F32Load $(off); F32Add; Set l
#define VTAIL(l, q) Get R7; I64Const $(q); I64LeU; BrIf $0; VAL(l, 4*q)

// func rowSumsAsm(a *float32, rows, p int, out *float32)
//
// rowSumsGo for rows, p ≥ 1: out[r] += row r's lanes in lanes.go's
// order — F0–F7 from +0, value j in lane j mod 8, eight a pass, the
// last p mod 8 to lanes 0… in turn — combined by num's tree.
//
// Registers: R0 the row, R1 rows left, R2 out's entry, R5 p·4, R6
// (p − p mod 8)·4, R7 p mod 8, R10 the pointer in the pass, R12 its
// end of whole passes.
TEXT ·rowSumsAsm(SB), NOSPLIT, $0-32
	MOVD a+0(FP), R0
	MOVD rows+8(FP), R1
	MOVD p+16(FP), R5
	MOVD out+24(FP), R2
	LANES

	Block
	Loop
		Get R1
		I64Eqz
		BrIf $1
		ZERO8
		Get R0
		Set R10
		Get R0
		Get R6
		I64Add
		Set R12
		Block
		Loop
			Get R10
			Get R12
			I64GeU
			BrIf $1
			VAL(F0, 0)
			VAL(F1, 4)
			VAL(F2, 8)
			VAL(F3, 12)
			VAL(F4, 16)
			VAL(F5, 20)
			VAL(F6, 24)
			VAL(F7, 28)
			Get R10
			I64Const $32
			I64Add
			Set R10
			Br $0
		End
		End
		Block
		VTAIL(F0, 0)
		VTAIL(F1, 1)
		VTAIL(F2, 2)
		VTAIL(F3, 3)
		VTAIL(F4, 4)
		VTAIL(F5, 5)
		VTAIL(F6, 6)
		End
		TREE
		Get R0
		Get R5
		I64Add
		Set R0
		Get R2
		I64Const $4
		I64Add
		Set R2
		Get R1
		I64Const $1
		I64Sub
		Set R1
		Br $0
	End
	End
	RET
