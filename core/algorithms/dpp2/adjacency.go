package dpp2

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Theorem 3's δ-adjacency, sup_x ‖∇f_i(x) − ∇f′_i(x)‖₂ ≤ δ.
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentDistance, Bound: a.p.Delta}
}
