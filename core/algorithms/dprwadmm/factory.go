package dprwadmm

import (
	"dpsim/core/algorithms/internal/randwalk"
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
)

// Params are DP-RWADMM's parameters. The noise is the scenario's channel
// "xbar" (Gaussian, base scale σ_1, constant decay); a target_epsilon
// calibrates that scale (the scenario multiplies it by the factor that
// meets the target).
type Params struct {
	// Alpha is the step α (the inverse ADMM penalty); 0 takes 1/(4L).
	Alpha float64 `json:"alpha" doc:"step α of the linearized Walkman update (the inverse of the ADMM penalty), well below 1/L (α = 1/L diverges on the test problems); 0: 1/(4L) with L the problem's largest L_i" range:"[0, 1e6]"`
	// GradientBound is c of DP-RECAL's Assumption 3.
	GradientBound float64 `json:"gradient_bound" doc:"c: a bound on every ‖∇f_i‖₂ (DP-RECAL's Assumption 3), the sensitivity input; Δ = 4αc/n per publication" range:"[0, 1e100]"`
	// Attenuation is R.
	Attenuation float64 `json:"attenuation" doc:"R: an agent's noise variance shrinks by 1/R at each of its activations, σ_τ² = σ_1²·R^(−(τ−1)) (1: constant; the paper gives no R)" range:"[1, 10]"`
	// Delta is δ of (ε, δ)-DP.
	Delta float64 `json:"delta" doc:"δ of the (ε, δ)-DP the ledger reports" range:"(0, 1)"`
	// Conversion turns ρ-zCDP into (ε, δ).
	Conversion string `json:"conversion" doc:"ρ-zCDP → (ε, δ): tight (Canonne–Kamath–Steinke, OpenDP), or simple ρ + 2√(ρ ln 1/δ) (the paper's); the ledger shows both" options:"tight|simple"`
	// TargetEpsilon, when > 0, is calibrated for plf activations:
	// σ_1 = λ·noise.xbar.scale (method.Target).
	TargetEpsilon float64 `json:"target_epsilon" doc:"target ε (0: none): noise.xbar.scale is multiplied by the one factor that makes an agent activated plf times spend exactly ε, shown as a calibration; ignored, with a warning, when that scale is 0; a calibrate section replaces it" range:"[0, 1e6]"`
	// PLF is the activations the target ε holds for.
	PLF int `json:"plf" doc:"the privacy leakage frequency (largest activation count) the target ε is calibrated for; stop the run at it with stop.max_activations" range:"[1, 100000000]" unit:"activations"`
}

// Defaults returns α from the problem and the privacy setting of
// DP-RECAL's experiments as baselines.md §6.0 reads it: c = 1, R = 1.01,
// δ = 1e-3, the tight conversion, PLF 300.
func Defaults() *Params {
	return &Params{GradientBound: 1, Attenuation: 1.01, Delta: 1e-3, Conversion: "tight", PLF: 300}
}

// Confidence is the source confidence baselines.md gives DP-RWADMM.
const Confidence = "low-medium: the body of Shah & Avrachenkov's algorithm could not be retrieved; the update is Walkman's random-walk ADMM (authors' code sherrymao/Walkman_codes) with a linearized local step, and the noise on the token and Δ = 4αc/n are reconstructed (baselines.md §6.5)"

// Factory builds DP-RWADMM from a scenario.
var Factory = method.Factory{
	Name:  "dp-rwadmm",
	Title: "DP-RWADMM (random-walk ADMM with Gaussian noise)",
	Paper: "S. M. Shah and K. E. Avrachenkov, Linearly convergent asynchronous distributed ADMM via Markov sampling, arXiv 1810.05067, 2018 (RWADMM [30] of the DP-RECAL paper, Fig. 3 and Table IV), in the form of Walkman (Mao et al.); as specified in baselines.md §6.5 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "xbar", Dist: noise.Gaussian, Description: "ν on the token x̄ the holder passes on: σ_1, variance σ_1²·R^(−(τ−1)) at the holder's τ-th activation (decay must be constant: R is algorithm.params.attenuation)",
			PerIteration: randwalk.HolderDraws},
	},
	Solves: method.Minimisation,
	Prox:   true,
	// Every agent's y_i and z_i; the token is shared.
	States: []string{"y", "z"},
	Shared: []method.SharedVar{
		{Name: "x", Description: "the estimate x^k = prox_{αr}(x̄^k), computed by the holder from the token"},
		{Name: "xbar", Description: "the token x̄^k as the holder received it, noise included (by default (1/n)Σ_j (y_j − z_j))"},
	},
	Output:    "x",
	Draws:     []method.Draw{randwalk.Draw("the token")},
	NewParams: func() any { return Defaults() },
	Footprint: func(agents, _, dim int) int64 { return 8 * (2*int64(agents)*int64(dim) + 8*int64(dim)) },
	Build:     build,
	Words:     words,
}

const pf = "algorithm.params"

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	g := env.Graph
	if err := randwalk.CheckGraph(g, "DP-RWADMM"); err != nil {
		return nil, nil, err
	}
	tr, err := randwalk.FromEnv(env)
	if err != nil {
		return nil, nil, err
	}
	if pinned, ok := env.PinnedDraws["walk"]; ok {
		if err := randwalk.CheckPinned(pinned, env.Iterations, tr); err != nil {
			return nil, nil, err
		}
	}
	alpha, err := zcdpgauss.Step(env.Problem, pf, "alpha", p.Alpha, 0.25)
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
	n, d := env.Problem.Agents(), env.Problem.Dim()
	y0, z0 := env.InitState("y"), env.InitState("z")
	xbar0 := make([]float64, d)
	if _, ok := env.Init["xbar"]; ok {
		xbar0 = env.InitShared("xbar", d)
	} else {
		for i := range n {
			for c := range d {
				xbar0[c] += (y0[i*d+c] - z0[i*d+c]) / float64(n)
			}
		}
	}
	a := New(p, env.Problem, tr, nz.Spec, env.Sampler("dp-rwadmm", "xbar"), env.Draws("dp-rwadmm", "walk"),
		func() *method.Source { return env.Replay("dp-rwadmm", "walk") }, y0, z0, xbar0)
	off := ""
	if nz.Spec.IsOff() {
		off = "no noise on the token (channel xbar)"
	}
	ac := zcdpgauss.New(a, n, nz.Set, zcdpgauss.Meta{
		Algorithm: "dp-rwadmm", Title: "DP-RWADMM", Off: off,
		Channel: "xbar", Spec: nz.Spec,
		Source:      "baselines.md §6.0 (ρ-zCDP per activation, DP-RECAL's Theorems 1 and 4: only the holder publishes, so an agent's budget follows its own activation count) with Δ = 4αc/n; confidence " + Confidence,
		Sensitivity: "4αc/n",
		Inputs: func() []privacy.Input {
			return append([]privacy.Input{privacy.Num("α", p.Alpha), privacy.Num("n", float64(n)), privacy.Num("Δ", a.Sensitivity())}, nz.Inputs()...)
		},
	})
	warns = append(warns, zcdpgauss.Warnings(env.Problem, pf, p.GradientBound, off != "")...)
	l := zcdpgauss.Smoothness(env.Problem)
	warns = append(warns, zcdpgauss.StepWarning(check.Join(pf, "alpha"), "α", p.Alpha, 1/l, "1/L", l,
		"the linearized Walkman step diverges there on the test problems (no convergence condition could be retrieved, baselines.md §6.5; the default is 1/(4L))")...)
	th := &method.Theory{
		Source:      "Shah & Avrachenkov 2018 (linear convergence for strongly convex smooth f); Mao et al. (Walkman); baselines.md §6.5",
		Convergence: "without noise: x^k → x* for a small enough α, one agent per iteration (≈ n× the iterations of a synchronous method per PLF unit, baselines.md G7); the noise stays in the token, so x settles at a noise-dependent distance",
	}
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th, Target: nz.Target(ac, "activations")}, warns, nil
}
