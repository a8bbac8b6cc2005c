package dpmradmm

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-MRADMM (method.Words).
var words = method.Words{
	Authors:    "Zhang, Khalili & Liu",
	BaselineOf: []string{"dp-recal"},
	Messages: "At odd iterations every agent publishes x_i + ν_i, the result of an exact ADMM step, with Gaussian noise; " +
		"at even iterations it publishes the recycled, linearized step's x_i without new noise: one lane per link.",
	Symbols: append(zcdpgauss.Symbols(),
		glossary.Term{Symbol: "x_i, x̃_i", Meaning: "Agent i's primal estimate and what it publishes."},
		glossary.Term{Symbol: "λ_i", Meaning: "Agent i's dual variable; it never leaves the agent."},
		glossary.Term{Symbol: "g̃_i", Meaning: "The recycled gradient: an even iteration reuses the odd one's, so it costs no new privacy."},
		glossary.Term{Symbol: "ρ_m, κ", Meaning: "The ADMM penalty ρ_m = ρ_0·κ^(m−1) (κ = 1: fixed), which sets the sensitivity Δ = c/(ρ_m·d_i)."},
		glossary.Term{Symbol: "τ", Meaning: "The proximal step of the recycled (even) iterations."},
	),
	Assumptions: []method.Assumption{
		method.Attenuated("baselines.md §6.6", func(params any) float64 { return params.(*Params).Attenuation }),
		zcdpgauss.BoundedGradients(func(params any) float64 { return params.(*Params).GradientBound }),
	},
}
