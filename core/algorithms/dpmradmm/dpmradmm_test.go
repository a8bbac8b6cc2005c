package dpmradmm_test

import (
	"math"
	"strings"
	"testing"

	"dpsim/core/algorithms/dpmradmm"
	"dpsim/core/algorithms/internal/basetest"
	"dpsim/core/scenario"
)

// Without noise DP-MRADMM alternates exact ADMM steps with recycled
// linearized ones and every agent reaches the central solver's x* (least
// squares and logistic with an ℓ2 term, r = 0 as the paper runs it).
func TestNoiseFreeReachesOptimum(t *testing.T) {
	basetest.CheckOptimum(t, 1e-9,
		basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Loss: "squares", Regularizer: "none", Iterations: 400},
		basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Loss: "logistic", Regularizer: "none", Iterations: 400},
	)
}

// A composite problem is refused: the paper runs DP-MRADMM with r = 0.
func TestRefusesComposite(t *testing.T) {
	s := basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", L1: 0.02, Iterations: 4}
	sc, err := scenario.Parse([]byte(s.JSON()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scenario.Build(sc); err == nil || !strings.Contains(err.Error(), "prox") {
		t.Errorf("DP-MRADMM on a composite problem: %v", err)
	}
}

// The ledger is the hand computation of baselines.md §6.0 and §6.6: K
// iterations publish ⌈K/2⌉ noisy messages, the t-th with
// Δ_t = c/(ρ_0κ^(2t−2)·d_i) (d_i = 2 on the ring) and σ_t² = σ_1²R^(−(t−1)),
// and ε = ρ + 2√(ρ ln 1/δ) with ρ = Σ_t Δ_t²/(2σ_t²) (simple conversion).
func TestLedgerByHand(t *testing.T) {
	const pen, c, sigma, R, delta = 0.8, 0.5, 2.0, 1.03, 1e-4
	for _, kappa := range []float64{1, 1.01} {
		for _, k := range []int{1, 2, 9, 100} {
			r := basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Scale: sigma, Regularizer: "none", Iterations: k,
				Params: `"penalty": 0.8, "growth": ` + map[float64]string{1: "1", 1.01: "1.01"}[kappa] + `, "gradient_bound": 0.5, "attenuation": 1.03, "delta": 1e-4, "conversion": "simple"`}.Run(t)
			rho := 0.0
			pubs := (k + 1) / 2
			for s := 1; s <= pubs; s++ {
				d := c / (pen * math.Pow(kappa, float64(2*s-2)) * 2)
				rho += float64(d * d / (2 * sigma * sigma) * math.Pow(R, float64(s-1)))
			}
			want := rho + 2*math.Sqrt(rho*math.Log(1/delta))
			l := r.Ledger()
			if got := l.Max.Value(); math.Abs(got-want) > 1e-12*want {
				t.Errorf("κ=%g K=%d: ε = %.15g, hand %.15g", kappa, k, got, want)
			}
			if got := basetest.PLF(l); got != pubs {
				t.Errorf("κ=%g K=%d: PLF %d, want %d", kappa, k, got, pubs)
			}
		}
	}
}

// A target ε at a PLF is met to 1e-9 with either conversion.
func TestCalibration(t *testing.T) {
	// 599 iterations make 300 noisy publications (the odd ones).
	basetest.CheckTargetEpsilon(t, basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Scale: 1, Regularizer: "none", Iterations: 599}, 300, 12)
}

// The scenario's "calibrate" meets a target ε to 1e-9 (the accountant's
// closed-form inverse, ρ ∝ 1/λ²), with either conversion.
func TestScenarioCalibrate(t *testing.T) {
	basetest.CheckCalibrateConversions(t, basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Scale: 1, Regularizer: "none", Iterations: 200}, 12)
}

// The noise drawn is the noise the ledger accounts for: σ_1·R^(−(t−1)/2)
// at the t-th odd iteration, none at even ones.
func TestNoiseIsAccounted(t *testing.T) {
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Scale: 0.5, Regularizer: "none", Iterations: 120,
		Params: `"attenuation": 1.05`}, 1.05, nil, func(k int) bool { return k%2 == 0 })
}

// The source confidence of baselines.md is shown where people read: the
// factory's description (dpsim plugins, the page) and the ledger's source.
func TestConfidenceShown(t *testing.T) {
	basetest.CheckConfidence(t, dpmradmm.Factory.Paper, dpmradmm.Confidence, basetest.Setup{Algorithm: "dp-mradmm", Channel: "x", Scale: 1, Regularizer: "none", Iterations: 2})
}
