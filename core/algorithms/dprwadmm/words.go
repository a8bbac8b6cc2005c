package dprwadmm

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-RWADMM (method.Words).
var words = method.Words{
	Authors:    "Shah & Avrachenkov (RWADMM)",
	BaselineOf: []string{"dp-recal"},
	Messages: "One token x̄ walks the network: its holder updates its own y_i and z_i, then passes x̄ + ν, with Gaussian noise, " +
		"to the next agent on the walk — one message per iteration.",
	Symbols: append(zcdpgauss.Symbols(),
		glossary.Term{Symbol: "x̄", Meaning: "The token: the running average (1/n)Σ_j (y_j − z_j) the holder passes on, noise included."},
		glossary.Term{Symbol: "x", Meaning: "The estimate prox_{αr}(x̄), computed by the holder from the token."},
		glossary.Term{Symbol: "y_i, z_i", Meaning: "Agent i's local primal and dual variables (Walkman's form); they never leave it."},
		glossary.Term{Symbol: "τ", Meaning: "How many times the holder has been activated so far: its noise variance is σ_1²·R^(−(τ−1))."},
		glossary.Term{Symbol: "α, L", Meaning: "The step of the linearized Walkman update, well below 1/L (α = 1/L diverges on the test problems)."},
	),
	Assumptions: []method.Assumption{
		method.StepBelow("α < 1/L", "baselines.md §6.5", func(env *method.Env, params any) (float64, float64, bool) {
			_, l, ok := method.Smoothness(env)
			a := params.(*Params).Alpha
			if a == 0 {
				a = 1 / (4 * l)
			}
			return a, 1 / l, ok
		}),
		method.Attenuated("baselines.md §6.5", func(params any) float64 { return params.(*Params).Attenuation }),
		zcdpgauss.BoundedGradients(func(params any) float64 { return params.(*Params).GradientBound }),
	},
}
