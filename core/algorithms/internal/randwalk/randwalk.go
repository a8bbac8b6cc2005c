// Package randwalk holds what the algorithms that pass one token along a
// random walk on the graph (DP-RECAL's baton, DP-RWADMM's token) check
// alike: the graph the walk P = I − D⁻¹L needs, and a walk pinned in
// algorithm.draws.walk.
package randwalk

import (
	"dpsim/core/check"
	"dpsim/core/graph"
)

// CheckGraph refuses a directed or a disconnected graph: the walk moves
// along undirected edges and must reach every agent. title names the
// algorithm in the error.
func CheckGraph(g *graph.Graph, title string) error {
	if g.Directed {
		return check.Errorf("graph.directed", "%s's walk P = I − D⁻¹L needs an undirected graph", title)
	}
	if !g.Connected() {
		return check.Errorf("graph", "%s's walk needs a connected graph", title)
	}
	return nil
}

// CheckPinned checks that a pinned walk visits agents of 0..n−1, each a
// neighbour of the one before, the last a neighbour of the first (the
// values are cycled).
func CheckPinned(w []float64, n int, link func(i, j int) bool) error {
	const f = "algorithm.draws.walk"
	if len(w) < 2 {
		return check.Errorf(f, "must list at least two agents (the walk has no self-loops and the values are cycled), got %d", len(w))
	}
	for k, v := range w {
		if v < 0 || int(v) >= n {
			return check.Errorf(check.Index(f, k), "must be an agent of 0..%d (got %v)", n-1, v)
		}
	}
	for k := range w {
		i, j := int(w[k]), int(w[(k+1)%len(w)])
		if !link(i, j) {
			return check.Errorf(check.Index(f, (k+1)%len(w)), "agent %d is not a neighbour of agent %d before it (the walk moves along edges; the values are cycled)", j, i)
		}
	}
	return nil
}
