package diadsp

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: the ledger's adjacency, GT-DP's
// bounded gradients (‖∇f_i‖₂ ≤ C) or DiaDSP's own affine one
// (f′_i = f_i + cᵀx, ‖c‖₂ ≤ δ: a gradient distance of δ).
func (a *Algorithm) Adjacency() objective.Adjacency {
	if a.p.Adjacency == Affine {
		return objective.Adjacency{Kind: objective.AdjacentDistance, Bound: a.p.Delta}
	}
	return objective.Adjacency{Kind: objective.AdjacentBounded, Bound: a.p.GradientBound}
}
