//go:build wasm && !purego

package nn

// kernWasm is gemmStrided's micro-kernel under WebAssembly
// (kern_wasm.s): C (m×n, row stride ldc) += A·B on n a multiple of 4, A's (i, p) entry at a[i·sai + p·sap], B row-major with
// row stride ldb; a 2×4 tile of C in locals (1×4 on an odd last row), each output adding its
// products (f32.mul, then f32.add) in increasing order of p, so the bits
// are the scalar loop's. Written by hand because Go's wasm backend sends
// every loop back-edge through its resumable-function dispatcher.
//
//go:noescape
func kernWasm(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int)

// useKernel selects the assembly paths (gemmStrided's micro-kernel,
// kernNT, the patch, pool and small loops). A variable, so that the
// tests run the Go kernels too.
var useKernel = true

// Tile of the micro-kernel: rows a multiple of kernRows, columns of
// kernCols.
const kernRows, kernCols = 1, 4

// kernel is the SIMD module's pnn where it is linked (kern_simd.go),
// else kernWasm: the same bits.
func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	if !simdGemm(a, sai, sap, b, ldb, c, ldc, m, n, k) {
		kernWasm(a, sai, sap, b, ldb, c, ldc, m, n, k)
	}
}

// kernNTWasm is gemmNT's kernel under WebAssembly (kernnt_wasm.s):
// C (m×n) += A (m×k)·B (n×k)ᵀ, all row-major, m, n, k ≥ 1, each output's
// eight lanes in f32 locals, combined by num's tree (lanes.go).
//
//go:noescape
func kernNTWasm(a, b, c *float32, m, n, k int)

// im2colWasm and col2imWasm are im2col's and col2im's loops in
// WebAssembly (kern_wasm.s), called on checked lengths only.
//
//go:noescape
func im2colWasm(x *float32, c, h, w int, cols *float32)

//go:noescape
func col2imWasm(x *float32, c, h, w int, cols *float32)

// im2col writes the 5×5 patches of the c×h×w image x as the columns of
// cols (c·25 rows of (h−4)(w−4) values): im2colGo's loops, in
// WebAssembly where useKernel is set (Go's copy of a short row is a
// runtime call under wasm), in the SIMD module's pim2col where linked.
func im2col(x []float32, c, h, w int, cols []float32) {
	if !useKernel || !patchShape(x, c, h, w, cols) {
		im2colGo(x, c, h, w, cols)
		return
	}
	if !simdPatches(false, &x[0], c, h, w, &cols[0]) {
		im2colWasm(&x[0], c, h, w, &cols[0])
	}
}

// col2im adds the columns of dcols back onto the c×h×w gradient dx:
// col2imGo's loops and order, in WebAssembly where useKernel is set
// (the SIMD module's pcol2im where linked).
func col2im(dcols []float32, c, h, w int, dx []float32) {
	if !useKernel || !patchShape(dx, c, h, w, dcols) {
		col2imGo(dcols, c, h, w, dx)
		return
	}
	if !simdPatches(true, &dx[0], c, h, w, &dcols[0]) {
		col2imWasm(&dx[0], c, h, w, &dcols[0])
	}
}

// unpoolFillsBlocks says unpoolAsm (kern_wasm.s) scatters into the
// windows' maxima only, so unpool clears da first.
const unpoolFillsBlocks = false
