//go:build js && wasm && dpsimsimd && !purego

package nn

import "unsafe"

// Under js/wasm built with the dpsimsimd tag (the page's build),
// gemmStrided's micro-kernel and gemmNT run in the WebAssembly SIMD
// module (wasm/simd/gen, cnn.go; public/simd.wasm), which works in this
// program's own memory: pnn with four outputs of a row of C in each
// f32x4, each adding its products in increasing order; pnt with an
// output's eight lanes in two f32x4, in lanes.go's order. So the bits
// are kernWasm's and kernNTWasm's (TestGemmBits, TestGemmStrided and
// TestCNNSIMD under the tag); pim2col and pcol2im move the patch
// matrices (TestPatches). Where the module is not linked (simd.js's
// fallback answers 0), the WebAssembly assembly runs.

// simdNN is the module's pnn: gemmStrided's micro-kernel (strides in
// bytes) on n a multiple of 4; it returns 1, or 0 where the module is
// not linked, and then did nothing.
//
//go:wasmimport dpsimsimd pnn
//go:noescape
func simdNN(a unsafe.Pointer, sai, sap int32, b unsafe.Pointer, ldb int32, c unsafe.Pointer, ldc, m, n, k int32) int32

// simdGemm runs kernel's product in the module and reports whether it
// did.
func simdGemm(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) bool {
	return simdNN(unsafe.Pointer(a), int32(4*sai), int32(4*sap), unsafe.Pointer(b), int32(4*ldb),
		unsafe.Pointer(c), int32(4*ldc), int32(m), int32(n), int32(k)) == 1
}

// simdNT is the module's pnt: C (m×n) += A·Bᵀ at the three addresses;
// it returns 1, or 0 where the module is not linked, and then did
// nothing.
//
//go:wasmimport dpsimsimd pnt
//go:noescape
func simdNT(a, b, c unsafe.Pointer, m, n, k int32) int32

// unsafePtr is the address of v's first value.
func unsafePtr(v []float32) unsafe.Pointer { return unsafe.Pointer(&v[0]) }

// kernNT is simdNT, or kernNTWasm without the module, on slices of
// checked lengths (gemmNT).
func kernNT(m, n, k int, a, b, c []float32) {
	if simdNT(unsafePtr(a), unsafePtr(b), unsafePtr(c), int32(m), int32(n), int32(k)) == 0 {
		kernNTWasm(&a[0], &b[0], &c[0], m, n, k)
	}
}

// simdIm2col and simdCol2im are the module's pim2col and pcol2im: im2col
// and col2im on checked lengths; each returns 1, or 0 where the module
// is not linked, and then did nothing.
//
//go:wasmimport dpsimsimd pim2col
//go:noescape
func simdIm2col(x unsafe.Pointer, c, h, w int32, cols unsafe.Pointer) int32

//go:wasmimport dpsimsimd pcol2im
//go:noescape
func simdCol2im(x unsafe.Pointer, c, h, w int32, cols unsafe.Pointer) int32

// simdPatches runs im2col (add false) or col2im (add true) in the
// module and reports whether it did.
func simdPatches(add bool, x *float32, c, h, w int, cols *float32) bool {
	f := simdIm2col
	if add {
		f = simdCol2im
	}
	return f(unsafe.Pointer(x), int32(c), int32(h), int32(w), unsafe.Pointer(cols)) == 1
}
