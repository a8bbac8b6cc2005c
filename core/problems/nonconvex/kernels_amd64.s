//go:build amd64

#include "textflag.h"

// func axpys4AVX2(z, w, out []float64)
//
// Columns in passes: while twelve or more remain, a pass holds eight
// entries of out in Y0, Y1; the last pass holds the rest (up to eleven):
// Y0, Y1 for full fours as far as they go, X2 for a pair, X3 for a last
// one. A pass runs over every row s: entry += w_s·z_s[entry] in each
// lane, so each entry's terms are added in row order, as the Go version
// (whose groups of four rows do the same sums in the same order).
//
// Registers: SI z, DX w, DI out, BX d, R8 bytes per row; in a pass R13
// its first column, AX its full fours (0–2), R12 its pair's byte offset
// (or −1), CX its single's (or −1), R9 the row, R10 w_s's address, R11
// rows left.
TEXT ·axpys4AVX2(SB), NOSPLIT, $0-72
	MOVQ z_base+0(FP), SI
	MOVQ w_base+24(FP), DX
	MOVQ out_base+48(FP), DI
	MOVQ out_len+56(FP), BX
	MOVQ BX, R8
	SHLQ $3, R8
	XORQ R13, R13

pass:
	MOVQ BX, AX
	SUBQ R13, AX // columns left
	JLE  adone
	MOVQ $-1, R12
	MOVQ $-1, CX
	CMPQ AX, $12
	JL   last
	MOVQ $2, AX
	JMP  planned

last:
	MOVQ AX, R9
	SHRQ $2, AX // full fours
	MOVQ AX, R10
	SHLQ $5, R10 // their bytes
	TESTQ $2, R9
	JZ   nopair
	MOVQ R10, R12
	ADDQ $16, R10

nopair:
	TESTQ $1, R9
	JZ    planned
	MOVQ  R10, CX

planned:
	LEAQ (DI)(R13*8), R9 // out's first column of the pass
	CMPQ AX, $1
	JL   l1
	VMOVUPD (R9), Y0
	JE   l1
	VMOVUPD 32(R9), Y1

l1:
	CMPQ R12, $0
	JL   l2
	VMOVUPD (R9)(R12*1), X2

l2:
	CMPQ CX, $0
	JL   l3
	VMOVSD (R9)(CX*1), X3

l3:
	LEAQ (SI)(R13*8), R9
	MOVQ DX, R10
	MOVQ w_len+32(FP), R11

row:
	TESTQ R11, R11
	JZ    rdone
	VBROADCASTSD (R10), Y15
	CMPQ AX, $1
	JL   r1
	VMULPD (R9), Y15, Y4
	VADDPD Y4, Y0, Y0
	JE   r1
	VMULPD 32(R9), Y15, Y5
	VADDPD Y5, Y1, Y1

r1:
	CMPQ R12, $0
	JL   r2
	VMULPD (R9)(R12*1), X15, X6
	VADDPD X6, X2, X2

r2:
	CMPQ CX, $0
	JL   r3
	VMULSD (R9)(CX*1), X15, X7
	VADDSD X7, X3, X3

r3:
	ADDQ R8, R9
	ADDQ $8, R10
	DECQ R11
	JMP  row

rdone:
	LEAQ (DI)(R13*8), R9
	CMPQ AX, $1
	JL   s1
	VMOVUPD Y0, (R9)
	JE   s1
	VMOVUPD Y1, 32(R9)

s1:
	CMPQ R12, $0
	JL   s2
	VMOVUPD X2, (R9)(R12*1)

s2:
	CMPQ CX, $0
	JL   s3
	VMOVSD X3, (R9)(CX*1)

s3:
	// The pass's width: 4·AX, +2 with a pair, +1 with a single.
	SHLQ $2, AX
	ADDQ AX, R13
	CMPQ R12, $0
	JL   w1
	ADDQ $2, R13

w1:
	CMPQ CX, $0
	JL   pass
	INCQ R13
	JMP  pass

adone:
	VZEROUPPER
	RET

DATA sign<>+0(SB)/8, $0x8000000000000000
DATA sign<>+8(SB)/8, $0x8000000000000000
DATA sign<>+16(SB)/8, $0x8000000000000000
DATA sign<>+24(SB)/8, $0x8000000000000000
GLOBL sign<>(SB), RODATA|NOPTR, $32
DATA one<>+0(SB)/8, $0x3ff0000000000000
DATA one<>+8(SB)/8, $0x3ff0000000000000
DATA one<>+16(SB)/8, $0x3ff0000000000000
DATA one<>+24(SB)/8, $0x3ff0000000000000
GLOBL one<>(SB), RODATA|NOPTR, $32

// func margins4AVX2(y, s, e []float64)
//
// v = (−y)·s (the sign flip by XOR, exact), e = −|v| (the sign bit set by
// OR: math.Abs then negation), four samples per step over len(s)&^3.
TEXT ·margins4AVX2(SB), NOSPLIT, $0-72
	MOVQ    y_base+0(FP), SI
	MOVQ    s_base+24(FP), DI
	MOVQ    s_len+32(FP), CX
	MOVQ    e_base+48(FP), DX
	ANDQ    $-4, CX
	XORQ    AX, AX
	VMOVUPD sign<>(SB), Y15

mloop:
	CMPQ    AX, CX
	JGE     mdone
	VXORPD  (SI)(AX*8), Y15, Y0 // −y
	VMULPD  (DI)(AX*8), Y0, Y0  // (−y)·s
	VMOVUPD Y0, (DI)(AX*8)
	VORPD   Y15, Y0, Y1         // −|v|
	VMOVUPD Y1, (DX)(AX*8)
	ADDQ    $4, AX
	JMP     mloop

mdone:
	VZEROUPPER
	RET

// func sigmoids4AVX2(y, s, e []float64)
//
// s = (−y)·(n/(1 + e)) with n = 1 where s ≥ 0 (an ordered comparison:
// false on NaN, as Go's) and e elsewhere, four samples per step over
// len(s)&^3.
TEXT ·sigmoids4AVX2(SB), NOSPLIT, $0-72
	MOVQ    y_base+0(FP), SI
	MOVQ    s_base+24(FP), DI
	MOVQ    s_len+32(FP), CX
	MOVQ    e_base+48(FP), DX
	ANDQ    $-4, CX
	XORQ    AX, AX
	VMOVUPD sign<>(SB), Y15
	VMOVUPD one<>(SB), Y14
	VXORPD  Y13, Y13, Y13

sloop:
	CMPQ      AX, CX
	JGE       sdone
	VMOVUPD   (DX)(AX*8), Y1          // e
	VMOVUPD   (DI)(AX*8), Y0          // v
	VCMPPD    $0x1d, Y13, Y0, Y2      // v ≥ 0 (GE_OQ)
	VBLENDVPD Y2, Y14, Y1, Y3         // n = v ≥ 0 ? 1 : e
	VADDPD    Y1, Y14, Y4             // 1 + e
	VDIVPD    Y4, Y3, Y3              // n/(1 + e)
	VXORPD    (SI)(AX*8), Y15, Y5     // −y
	VMULPD    Y3, Y5, Y5              // (−y)·σ
	VMOVUPD   Y5, (DI)(AX*8)
	ADDQ      $4, AX
	JMP       sloop

sdone:
	VZEROUPPER
	RET
