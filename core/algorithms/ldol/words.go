package ldol

import (
	"fmt"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/noise"
)

// words is what the page says about LDOL (method.Words).
var words = method.Words{
	Authors:    "Chen & Wang (TAC 2025)",
	BaselineOf: []string{"ldp-online"},
	Messages: "Every agent publishes y_i = θ_i + ϑ̌_i, its model with Laplace noise that grows as ν̌_0^i·(t+1)^(ς^i), to each neighbour; " +
		"a weakening factor γ_t shrinks what it takes from them: one lane per link.",
	Symbols: []glossary.Term{
		{Symbol: "θ_i", Meaning: "Agent i's model."},
		{Symbol: "y_i", Meaning: "What agent i publishes: θ_i + ϑ̌_i."},
		{Symbol: "ϑ̌_i, ν̌_0^i", Meaning: "The Laplace noise on the published model and its scale at t = 0; the scale grows as (t+1)^(ς^i)."},
		{Symbol: "ς^i", Meaning: "Agent i's noise growth power."},
		{Symbol: "γ_t", Meaning: "The weakening factor γ_0/(t+1)^u that shrinks the neighbours' (ever noisier) influence."},
		{Symbol: "λ̌_t", Meaning: "The step size λ̌_0/(t+1)^v."},
		{Symbol: "u, v", Meaning: "The decay powers of the weakening factor and of the step: eq. (17) needs v > u > max_i ς^i + ½."},
		{Symbol: "d", Meaning: "The ℓ1 bound on every per-sample gradient: the ledger's sensitivity."},
		{Symbol: "Θ", Meaning: "The ball the models are projected on (when a radius is given)."},
	},
	Assumptions: []method.Assumption{
		method.Assume("v > u > max_i ς^i + ½", "eq. (17)", func(env *method.Env, params any) method.Verdict {
			p := params.(*Params)
			th, vs := env.Noise["theta"], 0.0
			for i := range env.Problem.Agents() {
				if dec := th.DecayOf(i); dec.Kind == noise.Polynomial {
					vs = max(vs, -dec.P)
				}
			}
			if p.V > p.U && p.U > vs+0.5 {
				return method.Hold(fmt.Sprintf("v = %g > u = %g > %g", p.V, p.U, vs+0.5))
			}
			return method.Fail(fmt.Sprintf("v = %g, u = %g, max ς^i + ½ = %g", p.V, p.U, vs+0.5))
		}),
		online.StableMixing("Assumption 3 of the LDP online paper"),
	},
}
