#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
#define ADDR(base, off) Get base; Get off; I64Add; I32WrapI64
// F64 pushes the float at base + off; MUL pushes w·(the float at base + off).
#define F64(base, off) ADDR(base, off); F64Load $0
#define MUL(w, base, off) Get w; F64(base, off); F64Mul
// NEXT(reg, step, end) advances reg by step and loops while it is below end.
#define NEXT(reg, step, end) Get reg; I64Const $step; I64Add; Tee reg; Get end; I64LtU; BrIf $0
// BLOCK sets reg = v + col·(d·8) for the column col[e+k], trapping when
// it is not an agent (Go would panic).
#define BLOCK(k, reg) Get R13; Get R3; I64Const $3; I64Shl; I64Add; I32WrapI64; I64Load $(8*k); Tee reg; Get R2; I64GeU; If; Unreachable; End; Get reg; Get R1; I64Mul; Get R11; I64Add; Set reg
// EACH opens the loop over the byte offset R9 < R1 = len·8 of the
// element-wise kernels (R1 holds len on entry; nothing when it is 0);
// DONE closes it.
#define EACH Get R1; I64Const $3; I64Shl; Set R1; Block; Get R1; I64Eqz; BrIf $0; I64Const $0; Set R9; Loop
#define DONE NEXT(R9, 8, R1); End; End
// WEIGHT sets freg = val[e+k].
#define WEIGHT(k, freg) Get R14; Get R3; I64Const $3; I64Shl; I64Add; I32WrapI64; F64Load $(8*k); Set freg

// func mixAll(n, d int, start, col []int, val, diag, v, out []float64)
//
// For every agent i: out_i = p_ii·v_i, then weights.MixRow's passes:
// out_i[c] = out_i[c] + ((w1·o1[c] + w2·o2[c]) + (w3·o3[c] + w4·o4[c]))
// per four neighbours, out_i[c] = out_i[c] + w·o[c] for the rest.
//
// Registers: R0 i, R1 d·8, R2 n, R3 e, R4 the row's end in col, R5–R8
// the blocks of up to four neighbours, R9 the byte offset in a block,
// R10 out_i, R11 v, R12 v_i, R13 col, R14 val, R15 start; F16–F19 the
// neighbours' weights, F20 p_ii.
TEXT ·mixAll(SB), NOSPLIT, $0-160
	MOVD n+0(FP), R2
	MOVD d+8(FP), R1
	MOVD start_base+16(FP), R15
	MOVD col_base+40(FP), R13
	MOVD val_base+64(FP), R14
	MOVD v_base+112(FP), R11
	MOVD out_base+136(FP), R10
	Get R1
	I64Const $3
	I64Shl
	Set R1
	Get R11
	Set R12

	Block
	Get R2
	I64Eqz
	Get R1
	I64Eqz
	I32Or
	BrIf $0
	I64Const $0
	Set R0
	Loop
		// p_ii, then out_i = p_ii·v_i
		I64Load diag_base+88(FP)
		Get R0
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		F64Load $0
		Set F20
		I64Const $0
		Set R9
		Loop
			ADDR(R10, R9)
			MUL(F20, R12, R9)
			F64Store $0
			NEXT(R9, 8, R1)
		End

		// e, end = start[i], start[i+1]
		Get R15
		Get R0
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $8
		Set R4
		Get R15
		Get R0
		I64Const $3
		I64Shl
		I64Add
		I32WrapI64
		I64Load $0
		Set R3

		// four neighbours per pass
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
			I64Const $0
			Set R9
			Loop
				ADDR(R10, R9)
				F64(R10, R9)
				MUL(F16, R5, R9)
				MUL(F17, R6, R9)
				F64Add
				MUL(F18, R7, R9)
				MUL(F19, R8, R9)
				F64Add
				F64Add
				F64Add
				F64Store $0
				NEXT(R9, 8, R1)
			End
			Get R3
			I64Const $4
			I64Add
			Set R3
			Br $0
		End
		End

		// the remaining neighbours, one at a time
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
				ADDR(R10, R9)
				F64(R10, R9)
				MUL(F16, R5, R9)
				F64Add
				F64Store $0
				NEXT(R9, 8, R1)
			End
			Get R3
			I64Const $1
			I64Add
			Set R3
			Br $0
		End
		End

		Get R10
		Get R1
		I64Add
		Set R10
		Get R12
		Get R1
		I64Add
		Set R12
		NEXT(R0, 1, R2)
	End
	End
	RET

// func round0(x, dv, w, y []float64, om float64)
//
// y[t] = (x[t] + om·dv[t]) + w[t]. Registers: R0 x, R1 len(x)·8, R2 dv,
// R3 w, R4 y, R9 the byte offset; F16 om.
TEXT ·round0(SB), NOSPLIT, $0-104
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R1
	MOVD dv_base+24(FP), R2
	MOVD w_base+48(FP), R3
	MOVD y_base+72(FP), R4
	F64Load om+96(FP)
	Set F16
	EACH
		ADDR(R4, R9)
		F64(R0, R9)
		MUL(F16, R2, R9)
		F64Add
		F64(R3, R9)
		F64Add
		F64Store $0
	DONE
	RET

// func round1(g, q, dv, y, e, a, zc, z []float64, eta, rho float64)
//
// With qt = η·q[t] and ra = ρ·a[t]: zc[t] = (g[t] + qt) + ra, z[t] =
// zc[t] + e[t], q[t] = qt + ra, dv[t] = η·dv[t] + y[t]. Registers: R0 g,
// R1 len(g)·8, R2 q, R3 dv, R4 y, R5 e, R6 a, R7 zc, R8 z, R9 the byte
// offset; F16 η, F17 ρ, F18 qt, F19 ra, F20 zc[t].
TEXT ·round1(SB), NOSPLIT, $0-208
	MOVD g_base+0(FP), R0
	MOVD g_len+8(FP), R1
	MOVD q_base+24(FP), R2
	MOVD dv_base+48(FP), R3
	MOVD y_base+72(FP), R4
	MOVD e_base+96(FP), R5
	MOVD a_base+120(FP), R6
	MOVD zc_base+144(FP), R7
	MOVD z_base+168(FP), R8
	F64Load eta+192(FP)
	Set F16
	F64Load rho+200(FP)
	Set F17
	EACH
		MUL(F16, R2, R9)
		Set F18
		MUL(F17, R6, R9)
		Set F19
		F64(R0, R9)
		Get F18
		F64Add
		Get F19
		F64Add
		Set F20
		ADDR(R7, R9)
		Get F20
		F64Store $0
		ADDR(R8, R9)
		Get F20
		F64(R5, R9)
		F64Add
		F64Store $0
		ADDR(R2, R9)
		Get F18
		Get F19
		F64Add
		F64Store $0
		ADDR(R3, R9)
		MUL(F16, R3, R9)
		F64(R4, R9)
		F64Add
		F64Store $0
	DONE
	RET

// func update(x, w, zc, b []float64, alpha, beta float64)
//
// x[t] = ((x[t] + w[t]) − α·zc[t]) + β·b[t]. Registers: R0 x, R1
// len(x)·8, R2 w, R3 zc, R4 b, R9 the byte offset; F16 α, F17 β.
TEXT ·update(SB), NOSPLIT, $0-112
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R1
	MOVD w_base+24(FP), R2
	MOVD zc_base+48(FP), R3
	MOVD b_base+72(FP), R4
	F64Load alpha+96(FP)
	Set F16
	F64Load beta+104(FP)
	Set F17
	EACH
		ADDR(R0, R9)
		F64(R0, R9)
		F64(R2, R9)
		F64Add
		MUL(F16, R3, R9)
		F64Sub
		MUL(F17, R4, R9)
		F64Add
		F64Store $0
	DONE
	RET
