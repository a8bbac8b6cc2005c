//go:build js && wasm && dpsimsimd && !purego

package nn

import "unsafe"

// Under js/wasm built with the dpsimsimd tag (the page's build), gemmNT
// runs in the WebAssembly SIMD module (wasm/simd/gen, nt.go;
// public/simd.wasm), which works in this program's own memory: an
// output's eight lanes in two f32x4 registers, in lanes.go's order, so
// the bits are kernNTWasm's (TestGemmBits under the tag). Where the
// module is not linked (simd.js's fallback answers 0), kernNTWasm runs.

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
