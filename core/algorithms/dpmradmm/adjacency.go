package dpmradmm

import "dpsim/core/objective"

// Adjacency implements method.Adjacent: its zCDP ledger's adjacent datasets differ in one record of one agent (every ‖∇f_i‖₂ ≤ c).
func (a *Algorithm) Adjacency() objective.Adjacency {
	return objective.Adjacency{Kind: objective.AdjacentRecord}
}
