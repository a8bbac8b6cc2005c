//go:build wasm && !purego && !(js && dpsimsimd)

package logistic

import "dpsim/core/num"

// expTo sets e[t] = num.Exp(e[t]) for every t: num.ExpTo (its WebAssembly
// assembly, exp_wasm.s); with the dpsimsimd tag, slopes_simd.go.
func expTo(e []float64) { num.ExpTo(e, e) }
