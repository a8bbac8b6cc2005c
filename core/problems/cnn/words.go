package cnn

import (
	"dpsim/core/glossary"
	"dpsim/core/objective"
)

// words is what the page says about the CNN classifier (objective.Words).
var words = objective.Words{
	Curve: "the error plot is the network's learning curve: with no known optimum, how close the average gradient is to zero (stationarity), and the agents' disagreement",
	Symbols: []glossary.Term{
		{Symbol: "θ⁰, x", Meaning: "The network's initial weights θ⁰ and the agents' estimate x: the weights are θ = θ⁰ + x."},
		{Symbol: "λ", Meaning: "Weight decay (λ/2)‖θ‖² in every agent's loss."},
		{Symbol: "training loss", Meaning: "The cross-entropy on the training images of the agents' mean model, evaluated every record.eval_every iterations."},
		{Symbol: "test accuracy", Meaning: "The fraction of the test images the agents' mean model classifies right, evaluated every record.eval_every iterations."},
	},
	Papers: []string{"ldp-online"},
}
