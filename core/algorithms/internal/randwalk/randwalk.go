// Package randwalk holds what the algorithms that pass one token along a
// random walk on the graph (DP-RECAL's baton, DP-RWADMM's token) share:
// the graph the walk P = I − D⁻¹L needs, a walk pinned in
// algorithm.draws.walk, the walk itself, and its replay for the
// accountants' predictions.
package randwalk

import (
	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/method"
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

// Walk draws a walk on g from src: the first agent uniformly and then a
// uniformly chosen neighbour of each (P = I − D⁻¹L), or, when src is
// pinned, the pinned agents in turn.
type Walk struct {
	src *method.Source
	g   *graph.Graph
}

// New returns the walk on g that src draws.
func New(src *method.Source, g *graph.Graph) Walk { return Walk{src: src, g: g} }

// First draws the first agent.
func (w Walk) First() int {
	if w.src.Pinned() {
		return int(w.src.Float64())
	}
	return w.src.IntN(w.g.N)
}

// Next draws the agent after i.
func (w Walk) Next(i int) int {
	if w.src.Pinned() {
		return int(w.src.Float64())
	}
	nb := w.g.Neighbors(i)
	return nb[w.src.IntN(len(nb))]
}

// Visits counts each agent's visits in the first k steps of a walk
// replayed from its start: the activations of an algorithm whose holder
// alone computes and publishes, which its accountant predicts before a
// run. The walk's draws come from the algorithm's own stream (or the
// pinned sequence), which neither the data nor the noise touch, so the
// replay is what the run will do.
type Visits struct {
	replay func() *method.Source
	g      *graph.Graph
	// counts caches the replayed counts by horizon: a calibration asks
	// for the same horizon many times.
	counts map[int][]int
}

// NewVisits returns the visit counter of the walk on g whose source
// replay returns afresh from its start (method.Env.Replay).
func NewVisits(replay func() *method.Source, g *graph.Graph) *Visits {
	return &Visits{replay: replay, g: g, counts: map[int][]int{}}
}

// After returns how many of the first k steps visit agent i.
func (v *Visits) After(i, k int) int {
	c, ok := v.counts[k]
	if !ok {
		c = make([]int, v.g.N)
		w := New(v.replay(), v.g)
		h := w.First()
		for range k {
			c[h]++
			h = w.Next(h)
		}
		if len(v.counts) > 8 {
			clear(v.counts)
		}
		v.counts[k] = c
	}
	return c[i]
}
