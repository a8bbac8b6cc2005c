//go:build (!amd64 && !wasm) || purego

package num

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits: one call for a block of values, because
// under js/wasm a call costs about as much as Exp's arithmetic
// (docs/performance.md). Here it is expToGeneric; on amd64 and wasm it
// is assembly (exp_amd64.go, exp_wasm.go).
func ExpTo(dst, src []float64) { expToGeneric(dst, src) }
