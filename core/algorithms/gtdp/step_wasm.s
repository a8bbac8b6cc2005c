#include "textflag.h"

// Address arithmetic: linear-memory addresses are the low 32 bits of Go's
// 64-bit pointers.
#define ADDR(base, off) Get base; Get off; I64Add; I32WrapI64
// F64 pushes the float at base + off.
#define F64(base, off) ADDR(base, off); F64Load $0
// MUL pushes w·x[base + off]
#define MUL(w, base, off) Get w; F64(base, off); F64Mul
// MULO pushes w·x[base + R9 + o]
#define MULO(w, base, o) Get w; ADDR(base, R9); F64Load $o; F64Mul
// MIX4 is acc[c] = acc[c] + ((w1·o1[c] + w2·o2[c]) + (w3·o3[c] + w4·o4[c]))
// at byte R9 + o of the blocks; MIX1 is acc[c] = acc[c] + w·o[c].
#define MIX4(o) ADDR(R10, R9); ADDR(R10, R9); F64Load $o; MULO(F16, R5, o); MULO(F17, R6, o); F64Add; MULO(F18, R7, o); MULO(F19, R8, o); F64Add; F64Add; F64Add; F64Store $o
#define MIX1(o) ADDR(R10, R9); ADDR(R10, R9); F64Load $o; MULO(F16, R5, o); F64Add; F64Store $o
// BLOCK sets reg = out + col·(2d·8) for the column at col[e+k], trapping
// when the column is not a row of out (Go would panic).
#define BLOCK(k, reg) I64Load col_base+64(FP); Get R3; I64Const $3; I64Shl; I64Add; I32WrapI64; I64Load $(8*k); Tee reg; Get R12; I64GeU; If; Unreachable; End; Get reg; Get R2; I64Mul; Get R11; I64Add; Set reg
// WEIGHT sets freg = val[e+k].
#define WEIGHT(k, freg) I64Load val_base+88(FP); Get R3; I64Const $3; I64Shl; I64Add; I32WrapI64; F64Load $(8*k); Set freg
// NEXT(reg, step, end) advances reg (a byte offset or the row) by step and loops
// while it is below end.
#define NEXT(reg, step, end) Get reg; I64Const $step; I64Add; Tee reg; Get end; I64LtU; BrIf $0
// ROWPTR sets reg = the named slice's base + i·d·8.
#define ROWPTR(slice, reg) I64Load slice; Get R0; Get R1; I64Mul; I64Add; Set reg

// func update(n, d int, out []float64, start, col []int, val, diag, s, x, g, sn, xn, acc []float64, gk, alpha float64)
//
// Step b) of Algorithm 1 for every agent i (see update in step.go, the
// same arithmetic in the same order):
//
//	acc = (w_ii·s_i, w_ii·x_i) + Σ_j w_ij·out_j     (out_j: j's two released vectors)
//	sn_i = acc_s + γ_k·g_i
//	xn_i = acc_x − α·(sn_i − s_i)
//
// Registers: R0 i, R1 d·8, R2 2d·8, R3 e, R4 the row's end in col,
// R5–R8 the blocks of up to four neighbours, R9 the byte offset in a
// block, R10 acc, R11 out, R12 n, R13 s_i, R14 x_i, R15 scratch;
// F16–F19 the neighbours' weights, F20 w_ii, F21 γ_k, F22 α, F23 sn.
TEXT ·update(SB), NOSPLIT, $0-296
	MOVD n+0(FP), R12
	MOVD d+8(FP), R1
	MOVD out_base+16(FP), R11
	MOVD acc_base+256(FP), R10
	Get R1
	I64Const $3
	I64Shl
	Set R1
	Get R1
	I64Const $1
	I64Shl
	Set R2
	F64Load gk+280(FP)
	Set F21
	F64Load alpha+288(FP)
	Set F22

	Block
	Get R12
	I64Eqz
	Get R1
	I64Eqz
	I32Or
	BrIf $0
	I64Const $0
	Set R0
	Loop
		// w_ii, s_i, x_i
		I64Load diag_base+112(FP)
		Get R0
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $0
		Set F20
		ROWPTR(s_base+136(FP), R13)
		ROWPTR(x_base+160(FP), R14)

		// acc = (w_ii·s_i, w_ii·x_i)
		I64Const $0
		Set R9
		Loop
			ADDR(R10, R9)
			MUL(F20, R13, R9)
			F64Store $0
			Get R10
			Get R1
			I64Add
			Set R15
			ADDR(R15, R9)
			MUL(F20, R14, R9)
			F64Store $0
			NEXT(R9, 8, R1)
		End

		// e, end = start[i], start[i+1]
		I64Load start_base+40(FP)
		Get R0
		I64Const $3
		I64Shl
		I64Add
		Tee R15
		I32WrapI64
		I64Load $0
		Set R3
		Get R15
		I32WrapI64
		I64Load $8
		Set R4

		// four neighbours per pass: acc += (w1·o1 + w2·o2) + (w3·o3 + w4·o4)
		Block
		Loop
			Get R3
			I64Const $4
			I64Add
			Get R4
			I64GtS
			BrIf $1
			BLOCK(0, R5)
			BLOCK(1, R6)
			BLOCK(2, R7)
			BLOCK(3, R8)
			WEIGHT(0, F16)
			WEIGHT(1, F17)
			WEIGHT(2, F18)
			WEIGHT(3, F19)
			// two coordinates per pass (2d is even), the second through
			// the loads' and stores' offset 8
			I64Const $0
			Set R9
			Loop
				MIX4(0)
				MIX4(8)
				NEXT(R9, 16, R2)
			End
			Get R3
			I64Const $4
			I64Add
			Set R3
			Br $0
		End
		End

		// the remaining neighbours, one at a time: acc += w·o
		Block
		Loop
			Get R3
			Get R4
			I64GeS
			BrIf $1
			BLOCK(0, R5)
			WEIGHT(0, F16)
			I64Const $0
			Set R9
			Loop
				MIX1(0)
				MIX1(8)
				NEXT(R9, 16, R2)
			End
			Get R3
			I64Const $1
			I64Add
			Set R3
			Br $0
		End
		End

		// sn_i = acc_s + γ_k·g_i;  xn_i = acc_x − α·(sn_i − s_i)
		ROWPTR(g_base+184(FP), R5)
		ROWPTR(sn_base+208(FP), R6)
		ROWPTR(xn_base+232(FP), R7)
		Get R10
		Get R1
		I64Add
		Set R8
		I64Const $0
		Set R9
		Loop
			F64(R10, R9)
			MUL(F21, R5, R9)
			F64Add
			Set F23
			ADDR(R6, R9)
			Get F23
			F64Store $0
			ADDR(R7, R9)
			F64(R8, R9)
			Get F22
			Get F23
			F64(R13, R9)
			F64Sub
			F64Mul
			F64Sub
			F64Store $0
			NEXT(R9, 8, R1)
		End

		NEXT(R0, 1, R12)
	End
	End
	RET
