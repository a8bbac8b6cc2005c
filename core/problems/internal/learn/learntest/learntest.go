// Package learntest holds the checks the learning problems' tests share:
// central finite differences and a relative vector comparison.
package learntest

import (
	"math"
	"testing"
)

// FiniteDiff writes the central-difference gradient of f at x into out,
// with the step 1e-5·max(1, |x_c|) per coordinate.
func FiniteDiff(f func([]float64) float64, x, out []float64) {
	y := append([]float64(nil), x...)
	for c := range x {
		h := float64(1e-5 * math.Max(1, math.Abs(x[c])))
		y[c] = x[c] + h
		fp := f(y)
		y[c] = x[c] - h
		fm := f(y)
		y[c] = x[c]
		out[c] = (fp - fm) / (2 * h)
	}
}

// Close fails t unless ‖got − want‖ ≤ rel·max(‖want‖, 1e-3).
func Close(t testing.TB, what string, got, want []float64, rel float64) {
	t.Helper()
	d, w := 0.0, 0.0
	for c := range got {
		d += float64((got[c] - want[c]) * (got[c] - want[c]))
	}
	for _, v := range want {
		w += float64(v * v)
	}
	scale := math.Max(math.Sqrt(w), 1e-3)
	if math.Sqrt(d) > rel*scale {
		t.Errorf("%s: ‖got − want‖ = %.3g > %.0e·%.3g\ngot  %v\nwant %v", what, math.Sqrt(d), rel, scale, got, want)
	}
}
