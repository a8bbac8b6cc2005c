package dpadmm_test

import (
	"math"
	"strconv"
	"testing"

	"dpsim/core/algorithms/dpadmm"
	"dpsim/core/algorithms/internal/basetest"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/sim"
)

// Without noise DP-ADMM [12] is the linearized consensus ADMM: every
// agent reaches the central solver's x* (least squares and logistic,
// with and without the ℓ1 + ℓ2 regulariser).
func TestNoiseFreeReachesOptimum(t *testing.T) {
	basetest.CheckOptimum(t, 1e-9,
		basetest.Setup{Algorithm: "dp-admm", Channel: "x", Loss: "squares", Regularizer: "elastic-net", L1: 0.02, Iterations: 1500, Params: `"penalty": 0.5`},
		basetest.Setup{Algorithm: "dp-admm", Channel: "x", Loss: "logistic", Regularizer: "elastic-net", L1: 0.01, Iterations: 3000, Params: `"penalty": 0.5`},
		basetest.Setup{Algorithm: "dp-admm", Channel: "x", Loss: "squares", Regularizer: "none", L1: 0, Iterations: 1500, Params: `"penalty": 0.5`},
	)
}

// The ledger is the hand computation of baselines.md §6.0 and §6.3–6.4 on
// the ring (d_i = 2): [12] publishes Δ = 2c/(1/τ + 4ρ) with σ_k² =
// σ_1²R^(−(k−1)), so ρ = ρ_1(R^K − 1)/(R − 1); [13] with R = 1 spends
// Δ_1²/(2σ_1²) per iteration, Δ_1 = 2c/(1/τ + 4ρ), ρ = KΔ_1²/(2σ_1²).
// Simple conversion: ε = ρ + 2√(ρ ln 1/δ).
func TestLedgerByHand(t *testing.T) {
	const tau, pen, c, sigma, delta = 0.2, 0.7, 0.5, 3.0, 1e-4
	d1 := 2 * c / (1/tau + 2*pen*2)
	for _, v := range []struct {
		variant string
		R       float64
	}{{"zhang-zhu", 1.02}, {"huang", 1}} {
		for _, k := range []int{1, 9, 150} {
			r := basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: sigma, L1: 0.02, Iterations: k,
				Params: `"variant": "` + v.variant + `", "tau": 0.2, "gamma": 0.99, "penalty": 0.7, "gradient_bound": 0.5, "attenuation": ` + strconv.FormatFloat(v.R, 'g', -1, 64) + `, "delta": 1e-4, "conversion": "simple"`}.Run(t)
			rho := d1 * d1 / (2 * sigma * sigma) * float64(k)
			if v.R != 1 {
				rho = d1 * d1 / (2 * sigma * sigma) * (math.Pow(v.R, float64(k)) - 1) / (v.R - 1)
			}
			want := rho + 2*math.Sqrt(rho*math.Log(1/delta))
			if got := r.Ledger().Max.Value(); math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s K=%d: ε = %.15g, hand %.15g", v.variant, k, got, want)
			}
		}
	}
}

// noiseRMS records the root mean square of the noise of every release,
// per iteration.
type noiseRMS struct{ rms []float64 }

func (n *noiseRMS) Record(s *sim.Step) {
	if s.Iter == 0 {
		return
	}
	sum, m := 0.0, 0
	for _, r := range s.Releases {
		for _, v := range r.Noise {
			sum += float64(v * v)
			m++
		}
	}
	n.rms = append(n.rms, math.Sqrt(sum/float64(m)))
}

// The huang variant's noise shrinks with its step: σ_k/σ_1 = Δ_k/Δ_1, so
// that the per-iteration ρ stays fixed (checked on the draws: the
// measured spread at iteration 400 against iteration 1, 750 draws
// each, within 12 %, three standard deviations).
func TestHuangNoiseFollowsTheStep(t *testing.T) {
	const tau, pen, gamma = 0.2, 0.7, 0.99
	b := basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 1, L1: 0.02, Iterations: 400, Seed: 3,
		Graph:  `{"kind": "ring", "n": 150}`,
		Params: `"variant": "huang", "tau": 0.2, "gamma": 0.99, "penalty": 0.7, "attenuation": 1`}.Build(t)
	rec := &noiseRMS{}
	r := runner.New(b, rec)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	delta := func(k int) float64 { return 1 / (1/(tau*math.Pow(gamma, float64(k))) + 4*pen) }
	want := delta(399) / delta(0)
	if got := rec.rms[399] / rec.rms[0]; math.Abs(got/want-1) > 0.12 {
		t.Errorf("σ_400/σ_1 measured %.4g, want Δ_400/Δ_1 = %.4g", got, want)
	}
}

// The scenario's "calibrate" meets a target ε to 1e-9 (the accountant's
// closed-form inverse, ρ ∝ 1/λ²), with either conversion.
func TestScenarioCalibrate(t *testing.T) {
	basetest.CheckCalibrateConversions(t, basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 1, L1: 0.02, Iterations: 200}, 12)
}

// The noise drawn is the noise the ledger accounts for: [12]
// σ_1·R^(−(t−1)/2), [13] σ_1·Δ_t/Δ_1 (R = 1).
func TestNoiseIsAccounted(t *testing.T) {
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 0.5, L1: 0.02, Iterations: 60,
		Params: `"attenuation": 1.05`}, 1.05, nil, nil)
	const tau, pen, gamma = 0.2, 0.7, 0.97
	delta := func(k int) float64 { return 1 / (1/(tau*math.Pow(gamma, float64(k))) + 4*pen) }
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 0.5, L1: 0.02, Iterations: 60,
		Params: `"variant": "huang", "tau": 0.2, "gamma": 0.97, "penalty": 0.7, "attenuation": 1`}, 1,
		func(_, t, _ int) float64 { return delta(t-1) / delta(0) }, nil)
}

// The duals sum to 0 at every iteration, noise or not: each is ρ times a
// row of the graph Laplacian applied to the published x̃.
func TestDualsSumToZero(t *testing.T) {
	r := basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 0.3, L1: 0.02, Iterations: 30}.Run(t)
	lam := runnertest.State(r.Built().Algorithm, "lambda")
	d := r.Built().Env.Problem.Dim()
	for c := range d {
		s, m := 0.0, 0.0
		for i := 0; i < len(lam); i += d {
			s += lam[i+c]
			m = math.Max(m, math.Abs(lam[i+c]))
		}
		if math.Abs(s) > 1e-12*math.Max(m, 1) {
			t.Errorf("coordinate %d: Σ_i λ_i = %g (largest |λ_i| %g)", c, s, m)
		}
	}
}

// The source confidence of baselines.md is shown where people read: the
// factory's description (dpsim plugins, the page) and the ledger's source.
func TestConfidenceShown(t *testing.T) {
	basetest.CheckConfidence(t, dpadmm.Factory.Paper, dpadmm.Confidence, basetest.Setup{Algorithm: "dp-admm", Channel: "x", Scale: 1, L1: 0.02, Iterations: 2})
}
