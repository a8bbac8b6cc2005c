//go:build !wasm || purego

package logistic

import (
	"math"

	"dpsim/core/num"
	"dpsim/core/problems/internal/learn"
)

// slopes overwrites the scores z of view rows lo, lo+1, … with the
// logistic loss's slopes, −b·σ(−b·z) for each, with slope's bits: σ(t)
// is 1/(1 + e^(−t)) for t ≥ 0 and e^t/(1 + e^t) below, both from
// e^(−|t|), which num.ExpTo computes for the whole block in one call
// (under js/wasm a call per row cost as much as the exp itself). e is
// scratch of len(z).
func (m *Model) slopes(r learn.Rows, lo int, z, e []float64) {
	for t, v := range z {
		s := -label(r, lo+t) * v
		z[t] = s
		e[t] = -math.Abs(s)
	}
	num.ExpTo(e, e)
	for t, s := range z {
		var sig float64
		if s >= 0 {
			sig = 1 / (1 + e[t])
		} else {
			sig = e[t] / (1 + e[t])
		}
		z[t] = -label(r, lo+t) * sig
	}
}
