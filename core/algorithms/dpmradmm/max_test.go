package dpmradmm

import (
	"math"
	"testing"
)

// TestMaxOf checks that the solve's inline maximum answers as math.Max
// on the values it sees (≥ 0, +Inf or NaN, in any order), so the solve
// stops after the same steps.
func TestMaxOf(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	vals := []float64{0, 1e-300, 0.5, 1, 2, inf, nan}
	for _, m := range vals {
		for _, v := range vals {
			got, want := maxOf(m, v), math.Max(m, v)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("maxOf(%v, %v) = %v, math.Max %v", m, v, got, want)
			}
		}
	}
}
