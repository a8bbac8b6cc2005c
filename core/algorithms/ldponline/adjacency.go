package ldponline

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Definition 1's adjacent streams differ in one sample of the agent's own stream.
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentSample}
}
