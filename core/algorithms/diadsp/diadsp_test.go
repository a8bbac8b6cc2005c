package diadsp_test

import (
	"math"
	"testing"

	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// The bounded-gradient ledger is the literal sum of baselines.md §3.1:
// Σ_k s_x(k)/(u_x r^k) + s_y(k)/(u_y r^k) with s_y(0) = 2√d·C,
// s_y(k ≥ 1) = 4√d·C, s_x(0) = 0, s_x(k) = α·s_y(k−1).
func TestLedgerIsTheLiteralSum(t *testing.T) {
	C := 2 * (2 + math.Sqrt2)
	rd := math.Sqrt2
	for _, k := range []int{1, 2, 3, 50, 500} {
		b := runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) { s.Calibrate = nil; s.Iterations = k })
		r := runnertest.Run(t, b)
		want := 0.0
		for i := range k {
			sy := 4 * rd * C
			if i == 0 {
				sy = 2 * rd * C
			}
			sx := 0.0
			if i == 1 {
				sx = 0.1 * 2 * rd * C
			} else if i > 1 {
				sx = 0.1 * 4 * rd * C
			}
			rk := math.Pow(0.99, float64(i))
			want += sx/(2*rk) + sy/(5*rk)
		}
		if got := r.Ledger().Max.Value(); math.Abs(got-want) > 1e-10*want {
			t.Errorf("K=%d: ε = %.15g, literal %.15g", k, got, want)
		}
	}
}

// Without noise DiaDSP is gradient tracking with a constant step: it
// converges linearly to the centroid of the targets.
func TestNoiseFreeConverges(t *testing.T) {
	b := runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) {
		s.Calibrate = nil
		s.Noise["eta"].Scale, s.Noise["xi"].Scale = 0, 0
		s.Iterations = 1500
	})
	r := runnertest.Run(t, b)
	if got := r.Metrics.Latest().Optimality; got > 1e-20 {
		t.Errorf("optimality %g after 1500 noise-free iterations", got)
	}
}

// Equal privacy: DiaDSP calibrated to the ε GT-DP's ledger reports at
// K = 500 (Fig. 2 setting) reports the same ε to 1e−6.
func TestCalibratedToGTDP(t *testing.T) {
	for _, eps := range []float64{50, 1e4} {
		g := runnertest.Run(t, runnertest.Preset(t, "gtdp-fig2", func(s *scenario.Scenario) { s.Calibrate.Epsilon = eps }))
		target := g.Ledger().Max.Value()
		d := runnertest.Run(t, runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) { s.Calibrate.Epsilon = target }))
		if got := d.Ledger().Max.Value(); math.Abs(got-target) > 1e-6*target {
			t.Errorf("DiaDSP ε = %.12g, GT-DP ε = %.12g", got, target)
		}
		// The ratio u_x : u_y = 2 : 5 survives calibration.
		c := d.Built().Calibration.Channels
		if r := c[0].After[0] / c[1].After[0]; math.Abs(r-0.4) > 1e-12 {
			t.Errorf("u_x/u_y = %v after calibration, want 0.4", r)
		}
	}
}
