package dpdgt

import (
	"fmt"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
)

// words is what the page says about DP-DGT (method.Words).
var words = method.Words{
	Authors: "Huo, Chen, Huang, Johansson & Shi",
	Messages: "Every agent pushes C_li·(s_i + ξ_i), its deviation tracker with Laplace noise, to each out-neighbour l (filled packets), " +
		"and its out-neighbours pull its price w̃_i + ζ_i (hollow packets): two lanes per link, over a directed network.",
	Symbols: []glossary.Term{
		{Symbol: "w_i", Meaning: "Agent i's allocation: the generator's output, its best response to its price."},
		{Symbol: "d_i", Meaning: "Agent i's local demand; the allocations must add up to the total demand Σ_i d_i."},
		{Symbol: "s_i", Meaning: "Agent i's deviation tracker: its estimate of the supply–demand gap, pushed as s_i + ξ_i."},
		{Symbol: "w̃_i", Meaning: "Agent i's price estimate (the dual variable), which its out-neighbours pull as w̃_i + ζ_i."},
		{Symbol: "λ*", Meaning: "The optimal price: at it every generator's best response meets the total demand at least cost."},
		{Symbol: "R, C", Meaning: "The pull matrix R (row-stochastic: agent i weighs what it pulls by R_ij) and the push matrix C (column-stochastic: agent i splits what it pushes by C_li)."},
		{Symbol: "α_k", Meaning: "DP-DGT's step size, α_0·q^k in the paper: Theorems 1–2 need Σα_k < ∞."},
		{Symbol: "γ, φ", Meaning: "The weights of the pushed mixture in the s update (12a) and of the pulled mixture in the price update (12c)."},
		{Symbol: "ξ, ζ", Meaning: "The Laplace noise on the pushed tracker and on the pulled price."},
		{Symbol: "θ_ξ, θ_ζ", Meaning: "The noise scales at iteration k, θ_0·q_ξ^k and θ_0·q_ζ^k."},
		{Symbol: "q_ξ, q_ζ", Meaning: "The geometric decays of the two noise scales."},
		{Symbol: "q_R, q_C", Meaning: "The contraction factors of R and C, (1 + σ²)/2 with σ the spectral radius off the consensus direction; the step must decay more slowly than both (Theorem 1)."},
		{Symbol: "π_R, π_C", Meaning: "The Perron vectors of R and C; Theorem 3 assumes π_Cᵀπ_R < 1/2."},
		{Symbol: "δ", Meaning: "DP-DGT's adjacency: two problems are adjacent when one agent's cost gradients differ by at most δ; ε is proportional to δ."},
		{Symbol: "μ", Meaning: "The strong convexity of the costs F_i (2·min a_i for quadratic costs), an input of the privacy bound (31)."},
	},
	Assumptions: []method.Assumption{
		method.Assume("Σ_k α_k < ∞", "Theorems 1–2", func(_ *method.Env, params any) method.Verdict {
			if a := params.(*Params).Alpha; !a.Summable() {
				return method.Fail(fmt.Sprintf("α_k = %s is not summable", a))
			}
			return method.Hold(fmt.Sprintf("α_k = %s", params.(*Params).Alpha))
		}),
		method.SummableNoise("Σ_k θ_k² < ∞: the noise decays", "Theorem 1"),
		method.Assume("α_k decays no faster than λ^k, λ > max(q_R, q_C)", "Theorem 1", func(env *method.Env, params any) method.Verdict {
			p := *params.(*Params)
			sp := networkOf(env, p).spectral
			a0, q, ok := Geometric(p.Alpha)
			switch {
			case !sp.OK:
				return method.Unsure("q_R and q_C are not computed for a network this large")
			case !ok || p.Alpha.Kind != noise.Geometric || a0 == 0:
				return method.Hold(fmt.Sprintf("α_k = %s is not geometric", p.Alpha))
			case q > max(sp.QR, sp.QC):
				return method.Hold(fmt.Sprintf("q = %g > %.4g", q, max(sp.QR, sp.QC)))
			}
			return method.Fail(fmt.Sprintf("q = %g is not above max(q_R, q_C) = %.4g", q, max(sp.QR, sp.QC)))
		}),
		method.Assume("π_Cᵀπ_R < 1/2", "Theorem 3", func(env *method.Env, params any) method.Verdict {
			sp := networkOf(env, *params.(*Params)).spectral
			switch {
			case !sp.OK:
				return method.Unsure("π_R and π_C are not computed for a network this large")
			case sp.PiCPiR < 0.5:
				return method.Hold(fmt.Sprintf("π_Cᵀπ_R = %.4g", sp.PiCPiR))
			}
			return method.Fail(fmt.Sprintf("π_Cᵀπ_R = %.4g", sp.PiCPiR))
		}),
		method.Assume("every F_i μ-strongly convex", "Assumption 1", func(env *method.Env, params any) method.Verdict {
			a, ok := env.Problem.(objective.Allocation)
			if !ok {
				return method.Unsure("not a resource-allocation problem")
			}
			sc, mu := a.StrongConvexity(), params.(*Params).Mu
			if mu > sc {
				return method.Fail(fmt.Sprintf("μ = %g exceeds the costs' %.6g", mu, sc))
			}
			return method.Hold(fmt.Sprintf("the costs are %.6g-strongly convex", sc))
		}),
	},
}
