package dpnids

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/weights"
)

// Params are DP-NIDS's parameters. The noise is the scenario's channel
// "xbar" (Gaussian, base scale σ_1, constant decay); a target_epsilon
// calibrates that scale (the scenario multiplies it by the factor that
// meets the target).
type Params struct {
	// Alpha is the constant step α; 0 takes 1/L.
	Alpha float64 `json:"alpha" doc:"constant step α of NIDS (baselines.md §2.4), below 2/L whatever the network; 0: 1/L with L the problem's largest L_i" range:"[0, 1e6]"`
	// SelfNoisy mixes the agent's own published x̃_i (true) or its clean
	// x_i.
	SelfNoisy bool `json:"self_noisy" doc:"mix the agent's own published (noisy) x̃_i; false mixes its clean x_i (baselines.md G5)"`
	// GradientBound is c of DP-RECAL's Assumption 3.
	GradientBound float64 `json:"gradient_bound" doc:"c: a bound on every ‖∇f_i‖₂ (DP-RECAL's Assumption 3), the sensitivity input; Δ = 4αc per publication" range:"[0, 1e100]"`
	// Attenuation is R.
	Attenuation float64 `json:"attenuation" doc:"R: the noise variance shrinks by 1/R per publication, σ_k² = σ_1²·R^(−(k−1)) (1: constant; the paper gives no R)" range:"[1, 10]"`
	// Delta is δ of (ε, δ)-DP.
	Delta float64 `json:"delta" doc:"δ of the (ε, δ)-DP the ledger reports" range:"(0, 1)"`
	// Conversion turns ρ-zCDP into (ε, δ).
	Conversion string `json:"conversion" doc:"ρ-zCDP → (ε, δ): tight (Canonne–Kamath–Steinke, OpenDP), or simple ρ + 2√(ρ ln 1/δ) (the paper's); the ledger shows both" options:"tight|simple"`
	// TargetEpsilon, when > 0, is calibrated for plf publications:
	// σ_1 = λ·noise.xbar.scale (method.Target).
	TargetEpsilon float64 `json:"target_epsilon" doc:"target ε (0: none): noise.xbar.scale is multiplied by the one factor that makes plf publications spend exactly ε, shown as a calibration; ignored, with a warning, when that scale is 0; a calibrate section replaces it" range:"[0, 1e6]"`
	// PLF is the publications the target ε holds for.
	PLF int `json:"plf" doc:"the privacy leakage frequency the target ε is calibrated for: publications per agent, here the iterations − 1 (the first iteration sends nothing)" range:"[1, 100000000]" unit:"publications"`
}

// Defaults returns α from the problem, own noisy copies mixed, and the
// privacy setting of DP-RECAL's experiments as baselines.md §6.0 reads
// it: c = 1, R = 1.01, δ = 1e-3, the tight conversion, PLF 300.
func Defaults() *Params {
	return &Params{SelfNoisy: true, GradientBound: 1, Attenuation: 1.01, Delta: 1e-3, Conversion: "tight", PLF: 300}
}

// Confidence is the source confidence baselines.md gives DP-NIDS.
const Confidence = "medium: NIDS checked against its authors' code (mingyan08/NIDS) and liboyue/Network-Distributed-Algorithm; where the Gaussian noise enters (on the published x̄_i) and Δ = 4αc are reconstructed (baselines.md §6.2, §6.0)"

// Factory builds DP-NIDS from a scenario.
var Factory = method.Factory{
	Name:  "dp-nids",
	Title: "DP-NIDS (NIDS with Gaussian noise)",
	Paper: "Z. Li, W. Shi and M. Yan, A decentralized proximal-gradient method with network independent step-sizes and separated convergence rates, IEEE TSP 67(17), 2019 (NIDS), with DP noise as the DP-RECAL paper (Wang, Guo, Yang, Shi) compares it in Fig. 3 and Table IV; as specified in baselines.md §2.4 and §6.2 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "xbar", Dist: noise.Gaussian, Description: "ν on the published x̄_i: σ_1, variance σ_1²·R^(−(k−1)) at the k-th publication (decay must be constant: R is algorithm.params.attenuation)"},
	},
	Solves: method.Minimisation,
	Prox:   true,
	// x^k, z^k and x^{k−1}.
	States:    []string{"x", "z", "x_prev"},
	NewParams: func() any { return Defaults() },
	Footprint: func(agents, _, dim int) int64 { return 8 * (9*int64(agents)*int64(dim) + 2*int64(dim)) },
	Build:     build,
	Words:     words,
}

const pf = "algorithm.params"

var needs = []string{weights.FindNonnegative, weights.FindDoublyStochastic, weights.FindSparsity}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("DP-NIDS", "NIDS mixes with a symmetric doubly stochastic W whose support is the graph; W fails", needs...); err != nil {
		return nil, nil, err
	}
	alpha, err := zcdpgauss.Step(env.Problem, pf, "alpha", p.Alpha, 1)
	if err != nil {
		return nil, nil, err
	}
	var warns []check.Warning
	p.Alpha = alpha
	nz, err := zcdpgauss.Prepare(env, pf, "xbar", zcdpgauss.Common{C: p.GradientBound, R: p.Attenuation, Delta: p.Delta,
		Conversion: p.Conversion, TargetEpsilon: p.TargetEpsilon, PLF: p.PLF})
	if err != nil {
		return nil, nil, err
	}
	a := New(p, env.Problem, env.Weights, nz.Spec, env.Sampler("dp-nids", "xbar"), p.Attenuation, env.InitState("x"))
	a.pool = env.Pool
	off := ""
	if nz.Spec.IsOff() {
		off = "no noise on x̄ (channel xbar)"
	}
	ac := zcdpgauss.New(a, a.n, nz.Set, zcdpgauss.Meta{
		Algorithm: "dp-nids", Title: "DP-NIDS", Off: off,
		Channel: "xbar", Spec: nz.Spec,
		Source:      "baselines.md §6.0 (ρ-zCDP per publication, DP-RECAL's Theorems 1 and 4 applied to every agent) with Δ = 4αc; confidence " + Confidence,
		Sensitivity: "4αc",
		Inputs: func() []privacy.Input {
			return append([]privacy.Input{privacy.Num("α", p.Alpha), privacy.Num("Δ", a.Sensitivity())}, nz.Inputs()...)
		},
	})
	warns = append(warns, zcdpgauss.Warnings(env.Problem, pf, p.GradientBound, off != "")...)
	l := zcdpgauss.Smoothness(env.Problem)
	warns = append(warns, zcdpgauss.StepWarning(check.Join(pf, "alpha"), "α", p.Alpha, 2/l, "2/L", l,
		"NIDS's convergence condition (Li, Shi & Yan 2019, whatever the network) does not hold: the iterates may diverge")...)
	th := &method.Theory{
		Source:      "Li, Shi & Yan 2019 (NIDS), Theorem 1; baselines.md §6.2",
		Convergence: "without noise: x_i^k → x* for α < 2/L, whatever W (linear for strongly convex f); with noise that shrinks by 1/R per iteration (R > 1) the noise is summable and the iterates settle near x*, with R = 1 at a noise floor",
	}
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th, Target: nz.Target(ac, "publications")}, warns, nil
}
