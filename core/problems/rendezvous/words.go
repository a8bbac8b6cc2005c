package rendezvous

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about the rendezvous (objective.Words).
var words = objective.Words{
	Picture: "each agent's private target ×, the optimum ★ (the targets' mean) and every agent's estimate ● with its recent trail",
	Curve:   "the error plot shows how far the estimates are from x* (optimality) and from each other (consensus)",
	Symbols: []glossary.Term{
		{Symbol: "a_i", Meaning: "Agent i's private target (a point): its objective is f_i(x) = ‖x − a_i‖², so its data is where it wants to meet."},
		{Symbol: "x*", Meaning: "The rendezvous point, the mean of the targets: it minimises Σ_i ‖x − a_i‖²."},
		{Symbol: "box", Meaning: "Random targets are drawn in [−box, box]^dim."},
		{Symbol: "R (domain)", Meaning: "The radius of the domain ‖x‖ ≤ R, when one is given: it makes the gradient bound C = 2(R + max‖a_i‖) hold there."},
	},
	Papers: []string{"gt-dp"},
}
