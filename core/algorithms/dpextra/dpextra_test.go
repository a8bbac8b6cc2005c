package dpextra_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/algorithms/dpextra"
	"dpsim/core/algorithms/internal/basetest"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// Without noise DP-EXTRA is PG-EXTRA: every agent reaches the central
// solver's x* of the composite problem (least squares and logistic, with
// the ℓ1 + ℓ2 regulariser and without it).
func TestNoiseFreeReachesOptimum(t *testing.T) {
	basetest.CheckOptimum(t, 1e-9,
		basetest.Setup{Algorithm: "dp-extra", Channel: "x", Loss: "squares", Regularizer: "elastic-net", L1: 0.02, Iterations: 600},
		basetest.Setup{Algorithm: "dp-extra", Channel: "x", Loss: "logistic", Regularizer: "elastic-net", L1: 0.01, Iterations: 4000},
		basetest.Setup{Algorithm: "dp-extra", Channel: "x", Loss: "squares", Regularizer: "none", L1: 0, Iterations: 600},
	)
}

// The ledger is the hand computation of baselines.md §6.0: K
// publications of Δ = 4αc with σ_k² = σ_1²R^(−(k−1)) give
// ρ = ρ_1(R^K − 1)/(R − 1), ρ_1 = Δ²/(2σ_1²), and ε = ρ + 2√(ρ ln 1/δ)
// with the simple conversion.
func TestLedgerByHand(t *testing.T) {
	const alpha, c, sigma, R, delta = 0.1, 0.5, 3.0, 1.02, 1e-4
	for _, k := range []int{1, 7, 120} {
		r := basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: sigma, L1: 0.02, Iterations: k,
			Params: `"alpha": 0.1, "gradient_bound": 0.5, "attenuation": 1.02, "delta": 1e-4, "conversion": "simple"`}.Run(t)
		d := 4 * alpha * c
		rho := d * d / (2 * sigma * sigma) * (math.Pow(R, float64(k)) - 1) / (R - 1)
		want := rho + 2*math.Sqrt(rho*math.Log(1/delta))
		l := r.Ledger()
		if got := l.Max.Value(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("K=%d: ε = %.15g, hand %.15g", k, got, want)
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
	basetest.CheckTargetEpsilon(t, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 300}, 300, 0.5, 12)
	basetest.CheckFactorFor(t, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 200}, 12)
}

// The scenario's "calibrate" meets a target ε to 1e-9 (the accountant's
// closed-form inverse, ρ ∝ 1/λ²), with either conversion.
func TestScenarioCalibrate(t *testing.T) {
	basetest.CheckCalibrateConversions(t, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 200}, 12)
}

// Bad privacy inputs are refused with the field, the rule and the value.
func TestBadPrivacyInputs(t *testing.T) {
	for _, c := range []struct {
		name, params, noise, want string
	}{
		{"decaying channel", ``, `{"dist": "gaussian", "scale": 1, "decay": {"kind": "geometric", "c": 1, "r": 0.9}}`, "noise.x.decay"},
		{"no gradient bound", `"gradient_bound": 0`, `{"dist": "gaussian", "scale": 1}`, "algorithm.params.gradient_bound"},
		{"δ = 1", `"delta": 1`, `{"dist": "gaussian", "scale": 1}`, "algorithm.params.delta"},
		{"R < 1", `"attenuation": 0.5`, `{"dist": "gaussian", "scale": 1}`, "algorithm.params.attenuation"},
		{"target without a horizon", `"target_epsilon": 12, "plf": 0`, `{"dist": "gaussian", "scale": 1}`, "algorithm.params.plf"},
		{"unknown conversion", `"conversion": "loose"`, `{"dist": "gaussian", "scale": 1}`, "algorithm.params.conversion"},
	} {
		s := basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 3, Params: c.params}
		js := strings.Replace(s.JSON(), `"x": {"dist": "gaussian", "scale": 1}`, `"x": `+c.noise, 1)
		sc, err := scenario.Parse([]byte(js))
		if err == nil {
			_, err = scenario.Build(sc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}

// The noise drawn is the noise the ledger accounts for: σ_1·R^(−(k−1)/2)
// at the k-th iteration.
func TestNoiseIsAccounted(t *testing.T) {
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 0.5, L1: 0.02, Iterations: 60,
		Params: `"attenuation": 1.05`}, 1.05, nil, nil)
}

// PG-EXTRA's sum invariant with noise: W and W̃ are doubly stochastic, so
// summed over the agents the updates telescope to
// Σ_i x_i^{k+1/2} + αΣ_i ∇f_i(x_i^k) = Σ_i x̃_i^k — when every agent mixes
// its own published (noisy) copy. Mixing the clean own copy
// (self_noisy false) breaks it by the own weights times the noise.
func TestSumInvariantLocatesTheNoise(t *testing.T) {
	for _, selfNoisy := range []bool{true, false} {
		r := basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 0.3, L1: 0.02, Iterations: 25,
			Params: `"alpha": 0.1, "self_noisy": ` + strconv.FormatBool(selfNoisy)}.Run(t)
		a := r.Built().Algorithm
		prob := r.Built().Env.Problem
		half, xprev, sent := runnertest.State(a, "half"), runnertest.State(a, "x_prev"), runnertest.State(a, "sent")
		d := prob.Dim()
		g := make([]float64, d)
		gap := 0.0
		for c := range d {
			s := 0.0
			for i := range prob.Agents() {
				prob.Grad(i, xprev[i*d:(i+1)*d], g)
				s += half[i*d+c] + float64(0.1*g[c]) - sent[i*d+c]
			}
			gap = math.Max(gap, math.Abs(s))
		}
		if holds := gap < 1e-12; holds != selfNoisy {
			t.Errorf("self_noisy %v: |Σ x^{k+1/2} + αΣ∇f − Σ x̃| = %g", selfNoisy, gap)
		}
	}
}

// The source confidence of baselines.md is shown where people read: the
// factory's description (dpsim plugins, the page) and the ledger's source.
func TestConfidenceShown(t *testing.T) {
	basetest.CheckConfidence(t, dpextra.Factory.Paper, dpextra.Confidence, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 2})
}

// A finite budget beyond the tight conversion's old reach is written as
// a number, not ∞ (NaN → ∞ before, from ρ ≈ 5.6·10³²): R = 10 over 74
// publications gives ρ = ρ_1(10⁷⁴ − 1)/9 ≈ 10⁷³, and ε is ρ to 12 digits.
func TestLargeBudgetIsANumber(t *testing.T) {
	const alpha, c = 0.1, 1.0
	r := basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 74,
		Params: `"alpha": 0.1, "attenuation": 10`}.Run(t)
	d := 4 * alpha * c
	want := math.Log10(d*d/2) + math.Log10((math.Pow(10, 74)-1)/9)
	if got := r.Ledger().Max; got.NoGuarantee() || math.Abs(got.Log10()-want) > 1e-12*want {
		t.Errorf("ε = %s (log10 %v), want 10^%.12g", got, got.Log10(), want)
	}
}

// A step beyond the algorithm's condition warns, as DP-RECAL's does
// (zcdpgauss.StepWarning); α = 100 was accepted without a word.
func TestStepWarning(t *testing.T) {
	basetest.CheckStepWarning(t, basetest.Setup{Algorithm: "dp-extra", Channel: "x", Scale: 1, L1: 0.02, Iterations: 3})
}
