package recal

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Lemma 5's adjacent datasets of one agent differ in one record (every ‖∇f_i‖ ≤ c).
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentRecord}
}
