package softmax

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about the softmax regression (objective.Words).
var words = objective.Words{
	Curve: "the error plot is the model's learning curve: the distance to the centrally solved W* and the agents' disagreement",
	Symbols: []glossary.Term{
		{Symbol: "W", Meaning: "The model's weights: one row of feature weights per class."},
		{Symbol: "λ", Meaning: "The weight of the ℓ2 term (λ/2)‖W‖² in every agent's loss."},
		{Symbol: "W*", Meaning: "The minimiser, solved centrally."},
		{Symbol: "test accuracy", Meaning: "The fraction of the test split the agents' mean model labels right, evaluated every record.eval_every iterations."},
	},
	Papers: []string{"ldp-online"},
}
