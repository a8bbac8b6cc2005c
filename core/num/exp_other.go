//go:build (!amd64 && !wasm) || purego

package num

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits. Here it is Exp in a loop
// (expToGeneric); on amd64 and wasm it is assembly (exp_amd64.go,
// exp_wasm.go).
func ExpTo(dst, src []float64) { expToGeneric(dst, src) }
