package pld

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

// TestFFTConvolve holds the transform's convolution to the definition's,
// for lengths across the power-of-two boundaries and a self-convolution.
func TestFFTConvolve(t *testing.T) {
	s := rng.NewStream(1, "pld/fft")
	var c convolver
	for _, n := range [][2]int{{1, 1}, {2, 3}, {5, 4}, {17, 16}, {100, 29}, {1000, 1000}, {4096, 1}} {
		a, b := make([]float64, n[0]), make([]float64, n[1])
		for i := range a {
			a[i] = s.Float64()
		}
		for i := range b {
			b[i] = s.Float64()
		}
		want := directConvolve(a, b)
		got := c.fftConvolve(a, b)
		if len(got) != len(want) {
			t.Fatalf("%v: length %d, want %d", n, len(got), len(want))
		}
		for i := range want {
			if d := math.Abs(got[i] - want[i]); d > 1e-12*float64(n[0]+n[1]) {
				t.Fatalf("%v: c[%d] = %v, want %v", n, i, got[i], want[i])
			}
		}
		self := c.fftConvolve(a, a)
		want = directConvolve(a, a)
		for i := range want {
			if d := math.Abs(self[i] - want[i]); d > 1e-12*float64(n[0]) {
				t.Fatalf("%v self: c[%d] = %v, want %v", n, i, self[i], want[i])
			}
		}
	}
}
