//go:build !purego

#include "textflag.h"

// PATCHROWS runs body once per output row of every 5×5 patch row, in
// im2col's order: for each channel (SI its plane, R8 channels left),
// kernel row (BX = ky·w·4) and column (DX = kx·4), for each of the ho
// output rows (CX rows left) with AX at the image's row y+ky, column
// kx, and DI at the patch matrix's next wo values. body moves the row's
// full vectors (R9 counts its bytes, below R14 = (wo − wo mod 8)·4),
// tail the last wo mod 8 values when there are any (R9 at them; Y15 its
// mask). R10 is a row's bytes (w·4), R11 ho, R12 wo·4, R13 a plane's
// bytes.
#define PATCHROWS(body, tail, chloop, kyloop, kxloop, yloop, vloop, vdone, tdone) \
chloop: \
	XORQ BX, BX; \
kyloop: \
	XORQ DX, DX; \
kxloop: \
	LEAQ (SI)(BX*1), AX; ADDQ DX, AX; \
	MOVQ R11, CX; \
yloop: \
	XORQ R9, R9; \
vloop: \
	CMPQ R9, R14; JGE vdone; \
	body(LOADU, STOREU); \
	ADDQ $32, R9; JMP vloop; \
vdone: \
	CMPQ R9, R12; JGE tdone; \
	tail; \
tdone: \
	ADDQ R12, DI; ADDQ R10, AX; \
	DECQ CX; JNZ yloop; \
	ADDQ $4, DX; CMPQ DX, $20; JLT kxloop; \
	ADDQ R10, BX; LEAQ (R10)(R10*4), AX; CMPQ BX, AX; JLT kyloop; \
	ADDQ R13, SI; \
	DECQ R8; JNZ chloop

#define LOADU(mem, y) VMOVUPS mem, y
#define LOADM(mem, y) VMASKMOVPS mem, Y15, y
#define STOREU(y, mem) VMOVUPS y, mem
#define STOREM(y, mem) VMASKMOVPS y, Y15, mem

// COPY moves eight values from the image to the patch matrix; ADDBACK
// adds eight of the patch matrix onto the image.
#define COPY(LOAD, STORE) LOAD((AX)(R9*1), Y0); STORE(Y0, (DI)(R9*1))
#define ADDBACK(LOAD, STORE) LOAD((DI)(R9*1), Y0); LOAD((AX)(R9*1), Y1); VADDPS Y0, Y1, Y1; STORE(Y1, (AX)(R9*1))

// COPYTAIL moves a run's last wo mod 8 values: a masked load (which
// reads nothing past them), then a whole store — its extra lanes land
// where the next runs will write, a masked store being slow on AMD —
// unless that store would pass lim, the last 32 bytes of the patch
// matrix; then a masked one. R9 ends as the store's address.
#define COPYTAIL(full, done) \
	VMASKMOVPS (AX)(R9*1), Y15, Y0; \
	ADDQ DI, R9; CMPQ R9, lim-8(SP); JLS full; \
	VMASKMOVPS Y0, Y15, (R9); JMP done; \
full: \
	VMOVUPS Y0, (R9)
#define ADDTAIL ADDBACK(LOADM, STOREM)

// SETUP loads (x or dx, c, h, w, cols) and sets the registers
// PATCHROWS wants, with Y15 the mask of wo mod 8 lanes.
#define SETUP \
	MOVQ x+0(FP), SI; \
	MOVQ c+8(FP), R8; \
	MOVQ h+16(FP), R11; \
	MOVQ w+24(FP), R10; \
	MOVQ cols+32(FP), DI; \
	MOVQ R11, R13; IMULQ R10, R13; SHLQ $2, R13; \
	SUBQ $4, R11; \
	LEAQ -4(R10), R12; \
	MOVQ R12, AX; ANDQ $7, AX; \
	LEAQ ·tailmask(SB), CX; MOVQ $8, DX; SUBQ AX, DX; VMOVUPS (CX)(DX*4), Y15; \
	MOVQ R12, R14; SUBQ AX, R14; SHLQ $2, R14; \
	SHLQ $2, R12; SHLQ $2, R10

// func im2colAVX2(x *float32, c, h, w int, cols *float32)
//
// im2colGo for c, h−4, w−4 ≥ 1: each patch row's runs of wo values
// copied eight at a time, the last wo mod 8 by COPYTAIL (a Go copy per
// run is a call: a third of the step went there).
TEXT ·im2colAVX2(SB), NOSPLIT, $8-40
	SETUP
	// lim = cols + (c·25·ho·wo − 8)·4.
	MOVQ R12, AX
	IMULQ R11, AX
	IMULQ R8, AX
	IMULQ $25, AX
	LEAQ -32(DI)(AX*1), AX
	MOVQ AX, lim-8(SP)
	PATCHROWS(COPY, COPYTAIL(ifull, itd), ic, iky, ikx, iy, iv, ivd, itd)
	VZEROUPPER
	RET

// func col2imAVX2(x *float32, c, h, w int, cols *float32)
//
// col2imGo (x is dx, cols is dcols) for c, h−4, w−4 ≥ 1: in col2imGo's
// order, eight values of a run at a time, each value of dx adding its
// terms in the same sequence.
TEXT ·col2imAVX2(SB), NOSPLIT, $0-40
	SETUP
	PATCHROWS(ADDBACK, ADDTAIL, cc, cky, ckx, cy, cv, cvd, ctd)
	VZEROUPPER
	RET
