//go:build !purego

#include "textflag.h"

// The block kernels of kernels_wasm.go. Linear-memory addresses are the
// low 32 bits of Go's 64-bit pointers. Every loop is WebAssembly's own
// (Block/Loop/BrIf), not the Go backend's dispatcher.

// A32(p, off) pushes float64 of the float32 at p + off (exact); X(off)
// pushes the float64 at R4 + off.
#define A32(p, off) Get p; I32WrapI64; F32Load $off; F64PromoteF32
#define X(off) Get R4; I32WrapI64; F64Load $off
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
// load at a nil idx reads low memory, discarded by the select). The dot
// products' group is one row.
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
// SARGS loads start, col − 2·pix, pix, idx and first.
#define SARGS MOVD start+0(FP), R12; MOVD pix+16(FP), R10; MOVD col+8(FP), R11; Get R11; Get R10; I64Const $1; I64Shl; I64Sub; Set R11; MOVD idx+24(FP), R4; Get R4; Set R6; MOVD first+32(FP), R5
// SNEXT(n) moves idx (R6) and first (R5) past n view rows.
#define SNEXT(n) Get R6; I64Const $(8*n); I64Add; Set R6; Get R5; I64Const $n; I64Add; Set R5

// The dot products sum in core/num's lane order (lanes.go; num.DotOf,
// num.GatherDot): term t to lane t mod 8 (F16–F23) from +0, then the
// tree ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)); WebAssembly rounds each
// multiply and add apart, so the bits are the Go code's.
// ZERO8 sets the eight lanes to +0; TREE pushes their tree.
#define ZERO8 I64Const $0; F64ReinterpretI64; Tee F16; Tee F17; Tee F18; Tee F19; Tee F20; Tee F21; Tee F22; Set F23
#define TREE Get F16; Get F20; F64Add; Get F18; Get F22; F64Add; F64Add; Get F17; Get F21; F64Add; Get F19; Get F23; F64Add; F64Add; F64Add
// LANE32(acc, i) adds float64(row[i])·x[i] (row at R0, x at R4) to acc.
#define LANE32(acc, i) Get acc; A32(R0, (4*i)); X((8*i)); F64Mul; F64Add; Set acc
// TAIL32(k, acc) adds the tail's k-th term (0-based) to acc if the tail
// (R5 terms) has it, else leaves the enclosing block.
#define TAIL32(k, acc) Get R5; I64Const $k; I64LeU; BrIf $0; LANE32(acc, k)
// SLANE(acc, i) adds float64(pix at p + i)·x[col] (p at R0, col's
// address 2(p + i) + R11, x at R9) to acc.
#define SLANE(acc, i) Get acc; Get R0; I32WrapI64; I32Load8U $i; F64ConvertI32U; Get R9; Get R0; I64Const $1; I64Shl; Get R11; I64Add; I32WrapI64; I64Load16U $(2*i); I64Const $3; I64Shl; I64Add; I32WrapI64; F64Load $0; F64Mul; F64Add; Set acc
// STAIL8(k, acc) adds the row's k-th remaining term if it has one (R8
// terms left), else leaves the enclosing block.
#define STAIL8(k, acc) Get R8; I64Const $k; I64LeU; BrIf $0; SLANE(acc, k)

// func dotsF32(f *float32, idx *int, first, n int, x *float64, d int, out *float64)
//
// For each of n rows, eight columns per step through advancing pointers
// into lanes F16–F23, then the last d mod 8 into lanes 0…, then the tree
// (num.DotOf). Registers: R0 the row, R4 x at the column, R5 columns
// left, R6 f, R7 idx at the row, R8 rows left, R9 x, R10 d, R11 out,
// R12 idx, R13 first at the row, R14 d·4.
TEXT ·dotsF32(SB), NOSPLIT, $0-56
	MOVD f+0(FP), R6
	MOVD n+24(FP), R8
	MOVD x+32(FP), R9
	MOVD d+40(FP), R10
	MOVD out+48(FP), R11
	ARGS

	Block
	Loop
		Get R8
		I64Eqz
		BrIf $1
		ROW(R0, 0)
		Get R9
		Set R4
		Get R10
		Set R5
		ZERO8
		Block
		Loop
			Get R5
			I64Const $8
			I64LtU
			BrIf $1
			LANE32(F16, 0)
			LANE32(F17, 1)
			LANE32(F18, 2)
			LANE32(F19, 3)
			LANE32(F20, 4)
			LANE32(F21, 5)
			LANE32(F22, 6)
			LANE32(F23, 7)
			Get R0
			I64Const $32
			I64Add
			Set R0
			Get R4
			I64Const $64
			I64Add
			Set R4
			Get R5
			I64Const $8
			I64Sub
			Set R5
			Br $0
		End
		End
		Block
			TAIL32(0, F16)
			TAIL32(1, F17)
			TAIL32(2, F18)
			TAIL32(3, F19)
			TAIL32(4, F20)
			TAIL32(5, F21)
			TAIL32(6, F22)
		End
		Get R11
		I32WrapI64
		TREE
		F64Store $0
		Get R7
		I64Const $8
		I64Add
		Set R7
		Get R13
		I64Const $1
		I64Add
		Set R13
		Get R11
		I64Const $8
		I64Add
		Set R11
		Get R8
		I64Const $1
		I64Sub
		Set R8
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

// func sdotsPix(start *int, col *uint16, pix *uint8, idx *int, first, n int, x *float64, out *float64)
//
// For each of n rows: its stored nonzeros eight per step into lanes
// F16–F23 (term t to lane t mod 8), then the last count mod 8 into lanes
// 0…, then the tree, divided by 255 (num.GatherDot). Registers: R0 the
// row's pixel address, R2 its end, R4 idx, R5 first at the row, R6 idx
// at the row, R8 the terms left, R9 x, R10 pix, R11 col − 2·pix, R12
// start, R14 rows left, R15 out.
TEXT ·sdotsPix(SB), NOSPLIT, $0-64
	SARGS
	MOVD n+40(FP), R14
	MOVD x+48(FP), R9
	MOVD out+56(FP), R15

	Block
	Loop
		Get R14
		I64Eqz
		BrIf $1
		SROW(R0, 0)
		SEND(0)
		Set R2
		ZERO8
		Block
		Loop
			Get R2
			Get R0
			I64Sub
			I64Const $8
			I64LtU
			BrIf $1
			SLANE(F16, 0)
			SLANE(F17, 1)
			SLANE(F18, 2)
			SLANE(F19, 3)
			SLANE(F20, 4)
			SLANE(F21, 5)
			SLANE(F22, 6)
			SLANE(F23, 7)
			Get R0
			I64Const $8
			I64Add
			Set R0
			Br $0
		End
		End
		Get R2
		Get R0
		I64Sub
		Set R8
		Block
			STAIL8(0, F16)
			STAIL8(1, F17)
			STAIL8(2, F18)
			STAIL8(3, F19)
			STAIL8(4, F20)
			STAIL8(5, F21)
			STAIL8(6, F22)
		End
		Get R15
		I32WrapI64
		TREE
		I64Const $0x406fe00000000000
		F64ReinterpretI64
		F64Div
		F64Store $0
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
