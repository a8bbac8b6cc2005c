//go:build js && wasm && dpsimsimd && !purego

package logistic

import (
	"math"
	"testing"

	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
)

// TestSlopesSIMD holds the SIMD module's pslopes (run through
// wasm/simd/go_js_wasm_exec) to slope's bits row by row, for every block
// length 1–64 (pairs and an odd last row), rows named through a view's
// index and in stored order, scores from ±2⁻²⁸ to past ±700 (both
// branches of σ, exps on num.Exp's common path); checks that it answers
// slopesDone there, and slopesPre1 (its first pass only) on a block
// holding a score off that path (0, 2⁻³⁰, ±750, NaN), slopes then
// finishing with the same bits.
func TestSlopesSIMD(t *testing.T) {
	s := rng.New(5, "logistic/slopes-simd-test")
	set := learn.Synthetic(3, "train", 300, 2, 2, 0.1)
	m := &Model{loss: Logistic}
	on := func() float64 {
		v := math.Pow(2, -28+s.Float64()*37.4) // up to ~700
		if s.IntN(2) == 0 {
			v = s.Float64() * 700
		}
		return math.Copysign(math.Max(v, 0x1p-28), float64(1-2*s.IntN(2)))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, r := range []learn.Rows{learn.Rows{Set: set}.Sub(0, 300), {Set: set}} {
		for n := 1; n <= 64; n++ {
			for trial := range 4 {
				lo := s.IntN(r.Len() - n + 1)
				z := make([]float64, n)
				for k := range z {
					z[k] = on()
				}
				want := make([]float64, n)
				wantCode := slopesDone
				if trial == 3 {
					z[s.IntN(n)] = []float64{0, 0x1p-30, -750, 750, math.NaN()}[n%5]
					wantCode = slopesPre1
				}
				for k, v := range z {
					want[k] = m.slope(v, label(r, lo+k))
				}
				got, e := append([]float64(nil), z...), make([]float64, n)
				y, idx, first := r.LabelRows(lo, n)
				if code := slopesSIMD(append([]float64(nil), z...), e, y, idx, first); code != wantCode {
					t.Fatalf("n %d, trial %d: slopesSIMD answered %d, want %d (is the module linked?)", n, trial, code, wantCode)
				}
				m.slopes(r, lo, got, e)
				for k := range want {
					if !same(got[k], want[k]) {
						t.Fatalf("view idx %v, n %d, trial %d: slope at %v = %v, slope %v", r.Idx != nil, n, trial, z[k], got[k], want[k])
					}
				}
			}
		}
	}
}
