//go:build js && wasm && !purego && !dpsimsimd

package nn

// kernNT is kernNTWasm on slices of checked lengths (gemmNT).
func kernNT(m, n, k int, a, b, c []float32) { kernNTWasm(&a[0], &b[0], &c[0], m, n, k) }
