package logistic

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about the binary linear model (objective.Words).
var words = objective.Words{
	Curve: "the error plot is the model's learning curve: the distance to the centrally solved x* and the agents' disagreement",
	Symbols: []glossary.Term{
		{Symbol: "a, b", Meaning: "A sample's features a and its label b ∈ {−1, +1}."},
		{Symbol: "x", Meaning: "The model's weights, one per feature."},
		{Symbol: "λ", Meaning: "The weight of the ℓ2 term (λ/2)‖x‖² in every agent's loss."},
		{Symbol: "r, r_l1, r_l2", Meaning: "DP-RECAL's elastic net r(x) = r_l1·‖x‖₁ + (r_l2/2)‖x‖², added n times to Σ_i f_i."},
		{Symbol: "x*", Meaning: "The minimiser, solved centrally to machine precision."},
		{Symbol: "relative error", Meaning: "‖x̄ − x*‖/‖x*‖ of the agents' mean estimate, or of the shared estimate x when the algorithm has one (DP-RECAL's baton)."},
		{Symbol: "test accuracy", Meaning: "The fraction of the test split the agents' mean model labels right, evaluated every record.eval_every iterations."},
	},
	Papers: []string{"ldp-online", "dp-recal"},
}
