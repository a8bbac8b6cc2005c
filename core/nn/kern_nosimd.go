//go:build js && wasm && !purego && !dpsimsimd

package nn

// Without the dpsimsimd tag the WebAssembly assembly does the products.

// kernNT is kernNTWasm on slices of checked lengths (gemmNT).
func kernNT(m, n, k int, a, b, c []float32) { kernNTWasm(&a[0], &b[0], &c[0], m, n, k) }

// simdGemm does nothing: kernWasm runs.
func simdGemm(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) bool {
	return false
}

// simdPatches does nothing: the WebAssembly loops run.
func simdPatches(add bool, x *float32, c, h, w int, cols *float32) bool { return false }
