package nonconvex

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about DPP²'s classifier (objective.Words).
var words = objective.Words{
	Curve: "the error plot shows, for a nonconvex loss without a known optimum, how close the average gradient is to zero (stationarity) and the agents' disagreement",
	Symbols: []glossary.Term{
		{Symbol: "m, d", Meaning: "The samples per agent and the features per sample (the paper: 200 and 10)."},
		{Symbol: "z, b", Meaning: "A sample's features z ~ N(0, s²I) and its label b = ±1."},
		{Symbol: "λ, ω", Meaning: "The weight and the shape of the nonconvex regulariser λ·Σ_k ωx_k²/(1 + ωx_k²)."},
		{Symbol: "s", Meaning: "The features' spread (the paper's data are unstated; s ≈ 3.6 reproduces its M̄ ≈ 5.03)."},
		{Symbol: "M_i", Meaning: "The smoothness constant of agent i's loss, computed from its data."},
	},
	Papers: []string{"dpp2"},
}
