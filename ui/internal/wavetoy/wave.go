// Package wavetoy is a test plug-in: a small nonconvex problem with no
// known optimum, so that the page's handling of one (the stationarity
// headline, the note saying why there is no ‖x − x*‖) is tested before a
// paper brings such a problem (DPP²'s nonconvex loss). Only tests and the
// end-to-end test's program (e2e/nooptimum) register it; the page's own
// program does not.
package wavetoy

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/glossary"
	"dpsim/core/objective"
	"dpsim/core/scenario"
)

// Kind is the problem's key in scenario files.
const Kind = "wave-toy"

// Params are the problem's parameters.
type Params struct {
	Dim int `json:"dim" doc:"dimension of the decision variable" range:"[1,8]"`
}

// Wave is f_i(x) = Σ_c 1 − cos(x_c − t_i[c]): nonconvex (every shift of
// t_i by 2π is another minimiser), so it offers no optimum. In the plane
// the targets t_i sit on a circle of radius 1 around (0.5, 0.5).
type Wave struct {
	n, d int
	t    []float64
}

// Kind returns "wave-toy".
func (p *Wave) Kind() string { return Kind }

// Agents returns the number of agents.
func (p *Wave) Agents() int { return p.n }

// Dim returns the dimension.
func (p *Wave) Dim() int { return p.d }

// Value returns f_i(x).
func (p *Wave) Value(i int, x []float64) float64 {
	v := 0.0
	for c, xc := range x {
		v += 1 - math.Cos(xc-p.t[i*p.d+c])
	}
	return v
}

// Grad writes ∇f_i(x) = sin(x − t_i) into out.
func (p *Wave) Grad(i int, x, out []float64) {
	for c, xc := range x {
		out[c] = math.Sin(xc - p.t[i*p.d+c])
	}
}

// Objective returns (1/n)·Σ_i f_i(x).
func (p *Wave) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.n {
		s += p.Value(i, x)
	}
	return s / float64(p.n)
}

// Optimum returns nil: the problem has no known optimum.
func (p *Wave) Optimum() []float64 { return nil }

// Points returns the targets in the plane (nil unless Dim is 2).
func (p *Wave) Points() [][2]float64 {
	if p.d != 2 {
		return nil
	}
	pts := make([][2]float64, p.n)
	for i := range pts {
		pts[i] = [2]float64{p.t[2*i], p.t[2*i+1]}
	}
	return pts
}

// Factory builds the problem; the targets are fixed, so it reads nothing
// of its environment but the number of agents.
var Factory = objective.Factory{
	Name: Kind, Title: "wave toy: f_i(x) = Σ_c 1 − cos(x_c − t_i[c])", Source: "a test plug-in without a known optimum",
	NewParams: func() any { return &Params{Dim: 2} },
	Size: func(params any, agents int) (int, int64) {
		return params.(*Params).Dim, 8 * int64(agents) * int64(max(params.(*Params).Dim, 0))
	},
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		pp := params.(*Params)
		if pp.Dim < 1 || pp.Dim > 8 {
			return nil, nil, check.Errorf("problem.params.dim", "must be from 1 to 8 (got %d)", pp.Dim)
		}
		p := &Wave{n: env.Agents(), d: pp.Dim}
		for i := range p.n {
			a := 2 * math.Pi * float64(i) / float64(p.n)
			for c := range p.d {
				// Off-centre, so that the gradients do not cancel at 0.
				p.t = append(p.t, 0.5+math.Cos(a+float64(float64(c)*math.Pi/2)))
			}
		}
		return p, nil, nil
	},
	Pinned: func(p objective.Problem, params any) any { return params },
	Reads:  func(any) objective.Reads { return objective.Reads{} },
	Words: objective.Words{
		Picture: "each agent's wave centre × and every agent's estimate ● with its recent trail",
		Curve:   "the wave has no known optimum: the error plot shows how close the average gradient is to zero and the agents' disagreement",
		Symbols: []glossary.Term{{Symbol: "t_i", Meaning: "Agent i's private wave centre."}},
	},
}

// Register adds the problem to the scenario registry and returns the
// function that removes it.
func Register() (unregister func(), err error) {
	return scenario.RegisterProblemForTest(&Factory)
}
