package randwalk

import (
	"math"
	"strings"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/rng"
	"dpsim/core/weights"
)

// A walk needs an undirected connected graph; a pinned walk is agents of
// the graph, each one P moves to from the one before, and covers the run
// (iterations + 1 agents), with no need to close; every refusal names
// the field and, for a walk value, its index.
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
	// Agent 0 gives its link to 3 no weight: P_03 = 0.
	cut, err := weights.FromEntries(4, []weights.Entry{{I: 0, J: 0, W: 0.5}, {I: 0, J: 1, W: 0.5},
		{I: 1, J: 0, W: 0.5}, {I: 1, J: 2, W: 0.5}, {I: 2, J: 1, W: 0.5}, {I: 2, J: 3, W: 0.5},
		{I: 3, J: 0, W: 0.5}, {I: 3, J: 2, W: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	pc, err := NewTransition(ring, cut, "weights")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p     *Transition
		w     []float64
		iters int
		want  string
	}{
		{Uniform(ring), []float64{0, 1, 2, 3, 0}, 4, ""},
		{Uniform(ring), []float64{0, 1, 2}, 2, ""}, // does not close: 2 is no neighbour of 0
		{Uniform(ring), []float64{0, 1, 0, 1, 2, 1}, 3, ""},
		{Uniform(ring), []float64{0, 1}, 2, "algorithm.draws.walk: lists 2 agents, a walk of 1 steps; the run's 2 iterations pass the token 2 times, so the walk needs 3 agents"},
		{Uniform(ring), []float64{0, 1, 4}, 2, "algorithm.draws.walk[2]: must be an agent of 0..3 (got 4)"},
		{Uniform(ring), []float64{0, -1}, 1, "algorithm.draws.walk[1]: must be an agent"},
		{Uniform(ring), []float64{0, 2, 3}, 2, "algorithm.draws.walk[1]: agent 2 is not a neighbour of agent 0"},
		{pc, []float64{0, 3, 2}, 2, "algorithm.draws.walk[1]: the weights give the move from agent 0 to agent 3 probability 0"},
		{pc, []float64{3, 0, 1}, 2, ""},
	} {
		err := CheckPinned(c.w, c.iters, c.p)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckPinned(%v, %d): %v, want %q", c.w, c.iters, err, c.want)
		}
	}
}

// P is read from the weights: uniform rows stay the paper's P = I − D⁻¹L
// (random-walk and Laplacian weights anywhere, Metropolis on a regular
// graph), other rows are |w_ij| normalised; weights that give an agent no
// way out, or cut the chain, are refused in one line.
func TestTransition(t *testing.T) {
	// A path 0–1–2–3 with a chord 1–3: degrees 1, 3, 2, 2.
	g, err := graph.New(4, []graph.Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3}, {From: 1, To: 3}}, false)
	if err != nil {
		t.Fatal(err)
	}
	rw, _ := weights.RandomWalk(g)
	lap, _ := weights.Laplacian(g)
	mh, _ := weights.Metropolis(g)
	for _, c := range []struct {
		name string
		w    *weights.Matrix
		p12  float64
	}{{"random-walk", rw, 1.0 / 3}, {"laplacian", lap, 1.0 / 3}, {"metropolis", mh, 0.25 / (0.25 + 0.25 + 0.25)}} {
		p, err := NewTransition(g, c.w, "weights")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.Prob(1, 2); math.Abs(got-c.p12) > 1e-15 {
			t.Errorf("%s: P_12 = %v, want %v", c.name, got, c.p12)
		}
		if got := p.Prob(0, 1); got != 1 {
			t.Errorf("%s: P_01 = %v, want 1 (agent 0's one neighbour)", c.name, got)
		}
	}
	// Metropolis on this graph: w_21 = 1/(1+3), w_23 = 1/(1+2), so P_21 = 3/7.
	p, _ := NewTransition(g, mh, "weights")
	if got := p.Prob(2, 1); math.Abs(got-3.0/7) > 1e-15 {
		t.Errorf("metropolis: P_21 = %v, want 3/7", got)
	}
	if p.cum[2] == nil || p.cum[1] != nil {
		t.Errorf("metropolis: row 2 should be drawn by P (it is not uniform) and row 1 as uniform (1/4 each)")
	}
	ring, _ := graph.Ring(4)
	lone, _ := weights.FromEntries(4, []weights.Entry{{I: 0, J: 0, W: 1}, {I: 1, J: 0, W: 1}, {I: 2, J: 1, W: 1}, {I: 3, J: 2, W: 1}})
	if _, err := NewTransition(ring, lone, "weights"); err == nil || !strings.Contains(err.Error(), "weights: the walk moves from agent 0 to a neighbour j with probability |w_0j| / Σ_k |w_0k|: row 0 of the weights gives its neighbours [1 3] no finite nonzero weight") {
		t.Errorf("a row without weight: %v", err)
	}
	oneWay, _ := weights.FromEntries(4, []weights.Entry{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 1, W: 1}, {I: 3, J: 2, W: 1}})
	if _, err := NewTransition(ring, oneWay, "weights"); err == nil || !strings.Contains(err.Error(), "never reaches agent") {
		t.Errorf("a chain that never returns to agent 0: %v", err)
	}
}

// A walk over a non-uniform P (the test's own weights on a complete graph
// of 5, w_ij = 1 + (i + 2j) mod 4) moves from every agent to each neighbour
// with P's probabilities: Pearson's chi-square over 10⁵ steps stays below
// its 0.1 % critical value (Wilson–Hilferty), while the same counts
// against the uniform P exceed it by far — so the test would catch a walk
// that ignored the weights.
func TestWalkFollowsP(t *testing.T) {
	g, err := graph.Complete(5)
	if err != nil {
		t.Fatal(err)
	}
	var es []weights.Entry
	for i := range 5 {
		for j := range 5 {
			if i != j {
				es = append(es, weights.Entry{I: i, J: j, W: float64(1 + (i+2*j)%4)})
			}
		}
	}
	w, err := weights.FromEntries(5, es)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewTransition(g, w, "weights")
	if err != nil {
		t.Fatal(err)
	}
	env := &method.Env{Seeds: rng.Seeds{Algorithm: 11}}
	walk := New(env.Draws("test", "walk"), p)
	const steps = 100_000
	count := [5][5]float64{}
	from := [5]float64{}
	h := walk.First()
	for range steps {
		nx := walk.Next(h)
		count[h][nx]++
		from[h]++
		h = nx
	}
	chi2 := func(prob func(i, j int) float64) (stat float64, df int) {
		for i := range 5 {
			for _, j := range g.Neighbors(i) {
				e := float64(from[i] * prob(i, j))
				stat += (count[i][j] - e) * (count[i][j] - e) / e
			}
			df += g.Degree(i) - 1
		}
		return stat, df
	}
	stat, df := chi2(p.Prob)
	crit := chi2Critical(df, 3.0902) // z of the upper 0.1 %
	if stat > crit {
		t.Errorf("chi-square %.1f on %d degrees of freedom exceeds the 0.1%% critical value %.1f: the walk does not follow P", stat, df, crit)
	}
	uni := Uniform(g)
	if s, _ := chi2(uni.Prob); s < 10*crit {
		t.Errorf("the same counts against the uniform P give %.1f, not far above %.1f: the test has no power", s, crit)
	}
	t.Logf("chi-square %.1f on %d degrees of freedom (0.1%% critical value %.1f)", stat, df, crit)
}

// chi2Critical is the chi-square quantile on df degrees of freedom at the
// standard normal quantile z, by Wilson and Hilferty's cube-root
// approximation (within 0.1 % of the exact value for df ≥ 10 in the
// upper tail).
func chi2Critical(df int, z float64) float64 {
	k := float64(df)
	c := 1 - 2/(9*k) + float64(z*math.Sqrt(2/(9*k)))
	return k * c * c * c
}
