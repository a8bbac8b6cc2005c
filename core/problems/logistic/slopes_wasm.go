//go:build !purego

package logistic

import (
	"dpsim/core/num"
	"dpsim/core/problems/internal/learn"
)

// slopes overwrites the scores z of view rows lo, lo+1, … with the
// logistic loss's slopes, −b·σ(−b·z) for each, with slope's bits. Under
// js/wasm the two passes around num.ExpTo are assembly (slopes_wasm.s):
// as Go they were a third of ijcnn1's gradient, each label read and each
// branch of σ a jump through the function's block dispatcher. They do
// slopes_other.go's operations in its order — s = (−b)·z, e = −|s|; then
// σ = 1/(1 + e) for s ≥ 0, else e/(1 + e) (a select of the numerator),
// and (−b)·σ — so the bits are the same (TestBlockedGradient, run under
// js/wasm). With the dpsimsimd tag the whole block runs in the
// WebAssembly SIMD module where it can (slopesSIMD, slopes_simd.go). e is
// scratch of len(z).
func (m *Model) slopes(r learn.Rows, lo int, z, e []float64) {
	if len(z) == 0 {
		return
	}
	e = e[:len(z)]
	y, idx, first := r.LabelRows(lo, len(z))
	switch slopesSIMD(z, e, y, idx, first) {
	case slopesDone:
		return
	case slopesNone:
		slopesPre(&z[0], &e[0], len(z), y, idx, first)
	}
	num.ExpTo(e, e)
	slopesPost(&z[0], &e[0], len(z), y, idx, first)
}

// slopesPre sets s = (−b)·z[t], z[t] = s and e[t] = −|s| for the n rows,
// b = +1 for class 1 and −1 otherwise, the class of view row t being
// y[idx[t]] (y[first+t] when idx is nil).
//
//go:noescape
func slopesPre(z, e *float64, n int, y *uint8, idx *int, first int)

// slopesPost sets z[t] = (−b)·σ with σ = 1/(1 + e[t]) when z[t] ≥ 0, else
// e[t]/(1 + e[t]), for the n rows.
//
//go:noescape
func slopesPost(z, e *float64, n int, y *uint8, idx *int, first int)

// slopesSIMD's answers: how much of a block the SIMD module did.
const (
	slopesNone = iota // nothing: no module (or not this build)
	slopesPre1        // the first pass (slopesPre's): an exp argument off num.Exp's common path
	slopesDone        // all of it
)
