package ddgt

import (
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DDGT (method.Words).
var words = method.Words{
	Authors:    "Zhang, You & Cai",
	BaselineOf: []string{"dp-dgt"},
	Messages: "Every agent pushes C_li·(z_i + ξ_i), its gap tracker with the same Laplace noise as the dual gradient tracking it is compared with, to each out-neighbour l (filled packets), " +
		"and its out-neighbours pull its price w̃_i + ζ_i (hollow packets); DDGT claims no privacy for the noise.",
	Symbols: []glossary.Term{
		{Symbol: "w_i", Meaning: "Agent i's allocation (the generator's output)."},
		{Symbol: "z_i", Meaning: "Agent i's tracker of the supply–demand gap, pushed as z_i + ξ_i; its noise accumulates in Σ_i z_i."},
		{Symbol: "w̃_i", Meaning: "Agent i's price, pulled as w̃_i + ζ_i."},
		{Symbol: "β_k", Meaning: "The step of the price update (0.99^k in the DP-DGT paper's Fig. 5)."},
		{Symbol: "ι", Meaning: "The gain on the allocation's change in the z update."},
		{Symbol: "R, C", Meaning: "The pull matrix (row-stochastic) and the push matrix (column-stochastic)."},
		{Symbol: "ξ, ζ", Meaning: "DP-DGT's Laplace noise, added here only so that the two can be compared at the same noise."},
	},
	Assumptions: []method.Assumption{
		method.Assume("exact messages (DDGT's convergence has no noise)", "Zhang, You & Cai 2020", func(env *method.Env, _ any) method.Verdict {
			if env.NoiseOff() {
				return method.Hold("no noise")
			}
			return method.Fail("the noise on z accumulates in Σ_i z_i (the DP-DGT paper's eq. (11)): the allocations drift off the demand")
		}),
	},
}
