package dpop

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/weights"
)

// Factory builds DPOP from a scenario.
var Factory = method.Factory{
	Name:  "dpop",
	Title: "DPOP (Huang, Mitra, Vaidya 2015)",
	Paper: "Z. Huang, S. Mitra and N. Vaidya, Differentially private distributed optimization, ICDCN 2015; as specified in baselines.md §5.1 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "eta", Dist: noise.Laplace, Description: "η on the released estimate x: scale b, geometric decay p^t (p > q)"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

var needs = []string{weights.FindNonnegative, weights.FindDoublyStochastic, weights.FindSparsity}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := env.RequireOneDecay(oneDecay); err != nil {
		return nil, nil, err
	}
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("DPOP", "DPOP mixes with a doubly stochastic A whose support is the graph; W fails", needs...); err != nil {
		return nil, nil, err
	}
	dom, ok := env.Problem.(objective.Bounded)
	if !ok || !dom.HasDomain() {
		if p.Radius == 0 {
			return nil, nil, check.Errorf("problem.params", "DPOP projects every iterate onto a bounded domain X (Huang et al.); give the problem one (rendezvous: domain_radius > 0) or set algorithm.params.radius")
		}
		dom = ball(p.Radius)
	}
	// C is the problem's declared gradient bound over X (Lipschitz),
	// not anything the projection knows.
	var c float64
	if lp, ok := env.Problem.(objective.Lipschitz); ok {
		if b, ok := lp.GradientBound(); ok {
			c = b.Value
		}
	}
	cFrom := objective.GradientBoundSource(p.GradientBound, env.Problem)
	if p.GradientBound == 0 {
		p.GradientBound = c
	}
	if p.GradientBound == 0 && !env.Noise["eta"].IsOff() {
		return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) when noise is on: the problem declares no gradient bound over its domain, and DPOP's ε is computed from C")
	}
	eta := env.Noise["eta"]
	var warns []check.Warning
	if eta.Decay.Kind != noise.Geometric || !(eta.Decay.R > p.Q) {
		warns = append(warns, check.Warnf("noise.eta.decay", "DPOP's noise decays geometrically as p^t with p > q = %g so that ε stays finite as K → ∞; the decay is %v (the finite-K ledger is still exact)", p.Q, eta.Decay))
	}
	if p.GradientBound < c {
		warns = append(warns, check.Warnf(check.Join(pf, "gradient_bound"), "C = %g is below the domain's bound %g: ε is not a guarantee", p.GradientBound, c))
	}
	var hist *online.History
	if p.StreamBatch > 0 {
		h, err := online.NewHistory(env, p.StreamBatch, p.StreamWindow)
		if err != nil {
			return nil, nil, err
		}
		hist = h
	}
	a := New(p, env.Problem, dom, env.Weights, eta, env.Sampler("dpop", "eta"), env.InitState("x"))
	a.pool = env.Pool
	a.hist = hist
	a.cFrom = cFrom
	return &method.Built{Algorithm: a, Accountant: NewAccountant(a), Theory: theory(p, a, eta)}, warns, nil
}

// theory: DPOP's infinite-horizon budget ε = 2C√d·c/(b(p − q)) (the sum
// Σ_{t≥1} 2C√d·c·q^{t−1}/(b·p^t)), and what the step does.
func theory(p Params, a *Algorithm, eta *noise.Spec) *method.Theory {
	th := &method.Theory{
		Source:      "Huang, Mitra & Vaidya 2015 (DPOP), baselines.md §5.1",
		Convergence: fmt.Sprintf("the step γ_t = %g·%g^t is summable (Σγ_t = %.4g): the iterates stop moving after a few hundred iterations, at a point whose distance to x* grows as ε shrinks (not exact; baselines.md G9)", p.C, p.Q, p.C/(1-p.Q)),
	}
	b := &method.Budget{Source: "Huang et al. 2015; baselines.md §5.1", Formula: "ε∞ = max_i 2C√d·c/(b_i·c_p·(p − q)),  b_t = b·c_p·p^t"}
	switch {
	case eta.IsOff():
		b.Reason = "no noise (channel eta)"
	case !p.SelfNoisy:
		b.Reason = "the closed form assumes the own noisy copy is mixed (self_noisy); without it the sensitivities accumulate a_ii·Δ_t"
	case eta.Decay.Kind != noise.Geometric || !(eta.Decay.R > p.Q && eta.Decay.R < 1):
		b.Reason = fmt.Sprintf("the closed form needs a geometric noise decay p^t with q = %g < p < 1; the decay is %v", p.Q, eta.Decay)
	default:
		best, arg := math.Inf(-1), 0
		for i := range a.n {
			bi := eta.Base(i) * eta.Decay.C
			if bi == 0 {
				b.Reason = fmt.Sprintf("agent %d adds no noise", i)
				return withBudget(th, b)
			}
			if e := 2 * p.GradientBound * math.Sqrt(float64(a.d)) * p.C / (bi * (eta.Decay.R - p.Q)); e > best {
				best, arg = e, i
			}
		}
		b.Available, b.Epsilon, b.Agent = true, privacy.Of(best), arg
		b.Inputs = []privacy.Input{privacy.Num("C", p.GradientBound), privacy.Num("d", float64(a.d)), privacy.Num("c", p.C),
			privacy.Num("q", p.Q), privacy.Num("p", eta.Decay.R), privacy.Num("b", eta.Base(arg)*eta.Decay.C)}
	}
	return withBudget(th, b)
}

func withBudget(th *method.Theory, b *method.Budget) *method.Theory {
	th.InfiniteHorizon = b
	return th
}
