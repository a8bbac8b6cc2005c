package ridge

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about the ridge regression (objective.Words).
var words = objective.Words{
	Curve: "the error plot shows how far the estimates are from the ridge solution x* (optimality) and from each other (consensus)",
	Symbols: []glossary.Term{
		{Symbol: "u_i, v_i", Meaning: "Agent i's private features and output: its objective is (u_iᵀx − v_i)² + ρ‖x‖²."},
		{Symbol: "ρ", Meaning: "The ridge penalty (not the paper's spectral radius)."},
		{Symbol: "ζ_i", Meaning: "The output noise in v_i = u_iᵀx̃_i + ζ_i (the paper: standard deviation 25)."},
		{Symbol: "x*", Meaning: "The ridge solution, computed in closed form."},
	},
	Papers: []string{"gt-dp"},
}
