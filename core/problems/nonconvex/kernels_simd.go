//go:build js && wasm && dpsimsimd

package nonconvex

import "unsafe"

// simdGrad is the exported function grad of the WebAssembly SIMD module
// (wasm/simd/gen, built by build.sh into public/simd.wasm), which works in
// this program's own memory: whoever instantiates this program supplies
// it (public/simd.js: the page, the solver Workers, and node through
// wasm/simd/go_js_wasm_exec). It scores the samples in one pass, four at
// a time in f64x2 lanes, with the operations, and the order, of the
// kernels here and of num.Exp (TestBlockedGrad, TestFusedGradBits), adds
// their logistic terms to out and returns how many samples it added: m,
// or fewer when a group of four holds an exp argument off num.Exp's
// common path, which Grad then scores itself.
//
//go:wasmimport dpsimsimd grad
//go:noescape
func simdGrad(z, y, x, out unsafe.Pointer, m, d int32) int32

// gradFused adds the logistic terms of the first samples of z (rows of
// len(x)) and y to out through the SIMD module, one call for all of
// them; it returns how many it added (Grad scores the next block itself
// when that is fewer than len(y)).
func gradFused(z, y, x, out []float64) int {
	if len(y) == 0 || len(x) == 0 {
		return 0
	}
	return int(simdGrad(unsafe.Pointer(unsafe.SliceData(z)), unsafe.Pointer(unsafe.SliceData(y)),
		unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(out)),
		int32(len(y)), int32(len(x))))
}
