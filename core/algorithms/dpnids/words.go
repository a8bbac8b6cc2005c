package dpnids

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-NIDS (method.Words).
var words = method.Words{
	Authors:    "Li, Shi & Yan (NIDS)",
	BaselineOf: []string{"dp-recal"},
	Messages: "Every agent publishes x̄_i + ν_i, its NIDS intermediate point with Gaussian noise, to its neighbours, " +
		"who mix it by W: one lane per link, nothing sent at the first iteration.",
	Symbols: append(zcdpgauss.Symbols(),
		glossary.Term{Symbol: "x̄_i", Meaning: "NIDS's intermediate point 2x^k − x^(k−1) − α(∇f(x^k) − ∇f(x^(k−1))) of agent i, which it publishes with noise."},
		glossary.Term{Symbol: "z_i", Meaning: "Agent i's NIDS state, of which x_i is the proximal image."},
		glossary.Term{Symbol: "α, L", Meaning: "The constant step and the largest smoothness constant L_i: NIDS needs α < 2/L, whatever the network."},
	),
	Assumptions: []method.Assumption{
		method.StepBelow("α < 2/L", "NIDS (Li, Shi & Yan 2019), Theorem 1", func(env *method.Env, params any) (float64, float64, bool) {
			a, l, ok := zcdpgauss.StepOr(env, params.(*Params).Alpha)
			return a, 2 / l, ok
		}),
		method.Attenuated("baselines.md §6.2", func(params any) float64 { return params.(*Params).Attenuation }),
		zcdpgauss.BoundedGradients(func(params any) float64 { return params.(*Params).GradientBound }),
	},
}
