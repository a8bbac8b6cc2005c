package dpp2

import (
	"fmt"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/objective"
)

// words is what the page says about DPP² (method.Words).
var words = method.Words{
	Authors: "Ou, Wang, Liu & Lu",
	Messages: "Two rounds per iteration, each message broadcast to every neighbour: first y_i = x_i + (1 − η^k)·d_i + w_i, " +
		"then z_i = ∇f_i(x_i) + η^k·q_i + ρ·Σ_j p_ij·y_j + e_i; w and e are Laplace noise of scale u·r^k. " +
		"The hidden η^k is the first privacy tier, the noise the second.",
	Symbols: []glossary.Term{
		{Symbol: "x_i", Meaning: "Agent i's primal estimate."},
		{Symbol: "y_i", Meaning: "The round-0 message: x_i + (1 − η^k)·d_i, plus the noise w_i."},
		{Symbol: "z_i", Meaning: "The round-1 message: ∇f_i(x_i) + η^k·q_i + ρ·Σ_j p_ij·y_j, plus the noise e_i."},
		{Symbol: "d_i, q_i", Meaning: "Agent i's dual variables, mixed into its messages with η^k: d ← η^k·d + y, q ← η^k·q + ρ·Σ_j p_ij·y_j."},
		{Symbol: "η^k", Meaning: "The merging coefficient in (0, 1), drawn anew every iteration and shared by all agents but hidden from listeners: the first privacy tier. A listener who knows it reads x_i + w_i and ∇f_i + e_i."},
		{Symbol: "w, e", Meaning: "The Laplace noise on y and on z (the second privacy tier), of scales u_w·r^k and u_e·r^k."},
		{Symbol: "u_w, u_e, ū", Meaning: "The noise scales at k = 0 on the two messages; the paper's figures vary them together as ū."},
		{Symbol: "r, r̄", Meaning: "The noise decay: scales u·r^k. r̄ is the value the figures sweep; r < 1 makes the noise vanish (Theorem 1's exact convergence), and ε grows like r^(−K)."},
		{Symbol: "α, β", Meaning: "The step size α and the mixing weight β of G = αI − βL, which must be positive definite: β < α/λ_max(P)."},
		{Symbol: "ρ", Meaning: "DPP²'s augmented-Lagrangian penalty (the paper: 10)."},
		{Symbol: "P, p_ij", Meaning: "The Laplacian-type matrix of the network (symmetric, P·1 = 0, zero off the edges); the scenario's weights."},
		{Symbol: "δ", Meaning: "DPP²'s adjacency: two problems are adjacent when one agent's gradients differ by at most δ everywhere; ε is proportional to δ."},
		{Symbol: "M̄", Meaning: "The largest smoothness constant of the f_i (Theorem 3), computed from the data (the paper reports 5.03)."},
		{Symbol: "K", Meaning: "The horizon: Theorem 3's ε is for K iterations."},
		{Symbol: "Ŵ^k", Meaning: "The figures' convergence measure: stationarity plus consensus of the iterates at k."},
	},
	Assumptions: []method.Assumption{
		method.SummableNoise("r < 1: the noise decays geometrically", "Theorem 1"),
		method.Assume("α < (1/4)/(M̄ + 21M̄²/2)", "condition (27), Theorem 1", func(env *method.Env, params any) method.Verdict {
			p := params.(*Params)
			m, _, ok := mbarOf(env, p)
			if !ok {
				return method.Unsure("the problem states no smoothness M̄")
			}
			b := 0.25 / (m + float64(10.5*m*m))
			if p.Alpha < b {
				return method.Hold(fmt.Sprintf("α = %g < %.3g", p.Alpha, b))
			}
			return method.Fail(fmt.Sprintf("α = %g is not below %.3g (the paper's own α exceeds it too: a sufficient condition)", p.Alpha, b))
		}),
		method.Assume("α·M̄ < 1", "Theorem 3 (its ε)", func(env *method.Env, params any) method.Verdict {
			p := params.(*Params)
			m, _, ok := mbarOf(env, p)
			if !ok {
				return method.Unsure("the problem states no smoothness M̄")
			}
			if p.Alpha*m < 1 {
				return method.Hold(fmt.Sprintf("α·M̄ = %.4g", p.Alpha*m))
			}
			return method.Fail(fmt.Sprintf("α·M̄ = %.4g: ε is no guarantee", p.Alpha*m))
		}),
	},
}

// mbarOf is M̄ and where it comes from: the parameter, else the
// problem's smoothness L (ok false when neither gives one).
func mbarOf(env *method.Env, p *Params) (mbar float64, from string, ok bool) {
	if p.Smoothness > 0 {
		return p.Smoothness, "algorithm.params.smoothness", true
	}
	if sm, ok := env.Problem.(objective.Smooth); ok {
		_, mbar = sm.Smoothness()
		from = "the problem (" + env.Problem.Kind() + ")"
		if ss, ok := env.Problem.(objective.SmoothSource); ok {
			from = ss.SmoothnessSource()
		}
		return mbar, from, mbar > 0
	}
	return 0, "algorithm.params.smoothness", false
}
