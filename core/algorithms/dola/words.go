package dola

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DOLA (method.Words).
var words = method.Words{
	Authors:    "Li, Zhou, Xiong, Wang & Wang",
	BaselineOf: []string{"ldp-online"},
	Messages: "Every agent releases w_i + σ_i, its model with Laplace noise of scale μ_t, to each neighbour, " +
		"who averages the copies and takes its gradient step at the average: one lane per link.",
	Symbols: append(online.PlainSymbols(),
		glossary.Term{Symbol: "w_i", Meaning: "Agent i's model, released as w_i + σ_i."},
		glossary.Term{Symbol: "σ, μ_t", Meaning: "The Laplace noise on the released model and its scale at time t, decaying like the step."},
		glossary.Term{Symbol: "W", Meaning: "The ball the models are projected on (when a radius is given)."},
	),
	Assumptions: []method.Assumption{
		online.NoiseAtStepRate("baselines.md §7.2", "sigma", func(params any) float64 { return params.(*Params).Power }),
		online.StableMixing("baselines.md §7.0"),
	},
}
