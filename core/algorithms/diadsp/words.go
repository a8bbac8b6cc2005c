package diadsp

import (
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DiaDSP (method.Words).
var words = method.Words{
	Authors:    "Ding, Zhu, He, Chen & Guan",
	BaselineOf: []string{"gt-dp", "dpp2"},
	Messages: "Every agent sends its state x_i + η_i and its direction (tracker) y_i + ξ_i to each neighbour: " +
		"two lanes per link, both with Laplace noise decaying as r^k.",
	Symbols: []glossary.Term{
		{Symbol: "x_i", Meaning: "Agent i's state (estimate), sent as x_i + η_i."},
		{Symbol: "y_i", Meaning: "Agent i's direction: its tracker of the average gradient, sent as y_i + ξ_i."},
		{Symbol: "η, ξ", Meaning: "The Laplace noise on the state and on the direction."},
		{Symbol: "u_x, u_y", Meaning: "The noise scales at k = 0 on x and on y."},
		{Symbol: "r", Meaning: "The geometric decay of both noise scales, u·r^k."},
		{Symbol: "α", Meaning: "DiaDSP's constant step size."},
		{Symbol: "C", Meaning: "The gradient bound of the bounded-gradient adjacency, ‖∇f_i‖ ≤ C."},
		{Symbol: "δ", Meaning: "The affine adjacency's bound: ∇f_i' = ∇f_i + c with ‖c‖ ≤ δ (DiaDSP's own notion)."},
	},
	Assumptions: []method.Assumption{
		method.StronglyConvex("every f_i μ-strongly convex, L-smooth", "Ding et al. 2022"),
		method.SummableNoise("r < 1: the noise decays geometrically", "Ding et al. 2022"),
		method.Assume("‖∇f_i‖ ≤ C on every iterate (bounded-gradient adjacency)", "the ledger", func(env *method.Env, params any) method.Verdict {
			p := params.(*Params)
			if p.Adjacency != BoundedGradient {
				return method.Hold("the affine adjacency needs no gradient bound")
			}
			return method.BoundedGradients("", "", false, func(any) (float64, bool) { return p.GradientBound, false }).Check(env, params)
		}),
	},
}
