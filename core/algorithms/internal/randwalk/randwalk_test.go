package randwalk

import (
	"strings"
	"testing"

	"dpsim/core/graph"
)

// A walk needs an undirected connected graph, and a pinned walk is agents
// of the graph, each a neighbour of the one before, cyclically; every
// refusal names the field and, for a walk value, its index.
func TestChecks(t *testing.T) {
	ring, err := graph.Ring(4)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := graph.New(3, []graph.Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 0}}, true)
	split, _ := graph.New(4, []graph.Edge{{From: 0, To: 1}, {From: 2, To: 3}}, false)
	for _, c := range []struct {
		g    *graph.Graph
		want string
	}{{ring, ""}, {dir, "graph.directed: X's walk"}, {split, "graph: X's walk needs a connected graph"}} {
		err := CheckGraph(c.g, "X")
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckGraph: %v, want %q", err, c.want)
		}
	}
	for _, c := range []struct {
		w    []float64
		want string
	}{
		{[]float64{0, 1, 2, 3}, ""},
		{[]float64{0, 1}, ""},
		{[]float64{2}, "algorithm.draws.walk: must list at least two agents"},
		{[]float64{0, 1, 4}, "algorithm.draws.walk[2]: must be an agent of 0..3 (got 4)"},
		{[]float64{0, -1}, "algorithm.draws.walk[1]: must be an agent"},
		{[]float64{0, 2, 3}, "algorithm.draws.walk[1]: agent 2 is not a neighbour of agent 0"},
		{[]float64{0, 1, 2}, "algorithm.draws.walk[0]: agent 0 is not a neighbour of agent 2"},
	} {
		err := CheckPinned(c.w, ring.N, ring.HasLink)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckPinned(%v): %v, want %q", c.w, err, c.want)
		}
	}
}
