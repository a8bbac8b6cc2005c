package num

import (
	"math"
	"testing"
)

// The special cases of Expm1, Log1p and Sincos, to the bit (the sign of a
// zero included), on every architecture.
func TestMsunSpecialCases(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	sub := math.SmallestNonzeroFloat64
	for _, tc := range []struct {
		name    string
		got     float64
		want    float64
		wantNaN bool
	}{
		{"Expm1(+Inf)", Expm1(inf), inf, false},
		{"Expm1(-Inf)", Expm1(-inf), -1, false},
		{"Expm1(NaN)", Expm1(nan), 0, true},
		{"Expm1(+0)", Expm1(0), 0, false},
		{"Expm1(-0)", Expm1(negZero), negZero, false},
		{"Expm1(subnormal)", Expm1(sub), sub, false},
		{"Expm1(-subnormal)", Expm1(-sub), -sub, false},
		{"Expm1(710)", Expm1(710), inf, false},
		{"Expm1(-1000)", Expm1(-1000), -1, false},
		{"Expm1(MaxFloat64)", Expm1(math.MaxFloat64), inf, false},
		{"Log1p(+Inf)", Log1p(inf), inf, false},
		{"Log1p(-Inf)", Log1p(-inf), 0, true},
		{"Log1p(NaN)", Log1p(nan), 0, true},
		{"Log1p(+0)", Log1p(0), 0, false},
		{"Log1p(-0)", Log1p(negZero), negZero, false},
		{"Log1p(subnormal)", Log1p(sub), sub, false},
		{"Log1p(-1)", Log1p(-1), -inf, false},
		{"Log1p(-1.5)", Log1p(-1.5), 0, true},
		{"Sin(+0)", first(Sincos(0)), 0, false},
		{"Cos(+0)", second(Sincos(0)), 1, false},
		{"Sin(-0)", first(Sincos(negZero)), negZero, false},
		{"Cos(-0)", second(Sincos(negZero)), 1, false},
		{"Sin(subnormal)", first(Sincos(-sub)), -sub, false},
		{"Sin(+Inf)", first(Sincos(inf)), 0, true},
		{"Cos(-Inf)", second(Sincos(-inf)), 0, true},
		{"Sin(NaN)", first(Sincos(nan)), 0, true},
		{"Cos(NaN)", second(Sincos(nan)), 0, true},
	} {
		if tc.wantNaN {
			if !math.IsNaN(tc.got) {
				t.Errorf("%s = %g, want NaN", tc.name, tc.got)
			}
			continue
		}
		if math.Float64bits(tc.got) != math.Float64bits(tc.want) {
			t.Errorf("%s = %g (%#x), want %g (%#x)", tc.name, tc.got, math.Float64bits(tc.got), tc.want, math.Float64bits(tc.want))
		}
	}
}

// Expm1, Log1p and Sincos agree with the standard library to within an ulp
// or two on every architecture (to the bit where math does not fuse:
// TestMsunBitsMatchMath).
func TestMsunAgreesWithMath(t *testing.T) {
	for _, x := range msunArgs() {
		if got, want := Expm1(x), math.Expm1(x); !near(got, want) {
			t.Errorf("Expm1(%g) = %.17g, want %.17g", x, got, want)
		}
		if got, want := Log1p(x), math.Log1p(x); !near(got, want) {
			t.Errorf("Log1p(%g) = %.17g, want %.17g", x, got, want)
		}
		s, c := Sincos(x)
		ws, wc := math.Sincos(x)
		// Near a zero of sin or cos the relative error of either is
		// large; compare against the magnitude of the pair.
		if d := math.Max(math.Abs(s-ws), math.Abs(c-wc)); d > 4e-16 || math.IsNaN(s) != math.IsNaN(ws) || math.IsNaN(c) != math.IsNaN(wc) {
			t.Errorf("Sincos(%g) = %.17g, %.17g, want %.17g, %.17g", x, s, c, ws, wc)
		}
	}
}

// msunArgs returns the arguments the tests compare Expm1, Log1p and Sincos
// over: every branch boundary of the three algorithms and its neighbours,
// the special values, subnormals and huge values, then 60000 seeded draws
// across every binade of both signs and 20000 in [−40, 40].
func msunArgs() []float64 {
	edges := []float64{
		0, 1, 2, 10, 1e300, math.MaxFloat64, math.Inf(1), math.NaN(),
		math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023, 0x1p-60,
		0x1p-54, 0x1p-29, 0x1p-20, 0x1p53, 0x1p29, 0x1p30, 0x1p52,
		0.25, 0.5, 0.75, 1.5,
		3.46573590279972654709e-01,  // ln2/2
		1.03972077083991796413e+00,  // 1.5·ln2
		3.88162421113569373274e+01,  // 56·ln2
		7.09782712893383973096e+02,  // overflow threshold
		4.142135623730950488017e-01, // √2 − 1
		2.928932188134524755992e-01, // 1 − √2/2
		math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 4, 2 * math.Pi, 1e6 * math.Pi,
		1, 20, 56, 100, 700, 745,
	}
	var xs []float64
	for _, e := range edges {
		for _, s := range []float64{1, -1} {
			v := s * e
			xs = append(xs, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)))
		}
	}
	xs = append(xs, -1, math.Nextafter(-1, 0), math.Nextafter(-1, -2))
	state := uint64(7)
	for range 60000 {
		u, v, w := unit(&state), unit(&state), unit(&state)
		x := math.Ldexp(1+u, int(math.Floor(-1075+float64(2100*v))))
		if w < 0.5 {
			x = -x
		}
		xs = append(xs, x)
	}
	for range 20000 {
		xs = append(xs, -40+float64(80*unit(&state)))
	}
	return xs
}

// near reports whether a and b are both NaN or within 4e-16 relative.
func near(a, b float64) bool {
	return math.IsNaN(a) && math.IsNaN(b) || close(a, b, 4e-16)
}

func first(a, _ float64) float64  { return a }
func second(_, b float64) float64 { return b }
