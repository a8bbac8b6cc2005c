package dpadmm

import (
	"fmt"

	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
)

// Params are DP-ADMM's parameters. The noise is the scenario's channel
// "x" (Gaussian, base scale σ_1, constant decay); a target_epsilon
// calibrates that scale (the scenario multiplies it by the factor that
// meets the target).
type Params struct {
	// Variant is ZhangZhu ([12], the default) or Huang ([13]).
	Variant string `json:"variant" doc:"zhang-zhu: DP-ADMM [12], fixed step τ (the paper's Fig. 3); huang: DP-ADMM [13], decaying step η_k = τ·γ^k with noise ∝ Δ_k (Table IV only; use attenuation 1)" options:"zhang-zhu|huang"`
	// Tau is the proximal step τ (η_0 for the huang variant); 0 takes 1/L.
	Tau float64 `json:"tau" doc:"proximal step τ of the linearized update (η_0 for huang); 0: 1/L with L the problem's largest L_i" range:"[0, 1e6]"`
	// Gamma is the step decay γ of the huang variant.
	Gamma float64 `json:"gamma" doc:"huang only: the step decay γ of η_k = τ·γ^k" range:"(0, 1]"`
	// Penalty is the ADMM penalty ρ.
	Penalty float64 `json:"penalty" doc:"the ADMM penalty ρ (not the zCDP ρ)" range:"(0, 1e6]"`
	// GradientBound is c of DP-RECAL's Assumption 3.
	GradientBound float64 `json:"gradient_bound" doc:"c: a bound on every ‖∇f_i‖₂ (DP-RECAL's Assumption 3), the sensitivity input; Δ = 2c/(1/τ + 2ρd_i) per publication" range:"[0, 1e100]"`
	// Attenuation is R.
	Attenuation float64 `json:"attenuation" doc:"R: the noise variance shrinks by 1/R per publication, σ_k² = σ_1²·R^(−(k−1)) (1: constant; the paper gives no R)" range:"[1, 10]"`
	// Delta is δ of (ε, δ)-DP.
	Delta float64 `json:"delta" doc:"δ of the (ε, δ)-DP the ledger reports" range:"(0, 1)"`
	// Conversion turns ρ-zCDP into (ε, δ).
	Conversion string `json:"conversion" doc:"ρ-zCDP → (ε, δ): tight (Canonne–Kamath–Steinke, OpenDP), or simple ρ + 2√(ρ ln 1/δ) (the paper's); the ledger shows both" options:"tight|simple"`
	// TargetEpsilon, when > 0, is calibrated for plf publications:
	// σ_1 = λ·noise.x.scale (method.Target).
	TargetEpsilon float64 `json:"target_epsilon" doc:"target ε (0: none): noise.x.scale is multiplied by the one factor that makes plf publications spend exactly ε, shown as a calibration; ignored, with a warning, when that scale is 0; a calibrate section replaces it" range:"[0, 1e6]"`
	// PLF is the publications the target ε holds for.
	PLF int `json:"plf" doc:"the privacy leakage frequency the target ε is calibrated for: publications per agent, here the iterations" range:"[1, 100000000]" unit:"publications"`
}

// Defaults returns DP-ADMM [12] with τ from the problem, ρ = 1, and the
// privacy setting of DP-RECAL's experiments as baselines.md §6.0 reads
// it: c = 1, R = 1.01, δ = 1e-3, the tight conversion, PLF 300.
func Defaults() *Params {
	return &Params{Variant: ZhangZhu, Gamma: 0.999, Penalty: 1, GradientBound: 1, Attenuation: 1.01, Delta: 1e-3, Conversion: "tight", PLF: 300}
}

// Confidence is the source confidence baselines.md gives DP-ADMM [12]
// and [13].
const Confidence = "low-medium: neither original could be opened; the update is the linearized consensus ADMM (Chang–Hong–Wang) both are rooted in, with Gaussian noise on the published x_i, and the sensitivities are reconstructed (baselines.md §6.3, §6.4)"

// Factory builds DP-ADMM from a scenario.
var Factory = method.Factory{
	Name:  "dp-admm",
	Title: "DP-ADMM (Zhang & Zhu 2017; Huang et al. 2020 as a variant)",
	Paper: "T. Zhang and Q. Zhu, Dynamic differential privacy for ADMM-based distributed classification learning, IEEE TIFS 12(1), 2017 (DP-ADMM [12] of the DP-RECAL paper, its Fig. 3); variant huang: Z. Huang, R. Hu, Y. Guo, E. Chan-Tin and Y. Gong, DP-ADMM: ADMM-based distributed learning with differential privacy, IEEE TIFS 15, 2020 ([13], Table IV); as specified in baselines.md §6.3–6.4 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "x", Dist: noise.Gaussian, Description: "ν on the published x_i: σ_1, variance σ_1²·R^(−(t−1)) at the t-th publication (huang: times Δ_t/Δ_1); decay must be constant, R is algorithm.params.attenuation"},
	},
	Solves: method.Minimisation,
	Prox:   true,
	// x^k, the duals λ^k and the published x̃^k.
	States:    []string{"x", "lambda", "sent"},
	NewParams: func() any { return Defaults() },
	Footprint: func(agents, _, dim int) int64 { return 8 * (5*int64(agents)*int64(dim) + 2*int64(dim)) },
	Build:     build,
	Words:     words,
}

const pf = "algorithm.params"

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("DP-ADMM", "DP-ADMM exchanges with the graph's neighbours"); err != nil {
		return nil, nil, err
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
	a := New(p, env.Problem, env.Graph, nz.Spec, env.Sampler("dp-admm", "x"), env.InitState("x"))
	a.pool = env.Pool
	off := ""
	if nz.Spec.IsOff() {
		off = "no noise on x (channel x)"
	}
	sens := "2c/a_i, a_i = 1/τ + 2ρd_i"
	if p.Variant == Huang {
		sens = "2c/(1/η_k + 2ρd_i), η_k = τγ^k, with σ_t = σ_1R^(−(t−1)/2)·Δ_t/Δ_1, so ρ_t = Δ_1²R^(t−1)/(2σ_1²)"
	}
	ac := zcdpgauss.New(a, a.n, nz.Set, zcdpgauss.Meta{
		Algorithm: "dp-admm", Title: "DP-ADMM", Off: off,
		Channel: "x", Spec: nz.Spec,
		Source:      "baselines.md §6.0 (ρ-zCDP per publication, DP-RECAL's Theorems 1 and 4 applied to every agent) with Δ of §6.3–6.4; confidence " + Confidence,
		Sensitivity: sens,
		Inputs: func() []privacy.Input {
			in := []privacy.Input{privacy.Text("variant", p.Variant), privacy.Num("τ", p.Tau), privacy.Num("ρ (penalty)", p.Penalty)}
			if p.Variant == Huang {
				in = append(in, privacy.Num("γ", p.Gamma))
			}
			for i := range a.n {
				in = append(in, privacy.Num(fmt.Sprintf("Δ_1 of agent %d", i), a.delta[i]))
				if i == 7 && a.n > 9 {
					break // a ring of thousands need not list them all
				}
			}
			return append(in, nz.Inputs()...)
		},
	})
	warns = append(warns, zcdpgauss.Warnings(env.Problem, pf, p.GradientBound, off != "")...)
	conv := "without noise: the linearized consensus ADMM (Chang, Hong & Wang 2015) converges to x* for a small enough τ; with noise shrinking by 1/R per publication (R > 1) the iterates settle near x*"
	if p.Variant == Huang {
		conv = "decaying steps η_k = τγ^k: the iterates freeze once η_k is small (baselines.md G9), wherever they are"
	}
	th := &method.Theory{Source: "Chang, Hong & Wang 2015 (IC-ADMM); baselines.md §6.3–6.4", Convergence: conv}
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th, Target: nz.Target(ac, "publications")}, warns, nil
}
