package privacy

import (
	"math"
	"strings"
	"testing"
)

func TestZCDPEpsilon(t *testing.T) {
	for _, c := range []struct {
		name         string
		rho, delta   float64
		tight, simpl float64
		tol          float64
	}{
		// OpenDP's test vector for cdp_epsilon.
		{"opendp", 1.0 / 32, 1e-3, 0.6880024554878085, 0.0312500 + 2*math.Sqrt(math.Log(1e3)/32), 1e-12},
		// The DP-RECAL spec's setting: σ_1 = 1 gives ρ = 11.598, ε = 29.499 (simple).
		{"recal sigma 1", 11.598164, 1e-3, math.NaN(), 29.499, 1e-3},
		{"zero", 0, 1e-3, 0, 0, 0},
		{"inf", math.Inf(1), 1e-3, math.Inf(1), math.Inf(1), 0},
	} {
		got := ZCDPEpsilon(c.rho, c.delta)
		if !math.IsNaN(c.tight) && !(got == c.tight || math.Abs(got-c.tight) <= c.tol) {
			t.Errorf("%s: tight ε = %.17g, want %.17g ± %g", c.name, got, c.tight, c.tol)
		}
		gs := ZCDPEpsilonSimple(c.rho, c.delta)
		if !(gs == c.simpl || math.Abs(gs-c.simpl) <= c.tol) {
			t.Errorf("%s: simple ε = %.17g, want %.17g ± %g", c.name, gs, c.simpl, c.tol)
		}
		if got > gs {
			t.Errorf("%s: tight ε %v above simple %v", c.name, got, gs)
		}
	}
}

// The tight conversion is the minimum over the order a; a grid search
// over a must never find a smaller value, and the result never exceeds
// the simple bound.
func TestZCDPEpsilonIsMinimum(t *testing.T) {
	for _, rho := range []float64{1e-6, 1e-3, 0.03125, 0.5, 3, 11.6, 200} {
		for _, delta := range []float64{1e-10, 1e-5, 1e-3, 0.1, 0.5} {
			eps := ZCDPEpsilon(rho, delta)
			if s := ZCDPEpsilonSimple(rho, delta); eps > s || eps < 0 || math.IsNaN(eps) {
				t.Fatalf("ρ=%v δ=%v: tight %v, simple %v", rho, delta, eps, s)
			}
			l := math.Log(1 / delta)
			for i := 1; i <= 2000; i++ {
				a := 1 + float64(float64(i)/2000*2*math.Sqrt(l/rho))
				e := float64(a*rho) + (l+float64((a-1)*math.Log(1-1/a))-math.Log(a))/(a-1)
				if math.Max(e, 0) < eps-float64(1e-9*math.Max(1, eps)) {
					t.Fatalf("ρ=%v δ=%v: order %v gives %v below %v", rho, delta, a, e, eps)
				}
			}
		}
	}
}

func TestZCDPInverse(t *testing.T) {
	for _, conv := range []Conversion{Tight, Simple} {
		for _, eps := range []float64{0.1, 1, 5, 10, 12, 100} {
			for _, delta := range []float64{1e-6, 1e-3, 0.05} {
				rho := conv.Rho(eps, delta)
				if got := conv.Epsilon(rho, delta); math.Abs(got-eps) > 1e-9*eps {
					t.Errorf("%v: ε(ρ(%v)) = %.15g at δ=%v", conv, eps, got, delta)
				}
			}
		}
	}
	// The spec's target ε = 12, δ = 1e-3 gives ρ_tot = 2.9586 with the
	// simple conversion; the tight one allows more ρ for the same ε.
	if r := ZCDPRhoSimple(12, 1e-3); math.Abs(r-2.9586) > 1e-4 {
		t.Errorf("simple ρ for ε=12: %v, want 2.9586", r)
	}
	if ZCDPRho(12, 1e-3) <= ZCDPRhoSimple(12, 1e-3) {
		t.Errorf("tight inverse not above the simple one")
	}
}

func TestGeometricRho(t *testing.T) {
	for _, c := range []struct {
		rho1, r float64
		count   int
		want    float64
	}{
		{1, 1, 7, 7},
		{1, 2, 3, 7},
		{0.5, 2, 0, 0},
		{0.1, 1.01, 300, 0.1 * (math.Pow(1.01, 300) - 1) / 0.01},
		{1, 10, 400, math.Inf(1)},
	} {
		got := GeometricRho(c.rho1, c.r, c.count)
		if !(got == c.want || math.Abs(got-c.want) <= 1e-12*c.want) {
			t.Errorf("GeometricRho(%v, %v, %d) = %v, want %v", c.rho1, c.r, c.count, got, c.want)
		}
		if c.count > 0 && !math.IsInf(got, 1) {
			if back := GeometricRho1(got, c.r, c.count); math.Abs(back-c.rho1) > 1e-12*c.rho1 {
				t.Errorf("GeometricRho1 round trip: %v, want %v", back, c.rho1)
			}
		}
	}
	// A sum of the per-release ρ equals the closed form.
	s := 0.0
	for t := 1; t <= 300; t++ {
		s += ComposeRho(GaussianRho(2, 3*math.Pow(1.01, -float64(t-1)/2)))
	}
	if w := GeometricRho(GaussianRho(2, 3), 1.01, 300); math.Abs(s-w) > 1e-9*w {
		t.Errorf("composed %v, closed form %v", s, w)
	}
}

func TestZCDPBadInput(t *testing.T) {
	if err := CheckZCDP("rho", -1, "delta", 0.1); err == nil || !strings.Contains(err.Error(), "rho") {
		t.Errorf("negative ρ: %v", err)
	}
	if err := CheckZCDP("rho", 1, "delta", 1); err == nil || !strings.Contains(err.Error(), "delta") {
		t.Errorf("δ = 1: %v", err)
	}
	if err := CheckZCDP("rho", 1, "delta", 1e-3); err != nil {
		t.Error(err)
	}
	if _, err := ParseConversion("conversion", "loose"); err == nil || !strings.Contains(err.Error(), "loose") {
		t.Errorf("ParseConversion: %v", err)
	}
	for _, s := range []string{"tight", "simple"} {
		c, err := ParseConversion("c", s)
		if err != nil || c.String() != s {
			t.Errorf("ParseConversion(%q) = %v, %v", s, c, err)
		}
	}
	if !math.IsNaN(ZCDPEpsilon(1, 0)) || !math.IsNaN(ZCDPRho(-1, 0.1)) {
		t.Errorf("bad input not NaN")
	}
}

// The tight conversion is finite for every finite ρ, never NaN: its
// search interval collapsed once ρ ≳ 5.6·10³² (δ = 10⁻³), and the
// exports of a DP-RECAL run with R = 10 or 70,000 iterations failed on
// the NaN (issue 30). Each value is checked against an independent
// evaluation: a golden-section search of the objective in ln(a − 1)
// with the standard library's Log1p, ε = ρ + min_u (ρu + l/u + ln u −
// ln(1+u) − ln(1+u)/u), to within tol relative.
func TestZCDPEpsilonLargeRho(t *testing.T) {
	independent := func(rho, delta float64) float64 {
		l := math.Log(1 / delta)
		f := func(lu float64) float64 {
			u := math.Exp(lu)
			return float64(rho*u) + l/u + lu - math.Log1p(u) - math.Log1p(u)/u
		}
		w := math.Log(math.Sqrt(l / rho))
		a, b := w-8, w+1
		g := (math.Sqrt(5) - 1) / 2
		for range 300 {
			c, d := b-float64(g*(b-a)), a+float64(g*(b-a))
			if f(c) < f(d) {
				b = d
			} else {
				a = c
			}
		}
		return rho + f((a+b)/2)
	}
	for _, c := range []struct {
		rho, delta, tol float64
	}{
		{1e3, 1e-3, 1e-12}, // the bisection on a (for comparison)
		{1e12, 1e-3, 1e-14},
		{1e14, 1e-3, 1e-15},
		{1e20, 1e-10, 1e-15},
		{5.5e32, 1e-3, 1e-15},
		{5.7e32, 1e-3, 1e-15}, // NaN before
		{1e40, 1e-3, 1e-15},
		{1e100, 1e-3, 1e-15},
		{1e200, 1e-5, 1e-15},
		{1e300, 1e-3, 1e-15},
		{math.MaxFloat64, 1e-3, 1e-15},
	} {
		got := ZCDPEpsilon(c.rho, c.delta)
		if math.IsNaN(got) || math.IsInf(got, 0) {
			t.Errorf("ρ = %g, δ = %g: ε = %v, want finite", c.rho, c.delta, got)
			continue
		}
		want := independent(c.rho, c.delta)
		if math.Abs(got-want) > c.tol*want {
			t.Errorf("ρ = %g, δ = %g: ε = %.17g, independent %.17g (relative %.2g > %g)", c.rho, c.delta, got, want, math.Abs(got-want)/want, c.tol)
		}
		if s := ZCDPEpsilonSimple(c.rho, c.delta); got > s || math.IsInf(s, 0) {
			t.Errorf("ρ = %g: tight %v, simple %v", c.rho, got, s)
		}
		if back := ZCDPRho(got, c.delta); c.rho < 1e300 && math.Abs(back-c.rho) > 1e-9*c.rho {
			t.Errorf("ρ = %g: the inverse of ε = %g gives ρ = %g", c.rho, got, back)
		}
	}
}
