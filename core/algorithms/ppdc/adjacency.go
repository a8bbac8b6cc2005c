package ppdc

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: the reconstructed ledger's adjacent f_i, f′_i both have ‖∇f‖₂ ≤ C.
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentBounded, Bound: a.p.GradientBound}
}
