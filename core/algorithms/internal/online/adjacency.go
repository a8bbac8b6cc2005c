package online

import "dpsim/core/objective"

// Adjacency implements method.Adjacent for the online baselines (LDOL,
// DOLA, DMOD; DSGD adds no noise): adjacent streams differ in one sample
// of one agent's stream, replaced.
func (e *Engine) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentSample}
}
