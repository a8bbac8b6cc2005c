//go:build wasm && !purego

package nn

// kernWasm is gemmStrided's micro-kernel under WebAssembly
// (kern_wasm.s): C (m×n, row stride ldc) += A·B on m a multiple of 2
// and n of 4, A's (i, p) entry at a[i·sai + p·sap], B row-major with
// row stride ldb; a 2×4 tile of C in locals, each output adding its
// products (f32.mul, then f32.add) in increasing order of p, so the bits
// are the scalar loop's. Written by hand because Go's wasm backend sends
// every loop back-edge through its resumable-function dispatcher.
//
//go:noescape
func kernWasm(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int)

// useKernel selects gemmStrided's micro-kernel paths (the convolutions
// through gemmStrided, the weight gradients transposed). A variable, so
// that the tests run the Go kernels too.
var useKernel = true

// Tile of the micro-kernel: rows a multiple of kernRows, columns of
// kernCols.
const kernRows, kernCols = 2, 4

func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	kernWasm(a, sai, sap, b, ldb, c, ldc, m, n, k)
}
