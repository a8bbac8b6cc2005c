package recal

import (
	"fmt"

	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-RECAL (method.Words).
var words = method.Words{
	Authors: "Wang, Guo, Yang & Shi",
	Messages: "One baton travels a random walk: only its holder computes, and it passes (ũ, x) to the next agent, one message per iteration; " +
		"ũ = u + ε^k carries Gaussian noise of variance σ_1²·R^(−(τ−1)) at the holder's τ-th activation.",
	Symbols: []glossary.Term{
		{Symbol: "x", Meaning: "The baton's estimate of the minimiser, computed by the holder (a proximal step on n·r)."},
		{Symbol: "u, ũ", Meaning: "u = Σ_j λ_j, the running sum of the agents' duals the baton carries; ũ = u + ε^k is what is sent, with Gaussian noise."},
		{Symbol: "y_i, λ_i", Meaning: "Agent i's local primal and dual variables, which never leave it."},
		{Symbol: "ε^k", Meaning: "The Gaussian noise on ũ at iteration k (not a privacy budget: the paper's notation)."},
		{Symbol: "σ_1", Meaning: "The noise standard deviation at an agent's first activation."},
		{Symbol: "R", Meaning: "The attenuation: an agent's noise variance shrinks by 1/R at each of its activations, σ_τ² = σ_1²·R^(−(τ−1)); R > 1 makes the noise summable."},
		{Symbol: "τ", Meaning: "How many times the holder has been activated (held the baton) so far."},
		{Symbol: "PLF", Meaning: "Privacy leakage frequency: the largest number of activations of any agent, so of its noisy publications. The target ε is calibrated for it, and the run may stop at it."},
		{Symbol: "α_i", Meaning: "Agent i's local step, in (0, 2/(L_i+1)) (Theorem 2)."},
		{Symbol: "c", Meaning: "The per-agent gradient bound ‖∇f_i‖ ≤ c (Assumption 3): the sensitivity input of the privacy account."},
		{Symbol: "Δ", Meaning: "The ℓ2 sensitivity of u per activation: 4αβc (Lemma 5) or 2αβc (direct)."},
		{Symbol: "ρ, ρ-zCDP", Meaning: "Zero-concentrated differential privacy of order ρ: each Gaussian publication of sensitivity Δ and variance σ² costs Δ²/(2σ²), and the costs add up."},
		{Symbol: "(ε, δ)", Meaning: "The ledger's guarantee: ρ-zCDP converted to (ε, δ)-DP, tightly or by ρ + 2√(ρ·ln(1/δ)). δ is the probability with which the ε bound may fail."},
		{Symbol: "r", Meaning: "The regulariser of the composite objective Σ_i f_i + n·r: ½‖x‖₁ + ½‖x‖² in the paper."},
	},
	Assumptions: []method.Assumption{
		method.StepBelow("α_i < 2/(L+1)", "Theorem 2", func(env *method.Env, params any) (float64, float64, bool) {
			p := params.(*Params)
			_, l, ok := method.Smoothness(env)
			a := p.Alpha
			for _, v := range p.Alphas {
				a = max(a, v)
			}
			if a == 0 {
				a = 1 / (l + 1)
			}
			return a, 2 / (l + 1), ok
		}),
		method.Attenuated("Theorem 2", func(params any) float64 { return params.(*Params).Attenuation }),
		method.Assume("literal relay: the exact u stays hidden in the baton", "Algorithm 1, Theorem 2", func(env *method.Env, params any) method.Verdict {
			if m := params.(*Params).Mode; m == Realisable && !env.NoiseOff() {
				return method.Fail(fmt.Sprintf("mode %s: the noise accumulates in u, a bias", m))
			}
			return method.Hold("mode " + params.(*Params).Mode)
		}),
		method.BoundedGradients("‖∇f_i‖ ≤ c on every iterate", "Assumption 3", false, func(params any) (float64, bool) {
			p := params.(*Params)
			return p.GradientBound, p.ClipGradients
		}),
	},
	Attack: "An eavesdropper on the baton records the messages (ũ, x) to and from one agent, recovers its gradient at its first activation and rebuilds its training image from it (DLG): " +
		"RECAL's noise-free messages give the image back, DP-RECAL's noise does not.",
}
