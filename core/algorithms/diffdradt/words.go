package diffdradt

import (
	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/weights"
)

// words is what the page says about diff-DRADT (method.Words).
var words = method.Words{
	Authors:    "Ding, Zhu, Chen, Xu & Guan",
	BaselineOf: []string{"dp-dgt"},
	Messages: "Every agent sends its deviation tracker y_i + ξ_i (the direction) and its price λ̃_i + ζ_i (the state) to its neighbours, " +
		"both with Laplace noise: two lanes per link.",
	Symbols: []glossary.Term{
		{Symbol: "w_i", Meaning: "Agent i's allocation (the generator's output)."},
		{Symbol: "y_i", Meaning: "Agent i's deviation tracker: its estimate of the supply–demand gap, sent as y_i + ξ_i."},
		{Symbol: "λ̃_i", Meaning: "Agent i's price, sent as λ̃_i + ζ_i."},
		{Symbol: "α", Meaning: "The constant step of the price update."},
		{Symbol: "ξ, ζ", Meaning: "The Laplace noise on the direction and on the state."},
	},
	Assumptions: []method.Assumption{
		method.Assume("an undirected graph with a doubly stochastic W", "Ding et al. 2021 (reconstructed)", func(env *method.Env, _ any) method.Verdict {
			if env.Graph.Directed {
				return method.Fail("the graph is directed: the trackers do not follow the supply–demand gap")
			}
			for _, f := range env.Report.Findings {
				if f.Name == weights.FindDoublyStochastic && !f.Holds {
					return method.Fail("W is not doubly stochastic: " + f.Detail)
				}
			}
			return method.Hold("undirected, W doubly stochastic")
		}),
		method.SummableNoise("the noise decays summably", "Ding et al. 2021 (reconstructed)"),
	},
}
