package dpdgt_test

import (
	"math"
	"strconv"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// finalErrors runs preset name with seeds first, first+1, … (runs of them)
// and returns ‖w_K − w*‖² at the end of each run.
func finalErrors(t *testing.T, name string, runs int, first uint64, edit func(*scenario.Scenario)) []float64 {
	t.Helper()
	out := make([]float64, 0, runs)
	for r := range runs {
		s, err := scenario.PresetScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		seed := first + uint64(r)
		s.Seed, s.Seeds = &seed, nil
		s.Record.Every = s.Iterations
		if edit != nil {
			edit(s)
		}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		rr := runner.New(b)
		if err := rr.Run(); err != nil {
			t.Fatal(err)
		}
		out = append(out, rr.Metrics.Latest().Optimality)
	}
	return out
}

func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += float64((x - mean) * (x - mean))
	}
	v /= float64(len(xs) - 1)
	return mean, math.Sqrt(v / float64(len(xs)))
}

// margin is the one-sided test of every claim: the difference of two
// means must exceed this many standard errors of the difference (about
// p < 0.0013 for a normal difference).
const margin = 3

// above reports whether mean a exceeds mean b by margin standard errors.
func above(a, b []float64) (bool, string) {
	ma, sa := meanSE(a)
	mb, sb := meanSE(b)
	z := (ma - mb) / math.Hypot(sa, sb)
	return z > margin, "means " + fmt4(ma) + " ± " + fmt4(sa) + " and " + fmt4(mb) + " ± " + fmt4(sb) + ", z = " + fmt4(z)
}

func fmt4(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// Fig. 4's claim (Sec. 6.2): E‖w_∞ − w*‖² grows with θ_0. Reduced to 4
// values of θ_0 and 60 runs each (the paper: 11 values, 2000 runs), with
// independent seeds per value; each step up must be significant.
func TestFig4ErrorGrowsWithNoise(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo claim")
	}
	const runs = 60
	var prev []float64
	prevTheta := 0.0
	for k, theta := range []float64{0, 0.02, 0.05, 0.1} {
		errs := finalErrors(t, "dpdgt-ieee14", runs, uint64(1000*(k+1)), func(s *scenario.Scenario) {
			s.Iterations = 1500
			s.Noise["xi"].Scale, s.Noise["zeta"].Scale = theta, theta
		})
		m, se := meanSE(errs)
		t.Logf("θ_0 = %g: E‖w − w*‖² = %.4g ± %.2g (%d runs)", theta, m, se, runs)
		if prev != nil {
			if ok, detail := above(errs, prev); !ok {
				t.Errorf("θ_0 = %g does not err significantly more than θ_0 = %g: %s", theta, prevTheta, detail)
			}
		}
		prev, prevTheta = errs, theta
	}
}

// Fig. 5's claim (Sec. 6.3): under the same noise DP-DGT ends closer to w*
// than DDGT and diff-DRADT — on the paper's reading of the digraph and on
// the opposite one. 30 runs each.
func TestFig5DPDGTMostAccurate(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo claim")
	}
	const runs = 30
	for _, reading := range []string{scenario.ReadToFrom, scenario.ReadFromTo} {
		edit := func(s *scenario.Scenario) { s.Graph.Reading = reading }
		dp := finalErrors(t, "dpdgt-ieee14-sec63", runs, 1, edit)
		for _, base := range []string{"ddgt-ieee14", "diffdradt-ieee14"} {
			other := finalErrors(t, base, runs, 501, edit)
			ok, detail := above(other, dp)
			t.Logf("%s reading: %s against DP-DGT: %s", reading, base, detail)
			if !ok {
				t.Errorf("%s reading: DP-DGT is not significantly closer to w* than %s: %s", reading, base, detail)
			}
		}
	}
}
