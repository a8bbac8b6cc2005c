package online

import (
	"fmt"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/noise"
)

// PlainSymbols are the glossary entries of the plain online baselines
// (DOLA, DMOD, DSGD): the step, the stream and the mixing. Each adds
// its own.
func PlainSymbols() []glossary.Term {
	return []glossary.Term{
		{Symbol: "α_t", Meaning: "The step size at time t, α_0/(t+1)^a."},
		{Symbol: "α_0, a", Meaning: "The step's scale and decay power."},
		{Symbol: "N^i", Meaning: "The new samples agent i receives from its stream every iteration."},
		{Symbol: "a_ij", Meaning: "The mixing weights (A = I + W for the LDP online paper's Laplacian-type W)."},
	}
}

// NoiseAtStepRate is the plain baselines' hypothesis that their noise
// decays at the rate of the step α_t = α_0/(t+1)^a: power reads a.
func NoiseAtStepRate(source, channel string, power func(params any) float64) method.Assumption {
	return method.Assume("the noise decays like the step α_t", source, func(env *method.Env, params any) method.Verdict {
		sp, a := env.Noise[channel], power(params)
		if sp == nil || sp.IsOff() {
			return method.Hold("no noise")
		}
		for i := range env.Problem.Agents() {
			if d := sp.DecayOf(i); d.Kind != noise.Polynomial || d.P != a {
				return method.Fail(fmt.Sprintf("agent %d's noise decays as %v, the step as 1/(t+1)^%g", i, d, a))
			}
		}
		return method.Hold(fmt.Sprintf("both as 1/(t+1)^%g", a))
	})
}
