//go:build js && wasm && dpsimsimd && !purego

package logistic

import "unsafe"

// simdSlopes is the WebAssembly SIMD module's pslopes (wasm/simd/gen,
// exp.go; linked by public/simd.js): slopes over the n rows of a block
// in one call — the trampoline between Go and the module costs tens of
// nanoseconds a call — with slopes_other.go's operations in its order,
// the exps num.Exp's in f64x2 lanes (the nonconvex classifier's
// instruction list), so the same bits. nb is scratch of n values. It
// returns slopesDone; slopesPre1 having done only slopesPre's pass when
// an exp argument is off Exp's common path (NaN, |x| < 2⁻²⁸, |x| > 700,
// where Exp branches: every margin 0, as at x = 0); or slopesNone, the
// module not linked (simd.js's fallback).
//
//go:wasmimport dpsimsimd pslopes
//go:noescape
func simdSlopes(z, e, nb unsafe.Pointer, y unsafe.Pointer, idx unsafe.Pointer, first, n int32) int32

// slopesSIMD runs a block of at most 64 rows (gradRows's) in the SIMD
// module; see simdSlopes for what it answers.
func slopesSIMD(z, e []float64, y *uint8, idx *int, first int) int {
	var nb [64]float64
	if len(z) > len(nb) || len(e) < len(z) {
		return slopesNone
	}
	return int(simdSlopes(unsafe.Pointer(&z[0]), unsafe.Pointer(&e[0]), unsafe.Pointer(&nb[0]),
		unsafe.Pointer(y), unsafe.Pointer(idx), int32(first), int32(len(z))))
}
