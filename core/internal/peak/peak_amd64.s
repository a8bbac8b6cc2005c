//go:build amd64

#include "textflag.h"

// onePD<> and onePS<>: 1.0 in every lane, then +0 in every lane: the
// products and the sums stay what they were, so no value turns
// subnormal or infinite.
DATA onePD<>+0(SB)/8, $0x3ff0000000000000
DATA onePD<>+8(SB)/8, $0x3ff0000000000000
DATA onePD<>+16(SB)/8, $0x3ff0000000000000
DATA onePD<>+24(SB)/8, $0x3ff0000000000000
DATA onePD<>+32(SB)/8, $0
DATA onePD<>+40(SB)/8, $0
DATA onePD<>+48(SB)/8, $0
DATA onePD<>+56(SB)/8, $0
GLOBL onePD<>(SB), RODATA|NOPTR, $64
DATA onePS<>+0(SB)/8, $0x3f8000003f800000
DATA onePS<>+8(SB)/8, $0x3f8000003f800000
DATA onePS<>+16(SB)/8, $0x3f8000003f800000
DATA onePS<>+24(SB)/8, $0x3f8000003f800000
DATA onePS<>+32(SB)/8, $0
DATA onePS<>+40(SB)/8, $0
DATA onePS<>+48(SB)/8, $0
DATA onePS<>+56(SB)/8, $0
GLOBL onePS<>(SB), RODATA|NOPTR, $64

// Seven multiply chains (Y0–Y6) and seven add chains (Y7–Y13), one
// operation each a pass, by the constants in Y14 and Y15: a pass of
// fourteen operations takes 3.5 cycles on two multiply and two add
// pipes, longer than a chain's latency, so the pipes set the pace.

// func mulAddPD(n int)
TEXT ·mulAddPD(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX
	LEAQ onePD<>(SB), AX
	VMOVUPD (AX), Y14
	VMOVUPD 32(AX), Y15
	VMOVAPD Y14, Y0
	VMOVAPD Y14, Y1
	VMOVAPD Y14, Y2
	VMOVAPD Y14, Y3
	VMOVAPD Y14, Y4
	VMOVAPD Y14, Y5
	VMOVAPD Y14, Y6
	VMOVAPD Y14, Y7
	VMOVAPD Y14, Y8
	VMOVAPD Y14, Y9
	VMOVAPD Y14, Y10
	VMOVAPD Y14, Y11
	VMOVAPD Y14, Y12
	VMOVAPD Y14, Y13

pd:
	VMULPD Y14, Y0, Y0
	VADDPD Y15, Y7, Y7
	VMULPD Y14, Y1, Y1
	VADDPD Y15, Y8, Y8
	VMULPD Y14, Y2, Y2
	VADDPD Y15, Y9, Y9
	VMULPD Y14, Y3, Y3
	VADDPD Y15, Y10, Y10
	VMULPD Y14, Y4, Y4
	VADDPD Y15, Y11, Y11
	VMULPD Y14, Y5, Y5
	VADDPD Y15, Y12, Y12
	VMULPD Y14, Y6, Y6
	VADDPD Y15, Y13, Y13
	DECQ CX
	JNZ  pd
	VZEROUPPER
	RET

// func mulAddPS(n int)
TEXT ·mulAddPS(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX
	LEAQ onePS<>(SB), AX
	VMOVUPS (AX), Y14
	VMOVUPS 32(AX), Y15
	VMOVAPS Y14, Y0
	VMOVAPS Y14, Y1
	VMOVAPS Y14, Y2
	VMOVAPS Y14, Y3
	VMOVAPS Y14, Y4
	VMOVAPS Y14, Y5
	VMOVAPS Y14, Y6
	VMOVAPS Y14, Y7
	VMOVAPS Y14, Y8
	VMOVAPS Y14, Y9
	VMOVAPS Y14, Y10
	VMOVAPS Y14, Y11
	VMOVAPS Y14, Y12
	VMOVAPS Y14, Y13

ps:
	VMULPS Y14, Y0, Y0
	VADDPS Y15, Y7, Y7
	VMULPS Y14, Y1, Y1
	VADDPS Y15, Y8, Y8
	VMULPS Y14, Y2, Y2
	VADDPS Y15, Y9, Y9
	VMULPS Y14, Y3, Y3
	VADDPS Y15, Y10, Y10
	VMULPS Y14, Y4, Y4
	VADDPS Y15, Y11, Y11
	VMULPS Y14, Y5, Y5
	VADDPS Y15, Y12, Y12
	VMULPS Y14, Y6, Y6
	VADDPS Y15, Y13, Y13
	DECQ CX
	JNZ  ps
	VZEROUPPER
	RET

// func readOr(p *byte, n int) uint64
TEXT ·readOr(SB), NOSPLIT, $0-24
	MOVQ   p+0(FP), SI
	MOVQ   n+8(FP), CX
	VPXOR  Y0, Y0, Y0
	VPXOR  Y1, Y1, Y1
	VPXOR  Y2, Y2, Y2
	VPXOR  Y3, Y3, Y3
	ADDQ   SI, CX

rd:
	CMPQ SI, CX
	JGE  rdone
	VPOR (SI), Y0, Y0
	VPOR 32(SI), Y1, Y1
	VPOR 64(SI), Y2, Y2
	VPOR 96(SI), Y3, Y3
	ADDQ $128, SI
	JMP  rd

rdone:
	VPOR       Y1, Y0, Y0
	VPOR       Y3, Y2, Y2
	VPOR       Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPOR       X1, X0, X0
	VMOVQ      X0, AX
	VZEROUPPER
	MOVQ       AX, ret+16(FP)
	RET
