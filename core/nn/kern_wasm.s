//go:build !purego

#include "textflag.h"

// Linear-memory addresses are the low 32 bits of Go's 64-bit pointers.
// LOADB sets F10 to B's value at R14 + off; MAC sets acc = acc + a·F10,
// the product rounded to float32 first (f32.mul, then f32.add).
#define LOADB(off) Get R14; I32WrapI64; F32Load $(off); Set F10
#define MAC(acc, a) Get acc; Get a; Get F10; F32Mul; F32Add; Set acc
#define LOADC(ptr, off, acc) Get ptr; I32WrapI64; F32Load $(off); Set acc
#define STOREC(ptr, off, acc) Get ptr; I32WrapI64; Get acc; F32Store $(off)

// PATCHES runs body once per value of the patch matrix, in im2col's
// order: for each channel (R0 its plane, R1 channels left), kernel row
// (R5) and column (R6), for each output row (R8 rows left, R7 its first
// value in x) the wo values at R7 + R9 (R9 the byte offset, below R10 =
// wo·4, advancing by step bytes) against the patch row at R4 + R9; R4 walks the patch matrix. R2
// is a plane's bytes, R3 a row's (w·4), R11 ho, R12 the channel's row
// ky.
#define PATCHES(step, body) \
	Block; Loop; \
		Get R1; I64Eqz; BrIf $1; \
		I64Const $0; Set R5; \
		Get R0; Set R12; \
		Block; Loop; \
			Get R5; I64Const $5; I64GeU; BrIf $1; \
			I64Const $0; Set R6; \
			Block; Loop; \
				Get R6; I64Const $5; I64GeU; BrIf $1; \
				Get R12; Get R6; I64Const $2; I64Shl; I64Add; Set R7; \
				Get R11; Set R8; \
				Block; Loop; \
					Get R8; I64Eqz; BrIf $1; \
					I64Const $0; Set R9; \
					Block; Loop; \
						Get R9; Get R10; I64GeU; BrIf $1; \
						body; \
						Get R9; I64Const $(step); I64Add; Set R9; \
						Br $0; \
					End; End; \
					Get R4; Get R10; I64Add; Set R4; \
					Get R7; Get R3; I64Add; Set R7; \
					Get R8; I64Const $1; I64Sub; Set R8; \
					Br $0; \
				End; End; \
				Get R6; I64Const $1; I64Add; Set R6; \
				Br $0; \
			End; End; \
			Get R12; Get R3; I64Add; Set R12; \
			Get R5; I64Const $1; I64Add; Set R5; \
			Br $0; \
		End; End; \
		Get R0; Get R2; I64Add; Set R0; \
		Get R1; I64Const $1; I64Sub; Set R1; \
		Br $0; \
	End; End

// SHAPE loads the arguments (x, c, h, w, cols) and sets R2, R3, R10,
// R11 as PATCHES wants them.
#define SHAPE \
	MOVD x+0(FP), R0; \
	MOVD c+8(FP), R1; \
	MOVD h+16(FP), R2; \
	MOVD w+24(FP), R3; \
	MOVD cols+32(FP), R4; \
	Get R2; I64Const $4; I64Sub; Set R11; \
	Get R3; I64Const $4; I64Sub; I64Const $2; I64Shl; Set R10; \
	Get R2; Get R3; I64Mul; I64Const $2; I64Shl; Set R2; \
	Get R3; I64Const $2; I64Shl; Set R3

// The two addresses of one value: the patch matrix's and the image's.
#define COLS Get R4; Get R9; I64Add; I32WrapI64
#define IMG Get R7; Get R9; I64Add; I32WrapI64

// MAX32 sets dst to max32(a, b) (nn.go's maxWritten) with selects, no
// branch: a if a > b, a is NaN, or a == b and a's sign bit is clear;
// b otherwise.
#define MAX32(a, b, dst) Get a; Get b; Get a; Get b; F32Gt; Get a; Get a; F32Ne; I32Or; Get a; Get b; F32Eq; Get a; I32ReinterpretF32; I32Const $0; I32GeS; I32And; I32Or; Select; Set dst
// VAL sets reg to the f32 at R7 + R12 + off.
#define VAL(off, reg) Get R7; Get R12; I64Add; I32WrapI64; F32Load $(off); Set reg
#define VAL2(off, reg) Get R7; Get R12; I64Add; Get R3; I64Add; I32WrapI64; F32Load $(off); Set reg

// func kernWasm(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int)
//
// C (m×n, row stride ldc) += A·B for m ≥ 1, n a positive multiple of 4
// and k ≥ 1; A's (i, p) entry at a[i·sai + p·sap], B row-major with row
// stride ldb. A 2×4 tile of C in F0–F7 over the whole of k
// (an odd last row in a 1×4 tile), each adding
// its products in increasing order of p as the scalar loop does. The
// loops are WebAssembly's own structured loops (Block/Loop/BrIf), not
// the Go backend's resumable dispatcher.
//
// Registers: R0 A's tile rows, R1 sai·4, R2 sap·4, R3 B, R4 ldb·4, R5
// C's tile rows, R6 ldc·4, R7 rows left, R8 n·4, R9 k, R10 the column
// offset in bytes, R11/R12 C's two rows at the tile, R13 A's row 0 at
// p, R14 B's row p at the tile, R15 the k counter; F8/F9 the two A
// values, F10 the B value.
TEXT ·kernWasm(SB), NOSPLIT, $0-80
	MOVD a+0(FP), R0
	MOVD sai+8(FP), R1
	MOVD sap+16(FP), R2
	MOVD b+24(FP), R3
	MOVD ldb+32(FP), R4
	MOVD c+40(FP), R5
	MOVD ldc+48(FP), R6
	MOVD m+56(FP), R7
	MOVD n+64(FP), R8
	MOVD k+72(FP), R9
	Get R1
	I64Const $2
	I64Shl
	Set R1
	Get R2
	I64Const $2
	I64Shl
	Set R2
	Get R4
	I64Const $2
	I64Shl
	Set R4
	Get R6
	I64Const $2
	I64Shl
	Set R6
	Get R8
	I64Const $2
	I64Shl
	Set R8

	Block
	Loop
		Get R7
		I64Const $2
		I64LtU
		BrIf $1
		I64Const $0
		Set R10
		Block
		Loop
			Get R10
			Get R8
			I64GeU
			BrIf $1
			Get R5
			Get R10
			I64Add
			Tee R11
			Get R6
			I64Add
			Set R12
			LOADC(R11, 0, F0)
			LOADC(R11, 4, F1)
			LOADC(R11, 8, F2)
			LOADC(R11, 12, F3)
			LOADC(R12, 0, F4)
			LOADC(R12, 4, F5)
			LOADC(R12, 8, F6)
			LOADC(R12, 12, F7)
			Get R0
			Set R13
			Get R3
			Get R10
			I64Add
			Set R14
			Get R9
			Set R15
			Loop
				Get R13
				I32WrapI64
				F32Load $0
				Set F8
				Get R13
				Get R1
				I64Add
				I32WrapI64
				F32Load $0
				Set F9
				LOADB(0)
				MAC(F0, F8)
				MAC(F4, F9)
				LOADB(4)
				MAC(F1, F8)
				MAC(F5, F9)
				LOADB(8)
				MAC(F2, F8)
				MAC(F6, F9)
				LOADB(12)
				MAC(F3, F8)
				MAC(F7, F9)
				Get R13
				Get R2
				I64Add
				Set R13
				Get R14
				Get R4
				I64Add
				Set R14
				Get R15
				I64Const $1
				I64Sub
				Tee R15
				I64Eqz
				I32Eqz
				BrIf $0
			End
			STOREC(R11, 0, F0)
			STOREC(R11, 4, F1)
			STOREC(R11, 8, F2)
			STOREC(R11, 12, F3)
			STOREC(R12, 0, F4)
			STOREC(R12, 4, F5)
			STOREC(R12, 8, F6)
			STOREC(R12, 12, F7)
			Get R10
			I64Const $16
			I64Add
			Set R10
			Br $0
		End
		End
		Get R0
		Get R1
		I64Const $1
		I64Shl
		I64Add
		Set R0
		Get R5
		Get R6
		I64Const $1
		I64Shl
		I64Add
		Set R5
		Get R7
		I64Const $2
		I64Sub
		Set R7
		Br $0
	End
	End

	// An odd last row: a 1×4 tile in F0–F3.
	Get R7
	I64Eqz
	I32Eqz
	If
		I64Const $0
		Set R10
		Block
		Loop
			Get R10
			Get R8
			I64GeU
			BrIf $1
			Get R5
			Get R10
			I64Add
			Set R11
			LOADC(R11, 0, F0)
			LOADC(R11, 4, F1)
			LOADC(R11, 8, F2)
			LOADC(R11, 12, F3)
			Get R0
			Set R13
			Get R3
			Get R10
			I64Add
			Set R14
			Get R9
			Set R15
			Loop
				Get R13
				I32WrapI64
				F32Load $0
				Set F8
				LOADB(0)
				MAC(F0, F8)
				LOADB(4)
				MAC(F1, F8)
				LOADB(8)
				MAC(F2, F8)
				LOADB(12)
				MAC(F3, F8)
				Get R13
				Get R2
				I64Add
				Set R13
				Get R14
				Get R4
				I64Add
				Set R14
				Get R15
				I64Const $1
				I64Sub
				Tee R15
				I64Eqz
				I32Eqz
				BrIf $0
			End
			STOREC(R11, 0, F0)
			STOREC(R11, 4, F1)
			STOREC(R11, 8, F2)
			STOREC(R11, 12, F3)
			Get R10
			I64Const $16
			I64Add
			Set R10
			Br $0
		End
		End
	End
	RET

// func im2colWasm(x *float32, c, h, w int, cols *float32)
//
// im2col's loops (nn.go) as structured WebAssembly loops: the values
// are copied as their bits, two at a time when wo is even.
TEXT ·im2colWasm(SB), NOSPLIT, $0-40
	SHAPE
	// An even wo (every shape of the network): two values per copy.
	Get R10
	I64Const $7
	I64And
	I64Eqz
	If
		PATCHES(8, COLS; IMG; I64Load $0; I64Store $0)
	Else
		PATCHES(4, COLS; IMG; I32Load $0; I32Store $0)
	End
	RET

// func col2imWasm(x *float32, c, h, w int, cols *float32)
//
// col2im's loops: x[…] = x[…] + cols[…] in f32, in col2im's order.
TEXT ·col2imWasm(SB), NOSPLIT, $0-40
	SHAPE
	PATCHES(4, IMG; IMG; F32Load $0; COLS; F32Load $0; F32Add; F32Store $0)
	RET

// func poolAsm(a *float32, c, h, w int, out *float32, arg *uint8)
//
// poolReLU's loops (nn.go), branch-free with selects: per 2×2 window
// v0 v1 / v2 v3, m = max32(max32(v0, v1), max32(v2, v3)), out =
// max32(m, 0) and arg = the first of 0–3 whose value equals m (3 if
// none).
//
// Registers: R0 the channel's plane, R1 channels left, R3 w·4, R4 out,
// R5 arg, R6 output rows left, R7 the window's top row, R8 outputs left
// in the row, R9 oh, R10 ow, R11 a plane's bytes, R12 the byte offset
// of the window in its row; F0–F3 the window, F4–F6 maxima, F7 zero.
TEXT ·poolAsm(SB), NOSPLIT, $0-48
	MOVD a+0(FP), R0
	MOVD c+8(FP), R1
	MOVD h+16(FP), R9
	MOVD w+24(FP), R3
	MOVD out+32(FP), R4
	MOVD arg+40(FP), R5
	Get R9
	Get R3
	I64Mul
	I64Const $2
	I64Shl
	Set R11
	Get R9
	I64Const $1
	I64ShrU
	Set R9
	Get R3
	I64Const $1
	I64ShrU
	Set R10
	Get R3
	I64Const $2
	I64Shl
	Set R3
	I32Const $0
	F32ReinterpretI32
	Set F7

	Block
	Loop
		Get R1
		I64Eqz
		BrIf $1
		Get R0
		Set R7
		Get R9
		Set R6
		Block
		Loop
			Get R6
			I64Eqz
			BrIf $1
			I64Const $0
			Set R12
			Get R10
			Set R8
			Block
			Loop
				Get R8
				I64Eqz
				BrIf $1
				VAL(0, F0)
				VAL(4, F1)
				VAL2(0, F2)
				VAL2(4, F3)
				MAX32(F0, F1, F4)
				MAX32(F2, F3, F5)
				MAX32(F4, F5, F6)
				// out = max32(m, 0)
				Get R4
				I32WrapI64
				MAX32(F6, F7, F4)
				Get F4
				F32Store $0
				// arg: 0 if v0 == m, else 1 if v1 == m, else 2 if v2 == m, else 3
				Get R5
				I32WrapI64
				I32Const $0
				I32Const $1
				I32Const $2
				I32Const $3
				Get F2
				Get F6
				F32Eq
				Select
				Get F1
				Get F6
				F32Eq
				Select
				Get F0
				Get F6
				F32Eq
				Select
				I32Store8 $0
				Get R4
				I64Const $4
				I64Add
				Set R4
				Get R5
				I64Const $1
				I64Add
				Set R5
				Get R12
				I64Const $8
				I64Add
				Set R12
				Get R8
				I64Const $1
				I64Sub
				Set R8
				Br $0
			End
			End
			Get R7
			Get R3
			I64Const $1
			I64Shl
			I64Add
			Set R7
			Get R6
			I64Const $1
			I64Sub
			Set R6
			Br $0
		End
		End
		Get R0
		Get R11
		I64Add
		Set R0
		Get R1
		I64Const $1
		I64Sub
		Set R1
		Br $0
	End
	End
	RET

// func fillAsm(a, bias *float32, rows, p int)
//
// fillBias's loops: row r of a (rows × p) set to bias[r], as 32 bits.
// Registers: R0 a, R1 bias, R2 rows left, R3 p·4, R4 the byte offset.
TEXT ·fillAsm(SB), NOSPLIT, $0-32
	MOVD a+0(FP), R0
	MOVD bias+8(FP), R1
	MOVD rows+16(FP), R2
	MOVD p+24(FP), R3
	Get R3
	I64Const $2
	I64Shl
	Set R3
	Block
	Loop
		Get R2
		I64Eqz
		BrIf $1
		I64Const $0
		Set R4
		Block
		Loop
			Get R4
			Get R3
			I64GeU
			BrIf $1
			Get R0
			Get R4
			I64Add
			I32WrapI64
			Get R1
			I32WrapI64
			I32Load $0
			I32Store $0
			Get R4
			I64Const $4
			I64Add
			Set R4
			Br $0
		End
		End
		Get R0
		Get R3
		I64Add
		Set R0
		Get R1
		I64Const $4
		I64Add
		Set R1
		Get R2
		I64Const $1
		I64Sub
		Set R2
		Br $0
	End
	End
	RET

// func unpoolAsm(dq, q *float32, arg *uint8, c, h, w int, da *float32)
//
// unpool's scatter (da already cleared): for each pooled value k in
// order, if q[k] > 0, da's window position arg[k] gets dq[k], as 32
// bits. Registers: R0 dq, R1 q, R2 arg, R3 channels left, R4 output
// rows per channel (h/2), R5 outputs per row (w/2), R6 w·4, R7 the
// window row's first value in da, R8 rows left, R9 outputs left, R10
// the window's address, R11 the channel's plane, R12 a plane's bytes.
TEXT ·unpoolAsm(SB), NOSPLIT, $0-56
	MOVD dq+0(FP), R0
	MOVD q+8(FP), R1
	MOVD arg+16(FP), R2
	MOVD c+24(FP), R3
	MOVD h+32(FP), R4
	MOVD w+40(FP), R6
	MOVD da+48(FP), R11
	Get R4
	Get R6
	I64Mul
	I64Const $2
	I64Shl
	Set R12
	Get R4
	I64Const $1
	I64ShrU
	Set R4
	Get R6
	I64Const $1
	I64ShrU
	Set R5
	Get R6
	I64Const $2
	I64Shl
	Set R6
	Block
	Loop
		Get R3
		I64Eqz
		BrIf $1
		Get R11
		Set R7
		Get R4
		Set R8
		Block
		Loop
			Get R8
			I64Eqz
			BrIf $1
			Get R7
			Set R10
			Get R5
			Set R9
			Block
			Loop
				Get R9
				I64Eqz
				BrIf $1
				Get R1
				I32WrapI64
				F32Load $0
				I32Const $0
				F32ReinterpretI32
				F32Gt
				If
					// da[window + (a>>1)·w + (a&1)] = dq[k]
					Get R10
					Get R2
					I32WrapI64
					I64Load8U $0
					Tee R13
					I64Const $1
					I64ShrU
					Get R6
					I64Mul
					I64Add
					Get R13
					I64Const $1
					I64And
					I64Const $2
					I64Shl
					I64Add
					I32WrapI64
					Get R0
					I32WrapI64
					I32Load $0
					I32Store $0
				End
				Get R0
				I64Const $4
				I64Add
				Set R0
				Get R1
				I64Const $4
				I64Add
				Set R1
				Get R2
				I64Const $1
				I64Add
				Set R2
				Get R10
				I64Const $8
				I64Add
				Set R10
				Get R9
				I64Const $1
				I64Sub
				Set R9
				Br $0
			End
			End
			Get R7
			Get R6
			I64Const $1
			I64Shl
			I64Add
			Set R7
			Get R8
			I64Const $1
			I64Sub
			Set R8
			Br $0
		End
		End
		Get R11
		Get R12
		I64Add
		Set R11
		Get R3
		I64Const $1
		I64Sub
		Set R3
		Br $0
	End
	End
	RET
