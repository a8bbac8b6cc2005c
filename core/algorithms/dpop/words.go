package dpop

import (
	"fmt"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/noise"
)

// words is what the page says about DPOP (method.Words).
var words = method.Words{
	Authors:    "Huang, Mitra & Vaidya",
	BaselineOf: []string{"gt-dp", "ldp-online"},
	Messages: "Every agent releases its estimate x̃_i = x_i + η_i, with Laplace noise of scale b·p^t, to each neighbour, " +
		"who averages the copies with weights a_ij before its projected gradient step: one lane per link.",
	Symbols: []glossary.Term{
		{Symbol: "x_i, x̃_i", Meaning: "Agent i's estimate and what it releases, x̃_i = x_i + η_i."},
		{Symbol: "z_i", Meaning: "The average Σ_j a_ij·x̃_j agent i takes its gradient step from."},
		{Symbol: "a_ij", Meaning: "The doubly stochastic mixing weights."},
		{Symbol: "γ_t", Meaning: "The step size at time t, c·q^t: summable, so the iterates stop moving after a few hundred iterations."},
		{Symbol: "c, q", Meaning: "The scale and ratio of the step γ_t = c·q^t."},
		{Symbol: "b, p", Meaning: "The noise scale and its geometric decay b·p^t; p > q keeps ε finite as the run grows."},
		{Symbol: "Π_X, X", Meaning: "The projection onto the problem's bounded domain X, which makes the gradient bound C hold."},
		{Symbol: "C", Meaning: "A bound on ‖∇f_i‖ over X: the sensitivity input of the ledger."},
	},
	Assumptions: []method.Assumption{
		method.Assume("noise decays as p^t with p > q", "Huang et al. 2015 (finite ε as K → ∞)", func(env *method.Env, params any) method.Verdict {
			q, d := params.(*Params).Q, env.Noise["eta"].Decay
			if env.NoiseOff() {
				return method.Hold("no noise")
			}
			if d.Kind == noise.Geometric && d.R > q {
				return method.Hold(fmt.Sprintf("p = %g > q = %g", d.R, q))
			}
			return method.Fail(fmt.Sprintf("the decay is %v, q = %g", d, q))
		}),
		method.BoundedGradients("‖∇f_i‖ ≤ C on the domain X", "Huang et al. 2015", true, func(params any) (float64, bool) {
			return params.(*Params).GradientBound, false
		}),
	},
}
