//go:build !purego

#include "textflag.h"

// The block kernels of kernels_wasm.go. Linear-memory addresses are the
// low 32 bits of Go's 64-bit pointers. Every loop is WebAssembly's own
// (Block/Loop/BrIf), not the Go backend's dispatcher.

// A32(p, off) pushes float64 of the float32 at p + off (exact); X(off)
// pushes the float64 at R4 + off.
#define A32(p, off) Get p; I32WrapI64; F32Load $off; F64PromoteF32
#define X(off) Get R4; I32WrapI64; F64Load $off
// ACC(acc, p, off, v) sets acc = acc + float64(p[off])·v.
#define ACC(acc, p, off, v) Get acc; A32(p, off); Get v; F64Mul; F64Add; Set acc
// TERM(w, p, off) adds w·float64(p[off]) to the value on the stack.
#define TERM(w, p, off) Get w; A32(p, off); F64Mul; F64Add
// AXPY(off32, off64) sets out_j = (((out_j + ca·a_j) + cb·b_j) + cc·c_j)
// + ce·e_j at the rows' off32 and out's off64.
#define AXPY(off32, off64) Get R4; I32WrapI64; X(off64); TERM(F16, R0, off32); TERM(F17, R1, off32); TERM(F18, R2, off32); TERM(F19, R3, off32); F64Store $off64
// BUMP(n) advances the rows R0–R3 by n float32s and R4 by n float64s and
// takes n from R5.
#define BUMP(n) Get R0; I64Const $(4*n); I64Add; Set R0; Get R1; I64Const $(4*n); I64Add; Set R1; Get R2; I64Const $(4*n); I64Add; Set R2; Get R3; I64Const $(4*n); I64Add; Set R3; Get R4; I64Const $(8*n); I64Add; Set R4; Get R5; I64Const $n; I64Sub; Set R5
// VROW(k) pushes the set's row of the group's view row k: first (R13) +
// k when idx (R12) is nil, else idx[k] (R7 the group's idx entries; the
// load at a nil idx reads low memory, discarded by the select).
#define VROW(k) Get R13; I64Const $k; I64Add; Get R7; I32WrapI64; I64Load $(8*k); Get R12; I64Eqz; Select
// ROW(reg, k) sets reg to the address of that row's features: f (R6) +
// row·d·4 (R14).
#define ROW(reg, k) VROW(k); Get R14; I64Mul; Get R6; I64Add; Set reg
// ROWS sets R0–R3 to the group's four rows.
#define ROWS ROW(R0, 0); ROW(R1, 1); ROW(R2, 2); ROW(R3, 3)
// NEXT moves idx (R7) and first (R13) past the group and out or c (R11)
// past its four values, and counts the group off R8.
#define NEXT Get R7; I64Const $32; I64Add; Set R7; Get R13; I64Const $4; I64Add; Set R13; Get R11; I64Const $32; I64Add; Set R11; Get R8; I64Const $1; I64Sub; Set R8
// ARGS loads the view's rows (idx, first) into R12, R7 and R13, and d·4
// into R14.
#define ARGS MOVD idx+8(FP), R12; Get R12; Set R7; MOVD first+16(FP), R13; Get R10; I64Const $2; I64Shl; Set R14

// SACC(acc, p) sets acc = acc + float64(pix at p)·x[col] (x at R9) with
// col's address 2p + R11 (R11 = col − 2·pix), and advances p by one.
#define SACC(acc, p) Get acc; Get p; I32WrapI64; I32Load8U $0; F64ConvertI32U; Get R9; Get p; I64Const $1; I64Shl; Get R11; I64Add; I32WrapI64; I64Load16U $0; I64Const $3; I64Shl; I64Add; I32WrapI64; F64Load $0; F64Mul; F64Add; Set acc; Get p; I64Const $1; I64Add; Set p
// SVROW(k) pushes the set's row of view row k: first (R5) + k when idx
// (R4) is nil, else idx[k] (R6 the idx entries at the group).
#define SVROW(k) Get R5; I64Const $k; I64Add; Get R6; I32WrapI64; I64Load $(8*k); Get R4; I64Eqz; Select
// SAT(k) pushes the address of start[row] for view row k (start at R12).
#define SAT(k) SVROW(k); I64Const $3; I64Shl; Get R12; I64Add; I32WrapI64
// SROW(p, k) sets p to the pixel address of view row k's first nonzero
// (pix at R10).
#define SROW(p, k) SAT(k); I64Load $0; Get R10; I64Add; Set p
// SEND(k) pushes the pixel address just past view row k.
#define SEND(k) SAT(k); I64Load $8; Get R10; I64Add
// SMIN(p, k) sets R8 = min(R8, SEND(k) − p).
#define SMIN(p, k) SEND(k); Get p; I64Sub; Get R8; SEND(k); Get p; I64Sub; Get R8; I64LtU; Select; Set R8
// STAIL(acc, p, k) continues acc over the rest of view row k, R8 its
// end.
#define STAIL(acc, p, k) SEND(k); Set R8; Block; Loop; Get p; Get R8; I64GeU; BrIf $1; SACC(acc, p); Br $0; End; End
// SOUT(acc, off) stores acc/255 at out (R15) + off.
#define SOUT(acc, off) Get R15; I32WrapI64; Get acc; I64Const $0x406fe00000000000; F64ReinterpretI64; F64Div; F64Store $off
// SARGS loads start, col − 2·pix, pix, idx and first.
#define SARGS MOVD start+0(FP), R12; MOVD pix+16(FP), R10; MOVD col+8(FP), R11; Get R11; Get R10; I64Const $1; I64Shl; I64Sub; Set R11; MOVD idx+24(FP), R4; Get R4; Set R6; MOVD first+32(FP), R5
// SNEXT(n) moves idx (R6) and first (R5) past n view rows.
#define SNEXT(n) Get R6; I64Const $(8*n); I64Add; Set R6; Get R5; I64Const $n; I64Add; Set R5

// func dotsF32(f *float32, idx *int, first, groups int, x *float64, d int, out *float64)
//
// For each group of four rows, two columns per step through advancing
// pointers, then the odd one (as dot4Rows in rows.go). Registers: R0–R3
// the rows, R4 x at the column, R5 columns left, R6 f, R7 idx at the
// group, R8 groups left, R9 x, R10 d, R11 out, R12 idx, R13 first at the
// group, R14 d·4; F16–F19 the sums, F20 and F21 x_j and
// x_{j+1}.
TEXT ·dotsF32(SB), NOSPLIT, $0-56
	MOVD f+0(FP), R6
	MOVD groups+24(FP), R8
	MOVD x+32(FP), R9
	MOVD d+40(FP), R10
	MOVD out+48(FP), R11
	ARGS

	Block
	Loop
		Get R8
		I64Eqz
		BrIf $1
		ROWS
		Get R9
		Set R4
		Get R10
		Set R5
		I64Const $0
		F64ReinterpretI64
		Tee F16
		Tee F17
		Tee F18
		Set F19
		Block
		Loop
			Get R5
			I64Const $2
			I64LtU
			BrIf $1
			X(0)
			Set F20
			X(8)
			Set F21
			ACC(F16, R0, 0, F20)
			ACC(F16, R0, 4, F21)
			ACC(F17, R1, 0, F20)
			ACC(F17, R1, 4, F21)
			ACC(F18, R2, 0, F20)
			ACC(F18, R2, 4, F21)
			ACC(F19, R3, 0, F20)
			ACC(F19, R3, 4, F21)
			BUMP(2)
			Br $0
		End
		End
		Block
			Get R5
			I64Eqz
			BrIf $0
			X(0)
			Set F20
			ACC(F16, R0, 0, F20)
			ACC(F17, R1, 0, F20)
			ACC(F18, R2, 0, F20)
			ACC(F19, R3, 0, F20)
		End
		Get R11
		I32WrapI64
		Get F16
		F64Store $0
		Get R11
		I32WrapI64
		Get F17
		F64Store $8
		Get R11
		I32WrapI64
		Get F18
		F64Store $16
		Get R11
		I32WrapI64
		Get F19
		F64Store $24
		NEXT
		Br $0
	End
	End
	RET

// func axpysF32(f *float32, idx *int, first, groups int, c *float64, d int, out *float64)
//
// For each group of four rows, two entries of out per step through
// advancing pointers, then the odd one (as axpy4Rows in rows.go).
// Registers: R0–R3 the rows, R4 out at the entry, R5 entries left, R6 f,
// R7 idx at the group, R8 groups left, R9 out, R10 d, R11 c, R12 idx,
// R13 first at the group, R14 d·4; F16–F19 the four weights.
TEXT ·axpysF32(SB), NOSPLIT, $0-56
	MOVD f+0(FP), R6
	MOVD groups+24(FP), R8
	MOVD c+32(FP), R11
	MOVD d+40(FP), R10
	MOVD out+48(FP), R9
	ARGS

	Block
	Loop
		Get R8
		I64Eqz
		BrIf $1
		ROWS
		Get R11
		I32WrapI64
		F64Load $0
		Set F16
		Get R11
		I32WrapI64
		F64Load $8
		Set F17
		Get R11
		I32WrapI64
		F64Load $16
		Set F18
		Get R11
		I32WrapI64
		F64Load $24
		Set F19
		Get R9
		Set R4
		Get R10
		Set R5
		Block
		Loop
			Get R5
			I64Const $2
			I64LtU
			BrIf $1
			AXPY(0, 0)
			AXPY(4, 8)
			BUMP(2)
			Br $0
		End
		End
		Block
			Get R5
			I64Eqz
			BrIf $0
			AXPY(0, 0)
		End
		NEXT
		Br $0
	End
	End
	RET

// func sdotsPix(start *int, col *uint16, pix *uint8, idx *int, first, groups int, x *float64, out *float64)
//
// For each group of four rows: their chains interleaved over the
// shortest row's count of nonzeros, then each row's rest, each sum left
// to right from +0 (sdot4Pix), divided by 255. Registers: R0–R3 the
// rows' pixel addresses, R4 idx, R5 first at the group, R6 idx at the
// group, R8 the common count left (then a row's end), R9 x, R10 pix, R11
// col − 2·pix, R12 start, R14 groups left, R15 out; F16–F19 the sums.
TEXT ·sdotsPix(SB), NOSPLIT, $0-64
	SARGS
	MOVD groups+40(FP), R14
	MOVD x+48(FP), R9
	MOVD out+56(FP), R15

	Block
	Loop
		Get R14
		I64Eqz
		BrIf $1
		SROW(R0, 0)
		SROW(R1, 1)
		SROW(R2, 2)
		SROW(R3, 3)
		SEND(0)
		Get R0
		I64Sub
		Set R8
		SMIN(R1, 1)
		SMIN(R2, 2)
		SMIN(R3, 3)
		I64Const $0
		F64ReinterpretI64
		Tee F16
		Tee F17
		Tee F18
		Set F19
		Block
		Loop
			Get R8
			I64Eqz
			BrIf $1
			SACC(F16, R0)
			SACC(F17, R1)
			SACC(F18, R2)
			SACC(F19, R3)
			Get R8
			I64Const $1
			I64Sub
			Set R8
			Br $0
		End
		End
		STAIL(F16, R0, 0)
		STAIL(F17, R1, 1)
		STAIL(F18, R2, 2)
		STAIL(F19, R3, 3)
		SOUT(F16, 0)
		SOUT(F17, 8)
		SOUT(F18, 16)
		SOUT(F19, 24)
		SNEXT(4)
		Get R15
		I64Const $32
		I64Add
		Set R15
		Get R14
		I64Const $1
		I64Sub
		Set R14
		Br $0
	End
	End
	RET

// func saxpysPix(start *int, col *uint16, pix *uint8, idx *int, first, n int, c *float64, out *float64)
//
// Row after row, nonzero after nonzero: out[j] = out[j] + k·float64(v)
// with k = c/255 (saxpyPix). Registers: R0 the pixel address, R2 the
// row's end, R3 out[j]'s address, R4 idx, R5 first at the row, R6 idx at
// the row, R9 out, R10 pix, R11 col − 2·pix, R12 start, R14 rows left,
// R15 c; F16 k.
TEXT ·saxpysPix(SB), NOSPLIT, $0-64
	SARGS
	MOVD n+40(FP), R14
	MOVD c+48(FP), R15
	MOVD out+56(FP), R9

	Block
	Loop
		Get R14
		I64Eqz
		BrIf $1
		SROW(R0, 0)
		SEND(0)
		Set R2
		Get R15
		I32WrapI64
		F64Load $0
		I64Const $0x406fe00000000000
		F64ReinterpretI64
		F64Div
		Set F16
		Block
		Loop
			Get R0
			Get R2
			I64GeU
			BrIf $1
			Get R9
			Get R0
			I64Const $1
			I64Shl
			Get R11
			I64Add
			I32WrapI64
			I64Load16U $0
			I64Const $3
			I64Shl
			I64Add
			Tee R3
			I32WrapI64
			Get R3
			I32WrapI64
			F64Load $0
			Get F16
			Get R0
			I32WrapI64
			I32Load8U $0
			F64ConvertI32U
			F64Mul
			F64Add
			F64Store $0
			Get R0
			I64Const $1
			I64Add
			Set R0
			Br $0
		End
		End
		SNEXT(1)
		Get R15
		I64Const $8
		I64Add
		Set R15
		Get R14
		I64Const $1
		I64Sub
		Set R14
		Br $0
	End
	End
	RET

// func maxRow(idx *int, n int) uint
//
// The largest of idx[0 … n−1] as unsigned (a negative entry is huge),
// for the Go side's one bounds check of a view's rows. Registers: R0 idx
// at the entry, R1 entries left, R2 the maximum.
TEXT ·maxRow(SB), NOSPLIT, $0-24
	MOVD idx+0(FP), R0
	MOVD n+8(FP), R1
	I64Const $0
	Set R2
	Block
	Loop
		Get R1
		I64Eqz
		BrIf $1
		Get R0
		I32WrapI64
		I64Load $0
		Get R2
		Get R0
		I32WrapI64
		I64Load $0
		Get R2
		I64GtU
		Select
		Set R2
		Get R0
		I64Const $8
		I64Add
		Set R0
		Get R1
		I64Const $1
		I64Sub
		Set R1
		Br $0
	End
	End
	Get SP
	Get R2
	I64Store ret+16(FP)
	RET
