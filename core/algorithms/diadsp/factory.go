package diadsp

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/weights"
)

// Factory builds DiaDSP from a scenario.
var Factory = method.Factory{
	Name:  "diadsp",
	Title: "DiaDSP (Ding et al. 2022)",
	Paper: "T. Ding, S. Zhu, J. He, C. Chen and X. Guan, Differentially private distributed optimization via state and direction perturbation in multiagent systems, IEEE TAC 67(2), 2022; as specified in baselines.md §3.1 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "eta", Dist: noise.Laplace, Description: "η on the released state x: scale u_x, decay r^k"},
		{Name: "xi", Dist: noise.Laplace, Description: "ξ on the released direction (tracker) y: scale u_y, decay r^k"},
	},
	Solves: method.Minimisation,
	// States are what State reports and what a scenario's init may pin:
	// the estimates x and the trackers y (by default y_0 = ∇f_i(x_{i,0})).
	States:    []string{"x", "y"},
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
	if err := env.RequireUndirected("DiaDSP", "DiaDSP mixes with a doubly stochastic W whose support is the graph; W fails", needs...); err != nil {
		return nil, nil, err
	}
	eta, xi := env.Noise["eta"], env.Noise["xi"]
	noisy := !eta.IsOff() || !xi.IsOff()
	l := 0.0
	if sm, ok := env.Problem.(objective.Smooth); ok {
		_, l = sm.Smoothness()
	}
	cFrom := objective.GradientBoundSource(p.GradientBound, env.Problem)
	switch p.Adjacency {
	case BoundedGradient:
		if p.GradientBound == 0 {
			if lp, ok := env.Problem.(objective.Lipschitz); ok {
				if b, ok := lp.GradientBound(); ok {
					p.GradientBound = b.Value
				}
			}
		}
		if noisy && p.GradientBound == 0 {
			return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) for the bounded-gradient adjacency when noise is on (or give the problem a domain)")
		}
	case Affine:
		if noisy && p.Delta == 0 {
			return nil, nil, check.Errorf(check.Join(pf, "delta"), "is required (> 0) for the affine adjacency when noise is on")
		}
		if noisy && l == 0 {
			return nil, nil, check.Errorf(check.Join(pf, "adjacency"), "the affine adjacency needs the problem's smoothness L, which %s does not state", env.Problem.Kind())
		}
	}
	var warns []check.Warning
	if p.Adjacency == BoundedGradient {
		warns = append(warns, check.Warnf(check.Join(pf, "gradient_bound"), "C = %g must bound ‖∇f_i‖ on every iterate for ε to be a guarantee; DiaDSP neither projects nor clips", p.GradientBound))
	}
	x0 := env.InitState("x")
	var y0 []float64
	if _, ok := env.Init["y"]; ok {
		y0 = env.InitState("y")
		if w, bad := trackerWarning(env.Problem, x0, y0); bad {
			warns = append(warns, w)
		}
	}
	a := New(p, env.Problem, env.Weights, eta, xi, env.Sampler("diadsp", "eta"), env.Sampler("diadsp", "xi"), x0, y0)
	a.pool = env.Pool
	a.cFrom = cFrom
	th := &method.Theory{
		Source:      "Ding et al. 2022 (DiaDSP), baselines.md §3.1",
		Convergence: "constant step: linear convergence to a noise-dependent neighbourhood of x*, not exact — the tracker keeps the sum of every ξ it mixed (baselines.md G4)",
		InfiniteHorizon: &method.Budget{Source: "baselines.md §3.1", Formula: Formula,
			Reason: "not computed: the bounded-gradient sensitivities stay at 4√d·C, so ε grows without bound unless the noise grows; the ledger is exact at every finite K"},
	}
	return &method.Built{Algorithm: a, Accountant: NewAccountant(a, l), Theory: th}, warns, nil
}

// trackerWarning reports a pinned tracker y_0 whose sum is not
// Σ_i ∇f_i(x_{i,0}): the tracking invariant Σy = Σ∇f then fails, and the
// run settles away from x*. An export pins y_0 = ∇f_i(x_{i,0}) itself, so
// its replay is silent.
func trackerWarning(prob objective.Problem, x0, y0 []float64) (check.Warning, bool) {
	n, d := prob.Agents(), prob.Dim()
	g := make([]float64, d)
	sumG, sumY := make([]float64, d), make([]float64, d)
	scale := 0.0
	for i := range n {
		prob.Grad(i, x0[i*d:(i+1)*d], g)
		for c := range d {
			sumG[c] += g[c]
			sumY[c] += y0[i*d+c]
			scale = math.Max(scale, math.Max(math.Abs(g[c]), math.Abs(y0[i*d+c])))
		}
	}
	for c := range d {
		if math.Abs(sumG[c]-sumY[c]) > 1e-9*float64(n)*math.Max(scale, 1) {
			return check.Warnf("init.y", "Σ_i y_{i,0} differs from Σ_i ∇f_i(x_{i,0}) in coordinate %d (%g against %g): DiaDSP's tracker then follows the wrong sum and the run settles away from x*", c, sumY[c], sumG[c]), true
		}
	}
	return check.Warning{}, false
}
