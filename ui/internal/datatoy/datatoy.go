// Package datatoy is a test plug-in: the smallest problem that trains on
// a committed dataset, so that the page's on-demand dataset fetch (the
// progress bar, the session cache, the error messages) is tested before
// the learning problems land. Only tests and the end-to-end test's
// program (e2e/data.test.js) register it; the page's own program does
// not.
package datatoy

import (
	"fmt"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/glossary"
	"dpsim/core/objective"
	"dpsim/core/scenario"
)

// Kind is the problem's key in scenario files.
const Kind = "data-toy"

// Params are the problem's parameters.
type Params struct {
	Dataset string `json:"dataset" doc:"committed dataset whose train split the agents share"`
}

// Toy is f_i(x) = ½‖x − m_i‖², m_i the mean of the first two features
// over agent i's contiguous shard of the dataset's train split: a
// quadratic whose optimum is the mean of the m_i, with the shard means as
// the targets drawn in the plane.
type Toy struct {
	n int
	m []float64 // agent-major, two values each
}

// Kind returns "data-toy".
func (p *Toy) Kind() string { return Kind }

// Agents returns the number of agents.
func (p *Toy) Agents() int { return p.n }

// Dim returns 2.
func (p *Toy) Dim() int { return 2 }

// Value returns f_i(x).
func (p *Toy) Value(i int, x []float64) float64 {
	dx, dy := x[0]-p.m[2*i], x[1]-p.m[2*i+1]
	return float64((float64(dx*dx) + float64(dy*dy)) / 2)
}

// Grad writes ∇f_i(x) = x − m_i into out.
func (p *Toy) Grad(i int, x, out []float64) {
	out[0], out[1] = x[0]-p.m[2*i], x[1]-p.m[2*i+1]
}

// Objective returns (1/n)·Σ_i f_i(x).
func (p *Toy) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.n {
		s += p.Value(i, x)
	}
	return s / float64(p.n)
}

// Optimum returns the mean of the shard means.
func (p *Toy) Optimum() []float64 {
	x := make([]float64, 2)
	for i := range p.n {
		x[0] += p.m[2*i] / float64(p.n)
		x[1] += p.m[2*i+1] / float64(p.n)
	}
	return x
}

// Points returns the shard means, the targets drawn in the plane.
func (p *Toy) Points() [][2]float64 {
	pts := make([][2]float64, p.n)
	for i := range pts {
		pts[i] = [2]float64{p.m[2*i], p.m[2*i+1]}
	}
	return pts
}

// Factory builds the problem from the dataset's train split, which it
// declares (Datasets) so that the page fetches it first.
var Factory = objective.Factory{
	Name: Kind, Title: "data toy: f_i(x) = ½‖x − m_i‖², m_i a shard mean of a dataset", Source: "a test plug-in that loads a committed dataset",
	NewParams: func() any { return &Params{Dataset: "mushrooms"} },
	Size:      func(params any, agents int) (int, int64) { return 2, 16 * int64(agents) },
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		pp := params.(*Params)
		s, err := data.Load(pp.Dataset, "train")
		if err != nil {
			return nil, nil, err
		}
		n := env.Agents()
		if s.Rows < n || s.Cols < 2 {
			return nil, nil, check.Errorf("problem.params.dataset", "%s has %d rows of %d features: need ≥ %d rows (one per agent) of ≥ 2", pp.Dataset, s.Rows, s.Cols, n)
		}
		p := &Toy{n: n, m: make([]float64, 2*n)}
		for i := range n {
			lo, hi := i*s.Rows/n, (i+1)*s.Rows/n
			for r := lo; r < hi; r++ {
				p.m[2*i] += s.At(r, 0) / float64(hi-lo)
				p.m[2*i+1] += s.At(r, 1) / float64(hi-lo)
			}
		}
		return p, nil, nil
	},
	Pinned:   func(p objective.Problem, params any) any { return params },
	Reads:    func(any) objective.Reads { return objective.Reads{} },
	Datasets: func(params any) []string { return []string{params.(*Params).Dataset + "/train"} },
	Words: objective.Words{
		Picture: "each agent's shard mean × and every agent's estimate ● with its recent trail",
		Curve:   "the error plot shows how far the estimates are from the mean of the shard means and from each other",
		Symbols: []glossary.Term{{Symbol: "m_i", Meaning: "The mean of the first two features over agent i's shard."}},
	},
}

// Register adds the problem to the scenario registry and returns the
// function that removes it.
func Register() (unregister func(), err error) {
	return scenario.RegisterProblemForTest(&Factory)
}

// Use registers the problem for the test t and removes it when t ends.
// t is a testing.TB; the interface keeps package testing out of the
// end-to-end test's program, which links this package too.
func Use(t interface {
	Helper()
	Fatal(args ...any)
	Cleanup(func())
}) {
	t.Helper()
	un, err := Register()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(un)
}

// Scenario is GT-DP on a ring of six agents with the data toy on the
// named dataset, the scenario the tests build.
func Scenario(dataset string) string {
	return fmt.Sprintf(`{"name": "data", "seed": 3, "graph": {"kind": "ring", "n": 6},
		"weights": {"kind": "metropolis"}, "problem": {"kind": %q, "params": {"dataset": %q}},
		"algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 2}},
		"noise": {"eta": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}},
			"xi": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}}}, "iterations": 20}`, Kind, dataset)
}
