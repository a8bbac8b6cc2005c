package ppdc

import (
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about PPDC (method.Words).
var words = method.Words{
	Authors:    "Xie, Yi, Wang, Cao & Ren",
	BaselineOf: []string{"dpp2"},
	Messages: "Every agent releases its primal x_i + ζ^x_i and, in the pi form, its dual v_i + ζ^v_i to each neighbour, " +
		"with Laplace noise decaying as r^k (no compression, as the double-privacy paper's Fig. 3 runs it).",
	Symbols: []glossary.Term{
		{Symbol: "x_i, v_i", Meaning: "Agent i's primal and dual variables."},
		{Symbol: "ζ^x, ζ^v", Meaning: "The Laplace noise on the released primal and dual."},
		{Symbol: "u_x, u_v, r", Meaning: "The noise scales at k = 0 and their geometric decay, u·r^k."},
		{Symbol: "γ", Meaning: "The consensus gain (Fig. 3 there: 65)."},
		{Symbol: "ω", Meaning: "The dual gain (Fig. 3 there: 5)."},
		{Symbol: "η", Meaning: "PPDC's step size (Fig. 3 there: 0.01)."},
		{Symbol: "L_ij", Meaning: "The Laplacian entries the pi form mixes the released duals with."},
		{Symbol: "C", Meaning: "The gradient bound of the reconstructed ledger."},
	},
	Assumptions: []method.Assumption{
		method.SummableNoise("r < 1: the noise decays geometrically", "Xie et al. 2025, by the DPP² paper's account"),
		method.BoundedGradients("‖∇f_i‖ ≤ C on every iterate", "the reconstructed ledger", false, func(params any) (float64, bool) {
			return params.(*Params).GradientBound, false
		}),
	},
}
