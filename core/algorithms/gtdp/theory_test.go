package gtdp

import (
	"math"
	"testing"

	"dpsim/core/noise"
)

func TestHurwitzAndEulerian(t *testing.T) {
	for _, c := range []struct{ s, a, want float64 }{
		{2, 1, math.Pi * math.Pi / 6},
		{3, 1, 1.2020569031595942854},
		{3, 2, 0.2020569031595942854},
		{2, 2, math.Pi*math.Pi/6 - 1},
		{4, 1, math.Pow(math.Pi, 4) / 90},
		{1.5, 1, 2.6123753486854883433},
		{2, 0.5, math.Pi * math.Pi / 2}, // Σ (k+½)^−2 = 4·(1 − 1/4)·ζ(2)
	} {
		if got := Hurwitz(c.s, c.a); math.Abs(got-c.want) > 1e-14*c.want {
			t.Errorf("Z(%g, %g) = %.17g, want %.17g", c.s, c.a, got, c.want)
		}
	}
	// Rows 1 | 1,1 | 1,4,1 | 1,11,11,1 at w = 2, and the staircase identity
	// Σ_{t≥1} t^n w^t = w·P_n(w)/(1−w)^{n+1}.
	for n, want := range []float64{1, 1, 3, 1 + 8 + 4, 1 + 22 + 44 + 8} {
		if got := Eulerian(n, 2); got != want {
			t.Errorf("P_%d(2) = %v, want %v", n, got, want)
		}
	}
	for n := 0; n <= 6; n++ {
		w, s := 0.7, 0.0
		for tt := 1; tt < 2000; tt++ {
			s += float64(math.Pow(float64(tt), float64(n)) * math.Pow(w, float64(tt)))
		}
		if got := w * Eulerian(n, w) / math.Pow(1-w, float64(n+1)); math.Abs(got-s) > 1e-11*s {
			t.Errorf("staircase n=%d: %v, direct %v", n, got, s)
		}
	}
}

// The spec's checked value (algorithms.md §5.4): p = 3.5, q = 0.5, m = 1,
// w_ii = 0.5, γ = 1, α = 0.1, C = r = b = 1 gives ε∞ = 397.25 with the
// factor the OCR lost. In closed form it is
// 2·P_4(½)·2⁵·[ (ζ(3)−1)/½ + 0.1·(ζ(2)−1)/¼ ] = 600·[2(ζ(3)−1) + 0.4(ζ(2)−1)]
// = 397.252460…; the spec rounds it to two decimals.
func TestCorollary3CheckedValue(t *testing.T) {
	p := Params{Alpha: 0.1, Gamma: noise.Poly(1, 1, 3.5), GradientBound: 1}
	beta := noise.Poly(1, 1, 0.5)
	eta := &noise.Spec{Dist: noise.Laplace, Scale: 1, Decay: beta}
	xi := &noise.Spec{Dist: noise.Laplace, Scale: 1, Decay: beta}
	b := InfiniteHorizon(p, 1, []float64{0.5, 0.5}, eta, xi)
	if !b.Available {
		t.Fatalf("unavailable: %s", b.Reason)
	}
	exact := 600 * (2*(1.2020569031595942854-1) + 0.4*(math.Pi*math.Pi/6-1))
	got := b.Epsilon.Value()
	if math.Abs(got-exact) > 1e-6*exact {
		t.Errorf("ε∞ = %.10g, closed form %.10g", got, exact)
	}
	if math.Abs(got-397.25) > 0.005 {
		t.Errorf("ε∞ = %.6g, the spec's checked value is 397.25", got)
	}
	// Without the factor the OCR lost, the first series would not carry
	// 1/(b_η·w^m): the bound must scale as 1/b when both scales do.
	eta2, xi2 := *eta, *xi
	eta2.Scale, xi2.Scale = 2, 2
	if b2 := InfiniteHorizon(p, 1, []float64{0.5}, &eta2, &xi2); math.Abs(b2.Epsilon.Value()*2-got) > 1e-9*got {
		t.Errorf("ε∞ at b = 2 is %v, want half of %v", b2.Epsilon.Value(), got)
	}
}

func TestCorollary3Unavailable(t *testing.T) {
	one := func(s noise.Schedule) *noise.Spec { return &noise.Spec{Dist: noise.Laplace, Scale: 1, Decay: s} }
	for _, c := range []struct {
		name  string
		gamma noise.Schedule
		beta  noise.Schedule
	}{
		{"fig 1 schedules (q ≥ p − 2)", noise.Poly(2, 1, 1.1), noise.Poly(1, 1, 0.05)},
		{"constant γ", noise.Const(1), noise.Poly(1, 1, 0.8)},
		{"geometric β", noise.Poly(1, 1, 3.5), noise.Geom(1, 0.9)},
		{"different m", noise.Poly(1, 1, 3.5), noise.Poly(1, 2, 0.5)},
		// The hostile probe's p = 10¹² hung in Eulerian's O(⌈p⌉²) recursion.
		{"p beyond the Eulerian polynomials a float64 holds", noise.Poly(1, 1, 1e12), noise.Poly(1, 1, 0.5)},
	} {
		b := InfiniteHorizon(Params{Alpha: 0.1, Gamma: c.gamma, GradientBound: 1}, 2, []float64{0.5}, one(c.beta), one(c.beta))
		if b.Available || b.Reason == "" {
			t.Errorf("%s: available=%v reason=%q; want unavailable with a reason", c.name, b.Available, b.Reason)
		}
	}
}

// ρ(A) by the Collatz–Wielandt bisection equals the power iteration's
// limit, and (I − A)⁻¹B solves the system.
func TestTheorem3Algebra(t *testing.T) {
	A, B := theorem3Matrices(0.005, 2, 2, 2.0/3, 1.0/3, 6, 0.02, 0.02)
	rho := perronRoot(A)
	x := [3]float64{1, 1, 1}
	lam := 0.0
	for range 200000 {
		var y [3]float64
		for i := range 3 {
			y[i] = float64(A[i][0]*x[0]) + float64(A[i][1]*x[1]) + float64(A[i][2]*x[2])
		}
		lam = y[0] / x[0]
		s := y[0] + y[1] + y[2]
		for i := range 3 {
			x[i] = y[i] / s
		}
	}
	if math.Abs(rho-lam) > 1e-12 {
		t.Errorf("ρ(A) = %.15g, power iteration %.15g", rho, lam)
	}
	th, ok := solve3([3][3]float64{{1 - A[0][0], -A[0][1], -A[0][2]}, {-A[1][0], 1 - A[1][1], -A[1][2]}, {-A[2][0], -A[2][1], 1 - A[2][2]}}, B)
	if !ok {
		t.Fatal("singular")
	}
	for i := range 3 {
		r := th[i] - (float64(A[i][0]*th[0]) + float64(A[i][1]*th[1]) + float64(A[i][2]*th[2])) - B[i]
		if math.Abs(r) > 1e-12*th[i] {
			t.Errorf("row %d residual %g", i, r)
		}
	}
	// Theorem 3's sufficient α bound gives ρ(A) < 1 just below it.
	bound := Theorem3StepBound(2, 2, 2.0/3)
	A2, _ := theorem3Matrices(0.99*bound, 2, 2, 2.0/3, 1.0/3, 6, 0.02, 0.02)
	if r := perronRoot(A2); !(r < 1) {
		t.Errorf("ρ(A) = %v at 0.99× the sufficient bound %v", r, bound)
	}
}
