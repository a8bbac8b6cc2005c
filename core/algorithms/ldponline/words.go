package ldponline

import (
	"fmt"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/noise"
)

// words is what the page says about LDP online (method.Words).
var words = method.Words{
	Authors: "Chen & Wang",
	Messages: "Every agent publishes one noisy estimate y_i = θ_i + ϑ_i to each neighbour, weighted by w_ij: " +
		"ϑ_i is Laplace noise of scale ν_0^i/(1+t)^(ς^i), decaying at a rate of the agent's own.",
	Symbols: []glossary.Term{
		{Symbol: "θ_i", Meaning: "Agent i's model (estimate) at time t."},
		{Symbol: "y_i", Meaning: "What agent i publishes: θ_i + ϑ_i, its model with Laplace noise (local differential privacy: the noise is added before anything leaves the agent)."},
		{Symbol: "ϑ_i", Meaning: "The Laplace noise on agent i's published model."},
		{Symbol: "ν_0^i, ς^i", Meaning: "Agent i's noise scale at t = 0 and its decay power: the scale is ν_0^i/(1+t)^(ς^i); the paper uses ς^i = 0.5 + 0.01·i."},
		{Symbol: "λ_t", Meaning: "The step size at time t, λ_0/(t+1)^v."},
		{Symbol: "λ_0, v", Meaning: "The step's scale and decay power; the theory needs ½ < v < 1 and v > max_i ς^i."},
		{Symbol: "N^i", Meaning: "The new samples agent i receives from its stream every iteration (the batch)."},
		{Symbol: "d", Meaning: "The ℓ1 bound on every per-sample gradient (A5): the sensitivity of Theorem 5's budget."},
		{Symbol: "w_ij, δ_m", Meaning: "W's entries (w_ii = −Σ_j w_ij, a Laplacian-type matrix) and its smallest eigenvalue δ_m (Assumption 3: −1 < δ_m)."},
		{Symbol: "T", Meaning: "The horizon: Theorem 5's budget is for T iterations, per agent."},
	},
	Assumptions: []method.Assumption{
		method.Assume("½ < v < 1", "Algorithm 1", func(_ *method.Env, params any) method.Verdict {
			v := params.(*Params).V
			if v > 0.5 && v < 1 {
				return method.Hold(fmt.Sprintf("v = %g", v))
			}
			return method.Fail(fmt.Sprintf("v = %g", v))
		}),
		method.Assume("noise 1/(1+t)^ς^i with ½ < ς^i < v", "Assumption 4, (11)", func(env *method.Env, params any) method.Verdict {
			th, v := env.Noise["theta"], params.(*Params).V
			if th.IsOff() {
				return method.Hold("no noise")
			}
			for i := range env.Problem.Agents() {
				dec := th.DecayOf(i)
				if dec.Kind != noise.Polynomial || dec.M != 1 || !(dec.P > 0.5 && dec.P < 1) || !(dec.P < v) {
					return method.Fail(fmt.Sprintf("agent %d's decay is %v", i, dec))
				}
			}
			return method.Hold(fmt.Sprintf("every ς^i in (½, %g)", v))
		}),
		method.Assume("‖per-sample gradient‖₁ ≤ d", "A5 (Theorem 5's ε)", func(env *method.Env, params any) method.Verdict {
			p := params.(*Params)
			if p.Clip {
				return method.Hold(fmt.Sprintf("gradients are clipped to ℓ1 norm %g", p.GradientBound))
			}
			return method.Unsure(fmt.Sprintf("d = %g is taken as given, not enforced", p.GradientBound))
		}),
		online.StableMixing("Assumption 3"),
	},
}
