package num

import (
	"math"
	"testing"
)

// The portable functions must agree with the standard library to within an
// ulp or two everywhere, and exactly on the special cases.
func TestAgreesWithMath(t *testing.T) {
	xs := []float64{1e-300, 1e-10, 0.1, 0.5, 0.9999, 1, 1.5, 2, math.E, 10, 123.456, 1e10, 1e300}
	for _, x := range xs {
		if got, want := Log(x), math.Log(x); !close(got, want, 2e-16) {
			t.Errorf("Log(%g) = %.17g, want %.17g", x, got, want)
		}
	}
	for _, x := range xs {
		if got, want := Log10(x), math.Log10(x); !close(got, want, 2e-16) {
			t.Errorf("Log10(%g) = %.17g, want %.17g", x, got, want)
		}
	}
	for _, x := range []float64{-700, -20, -1, -1e-9, 0, 1e-9, 0.5, 1, 2, 20, 700} {
		if got, want := Exp(x), math.Exp(x); !close(got, want, 2e-16) {
			t.Errorf("Exp(%g) = %.17g, want %.17g", x, got, want)
		}
	}
	pairs := [][2]float64{{2, 10}, {2, -0.5}, {3, 0.5}, {1.7, 1.1}, {1001, -0.8}, {0, 0}, {0, 2}, {10, -3.5}, {0.5, 1500}}
	for _, p := range pairs {
		if got, want := Pow(p[0], p[1]), math.Pow(p[0], p[1]); !close(got, want, 4e-16) {
			t.Errorf("Pow(%g, %g) = %.17g, want %.17g", p[0], p[1], got, want)
		}
	}
}

func TestSpecialCases(t *testing.T) {
	if !math.IsInf(Log(0), -1) || !math.IsNaN(Log(-1)) || !math.IsInf(Log(math.Inf(1)), 1) {
		t.Error("Log special cases")
	}
	if !math.IsInf(Log10(0), -1) || !math.IsNaN(Log10(-1)) || !math.IsInf(Log10(math.Inf(1)), 1) || !math.IsNaN(Log10(math.NaN())) || Log10(1) != 0 {
		t.Error("Log10 special cases")
	}
	if Exp(-1000) != 0 || !math.IsInf(Exp(1000), 1) || Exp(0) != 1 {
		t.Error("Exp special cases")
	}
	if Pow(0, 0) != 1 {
		t.Error("Pow(0,0) must be 1: schedules u·r^k with r = 0 mean noise at k = 0 only")
	}
}

func close(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// TestExpToBits checks that ExpTo gives Exp's bits: over Exp's whole
// range, at the branch edges, and on the special values, in place too.
func TestExpToBits(t *testing.T) {
	xs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-300, -1e-300,
		1.0 / (1 << 28), -1.0 / (1 << 28), 709.782712893384, 709.79, -745.1332191019411, -745.14,
		-708.5, 708.5, -707, 707, 0.5, -0.5, 1, -1, 20, -20}
	state := uint64(9)
	for range 200000 {
		xs = append(xs, -750+float64(1460*unit(&state)))
	}
	got := make([]float64, len(xs))
	ExpTo(got, xs)
	for i, x := range xs {
		if w := Exp(x); math.Float64bits(got[i]) != math.Float64bits(w) && !(math.IsNaN(w) && math.IsNaN(got[i])) {
			t.Fatalf("ExpTo(%v) = %v, Exp = %v", x, got[i], w)
		}
	}
	in := append([]float64(nil), xs...)
	ExpTo(in, in)
	for i := range xs {
		if math.Float64bits(in[i]) != math.Float64bits(got[i]) && !math.IsNaN(got[i]) {
			t.Fatalf("in place: ExpTo(%v) = %v, want %v", xs[i], in[i], got[i])
		}
	}
}
