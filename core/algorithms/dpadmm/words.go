package dpadmm

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-ADMM (method.Words).
var words = method.Words{
	Authors:    "Zhang & Zhu",
	BaselineOf: []string{"dp-recal"},
	Messages: "Every agent publishes x̃_i = x_i + ν_i, its primal estimate with Gaussian noise, to its neighbours, " +
		"who use it in their ADMM dual and linearized primal updates: one lane per link.",
	Symbols: append(zcdpgauss.Symbols(),
		glossary.Term{Symbol: "x_i, x̃_i", Meaning: "Agent i's primal estimate and what it publishes, x̃_i = x_i + ν_i."},
		glossary.Term{Symbol: "λ_i", Meaning: "Agent i's dual variable for its consensus constraints; it never leaves the agent."},
		glossary.Term{Symbol: "τ", Meaning: "The proximal step of the linearized primal update (η_0 of the huang variant)."},
		glossary.Term{Symbol: "ρ", Meaning: "The ADMM penalty (not the zCDP ρ)."},
		glossary.Term{Symbol: "γ, η_k", Meaning: "The huang variant's decaying step η_k = τ·γ^k."},
		glossary.Term{Symbol: "d_i", Meaning: "Agent i's degree, in the sensitivity Δ = 2c/(1/τ + 2ρd_i)."},
	),
	Assumptions: []method.Assumption{
		method.Attenuated("baselines.md §6.3", func(params any) float64 { return params.(*Params).Attenuation }),
		method.Assume("a fixed step τ (zhang-zhu)", "baselines.md §6.3–6.4, G9", func(_ *method.Env, params any) method.Verdict {
			if v := params.(*Params).Variant; v == Huang {
				return method.Fail("decaying steps η_k = τγ^k: the iterates freeze once η_k is small, wherever they are")
			}
			return method.Hold("variant " + params.(*Params).Variant)
		}),
		zcdpgauss.BoundedGradients(func(params any) float64 { return params.(*Params).GradientBound }),
	},
}
