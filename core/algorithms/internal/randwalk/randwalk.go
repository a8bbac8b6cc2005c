// Package randwalk holds what the algorithms that pass one token along a
// random walk on the graph (DP-RECAL's baton, DP-RWADMM's token) share:
// the walk's transition matrix P, read from the scenario's weights, a
// walk pinned in algorithm.draws.walk, the walk itself, and its replay
// for the accountants' predictions and for replay exports.
package randwalk

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/weights"
)

// CheckGraph refuses a directed or a disconnected graph: the walk moves
// along undirected edges and must reach every agent. title names the
// algorithm in the error.
func CheckGraph(g *graph.Graph, title string) error {
	if g.Directed {
		return check.Errorf("graph.directed", "%s's walk moves along undirected links: it needs an undirected graph", title)
	}
	if !g.Connected() {
		return check.Errorf("graph", "%s's walk needs a connected graph", title)
	}
	return nil
}

// Transition is the walk's transition matrix P on a graph: from agent i
// the token moves to a neighbour j with probability
//
//	P_ij = |w_ij| / Σ_{k ∈ N_i} |w_ik|
//
// from the scenario's weight matrix W, its diagonal ignored (the walk has
// no self-loops: the paper's 0 < P_ij < 1 on the links, P_ii = 0). The
// random-walk weights D⁻¹A give P_ij = 1/d_i, the DP-RECAL paper's
// P = I − D⁻¹L (Assumption 2); so do the Laplacian weights D − A, whose
// off-diagonal entries all have magnitude 1, and Metropolis weights on a
// regular graph. Metropolis weights on an irregular graph, or an explicit
// matrix, give another walk.
type Transition struct {
	g *graph.Graph
	// cum[i] holds the cumulative probabilities over g.Neighbors(i); nil
	// when P's row i is uniform (P_ij = 1/d_i), which is drawn as an
	// index among the neighbours, as before P could be given.
	cum [][]float64
}

// Uniform returns the paper's walk on g: P_ij = 1/d_i.
func Uniform(g *graph.Graph) *Transition {
	return &Transition{g: g, cum: make([][]float64, g.N)}
}

// NewTransition reads P from w on g (field names the weights in errors).
// Every agent must give some neighbour a nonzero weight, and P must reach
// every agent from every other (an irreducible chain): a weight matrix
// that cuts the graph would leave agents the token never visits.
func NewTransition(g *graph.Graph, w *weights.Matrix, field string) (*Transition, error) {
	p := &Transition{g: g, cum: make([][]float64, g.N)}
	for i := range g.N {
		nb := g.Neighbors(i)
		mag := make([]float64, len(nb))
		sum := 0.0
		for k, j := range nb {
			mag[k] = math.Abs(w.At(i, j))
			sum += mag[k]
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, check.Errorf(field, "the walk moves from agent %d to a neighbour j with probability |w_%dj| / Σ_k |w_%dk|: row %d of the weights gives its neighbours %v no finite nonzero weight", i, i, i, i, nb)
		}
		uniform := true
		for _, m := range mag {
			uniform = uniform && m == mag[0]
		}
		if uniform {
			continue
		}
		c := make([]float64, len(nb))
		acc := 0.0
		for k, m := range mag {
			acc += m / sum
			c[k] = acc
		}
		p.cum[i] = c
	}
	if i, j, ok := p.unreachable(); !ok {
		return nil, check.Errorf(field, "the walk P_ij ∝ |w_ij| never reaches agent %d from agent %d (the weights give the links between them probability 0): the token must visit every agent", j, i)
	}
	return p, nil
}

// FromEnv returns the walk's P from the scenario's weights (field
// "weights"), or the paper's uniform P when the environment has none (a
// walk built outside a scenario, core/attack).
func FromEnv(env *method.Env) (*Transition, error) {
	if env.Weights == nil {
		return Uniform(env.Graph), nil
	}
	return NewTransition(env.Graph, env.Weights, "weights")
}

// Prob returns P_ij.
func (p *Transition) Prob(i, j int) float64 {
	nb := p.g.Neighbors(i)
	for k, v := range nb {
		if v != j {
			continue
		}
		c := p.cum[i]
		if c == nil {
			return 1 / float64(len(nb))
		}
		if k == 0 {
			return c[0]
		}
		return c[k] - c[k-1]
	}
	return 0
}

// Graph returns the graph P walks on.
func (p *Transition) Graph() *graph.Graph { return p.g }

// unreachable returns an agent j that the walk from i never reaches, and
// false, when P is not irreducible.
func (p *Transition) unreachable() (int, int, bool) {
	n := p.g.N
	reach := func(from int, step func(i int, f func(j int))) []bool {
		seen := make([]bool, n)
		seen[from] = true
		stack := []int{from}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			step(i, func(j int) {
				if !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			})
		}
		return seen
	}
	fwd := reach(0, func(i int, f func(int)) {
		for _, j := range p.g.Neighbors(i) {
			if p.Prob(i, j) > 0 {
				f(j)
			}
		}
	})
	back := reach(0, func(j int, f func(int)) {
		for _, i := range p.g.Neighbors(j) {
			if p.Prob(i, j) > 0 {
				f(i)
			}
		}
	})
	for j := range n {
		if !fwd[j] {
			return 0, j, false
		}
		if !back[j] {
			return j, 0, false
		}
	}
	return 0, 0, true
}

// Field is the scenario field of a pinned walk.
const Field = "algorithm.draws.walk"

// CheckPinned checks a pinned walk against P and a run of iterations
// iterations: agents of 0..n−1, each one P can move to from the one
// before, and enough of them to cover the run — i_0, the first holder,
// and the agent each of the iterations passes the token to, so
// iterations + 1 agents (a walk of iterations steps). A pinned walk is
// used as given, never cycled, so it need not close.
func CheckPinned(w []float64, iterations int, p *Transition) error {
	n := p.g.N
	for k, v := range w {
		if v < 0 || int(v) >= n {
			return check.Errorf(check.Index(Field, k), "must be an agent of 0..%d (got %v)", n-1, v)
		}
	}
	if need := iterations + 1; len(w) < need {
		return check.Errorf(Field, "lists %d agents, a walk of %d steps; the run's %d iterations pass the token %d times, so the walk needs %d agents (the first holder and each next one), used as given",
			len(w), len(w)-1, iterations, iterations, need)
	}
	for k := 1; k < len(w); k++ {
		i, j := int(w[k-1]), int(w[k])
		switch {
		case !p.g.HasLink(i, j):
			return check.Errorf(check.Index(Field, k), "agent %d is not a neighbour of agent %d before it (the walk moves along links)", j, i)
		case p.Prob(i, j) == 0:
			return check.Errorf(check.Index(Field, k), "the weights give the move from agent %d to agent %d probability 0", i, j)
		}
	}
	return nil
}

// Draw declares a walk an algorithm draws (method.Factory.Draws) under
// the name "walk": whose walk it is (the baton, the token) in what.
func Draw(what string) method.Draw {
	return method.Draw{Name: "walk", Whole: true, Min: 0, Max: 1e7,
		Description: "the agents " + what + " visits, i_1, i_2, …: each a neighbour of the one before, iterations + 1 of them at least (the first holder and each next one), used as given",
		Replay: func(env *method.Env, src *method.Source, iterations int) []float64 {
			tr, err := FromEnv(env)
			if err != nil {
				panic("randwalk: the weights were accepted at build: " + err.Error())
			}
			return Agents(src, tr, iterations)
		}}
}

// HolderDraws is a walk algorithm's noise draws per iteration
// (method.Channel.PerIteration): the holder alone noises one vector.
func HolderDraws(_, dim int) int { return dim }

// Walk draws a walk on P from src: the first agent uniformly and then a
// neighbour of each with P's probabilities, or, when src is pinned, the
// pinned agents in turn.
type Walk struct {
	src *method.Source
	p   *Transition
}

// New returns the walk on P that src draws.
func New(src *method.Source, p *Transition) Walk { return Walk{src: src, p: p} }

// First draws the first agent.
func (w Walk) First() int {
	if w.src.Pinned() {
		return int(w.src.Float64())
	}
	return w.src.IntN(w.p.g.N)
}

// Next draws the agent after i: a uniform row takes one index among the
// neighbours (IntN), any other row one uniform draw u in [0, 1) and the
// first neighbour whose cumulative probability exceeds u.
func (w Walk) Next(i int) int {
	if w.src.Pinned() {
		return int(w.src.Float64())
	}
	nb := w.p.g.Neighbors(i)
	c := w.p.cum[i]
	if c == nil {
		return nb[w.src.IntN(len(nb))]
	}
	u := w.src.Float64()
	for k, v := range c {
		if u < v {
			return nb[k]
		}
	}
	// Rounding left the last cumulative sum below 1 and u above it: the
	// last neighbour with a positive probability.
	for k := len(c) - 1; k > 0; k-- {
		if c[k] > c[k-1] {
			return nb[k]
		}
	}
	return nb[0]
}

// Agents returns the first k+1 agents of a walk replayed from src's
// start: i_0 and the agent each of k iterations passes the token to, the
// form algorithm.draws.walk pins (a replay export writes it).
func Agents(src *method.Source, p *Transition, k int) []float64 {
	w := New(src, p)
	out := make([]float64, 0, k+1)
	h := w.First()
	out = append(out, float64(h))
	for range k {
		h = w.Next(h)
		out = append(out, float64(h))
	}
	return out
}

// Visits counts each agent's visits in the first k steps of a walk
// replayed from its start: the activations of an algorithm whose holder
// alone computes and publishes, which its accountant predicts before a
// run. The walk's draws come from the algorithm's own stream (or the
// pinned sequence), which neither the data nor the noise touch, so the
// replay is what the run will do. A prediction past the end of a pinned
// walk reads it again from its start.
type Visits struct {
	replay func() *method.Source
	p      *Transition
	// counts caches the replayed counts by horizon: a calibration asks
	// for the same horizon many times.
	counts map[int][]int
}

// NewVisits returns the visit counter of the walk on P whose source
// replay returns afresh from its start (method.Env.Replay).
func NewVisits(replay func() *method.Source, p *Transition) *Visits {
	return &Visits{replay: replay, p: p, counts: map[int][]int{}}
}

// After returns how many of the first k steps visit agent i.
func (v *Visits) After(i, k int) int {
	c, ok := v.counts[k]
	if !ok {
		c = make([]int, v.p.g.N)
		w := New(v.replay(), v.p)
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
