package dpmradmm

import (
	"math"

	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/privacy"
)

// Params are DP-MRADMM's parameters. The noise is the scenario's channel
// "x" (Gaussian, base scale σ_1, constant decay); a target_epsilon
// calibrates that scale (the scenario multiplies it by the factor that
// meets the target).
type Params struct {
	// Penalty is ρ_0.
	Penalty float64 `json:"penalty" doc:"the ADMM penalty ρ_0 (not the zCDP ρ); Δ = c/(ρ_m d_i) per publication" range:"(0, 1e6]"`
	// Growth is κ of ρ_m = ρ_0·κ^(m−1).
	Growth float64 `json:"growth" doc:"κ: the penalty grows as ρ_m = ρ_0·κ^(m−1) (1: fixed, the paper's fixed-step row; > 1: M-ADMM's increasing penalty, its decaying-step row)" range:"[1, 2]"`
	// Tau is the proximal step of the even (recycled) iterations.
	Tau float64 `json:"tau" doc:"proximal step τ of the recycled (even) iterations; 0: 1/L with L the problem's largest L_i" range:"[0, 1e6]"`
	// Inner bounds the gradient steps of an odd iteration's exact solve.
	Inner int `json:"inner" doc:"the most gradient steps an odd iteration's exact solve may take (it stops earlier once converged): the computational burden the paper notes" range:"[1, 100000]" unit:"gradient steps"`
	// GradientBound is c of DP-RECAL's Assumption 3.
	GradientBound float64 `json:"gradient_bound" doc:"c: a bound on every ‖∇f_i‖₂ (DP-RECAL's Assumption 3), the sensitivity input" range:"[0, 1e100]"`
	// Attenuation is R.
	Attenuation float64 `json:"attenuation" doc:"R: the noise variance shrinks by 1/R per (odd) publication, σ_t² = σ_1²·R^(−(t−1)) (1: constant; the paper gives no R)" range:"[1, 10]"`
	// Delta is δ of (ε, δ)-DP.
	Delta float64 `json:"delta" doc:"δ of the (ε, δ)-DP the ledger reports" range:"(0, 1)"`
	// Conversion turns ρ-zCDP into (ε, δ).
	Conversion string `json:"conversion" doc:"ρ-zCDP → (ε, δ): tight (Canonne–Kamath–Steinke, OpenDP), or simple ρ + 2√(ρ ln 1/δ) (the paper's); the ledger shows both" options:"tight|simple"`
	// TargetEpsilon, when > 0, is calibrated for plf publications:
	// σ_1 = λ·noise.x.scale (method.Target).
	TargetEpsilon float64 `json:"target_epsilon" doc:"target ε (0: none): noise.x.scale is multiplied by the one factor that makes plf noisy publications spend exactly ε, shown as a calibration; ignored, with a warning, when that scale is 0; a calibrate section replaces it" range:"[0, 1e6]"`
	// PLF is the publications the target ε holds for.
	PLF int `json:"plf" doc:"the privacy leakage frequency the target ε is calibrated for: noisy publications per agent, ⌈iterations/2⌉" range:"[1, 100000000]" unit:"publications"`
}

// Defaults returns a fixed penalty ρ = 1, τ from the problem, at most 500
// inner steps, and the privacy setting of DP-RECAL's experiments as
// baselines.md §6.0 reads it: c = 1, R = 1.01, δ = 1e-3, the tight
// conversion, PLF 300.
func Defaults() *Params {
	return &Params{Penalty: 1, Growth: 1, Inner: 500, GradientBound: 1, Attenuation: 1.01, Delta: 1e-3, Conversion: "tight", PLF: 300}
}

// Confidence is the source confidence baselines.md gives DP-MRADMM.
const Confidence = "low: only the abstracts of R-ADMM and M-ADMM could be read; the odd exact step with Gaussian noise on x, the even step recycling the gradient implied by the odd step's optimality condition, and Δ = c/(ρd_i) are reconstructed (baselines.md §6.6)"

// Factory builds DP-MRADMM from a scenario.
var Factory = method.Factory{
	Name:  "dp-mradmm",
	Title: "DP-MRADMM (recycled ADMM, Zhang, Khalili & Liu 2019)",
	Paper: "X. Zhang, M. M. Khalili and M. Liu, Recycled ADMM: improve privacy and accuracy with less computation in distributed algorithms, Allerton 2019 ([17] of the DP-RECAL paper, Table IV, with r = 0), improving their ICML 2018 M-ADMM; as specified in baselines.md §6.6 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "x", Dist: noise.Gaussian, Description: "ν on the x_i published at odd iterations: σ_1, variance σ_1²·R^(−(t−1)) at the t-th (decay must be constant: R is algorithm.params.attenuation); even iterations publish without noise"},
	},
	Solves: method.Minimisation,
	// x, λ, the published x̃ and the recycled gradient g̃.
	States:    []string{"x", "lambda", "sent", "recycled"},
	NewParams: func() any { return Defaults() },
	Footprint: func(agents, _, dim int) int64 { return 8 * (9*int64(agents)*int64(dim) + int64(agents)) },
	Build:     build,
	Words:     words,
}

const pf = "algorithm.params"

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("DP-MRADMM", "DP-MRADMM exchanges with the graph's neighbours"); err != nil {
		return nil, nil, err
	}
	mu, l := 0.0, 0.0
	if s, ok := env.Problem.(objective.Smooth); ok {
		mu, l = s.Smoothness()
	}
	if !(l > 0) || math.IsInf(l, 0) {
		return nil, nil, check.Errorf("problem", "DP-MRADMM's exact odd step needs the problem's smoothness constant L, which %s does not declare", env.Problem.Kind())
	}
	tau, err := zcdpgauss.Step(env.Problem, pf, "tau", p.Tau, 1)
	if err != nil {
		return nil, nil, err
	}
	var warns []check.Warning
	p.Tau = tau
	nz, err := zcdpgauss.Prepare(env, pf, "x", zcdpgauss.Common{C: p.GradientBound, R: p.Attenuation, Delta: p.Delta,
		Conversion: p.Conversion, TargetEpsilon: p.TargetEpsilon, PLF: p.PLF})
	if err != nil {
		return nil, nil, err
	}
	a := New(p, env.Problem, env.Graph, l, max(mu, 0), nz.Spec, env.Sampler("dp-mradmm", "x"), env.InitState("x"))
	a.pool = env.Pool
	off := ""
	if nz.Spec.IsOff() {
		off = "no noise on x (channel x)"
	}
	ac := zcdpgauss.New(a, a.n, nz.Set, zcdpgauss.Meta{
		Algorithm: "dp-mradmm", Title: "DP-MRADMM", Off: off,
		Channel: "x", Spec: nz.Spec,
		Source:      "baselines.md §6.0 (ρ-zCDP per noisy publication, DP-RECAL's Theorems 1 and 4; the even, recycled iterations are post-processing) with Δ of §6.6; confidence " + Confidence,
		Sensitivity: "c/(ρ_m d_i) at the odd iteration m = 2t − 1, ρ_m = ρ_0κ^(m−1)",
		Inputs: func() []privacy.Input {
			return append([]privacy.Input{privacy.Num("ρ_0 (penalty)", p.Penalty), privacy.Num("κ", p.Growth), privacy.Num("τ", p.Tau)}, nz.Inputs()...)
		},
	})
	warns = append(warns, zcdpgauss.Warnings(env.Problem, pf, p.GradientBound, off != "")...)
	th := &method.Theory{
		Source:      "Zhang, Khalili & Liu 2019 (R-ADMM); baselines.md §6.6",
		Convergence: "without noise: exact ADMM steps alternating with recycled linearized ones reach x*; the noise enters at odd iterations only, shrinking by 1/R per publication",
	}
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th, Target: nz.Target(ac, "publications")}, warns, nil
}
