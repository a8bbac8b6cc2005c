package zcdpgauss

import (
	"math"
	"testing"
)

// LogGeometric is ln Σ_{t=1..T} ρ_1 q^(t−1), checked against the direct
// sum (relative 1e-12), and stays finite where the sum overflows float64.
func TestLogGeometric(t *testing.T) {
	for _, c := range []struct {
		rho1, q float64
		count   int
	}{
		{0.3, 1.01, 500}, {2e-4, 1.01, 300}, {1.5, 1, 77}, {0.7, 0.9, 40}, {0.7, 0.95, 1}, {3, 1.5, 3},
		{0.3, 1 + 1e-7, 1}, {0.3, 1 + 1e-7, 1000}, {0.3, 1 - 1e-7, 1000}, {0.3, 1.005, 2}, {0.3, 0.995, 2},
	} {
		sum := 0.0
		for k := range c.count {
			sum += float64(c.rho1 * math.Pow(c.q, float64(k)))
		}
		got := LogGeometric(math.Log(c.rho1), math.Log(c.q), c.count)
		if math.Abs(math.Exp(got)/sum-1) > 1e-12 {
			t.Errorf("ρ_1 %g, q %g, T %d: exp(LogGeometric) = %.15g, direct sum %.15g", c.rho1, c.q, c.count, math.Exp(got), sum)
		}
	}
	if got := LogGeometric(math.Log(0.5), math.Log(1.01), 0); !math.IsInf(got, -1) {
		t.Errorf("no publications: %v, want −Inf (ρ = 0)", got)
	}
	if got := LogGeometric(math.Inf(1), 0, 3); !math.IsInf(got, 1) {
		t.Errorf("no noise: %v, want +Inf", got)
	}
	// R = 1.01 over 10⁷ publications: R^T ≈ 10^43214, far beyond float64.
	want := math.Log(0.5) + float64(1e7*math.Log(1.01)) - math.Log(0.01)
	if got := LogGeometric(math.Log(0.5), math.Log(1.01), 1e7); math.Abs(got-want) > 1e-9*want {
		t.Errorf("T = 10⁷: %v, want ≈ %v", got, want)
	}
}
