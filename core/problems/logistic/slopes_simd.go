//go:build js && wasm && dpsimsimd && !purego

package logistic

import (
	"unsafe"

	"dpsim/core/num"
)

// simdExp is the WebAssembly SIMD module's pexp (wasm/simd/gen, exp.go;
// linked by public/simd.js): num.Exp in place over the n values at e, in
// f64x2 lanes with Exp's operations in their order (the nonconvex
// classifier's exp), so the same bits. It returns 1 when done, or 0
// having written nothing: a value off Exp's common path (NaN, |x| <
// 2⁻²⁸, |x| > 700, where Exp branches — every margin 0, as at x = 0), or
// the module not linked (simd.js's fallback).
//
//go:wasmimport dpsimsimd pexp
//go:noescape
func simdExp(e unsafe.Pointer, n int32) int32

// expTo sets e[t] = num.Exp(e[t]) for every t: a block's exps in one call
// to the SIMD module (the trampoline between Go and it costs tens of
// nanoseconds a call), else num.ExpTo.
func expTo(e []float64) {
	if len(e) == 0 || simdExp(unsafe.Pointer(&e[0]), int32(len(e))) == 0 {
		num.ExpTo(e, e)
	}
}
