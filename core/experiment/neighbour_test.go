package experiment

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpsim/core/objective"
	"dpsim/core/scenario"
)

// TestNeighbours checks every problem's neighbour (objective.Neighbouring)
// on every scenario preset's problem, under every adjacency: either a
// one-line refusal naming the problem and the adjacency, or a problem
// whose agent's gradient differs from the original's (by the stated
// amount, when it states one) while every other agent's is the same bit
// for bit, whose batch entry points (GradAll, GradBatch) agree with Grad,
// which keeps the original's declared constants, and which leaves the
// original untouched.
func TestNeighbours(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every preset")
	}
	seen, kinds := map[string]bool{}, map[string]bool{}
	defer func() {
		for _, k := range scenario.ProblemKinds() {
			if !kinds[k] {
				t.Errorf("no preset poses the %s problem: its neighbour is untested", k)
			}
		}
	}()
	for _, pr := range scenario.Presets() {
		data, err := scenario.PresetJSON(pr.Name)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		sc.Iterations = 1
		sc.Record.Checkpoints = nil
		sc.Calibrate = nil
		b, err := scenario.Build(sc.NoiseFree())
		if err != nil {
			t.Fatalf("%s: %v", pr.Name, err)
		}
		prob := b.Env.Problem
		// One instance per problem kind and shape is enough.
		key := pr.Problem + "/" + string(rune('0'+prob.Dim()%10))
		if seen[key] {
			continue
		}
		seen[key], kinds[prob.Kind()] = true, true
		nb, ok := prob.(objective.Neighbouring)
		if !ok {
			t.Errorf("%s: the %s problem does not implement objective.Neighbouring", pr.Name, prob.Kind())
			continue
		}
		for _, adj := range []objective.Adjacency{
			{Kind: objective.AdjacentBounded, Bound: 100}, {Kind: objective.AdjacentDistance, Bound: 0.5},
			{Kind: objective.AdjacentRecord}, {Kind: objective.AdjacentSample},
		} {
			for _, agent := range []int{0, prob.Agents() - 1} {
				checkNeighbour(t, pr.Name, prob, nb, agent, adj)
			}
		}
	}
}

func checkNeighbour(t *testing.T, preset string, prob objective.Problem, nb objective.Neighbouring, agent int, adj objective.Adjacency) {
	t.Helper()
	where := preset + ", " + adj.Kind
	n, d := prob.Agents(), prob.Dim()
	r := rand.New(rand.NewPCG(1, uint64(agent)))
	// Near the optimum, where a dispatch's generators answer a price
	// inside their boxes.
	x := make([]float64, d)
	opt := prob.Optimum()
	for c := range x {
		x[c] = r.NormFloat64() * 0.1
		if opt != nil {
			x[c] = opt[c] * (1 + float64(0.01*r.NormFloat64()))
		}
	}
	grads := func(p objective.Problem) [][]float64 {
		out := make([][]float64, n)
		for i := range n {
			out[i] = make([]float64, d)
			p.Grad(i, x, out[i])
		}
		return out
	}
	before := grads(prob)
	nbr, err := nb.Neighbour(agent, adj)
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, prob.Kind()) && !strings.Contains(msg, "audit.") {
			t.Errorf("%s: refusal %q is not one line naming the problem", where, msg)
		}
		return
	}
	q := nbr.Problem
	if nbr.Change == "" || q.Agents() != n || q.Dim() != d {
		t.Fatalf("%s: neighbour %q with %d agents of dimension %d", where, nbr.Change, q.Agents(), q.Dim())
	}
	after := grads(q)
	diff := 0.0
	for i := range n {
		if i == agent {
			for c := range d {
				diff += float64((after[i][c] - before[i][c]) * (after[i][c] - before[i][c]))
			}
			continue
		}
		if !slices.Equal(after[i], before[i]) {
			t.Errorf("%s: agent %d's gradient changed, not only agent %d's", where, i, agent)
		}
	}
	diff = math.Sqrt(diff)
	if !(diff > 0) {
		t.Errorf("%s: agent %d's gradient did not change (%s)", where, agent, nbr.Change)
	}
	if g := nbr.Gradient; g > 0 && math.Abs(diff-g) > 1e-9*(1+g) {
		t.Errorf("%s: the gradient moved by %g; the neighbour says %g", where, diff, g)
	}
	if again := grads(prob); !slices.EqualFunc(again, before, slices.Equal) {
		t.Errorf("%s: making the neighbour changed the original", where)
	}
	if bq, ok := q.(objective.Batch); ok {
		xs := make([]float64, n*d)
		for i := range n {
			copy(xs[i*d:], x)
		}
		all := make([]float64, n*d)
		bq.GradAll(xs, all)
		for i := range n {
			for c := range d {
				if e := math.Abs(all[i*d+c] - after[i][c]); e > 1e-9*(1+math.Abs(after[i][c])) {
					t.Fatalf("%s: GradAll and Grad disagree at agent %d: %g", where, i, e)
				}
			}
		}
	}
	if sq, ok := q.(objective.Stochastic); ok {
		so := prob.(objective.Stochastic)
		idx := []int{0, sq.Samples(agent) - 1}
		g0, g1 := make([]float64, d), make([]float64, d)
		so.GradBatch(agent, x, idx, g0)
		sq.GradBatch(agent, x, idx, g1)
		if adj.Kind == objective.AdjacentBounded || adj.Kind == objective.AdjacentDistance {
			if slices.Equal(g0, g1) {
				t.Errorf("%s: GradBatch did not change with the neighbour", where)
			}
		}
	}
	if s, ok := prob.(objective.Smooth); ok {
		mu0, l0 := s.Smoothness()
		mu1, l1 := q.(objective.Smooth).Smoothness()
		if mu0 != mu1 || l0 != l1 {
			t.Errorf("%s: smoothness (%g, %g) became (%g, %g)", where, mu0, l0, mu1, l1)
		}
	}
	if lp, ok := prob.(objective.Lipschitz); ok {
		b0, ok0 := lp.GradientBound()
		b1, ok1 := q.(objective.Lipschitz).GradientBound()
		if ok0 != ok1 || b0.Value != b1.Value {
			t.Errorf("%s: gradient bound %v became %v", where, b0.Value, b1.Value)
		}
	}
}
