package gtdp

import (
	"strings"

	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about GT-DP (method.Words).
var words = method.Words{
	Authors:      "Xuan & Wang",
	FreeMessages: "the iteration-0 messages have sensitivity 0, so eq. (18) counts rounds k = 1 … K, K = iterations − 1",
	Messages: "Every agent sends its gradient tracker s_i + η_i and its estimate x_i + ξ_i to each neighbour j, " +
		"weighted by w_ji: two lanes per link, both with Laplace noise of scale b·β_k.",
	Symbols: []glossary.Term{
		{Symbol: "x_i", Meaning: "Agent i's estimate of the minimiser x*; it sends x_i + ξ_i."},
		{Symbol: "s_i", Meaning: "Agent i's gradient tracker: its running estimate of the average gradient, sent as s_i + η_i."},
		{Symbol: "w_ij", Meaning: "The weight agent i gives to neighbour j's messages (the matrix W: doubly stochastic, Assumption 4)."},
		{Symbol: "α", Meaning: "GT-DP's step size."},
		{Symbol: "γ_k", Meaning: "The weight of the gradient at iteration k, γ/(m+k)^p: constant 1 in Theorem 3, decaying in Theorem 1."},
		{Symbol: "β_k", Meaning: "The noise factor at iteration k: the Laplace scales are b_η·β_k and b_ξ·β_k, β_k = 1/(m+k)^q."},
		{Symbol: "η, b_η", Meaning: "The Laplace noise on the tracker s, of scale b_η·β_k (noise channel eta)."},
		{Symbol: "ξ, b_ξ", Meaning: "The Laplace noise on the estimate x, of scale b_ξ·β_k (noise channel xi)."},
		{Symbol: "C", Meaning: "A bound on every gradient, ‖∇f_i‖ ≤ C (Assumption 2): the sensitivity the privacy budget (eq. 18) is computed from."},
		{Symbol: "p, q", Meaning: "The powers of γ_k = γ/(m+k)^p and β_k = 1/(m+k)^q; Theorem 1's three cases compare them."},
		{Symbol: "μ, L", Meaning: "Every f_i is μ-strongly convex with an L-Lipschitz gradient (Assumption 1)."},
		{Symbol: "ρ(A)", Meaning: "The linear rate Theorem 3 proves: the error shrinks like ρ(A)^k down to the noise floor."},
		{Symbol: "θ1, θ2", Meaning: "The two terms of Theorem 3's steady-state bound 2n·θ1 + 2θ2: the noise floor the error settles at."},
	},
	Assumptions: []method.Assumption{
		method.StronglyConvex("every f_i μ-strongly convex, L-smooth", "Assumption 1"),
		method.BoundedGradients("‖∇f_i‖ ≤ C on every iterate", "Assumption 2", false, func(params any) (float64, bool) {
			p := params.(*Params)
			return p.GradientBound, p.ClipGradients
		}),
		method.StepBelow("α·γ_0 < 2/(μ+L)", "Lemma 1", func(env *method.Env, params any) (float64, float64, bool) {
			p := params.(*Params)
			mu, l, ok := method.Smoothness(env)
			return p.Alpha * p.Gamma.At(0), 2 / (mu + l), ok
		}),
		method.Assume("γ_k and β_k in a case of Theorem 1 (or constant: Theorem 3)", "Theorems 1 and 3", func(env *method.Env, params any) method.Verdict {
			c := Convergence(params.(*Params).Gamma, env.Noise["eta"].Decay)
			if strings.HasPrefix(c, "outside") {
				return method.Fail(c)
			}
			return method.Hold(c)
		}),
	},
}
