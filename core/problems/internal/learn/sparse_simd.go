//go:build js && wasm && dpsimsimd && !purego

package learn

import "unsafe"

// Under js/wasm built with the dpsimsimd tag, the squared loss's gradient
// sum over a pixel set's sparse form (Rows.SquaresGrad: MNIST 0 vs 1's
// shards, DP-RECAL's and its baselines' time per message) runs in the
// WebAssembly SIMD module (wasm/simd/gen, sparse.go) in one call a
// gradient, and so do the form's Dots and Axpys (the logistic and
// softmax models' passes) a call a block: its f64x2 lanes do num.GatherDot's and saxpy's operations in
// their order — a byte converted exactly, one product rounded, then one
// sum, no fused multiply-add — over the same blocks of rows, so the bits
// are those of the Go loops and of the scalar assembly
// (TestSparseSquaresSIMD).

// simdSparseSquares is the module's ssqgrad: SquaresGrad's blocks of zn
// rows over the n view rows (idx, or first + k when idx is nil) of the
// form (start, col, pix) into out, through the scratch z; it returns the
// rows done — n, or the first row of a block whose residuals are not all
// finite (Go runs that block and the rest), or 0 where the module is not
// linked.
//
//go:wasmimport dpsimsimd ssqgrad
//go:noescape
func simdSparseSquares(start, col, pix, idx unsafe.Pointer, first, n int32, x, signs, z, out unsafe.Pointer, zn int32) int32

// simdSparseDots is the module's sdots: sparseDots' sums of the n view
// rows (idx, or first + k when idx is nil) of the form (start, col, pix)
// with x into out; it returns 1, or 0 where the module is not linked,
// and then did nothing.
//
//go:wasmimport dpsimsimd sdots
//go:noescape
func simdSparseDots(start, col, pix, idx unsafe.Pointer, first, n int32, x, out unsafe.Pointer) int32

// simdSparseAxpys is the module's saxpys: sparseAxpys' weighted sums of
// the n view rows with the coefficients c into out, row after row; it
// returns 1, or 0 where the module is not linked, and then did nothing.
//
//go:wasmimport dpsimsimd saxpys
//go:noescape
func simdSparseAxpys(start, col, pix, idx unsafe.Pointer, first, n int32, c, out unsafe.Pointer) int32

// sparseDotsSIMD runs sdots over n ≥ 1 checked view rows (viewRows) of
// a pixel form sp, len(x) the set's columns, and reports whether the
// module did (else the caller runs the assembly).
func sparseDotsSIMD(sp *sparseRows, idx *int, first, n int, x, out []float64) bool {
	return useSparseSIMD && simdSparseDots(unsafe.Pointer(&sp.start[0]), unsafe.Pointer(&sp.col[0]), unsafe.Pointer(&sp.pix[0]),
		unsafe.Pointer(idx), int32(first), int32(n), unsafe.Pointer(&x[0]), unsafe.Pointer(&out[0])) == 1
}

// sparseAxpysSIMD runs saxpys over n ≥ 1 checked view rows of a pixel
// form sp (c finite, out free of −0, len(out) the set's columns) and
// reports whether the module did.
func sparseAxpysSIMD(sp *sparseRows, idx *int, first, n int, c, out []float64) bool {
	return useSparseSIMD && simdSparseAxpys(unsafe.Pointer(&sp.start[0]), unsafe.Pointer(&sp.col[0]), unsafe.Pointer(&sp.pix[0]),
		unsafe.Pointer(idx), int32(first), int32(n), unsafe.Pointer(&c[0]), unsafe.Pointer(&out[0])) == 1
}

// useSparseSIMD selects the module's sparse kernels; tests turn it off to
// compare with the Go side.
var useSparseSIMD = true

// squaresWide runs SquaresGrad's blocks of squaresBlock rows over a pixel
// set's sparse form sp in the SIMD module, from the first, into out
// (zeroed; len(x) and len(out) the set's columns, len(signs) the view's
// rows), and returns how many rows it did: a multiple of squaresBlock,
// or all of them.
func (r Rows) squaresWide(sp *sparseRows, x []float64, signs []int8, out []float64) int {
	m := len(signs)
	if !useSparseSIMD || sp == nil || sp.pix == nil || len(sp.pix) == 0 || m == 0 ||
		len(x) < r.Set.Cols || len(out) < r.Set.Cols || len(sp.start) < r.Set.Rows+1 {
		return 0
	}
	idx, first := r.viewRows(0, m)
	var z [squaresBlock]float64
	return int(simdSparseSquares(unsafe.Pointer(&sp.start[0]), unsafe.Pointer(&sp.col[0]), unsafe.Pointer(&sp.pix[0]),
		unsafe.Pointer(idx), int32(first), int32(m), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
		unsafe.Pointer(&z[0]), unsafe.Pointer(&out[0]), int32(len(z))))
}
