package gtdp_test

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// The paper's comparisons (Figs. 1–3), on reduced run counts, each with a
// statistical margin: a difference counts only beyond 3 standard errors.
// The full presets (50 and 500 runs) are the experiments of
// docs/calibration.md; these are their regression tests.

// finalErrors runs preset over seeds 1..runs (with edit applied) and
// returns the final optimality error of each run, or its mean over the
// last `tail` iterations when tail > 0.
func finalErrors(t *testing.T, preset string, runs, tail int, edit func(*scenario.Scenario)) []float64 {
	t.Helper()
	var xs []float64
	for seed := range runs {
		s, err := scenario.PresetScenario(preset)
		if err != nil {
			t.Fatal(err)
		}
		sd := uint64(1000 + seed)
		s.Seed = &sd
		if edit != nil {
			edit(s)
		}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		ser := &r.Metrics.Series
		if tail == 0 {
			xs = append(xs, r.Metrics.Latest().Optimality)
			continue
		}
		sum, n := 0.0, 0
		last := ser.At(ser.Len() - 1).Iter
		for i := ser.Len() - 1; i >= 0; i-- {
			p := ser.At(i)
			if p.Iter <= last-tail {
				break
			}
			sum += p.Optimality
			n++
		}
		xs = append(xs, sum/float64(n))
	}
	return xs
}

// below reports whether mean(a) + margin·SE < mean(b), SE the standard
// error of the difference of the two means.
func below(a, b []float64, margin float64) (bool, string) {
	ma, sa := meanSE(a)
	mb, sb := meanSE(b)
	se := math.Hypot(sa, sb)
	return ma+float64(margin*se) < mb, fmtCmp(ma, sa, mb, sb)
}

// pairedBelow reports whether a is below b by more than margin standard
// errors of the paired differences a_r − b_r: run r of a and of b share
// the scenario seed, hence the targets, so the spread of the targets
// (which scales both errors alike) cancels.
func pairedBelow(a, b []float64, margin float64) (bool, string) {
	d := make([]float64, len(a))
	for r := range a {
		d[r] = a[r] - b[r]
	}
	md, sd := meanSE(d)
	ma, sa := meanSE(a)
	mb, sb := meanSE(b)
	return md+float64(margin*sd) < 0, fmtCmp(ma, sa, mb, sb) + "; paired difference " + g4(md) + " ± " + g4(sd)
}

func fmtCmp(ma, sa, mb, sb float64) string {
	return "mean " + g4(ma) + " ± " + g4(sa) + " vs " + g4(mb) + " ± " + g4(sb) + " (SE)"
}

func g4(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// Fig. 2 (GT-DP against DiaDSP at equal ε, constant step 0.1, K = 500):
// "the proposed algorithm has a much better optimization accuracy under
// the same privacy budget". 16 runs each, at the preset's ε = 10⁴ and at
// ε = 10⁵; GT-DP's final error must be below DiaDSP's by 3 standard
// errors.
func TestFig2GTDPBeatsDiaDSP(t *testing.T) {
	for _, eps := range []float64{1e4, 1e5} {
		set := func(s *scenario.Scenario) { s.Calibrate.Epsilon = eps }
		g := finalErrors(t, "gtdp-fig2", 16, 0, set)
		d := finalErrors(t, "diadsp-fig2", 16, 0, set)
		ok, msg := below(g, d, 3)
		t.Logf("ε = %g: GT-DP %s DiaDSP", eps, msg)
		if !ok {
			t.Errorf("ε = %g: GT-DP is not below DiaDSP by 3 SE: %s", eps, msg)
		}
	}
}

// Fig. 1 (GT-DP against DPOP at equal ε, K = 500): the paper reports GT-DP
// "much better". In dpsim's reconstruction it is not: with the paper's
// GT-DP schedules (γ_k = 2/(1+k)^1.1 is summable, β_k = 1/(1+k)^0.05
// barely decays) the noise on x accumulates uncorrected (Theorem 1 case 3
// territory: a neighbourhood, not exact), while DPOP with baselines.md's
// c = 0.25, q = 0.98, p = 0.99 ends far closer; the paper does not give
// DPOP's c, q, p or the ε. This test pins the finding, honestly, so that a
// change that alters it is noticed: at ε = 10³ and 10⁴ DPOP's final error
// is below GT-DP's by 3 standard errors.
func TestFig1ClaimDoesNotReproduce(t *testing.T) {
	for _, eps := range []float64{1e3, 1e4} {
		set := func(s *scenario.Scenario) { s.Calibrate.Epsilon = eps }
		g := finalErrors(t, "gtdp-fig1", 16, 0, set)
		d := finalErrors(t, "dpop-fig1", 16, 0, set)
		ok, msg := below(d, g, 3)
		t.Logf("ε = %g: DPOP %s GT-DP", eps, msg)
		if !ok {
			t.Errorf("ε = %g: the finding changed — DPOP is no longer below GT-DP by 3 SE (%s); re-examine Fig. 1", eps, msg)
		}
	}
}

// Fig. 1's sensitivity (experiment presets gtdp-fig1-epsilon and
// gtdp-fig1-dpop-q, docs/gtdp-paper.md): the paper's claim holds in
// dpsim's reconstruction only for a DPOP whose step γ_t = 0.25·q^t dies
// out within a few iterations (q ≤ 0.3; the paper gives no q) and only at
// a large budget (ε = 10⁵), where GT-DP sits at its own noise-free floor.
// 48 paired runs per case, 3-SE margin on the paired differences:
//   - ε = 10⁵, q = 0.1: GT-DP below DPOP (the one corner where the claim holds);
//   - ε = 10³, q = 0.1: DPOP still below GT-DP (no q rescues the claim there);
//   - ε = 10⁵, q = 0.9: DPOP below GT-DP (nor at a large ε with a slow decay).
func TestFig1ClaimNeedsSmallDPOPStepDecay(t *testing.T) {
	for _, c := range []struct {
		eps, q    float64
		gtdpBelow bool
	}{{1e5, 0.1, true}, {1e3, 0.1, false}, {1e5, 0.9, false}} {
		g := finalErrors(t, "gtdp-fig1", 48, 0, func(s *scenario.Scenario) { s.Calibrate.Epsilon = c.eps })
		d := finalErrors(t, "dpop-fig1", 48, 0, func(s *scenario.Scenario) {
			s.Calibrate.Epsilon = c.eps
			s.Algorithm.Params = json.RawMessage(`{"c": 0.25, "q": ` + g4(c.q) + `}`)
		})
		lo, hi, who := g, d, "GT-DP below DPOP"
		if !c.gtdpBelow {
			lo, hi, who = d, g, "DPOP below GT-DP"
		}
		ok, msg := pairedBelow(lo, hi, 3)
		t.Logf("ε = %g, DPOP q = %g: %s: %s", c.eps, c.q, who, msg)
		if !ok {
			t.Errorf("ε = %g, DPOP q = %g: the finding changed — %s no longer holds by 3 SE (%s); re-examine the Fig. 1 sensitivity study", c.eps, c.q, who, msg)
		}
	}
}

// Fig. 3 (ρ_w = 0.9 fixed, ρ(W_o) = r varied, ridge regression on the
// ring W(r, d), α = 0.01, 6000 iterations, error averaged over the last
// 1000): "the optimization error decreases with a decrease in ρ(W_o)".
// 10 runs per point at r = 0.1, 0.3, 0.5; each step up in r must raise
// the mean steady-state error by more than 3 standard errors.
func TestFig3ErrorGrowsWithRhoWo(t *testing.T) {
	var prev []float64
	for _, r := range []float64{0.1, 0.3, 0.5} {
		xs := finalErrors(t, "gtdp-ridge-ring", 10, 1000, func(s *scenario.Scenario) {
			s.Weights.R = r
			s.Weights.RhoW = 0.9
		})
		if prev != nil {
			ok, msg := below(prev, xs, 3)
			t.Logf("r = %g: previous %s this", r, msg)
			if !ok {
				t.Errorf("r = %g: the error does not grow with ρ(W_o) by 3 SE: %s", r, msg)
			}
		}
		prev = xs
	}
}
