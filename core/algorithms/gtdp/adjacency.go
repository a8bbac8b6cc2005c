package gtdp

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Theorem 2's adjacent problems
// differ in one f_i, both with ‖∇f_i‖₂ ≤ C (Assumption 2).
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentBounded, Bound: a.p.GradientBound}
}
