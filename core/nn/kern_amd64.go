//go:build amd64 && !purego

package nn

import "dpsim/core/internal/cpufeat"

// kernAVX2 is the AVX2 micro-kernel of gemmStrided (kern_amd64.s): C
// (m×n, row stride ldc) += A·B on any m, n ≥ 1 (the edges of its 4×16
// tiles masked or one row at a time), A's (i,
// p) entry at a[i·sai + p·sap], B row-major with row stride ldb. Eight
// outputs per vector, each adding its products (VMULPS, then VADDPS: no
// FMA) in increasing order of p, so the bits are the scalar loop's.
//
//go:noescape
func kernAVX2(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int)

// kernNTAVX2 is gemmNT's AVX2 kernel (kernnt_amd64.s): C (m×n) +=
// A (m×k)·B (n×k)ᵀ, all row-major, m, n, k ≥ 1, each output's eight
// lanes in one YMM register and combined by num's tree (lanes.go).
//
//go:noescape
func kernNTAVX2(a, b, c *float32, m, n, k int)

// kernNT is kernNTAVX2 on slices of checked lengths (gemmNT).
func kernNT(m, n, k int, a, b, c []float32) { kernNTAVX2(&a[0], &b[0], &c[0], m, n, k) }

// hasAVX2 is cpufeat.AVX2.
var hasAVX2 = cpufeat.AVX2

// useKernel selects the assembly paths (gemmStrided's micro-kernel,
// kernNT, im2col and col2im): where the CPU has AVX2. A variable, so
// that the tests run the Go kernels too.
var useKernel = hasAVX2

// Tile of the micro-kernel: it takes every row and column.
const kernRows, kernCols = 1, 1

func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	kernAVX2(a, sai, sap, b, ldb, c, ldc, m, n, k)
}

// im2colAVX2 and col2imAVX2 are im2colGo's and col2imGo's loops in
// AVX2 (patch_amd64.s), called on checked lengths only.
//
//go:noescape
func im2colAVX2(x *float32, c, h, w int, cols *float32)

//go:noescape
func col2imAVX2(x *float32, c, h, w int, cols *float32)

// im2col is im2colGo, in AVX2 where useKernel is set: the patch rows'
// runs are short (8 to 28 values), and a Go copy of each was a call.
func im2col(x []float32, c, h, w int, cols []float32) {
	if !useKernel || !patchShape(x, c, h, w, cols) {
		im2colGo(x, c, h, w, cols)
		return
	}
	im2colAVX2(&x[0], c, h, w, &cols[0])
}

// col2im is col2imGo, in AVX2 where useKernel is set.
func col2im(dcols []float32, c, h, w int, dx []float32) {
	if !useKernel || !patchShape(dx, c, h, w, dcols) {
		col2imGo(dcols, c, h, w, dx)
		return
	}
	col2imAVX2(&dx[0], c, h, w, &dcols[0])
}

// unpoolFillsBlocks says unpoolAsm (pool_amd64.s) writes every value of
// the windows' blocks, so unpool clears da only where an odd last row or
// column lies outside them.
const unpoolFillsBlocks = true
