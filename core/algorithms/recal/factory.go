package recal

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/randwalk"
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/privacy"
)

// Params are DP-RECAL's parameters (spec §6.3–6.4).
type Params struct {
	// Mode is the u bookkeeping: Literal (Algorithm 1 as printed) or
	// Realisable (the holder adds to the ũ it received).
	Mode string `json:"mode" doc:"literal: Algorithm 1 as printed, the baton keeps the exact u = Σλ_j hidden (exact convergence); realisable: the holder adds to the noisy ũ it received (the noise accumulates in u, a bias)" options:"literal|realisable"`
	// Alpha is every agent's step α_i; 0 takes 1/(L+1), L = max_i L_i.
	Alpha float64 `json:"alpha" doc:"local step α_i of every agent, in (0, 2/(L_i+1)) (Theorem 2); 0: 1/(L+1) with L the problem's largest L_i" range:"[0, 1e6]"`
	// Alphas, when given, are uncoordinated steps, one per agent.
	Alphas []float64 `json:"alphas,omitempty" doc:"uncoordinated steps α_i, one per agent (overrides alpha)"`
	// Attenuation is R > 1: the holder's noise variance shrinks by 1/R at
	// each of its activations, σ_τ² = σ_1²·R^(−(τ−1)); R = 1 keeps it
	// constant.
	Attenuation float64 `json:"attenuation" doc:"R: the noise variance of an agent shrinks by 1/R at each of its activations, σ_τ² = σ_1²·R^(−(τ−1)) (1: constant)" range:"[1, 10]"`
	// GradientBound is c of Assumption 3, ‖∇f_i‖ ≤ c: the sensitivity input.
	GradientBound float64 `json:"gradient_bound" doc:"c: the per-agent gradient bound ‖∇f_i‖ ≤ c of Assumption 3, the sensitivity input of the privacy account" range:"(0, 1e100]"`
	// ClipGradients clips every ∇f_i(y_i) to norm c, so that Assumption 3
	// holds by construction (a modification of the paper).
	ClipGradients bool `json:"clip_gradients" doc:"clip every gradient to norm c so that the budget is a guarantee (a modification of the paper)"`
	// Sensitivity is "paper" (Lemma 5's Δ = 4αβc) or "direct" (2αβc).
	Sensitivity string `json:"sensitivity" doc:"the ℓ2 sensitivity of u per activation: paper, Lemma 5's Δ = 4αβc; or direct, 2αβc from Δλ = αβ·Δ∇f (spec §6.7)" options:"paper|direct"`
	// Delta is δ of (ε, δ)-DP.
	Delta float64 `json:"delta" doc:"δ of the (ε, δ)-DP the ledger reports" range:"(0, 1)"`
	// Conversion turns ρ-zCDP into (ε, δ)-DP for the ledger and the
	// calibration: "tight" or "simple" (the paper's).
	Conversion string `json:"conversion" doc:"ρ-zCDP → (ε, δ): tight (Canonne–Kamath–Steinke, OpenDP), or simple ρ + 2√(ρ ln 1/δ) (the paper's); the ledger shows both" options:"tight|simple"`
	// TargetEpsilon, when > 0, is calibrated for PLF activations: the
	// scenario multiplies the noise channel's scale by the factor that
	// meets it (the paper's calibration, method.Target).
	TargetEpsilon float64 `json:"target_epsilon" doc:"target ε (0: none): noise.u.scale is multiplied by the one factor that makes an agent activated plf times spend exactly ε (the paper's calibration of σ_1), shown as a calibration; ignored, with a warning, when that scale is 0 (RECAL); a calibrate section replaces it" range:"[0, 1e6]"`
	// PLF is the privacy leakage frequency the calibration assumes.
	PLF int `json:"plf" doc:"the privacy leakage frequency (largest activation count) the target ε is calibrated for; stop the run at it with stop.max_activations" range:"[1, 100000000]" unit:"activations"`
}

// Defaults returns the spec's setting (R = 1.01, c = 1, δ = 1e-3, PLF 300),
// literal mode, the tight conversion, α from the problem.
func Defaults() *Params {
	return &Params{Mode: Literal, Attenuation: 1.01, GradientBound: 1, Sensitivity: "paper", Delta: 1e-3, Conversion: "tight", PLF: 300}
}

// Confidence of the non-private RECAL reconstruction (baselines.md §1.1).
const Confidence = "high: Algorithm 1 of the seed paper, with σ = 0 for RECAL (baselines.md §1.1)"

// Factory builds DP-RECAL (and RECAL, with the noise off) from a scenario.
var Factory = method.Factory{
	Name:  "dp-recal",
	Title: "DP-RECAL",
	Paper: "X. Wang, Y. Guo, T. Yang and Y. Shi, differentially private relayed, communication-efficient algorithm (dp-recal-relay), Algorithm 1; RECAL with noise.u.scale = 0 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "u", Dist: noise.Gaussian, Description: "ε^k on the baton's ũ, σ_1 per agent, variance σ_1²·R^(−(τ−1)) at the holder's τ-th activation (decay must be constant: R is algorithm.params.attenuation)",
			PerIteration: randwalk.HolderDraws},
	},
	Solves: method.Minimisation,
	States: []string{"y", "lambda"},
	Shared: []method.SharedVar{
		{Name: "x", Description: "the baton's estimate x^k"},
		{Name: "u_noisy", Description: "the baton's noisy ũ^k (what is sent)"},
		{Name: "u", Description: "the exact running sum u^k = Σλ_j (hidden; literal mode)"},
	},
	Output:    "x",
	Prox:      true,
	Draws:     []method.Draw{randwalk.Draw("the baton")},
	NewParams: func() any { return Defaults() },
	Footprint: func(agents, _, dim int) int64 { return 8 * (2*int64(agents)*int64(dim) + 14*int64(dim)) },
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
	if err := randwalk.CheckGraph(g, "DP-RECAL"); err != nil {
		return nil, nil, err
	}
	n, d := env.Problem.Agents(), env.Problem.Dim()
	var warns []check.Warning

	// α_i: given, uncoordinated, or 1/(L+1) from the problem's L.
	L := math.NaN()
	if s, ok := env.Problem.(objective.Smooth); ok {
		_, L = s.Smoothness()
	}
	alpha := make([]float64, n)
	switch {
	case p.Alphas != nil && p.Alpha != 0:
		return nil, nil, check.Errorf(check.Join(pf, "alphas"), "and alpha exclude each other: give one step for every agent (alpha) or one per agent (alphas), not both (got alpha %v and %d alphas)", p.Alpha, len(p.Alphas))
	case p.Alphas != nil:
		if len(p.Alphas) != n {
			return nil, nil, check.Errorf(check.Join(pf, "alphas"), "must list one step per agent (%d), got %d", n, len(p.Alphas))
		}
		for i, v := range p.Alphas {
			if !(v > 0 && v <= 1e6) {
				return nil, nil, check.Errorf(check.Index(check.Join(pf, "alphas"), i), "must be in (0, 1e6] (got %v)", v)
			}
		}
		copy(alpha, p.Alphas)
	case p.Alpha > 0:
		for i := range alpha {
			alpha[i] = p.Alpha
		}
	default:
		if !(L > 0) || math.IsInf(L, 0) {
			return nil, nil, check.Errorf(check.Join(pf, "alpha"), "is required (> 0): the problem declares no smoothness constant L to take 1/(L+1) from")
		}
		for i := range alpha {
			alpha[i] = 1 / (L + 1)
		}
	}
	for i, v := range alpha {
		if w := zcdpgauss.StepWarning(check.Join(pf, "alpha"), fmt.Sprintf("α_%d", i), v, 2/(L+1), "2/(L+1)", L, "Theorem 2's condition may fail"); w != nil {
			warns = append(warns, w...)
			break
		}
	}

	// The walk's P from the weights; a pinned walk must be one P can take
	// and cover the run.
	tr, err := randwalk.FromEnv(env)
	if err != nil {
		return nil, nil, err
	}
	if w, ok := env.PinnedDraws["walk"]; ok {
		if err := randwalk.CheckPinned(w, env.Iterations, tr); err != nil {
			return nil, nil, err
		}
	}

	// σ_1: the channel's, always; a target ε is met by the scenario
	// scaling the channel (Built.Target).
	spec := env.Noise["u"]
	if spec.PerAgentDecay() || (spec.Decay.Kind != "" && spec.Decay.Kind != noise.Constant) {
		return nil, nil, check.Errorf("noise.u.decay", "must be constant: DP-RECAL decays its noise per activation of the holder with R = algorithm.params.attenuation, not per iteration (got %v)", spec.Decay)
	}
	a := &Algorithm{p: p, n: n, d: d, prob: env.Problem, g: g, alpha: alpha, beta: 1 / (2 * float64(n+1)),
		sigma: make([]float64, n), r: p.Attenuation}
	a.sens = sensitivity(p, a.beta, alpha)
	conv, _ := privacy.ParseConversion(check.Join(pf, "conversion"), p.Conversion)
	for i := range a.sigma {
		a.sigma[i] = spec.ScaleAt(i, 0)
	}
	if c, ok := env.Problem.(objective.Composite); ok {
		a.prox = c
	}
	a.walk = randwalk.New(env.Draws("dp-recal", "walk"), tr)
	a.smp = env.Sampler("dp-recal", "u")
	a.x = env.InitShared("x", d)
	a.ut = env.InitShared("u_noisy", d)
	a.u = env.InitShared("u", d)
	a.y = env.InitState("y")
	a.lam = env.InitState("lambda")
	a.tau = make([]int, n)
	for _, s := range []*[]float64{&a.grad, &a.lh, &a.v, &a.xn, &a.yn, &a.ln, &a.eps} {
		*s = make([]float64, d)
	}
	a.msg, a.nz = make([]float64, 2*d), make([]float64, 2*d)
	a.holder = a.walk.First()
	if !p.ClipGradients && !a.off() {
		var bound objective.Bound
		known := false
		if lp, ok := env.Problem.(objective.Lipschitz); ok {
			bound, known = lp.GradientBound()
		}
		switch {
		case !known:
			warns = append(warns, check.Warnf(check.Join(pf, "gradient_bound"), "the problem declares no gradient bound and gradients are not clipped: ε assumes ‖∇f_i‖ ≤ c = %g, which may fail (set clip_gradients)", p.GradientBound))
		case bound.Value > p.GradientBound:
			warns = append(warns, check.Warnf(check.Join(pf, "gradient_bound"), "c = %g is below the problem's gradient bound %.6g and gradients are not clipped: ε is nominal, not a guarantee", p.GradientBound, bound.Value))
		}
	}
	th := &method.Theory{
		Source:      "Wang, Guo, Yang & Shi (dp-recal-relay), Theorems 2–4; spec §6.5",
		Convergence: convergence(p, a),
	}
	ac := NewAccountant(a, conv, randwalk.NewVisits(func() *method.Source { return env.Replay("dp-recal", "walk") }, tr))
	var target *method.Target
	if p.TargetEpsilon > 0 {
		target = &method.Target{Epsilon: p.TargetEpsilon, Horizon: p.PLF, Unit: "activations",
			Param: "target_epsilon", HorizonParam: "plf", Predict: ac.PerAgent()}
	}
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th, Target: target}, warns, nil
}

func convergence(p Params, a *Algorithm) string {
	switch {
	case a.off():
		return "RECAL (no noise): exact convergence for convex f_i with α_i < 2/(L_i+1) (Theorem 2), linear under metric subregularity (Theorem 3)"
	case p.Mode == Realisable:
		return "realisable relay: the noise accumulates in u, so x converges to the minimiser of a perturbed problem (a bias of order √(nq·σ_1²·R/(R−1)); spec §6.2)"
	case p.Attenuation > 1:
		return "literal Algorithm 1 with summable noise (R > 1): exact almost-sure convergence (Theorem 2)"
	}
	return "literal Algorithm 1 with constant noise (R = 1): the noise is not summable, Theorem 2 does not apply; expect a noise floor"
}

// sensitivity returns the ℓ2 sensitivity of u per activation with
// α = max_i α_i: 4αβc (Lemma 5) or 2αβc (direct).
func sensitivity(p Params, beta float64, alpha []float64) float64 {
	am := 0.0
	for _, v := range alpha {
		am = math.Max(am, v)
	}
	f := 4.0
	if p.Sensitivity == "direct" {
		f = 2
	}
	return f * am * beta * p.GradientBound
}

// off reports whether no agent adds noise (RECAL).
func (a *Algorithm) off() bool {
	for _, s := range a.sigma {
		if s != 0 {
			return false
		}
	}
	return true
}

// String describes the algorithm's setting for logs.
func (a *Algorithm) String() string {
	return fmt.Sprintf("DP-RECAL(n=%d, β=%g, R=%g, mode=%s)", a.n, a.beta, a.r, a.p.Mode)
}
