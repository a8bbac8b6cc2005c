package dpextra

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DP-EXTRA (method.Words).
var words = method.Words{
	Authors:    "Shi, Ling, Wu & Yin (PG-EXTRA)",
	BaselineOf: []string{"dp-recal"},
	Messages: "Every agent publishes x̃_i = x_i + ν_i, its estimate with Gaussian noise, to its neighbours, " +
		"who mix it by W into PG-EXTRA's corrected update: one lane per link.",
	Symbols: append(zcdpgauss.Symbols(),
		glossary.Term{Symbol: "x_i, x̃_i", Meaning: "Agent i's estimate and what it publishes, x̃_i = x_i + ν_i."},
		glossary.Term{Symbol: "W, W̃", Meaning: "The doubly stochastic mixing matrix and PG-EXTRA's W̃ = (I + W)/2, which corrects the step so that it converges exactly."},
		glossary.Term{Symbol: "α, L", Meaning: "The constant step and the largest smoothness constant L_i: PG-EXTRA needs α < (1 + λ_min(W))/L."},
	),
	Assumptions: []method.Assumption{
		method.StepBelow("α < (1 + λ_min(W))/L", "PG-EXTRA (Shi et al. 2015)", func(env *method.Env, params any) (float64, float64, bool) {
			a, l, ok := zcdpgauss.StepOr(env, params.(*Params).Alpha)
			return a, (1 + env.Report.EigenMin) / l, ok && env.Report.HasEigenRange
		}),
		method.Attenuated("baselines.md §6.1", func(params any) float64 { return params.(*Params).Attenuation }),
		zcdpgauss.BoundedGradients(func(params any) float64 { return params.(*Params).GradientBound }),
	},
}
