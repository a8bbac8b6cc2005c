package dispatch

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about economic dispatch (objective.Words).
var words = objective.Words{
	Picture: "total generation against demand (the gauge), each generator's output (bar) against its optimum (tick), and every bus's price converging to λ*",
	Nodes:   "squares are generator buses, labelled output / optimum*; discs are load buses, labelled with their demand",
	Curve:   "the error plot shows the paper's allocation error (optimality) and the disagreement of the buses' prices (consensus)",
	Symbols: []glossary.Term{
		{Symbol: "a_i, b_i, c_i", Meaning: "Generator i's cost a_i·w² + b_i·w + c_i (strongly convex, 2a_i)."},
		{Symbol: "w_i", Meaning: "Bus i's output; a load bus produces nothing."},
		{Symbol: "d_i", Meaning: "Bus i's local demand (MW)."},
		{Symbol: "Σd", Meaning: "The total demand the outputs must meet: Σ_i w_i = Σ_i d_i."},
		{Symbol: "w*", Meaning: "The optimal dispatch: the outputs that meet the demand at least total cost."},
		{Symbol: "λ*", Meaning: "The optimal price (the dual): at λ* every generator's best response is its optimal output."},
		{Symbol: "min, max", Meaning: "A generator's output range, in MW."},
	},
	Papers: []string{"dp-dgt"},
}
