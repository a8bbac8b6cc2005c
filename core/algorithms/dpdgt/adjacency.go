package dpdgt

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: Definition 2's δ-adjacent problems differ in one cost F_i, with ‖∇F_i − ∇F′_i‖ ≤ δ on W_i.
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentDistance, Bound: a.p.Delta}
}
