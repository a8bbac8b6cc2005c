package dsgd

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// words is what the page says about DSGD (method.Words).
var words = method.Words{
	Authors:    "Pu, Olshevsky & Paschalidis",
	BaselineOf: []string{"ldp-online"},
	Messages: "Every agent sends its estimate x_i to each neighbour, weighted by a_ij, without noise: " +
		"the reference that shows what the privacy noise of the others costs.",
	Symbols: append(online.PlainSymbols(),
		glossary.Term{Symbol: "x_i", Meaning: "Agent i's estimate, sent as it is."},
	),
	Assumptions: []method.Assumption{
		method.Assume("no noise (the reference run)", "baselines.md §2.5", func(env *method.Env, _ any) method.Verdict {
			if env.NoiseOff() {
				return method.Hold("no noise")
			}
			return method.Fail("noise was added to the channel x: this is no longer the noise-free reference")
		}),
		online.StableMixing("baselines.md §7.0"),
	},
}
