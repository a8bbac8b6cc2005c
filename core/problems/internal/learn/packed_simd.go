//go:build js && wasm && dpsimsimd && !purego

package learn

import "unsafe"

// Under js/wasm built with the dpsimsimd tag (the page's and the solver
// Workers' build), the packed full passes run in the WebAssembly SIMD
// module (wasm/simd/gen, packed.go; public/simd.wasm), which works in
// this program's own memory: whoever instantiates this program links it
// (public/simd.js: the page, the Workers, and node through
// wasm/simd/go_js_wasm_exec). Its f64x2 lanes do packedDotsGo's (core/num's
// lane order) and packedAxpysGo's operations in their order — a float32 promoted to
// float64, one product rounded, then one sum, no fused multiply-add — so
// the bits are those of the Go loops (TestPacked, run under the tag).
// One call covers a block's rows or a tile's rows: the JavaScript
// trampoline between Go and the module costs tens of nanoseconds a call.

// simdPackedDots is the module's pdots: packedDots over n rows of rm,
// stride bytes apart, d features each, into out; it returns 1, or 0
// where the module is not linked (simd.js's fallback), and then did
// nothing. n = 0 touches no memory: a probe.
//
//go:wasmimport dpsimsimd pdots
//go:noescape
func simdPackedDots(rm, x, out unsafe.Pointer, stride, n, d int32) int32

// simdPackedAxpys is the module's paxpys: packedAxpys over n rows of rm,
// stride bytes apart, and the tile's first w entries of acc (w a multiple
// of 4, at most packTile); it returns 1, or 0 where the module is not
// linked, and then did nothing.
//
//go:wasmimport dpsimsimd paxpys
//go:noescape
func simdPackedAxpys(rm, c, acc unsafe.Pointer, stride, n, w int32) int32

// packKernels reports whether Pack builds the packed layouts: when the
// SIMD module is linked, which it is from the program's start wherever
// simd.js's promise .ready was awaited before go.run (exec_node.js, the
// Workers) — else packing would cost the memory and run the Go loops,
// slower than the in-place assembly (kernels_wasm.s).
func packKernels() bool { return simdPackedDots(nil, nil, nil, 0, 0, 0) == 1 }

// packedDots writes the dot products of n rows of rm (row k's d features
// at k·stride) with x into out: packedDotsGo's sums, in the SIMD module
// when linked.
func packedDots(rm []float32, stride, d, n int, x, out []float64) {
	if n == 0 {
		return
	}
	if d > stride || len(rm) < (n-1)*stride+d || len(out) < n || len(x) < d {
		panic("learn: packedDots slices shorter than their rows")
	}
	if d == 0 || simdPackedDots(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]),
		unsafe.Pointer(&out[0]), int32(4*stride), int32(n), int32(d)) == 0 {
		packedDotsGo(rm, stride, d, n, x, out)
	}
}

// packedAxpys adds c[k]·row_k to the tile's 4·nv entries in acc for n
// rows of rm, stride floats apart: packedAxpysGo's sums, in the SIMD
// module when linked.
func packedAxpys(rm []float32, stride, n int, c []float64, nv int, acc *[packTile]float64) {
	if n == 0 {
		return
	}
	if nv < 1 || 4*nv > packTile || len(c) < n || len(rm) < (n-1)*stride+4*nv {
		panic("learn: packedAxpys slices shorter than their rows")
	}
	if simdPackedAxpys(unsafe.Pointer(&rm[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(acc),
		int32(4*stride), int32(n), int32(4*nv)) == 0 {
		packedAxpysGo(rm, stride, n, c, nv, acc)
	}
}

// packFeatureMajor reports whether Pack builds the feature-major copy:
// not here (the module's pdots reads the row-major rows, two at a time).
func packFeatureMajor() bool { return false }

// packedTrDots runs packedTrDotsGo (Pack builds no feature-major copy
// here: tests only).
func packedTrDots(tr []float32, groups, d int, x, out []float64) {
	packedTrDotsGo(tr, groups, d, x, out)
}

// simdPackedSquares is the module's psqgrad: packedSquares' sum over n
// rows of rm, stride bytes apart, w columns each (x as wide), added to
// acc, a block of zn ≥ 1 rows at a time through the scratch z of zn
// float64 (the dot products — the module's pdots for rows 4 wide, its own
// unrolled pass (gen's sqPass) for 8 and wider — then the residuals and
// its paxpys); it returns 1, or 0 where the module is not linked, and then
// did nothing.
//
//go:wasmimport dpsimsimd psqgrad
//go:noescape
func simdPackedSquares(rm, x, signs, z, acc unsafe.Pointer, stride, n, w, zn int32) int32

// packedSquares adds (row_kᵀx − signs[k])·row_k to acc's first 4·nv
// entries for n rows of rm (stride floats apart, x holding the 4·nv
// columns, the padding zeros) in one call to the module, which runs
// Packed.SquaresGrad's two passes block by block (psqgrad) — one call a
// gradient instead of two a block, and no Go loop over the residuals
// between them. The dot products run over the padded width: a padding
// column adds +0·+0 to its lane, which can turn only a −0 lane into +0,
// and a dot product's zero sign is lost once the nonzero label is
// subtracted, so the residuals and the sums keep the two passes' bits
// (TestPackedSquares, TestPackedSquaresSIMD). It reports false where the
// module is not linked: the caller then runs the two passes.
func packedSquares(rm []float32, stride, n int, x []float64, signs []int8, nv int, acc *[packTile]float64) bool {
	if n == 0 {
		return true
	}
	w := 4 * nv
	if nv < 1 || w > packTile || w > stride || len(x) < w || len(signs) < n || len(rm) < (n-1)*stride+w {
		panic("learn: packedSquares slices shorter than their rows")
	}
	var z [squaresBlock]float64
	return simdPackedSquares(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
		unsafe.Pointer(&z[0]), unsafe.Pointer(acc), int32(4*stride), int32(n), int32(w), int32(len(z))) == 1
}
