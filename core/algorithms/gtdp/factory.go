package gtdp

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/weights"
)

// Factory builds GT-DP from a scenario.
var Factory = method.Factory{
	Name:  "gt-dp",
	Title: "GT-DP",
	Paper: "Y. Xuan and Y. Wang, Gradient-tracking based differentially private distributed optimization with enhanced optimization accuracy, Algorithm 1",
	Channels: []method.Channel{
		{Name: "eta", Dist: noise.Laplace, Description: "η on the tracker s: scale b_η, decay β_k"},
		{Name: "xi", Dist: noise.Laplace, Description: "ξ on the estimate x: scale b_ξ, decay β_k"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x", "s"},
	NewParams: func() any { return Defaults() },
	// x, s, their successors, the two noises, the released pair and the
	// agents' gradients.
	Footprint: func(agents, _, dim int) int64 { return 8 * 9 * int64(agents) * int64(dim) },
	Build:     build,
	Words:     words,
}

// assumption4 lists the weight properties GT-DP's Assumption 4 requires:
// W nonnegative, symmetric, doubly stochastic, with w_ii > 0 and w_ij > 0
// exactly on the graph's edges.
var assumption4 = []string{
	weights.FindNonnegative, weights.FindSymmetric, weights.FindDoublyStochastic,
	weights.FindPositiveDiagonal, weights.FindSparsity,
}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := env.RequireOneDecay(oneDecay); err != nil {
		return nil, nil, err
	}
	const pf = "algorithm.params"
	if err := env.RequireUndirected("GT-DP (Assumption 4)", "GT-DP's Assumption 4 needs W", assumption4...); err != nil {
		return nil, nil, err
	}
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := p.Gamma.Validate(check.Join(pf, "gamma")); err != nil {
		return nil, nil, err
	}
	eta, xi := env.Noise["eta"], env.Noise["xi"]
	noisy := !eta.IsOff() || !xi.IsOff()
	var warns []check.Warning
	cFrom := objective.GradientBoundSource(p.GradientBound, env.Problem)
	if lp, ok := env.Problem.(objective.Lipschitz); ok && p.GradientBound == 0 {
		// The problem declares C for every admissible f_i; when it holds
		// on a domain only, GT-DP (which does not project) needs clipping
		// for it to hold on the iterates.
		if b, ok := lp.GradientBound(); ok {
			p.GradientBound = b.Value
			if noisy && !p.ClipGradients && !b.Everywhere {
				warns = append(warns, check.Warnf(check.Join(pf, "clip_gradients"), "C = %.6g comes from the problem's domain, which GT-DP does not project onto: clip gradients so that the budget is a guarantee", b.Value))
			}
		}
	}
	if (noisy || p.ClipGradients) && p.GradientBound == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) when noise is on or gradients are clipped: the privacy budget (eq. 18) is computed from C")
	}
	warns = append(warns, theoryWarnings(env, p, eta, xi)...)

	n, d := env.Problem.Agents(), env.Problem.Dim()
	a := New(p, env.Problem, env.Weights, eta, xi,
		env.Sampler("gt-dp", "eta"), env.Sampler("gt-dp", "xi"), env.InitState("x"), env.InitState("s"))
	a.cFrom, a.pool = cFrom, env.Pool
	if noisy && !p.ClipGradients {
		g := make([]float64, d)
		x0 := env.InitState("x")
		for i := range n {
			env.Problem.Grad(i, x0[i*d:(i+1)*d], g)
			if nrm := norm(g); nrm > p.GradientBound {
				warns = append(warns, check.Warnf(check.Join(pf, "gradient_bound"),
					"C = %g does not bound agent %d's gradient at its initial estimate (%.4g): ε is not a guarantee unless C is raised or gradients are clipped", p.GradientBound, i, nrm))
				break
			}
		}
	}
	return &method.Built{Algorithm: a, Accountant: NewAccountant(a), Theory: theory(env, p, a)}, warns, nil
}

// theory collects what the paper proves about this configuration: the
// Theorem 1 or 3 case, Theorem 3's predicted error and Corollary 3's
// infinite-horizon budget, each with the reason when it does not apply.
func theory(env *method.Env, p Params, a *Algorithm) *method.Theory {
	eta, xi := env.Noise["eta"], env.Noise["xi"]
	th := &method.Theory{Source: Source, Convergence: Convergence(p.Gamma, eta.Decay)}
	ih := InfiniteHorizon(p, a.d, a.diag, eta, xi)
	th.InfiniteHorizon = &ih
	pe := method.PredictedError{Source: Source + ", Theorem 3", Formula: "limsup E‖x_k − 1x*‖² ≤ 2n·θ1 + 2θ2"}
	sm, smooth := env.Problem.(objective.Smooth)
	switch {
	case !smooth:
		pe.Reason = "the problem does not state μ and L (Assumption 1)"
	case !env.Report.HasRhoW || !env.Report.HasRhoWo:
		pe.Reason = "ρ_w or ρ(W_o) is unavailable for this weight matrix"
	default:
		mu, l := sm.Smoothness()
		pe = Theorem3(p, a.n, a.d, mu, l, env.Report.RhoW, env.Report.RhoWo, eta, xi)
		if src, ok := sm.(objective.SmoothSource); ok && pe.Inputs != nil {
			pe.Inputs = append(pe.Inputs, privacy.Text("μ, L from", fmt.Sprintf("the problem %s: %s", env.Problem.Kind(), src.SmoothnessSource())))
		}
	}
	th.Error = &pe
	return th
}

// theoryWarnings compares the parameters with the paper's sufficient
// conditions. They are conservative (the paper's own experiments exceed
// them), so they warn and never block.
func theoryWarnings(env *method.Env, p Params, eta, xi *noise.Spec) []check.Warning {
	const pf = "algorithm.params"
	var ws []check.Warning
	if eta.Decay != xi.Decay {
		ws = append(ws, check.Warnf("noise", "the paper uses one noise factor β_k for both messages; eta decays as %v and xi as %v (eq. 18 still holds channel by channel)", eta.Decay, xi.Decay))
	}
	sm, ok := env.Problem.(objective.Smooth)
	if !ok {
		return ws
	}
	mu, l := sm.Smoothness()
	if g0 := p.Gamma.At(0); p.Alpha*g0 >= 2/(mu+l) {
		ws = append(ws, check.Warnf(check.Join(pf, "alpha"), "α·γ_0 = %.4g is not below 2/(μ+L) = %.4g (Lemma 1)", p.Alpha*g0, 2/(mu+l)))
	}
	rhoW := env.Report.RhoW
	if !env.Report.HasRhoW {
		rhoW = -1
	}
	// Theorem 3 needs strong convexity: a problem that declares μ = 0
	// (convex or nonconvex, objective.Smooth) has no such bound.
	if mu > 0 && p.Gamma.Kind == noise.Constant && p.Gamma.C == 1 && eta.Decay.Kind == noise.Constant && xi.Decay.Kind == noise.Constant && rhoW > 0 && rhoW < 1 {
		// Theorem 3 (constant γ_k = β_k = 1), d_I = 1.
		bound := Theorem3StepBound(mu, l, rhoW)
		if p.Alpha >= bound {
			ws = append(ws, check.Warnf(check.Join(pf, "alpha"), "α = %g exceeds Theorem 3's sufficient bound %.3g for linear convergence to a neighbourhood (conservative: the paper's own experiments exceed it)", p.Alpha, bound))
		}
	}
	if case_ := theorem1Case(p.Gamma, eta.Decay); case_ != "" {
		ws = append(ws, check.Warnf(check.Join(pf, "gamma"), "%s", case_))
	}
	return ws
}

// theorem1Case explains where γ_k = γ/(m+k)^p and β_k = 1/(m+k)^q fall
// in Theorem 1, when that is worth a warning.
func theorem1Case(gamma, beta noise.Schedule) string {
	pExp, qExp := 0.0, 0.0
	switch gamma.Kind {
	case noise.Polynomial:
		pExp = gamma.P
	case noise.Geometric:
		return "a geometric γ_k is summable: expect a neighbourhood of x*, not exact convergence (Theorem 1 covers polynomial schedules)"
	}
	switch beta.Kind {
	case noise.Polynomial:
		qExp = beta.P
	case noise.Geometric:
		return ""
	}
	switch {
	case pExp == 0 && qExp > 0, pExp > 0 && pExp <= 1 && qExp > pExp:
		return ""
	case pExp == 0 && qExp == 0:
		return "" // the constant case is Theorem 3's
	case pExp > 1 && qExp >= pExp/2:
		return "Theorem 1 case 3 (p > 1): convergence to a neighbourhood of x*, not exact"
	}
	return "these schedules fall outside Theorem 1's cases (p = 0 < q; 0 < p ≤ 1 with q > p; p > 1 with q ≥ p/2): no convergence guarantee"
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x * x)
	}
	return math.Sqrt(s)
}
