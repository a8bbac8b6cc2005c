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

// poolWasm is poolReLUGo's loops in WebAssembly (kern_wasm.s), with
// selects for max32 and the window's position; on checked lengths only.
//
//go:noescape
func poolWasm(a *float32, c, h, w int, out *float32, arg *uint8)

// poolReLU is poolReLUGo (nn.go), in WebAssembly where useKernel is
// set: the same maxima, ties and NaNs, bit for bit (TestPool).
func poolReLU(a []float32, c, h, w int, out []float32, arg []uint8) {
	if !useKernel || !poolShape(a, c, h, w, out, arg) {
		poolReLUGo(a, c, h, w, out, arg)
		return
	}
	poolWasm(&a[0], c, h, w, &out[0], &arg[0])
}

//go:noescape
func fillWasm(a, bias *float32, rows, p int)

//go:noescape
func rowSumsWasm(a *float32, rows, p int, out *float32)

//go:noescape
func unpoolWasm(dq, q *float32, arg *uint8, c, h, w int, da *float32)

// fillBias is fillBiasGo, in WebAssembly (fillWasm) where useKernel is
// set: every loop iteration of Go's wasm code is dear.
func fillBias(a, bias []float32, p int) {
	if !useKernel || len(bias) == 0 || p <= 0 || len(a) < len(bias)*p {
		fillBiasGo(a, bias, p)
		return
	}
	fillWasm(&a[0], &bias[0], len(bias), p)
}

// rowSums is rowSumsGo (the same sums in the same order), in
// WebAssembly where useKernel is set.
func rowSums(a []float32, rows, p int, out []float32) {
	if !useKernel || rows <= 0 || p <= 0 || len(a) < rows*p || len(out) < rows {
		rowSumsGo(a, rows, p, out)
		return
	}
	rowSumsWasm(&a[0], rows, p, &out[0])
}

// unpool is unpoolGo, its scatter in WebAssembly where useKernel is set.
func unpool(dq, q []float32, arg []uint8, c, h, w int, da []float32) {
	n := c * (h / 2) * (w / 2)
	if !useKernel || n <= 0 || len(dq) < n || len(q) < n || len(arg) < n || len(da) < c*h*w {
		unpoolGo(dq, q, arg, c, h, w, da)
		return
	}
	clear(da[:c*h*w])
	unpoolWasm(&dq[0], &q[0], &arg[0], c, h, w, &da[0])
}
