package dispatch

import (
	"fmt"

	"dpsim/core/objective"
)

// Neighbour implements objective.Neighbouring for DP-DGT's δ-adjacency
// (its Definition 2: one cost F_i changes, with ‖∇F_i − ∇F′_i‖ ≤ δ on
// W_i): agent's cost gains the linear term δ·w, F′_i(w) = F_i(w) + δw, so
// its marginal cost moves by δ at every output — the largest change the
// adjacency allows — and its best response to every price p is its old
// one to p − δ. The demands and every other cost stay. A bus without a
// generator (W_i = {0}) has no cost to change, and the other adjacencies
// are not the dispatch's: both are refused.
func (p *Dispatch) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	if err := objective.CheckAgent(agent, p.n); err != nil {
		return objective.Neighbour{}, err
	}
	if adj.Kind != objective.AdjacentDistance {
		return objective.Neighbour{}, objective.NoNeighbour("dispatch", adj, "its agents' private data are their costs, compared under a bound on the change of the marginal cost (gradient-distance)")
	}
	if !p.gen[agent] {
		return objective.Neighbour{}, objective.NoNeighbour("dispatch", adj, fmt.Sprintf("agent %d (%s) has no generator: W_i = {0}, so its cost never influences what it sends", agent, p.name[agent]))
	}
	q := *p
	q.b = append([]float64(nil), p.b...)
	q.b[agent] += adj.Bound
	if err := q.solve(); err != nil {
		return objective.Neighbour{}, err
	}
	return objective.Neighbour{
		Problem: &q,
		Change:  fmt.Sprintf("agent %d's (%s) cost F_i(w) = a w² + b w + c gains δ·w: b from %.6g to %.6g, its marginal cost up by δ = %g", agent, p.name[agent], p.b[agent], q.b[agent], adj.Bound),
		Record:  -1,
	}, nil
}
