package dpnids_test

import (
	"math"
	"testing"

	"dpsim/core/algorithms/dpnids"
	"dpsim/core/algorithms/internal/basetest"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/sim"
)

// Without noise DP-NIDS is NIDS: every agent reaches the central
// solver's x* of the composite problem (least squares and logistic, with
// the ℓ1 + ℓ2 regulariser and without it).
func TestNoiseFreeReachesOptimum(t *testing.T) {
	basetest.CheckOptimum(t, 1e-9,
		basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Loss: "squares", Regularizer: "elastic-net", L1: 0.02, Iterations: 600},
		basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Loss: "logistic", Regularizer: "elastic-net", L1: 0.01, Iterations: 4000},
		basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Loss: "squares", Regularizer: "none", L1: 0, Iterations: 600},
	)
}

// The ledger is the hand computation of baselines.md §6.0: K iterations
// make K − 1 publications (the first sends nothing), and K − 1
// publications of Δ = 4αc with σ_k² = σ_1²R^(−(k−1)) give
// ρ = ρ_1(R^(K−1) − 1)/(R − 1), ρ_1 = Δ²/(2σ_1²), and ε = ρ + 2√(ρ ln 1/δ)
// with the simple conversion.
func TestLedgerByHand(t *testing.T) {
	const alpha, c, sigma, R, delta = 0.1, 0.5, 3.0, 1.02, 1e-4
	for _, k := range []int{2, 7, 120} {
		r := basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: sigma, L1: 0.02, Iterations: k,
			Params: `"alpha": 0.1, "gradient_bound": 0.5, "attenuation": 1.02, "delta": 1e-4, "conversion": "simple"`}.Run(t)
		d := 4 * alpha * c
		rho := d * d / (2 * sigma * sigma) * (math.Pow(R, float64(k-1)) - 1) / (R - 1)
		want := rho + 2*math.Sqrt(rho*math.Log(1/delta))
		l := r.Ledger()
		if got := l.Max.Value(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("K=%d: ε = %.15g, hand %.15g", k, got, want)
		}
		if got := basetest.PLF(l); got != k-1 {
			t.Errorf("K=%d: PLF %d, want %d", k, got, k-1)
		}
		for _, e := range l.Agents {
			if e.Epsilon.Value() != l.Max.Value() {
				t.Errorf("K=%d: agent %d has ε %v, the others %v (every agent publishes every iteration)", k, e.Agent, e.Epsilon, l.Max)
			}
		}
	}
}

// A target ε at a PLF is met to 1e-9 with either conversion, through the
// algorithm's target_epsilon and through the scenario's calibrate.
func TestCalibration(t *testing.T) {
	// 301 iterations make 300 publications (the first sends nothing).
	basetest.CheckTargetEpsilon(t, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 301}, 300, 0.5, 12)
	basetest.CheckFactorFor(t, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 200}, 12)
}

// The scenario's "calibrate" meets a target ε to 1e-9 (the accountant's
// closed-form inverse, ρ ∝ 1/λ²), with either conversion.
func TestScenarioCalibrate(t *testing.T) {
	basetest.CheckCalibrateConversions(t, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 200}, 12)
}

// The noise drawn is the noise the ledger accounts for: σ_1·R^(−(t−1)/2)
// at the t-th publication (iteration t + 1).
func TestNoiseIsAccounted(t *testing.T) {
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 0.5, L1: 0.02, Iterations: 60,
		Params: `"attenuation": 1.05`}, 1.05, nil, nil)
}

// noiseSum adds up the noise of every release, per coordinate.
type noiseSum struct{ sum []float64 }

func (n *noiseSum) Record(s *sim.Step) {
	for _, r := range s.Releases {
		if n.sum == nil {
			n.sum = make([]float64, len(r.Noise))
		}
		for c, v := range r.Noise {
			n.sum[c] += v
		}
	}
}

// NIDS's sum invariant with noise: W̃ is doubly stochastic, so summed
// over the agents the updates telescope to
// Σ_i z_i^K = Σ_i x_i^{K−1} − αΣ_i ∇f_i(x_i^{K−1}) + Σ_{k<K} Σ_i ν_i^k — the
// tracking invariant keeps every noise ever mixed (baselines.md G4), when
// the agents mix their own published copies.
func TestSumInvariantKeepsTheNoise(t *testing.T) {
	b := basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 0.3, L1: 0.02, Iterations: 25, Params: `"alpha": 0.1`}.Build(t)
	rec := &noiseSum{}
	r := runner.New(b, rec)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	a, prob := b.Algorithm, b.Env.Problem
	z, xprev := runnertest.State(a, "z"), runnertest.State(a, "x_prev")
	d := prob.Dim()
	g := make([]float64, d)
	for c := range d {
		s := 0.0
		for i := range prob.Agents() {
			prob.Grad(i, xprev[i*d:(i+1)*d], g)
			s += z[i*d+c] - xprev[i*d+c] + float64(0.1*g[c])
		}
		if math.Abs(s-rec.sum[c]) > 1e-12*math.Max(1, math.Abs(rec.sum[c])) {
			t.Errorf("coordinate %d: Σz − Σx + αΣ∇f = %.15g, the noise released %.15g", c, s, rec.sum[c])
		}
	}
}

// The source confidence of baselines.md is shown where people read: the
// factory's description (dpsim plugins, the page) and the ledger's source.
func TestConfidenceShown(t *testing.T) {
	basetest.CheckConfidence(t, dpnids.Factory.Paper, dpnids.Confidence, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 2})
}

// A step beyond the algorithm's condition warns, as DP-RECAL's does
// (zcdpgauss.StepWarning); α = 100 was accepted without a word.
func TestStepWarning(t *testing.T) {
	basetest.CheckStepWarning(t, basetest.Setup{Algorithm: "dp-nids", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 3})
}
