package dpop

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Huang, Mitra and Vaidya's adjacent problems differ in one f_i, both with ‖∇f_i‖₂ ≤ C on X.
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentBounded, Bound: a.p.GradientBound}
}
