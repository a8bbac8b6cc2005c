package dmod

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DMOD (method.Words).
var words = method.Words{
	Authors:    "Yuan, Lei & Hong",
	BaselineOf: []string{"ldp-online"},
	Messages: "Every agent releases x_i + η_i, its estimate with Laplace noise of scale μ_t, to each neighbour, " +
		"who averages the copies before its mirror-descent step: one lane per link.",
	Symbols: append(online.PlainSymbols(),
		glossary.Term{Symbol: "x_i", Meaning: "Agent i's estimate, released as x_i + η_i."},
		glossary.Term{Symbol: "η, μ_t", Meaning: "The Laplace noise on the released estimate and its scale at time t, decaying like the step."},
		glossary.Term{Symbol: "y_i", Meaning: "The average Σ_j a_ij·(x_j + η_j) agent i's mirror step starts from."},
		glossary.Term{Symbol: "X", Meaning: "The ball the iterates are projected on (when a radius is given)."},
	),
	Assumptions: []method.Assumption{
		online.NoiseAtStepRate("baselines.md §7.4", "eta", func(params any) float64 { return params.(*Params).Power }),
		online.StableMixing("baselines.md §7.0"),
	},
}
