package rendezvous

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/rng"
)

// MaxCoordinate bounds every target coordinate and the box, so that
// squared distances (the metrics, the gradients' norms) stay far inside
// float64's range.
const MaxCoordinate = 1e12

// Params are the scenario's parameters of the rendezvous problem.
type Params struct {
	Dim int `json:"dim" doc:"dimension of the decision variable" range:"[1, 100000]" unit:"coordinates"`
	// Box is the half-width of the box random targets are drawn in.
	Box float64 `json:"box" doc:"random targets are drawn uniformly in [−box, box]^dim" range:"(0, 1e12]"`
	// CommonTarget gives every agent the same target: the GT-DP paper's
	// literal setting, where x* = a is trivial.
	CommonTarget bool `json:"common_target,omitempty" doc:"every agent gets the same target (the paper's literal setting; x* = a)"`
	// DomainRadius bounds the domain X = {‖x‖₂ ≤ R}; 0 leaves x free.
	DomainRadius float64 `json:"domain_radius,omitempty" doc:"radius R of the domain X = {‖x‖ ≤ R} (0: unbounded); gives the gradient bound C = 2(R + max‖a‖) with max‖a‖ = max(box·√dim, max_i‖a_i‖)" range:"[0, 1e12]"`
	// Targets pins the targets a_i, one row per agent.
	Targets [][]float64 `json:"targets,omitempty" doc:"pinned targets a_i, one row of dim numbers per agent"`
}

// Factory builds the rendezvous problem from a scenario.
var Factory = objective.Factory{
	Name:   "rendezvous",
	Title:  "Rendezvous: f_i(x) = ‖x − a_i‖²",
	Source: "Xuan & Wang, GT-DP, Sec. 5.1 (after Huang, Mitra and Vaidya 2015, example 1)",
	NewParams: func() any {
		return &Params{Dim: 2, Box: 1}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		// The targets, and their copy in the pinned export.
		return p.Dim, 2 * 8 * int64(agents) * int64(max(p.Dim, 0))
	},
	Build: build,
	// Targets are drawn from the data seed unless pinned; the graph is
	// not read.
	Reads: func(params any) objective.Reads {
		return objective.Reads{DataSeed: params.(*Params).Targets == nil}
	},
	// The targets as text, at most 24 bytes a number.
	PinnedBytes: func(params any, agents int) int64 {
		return 24 * int64(agents) * int64(max(params.(*Params).Dim, 0))
	},
	Pinned: func(p objective.Problem, params any) any {
		q := *params.(*Params)
		q.Targets = p.(*Rendezvous).Targets()
		q.CommonTarget = false // the pinned targets say it all
		return &q
	},
	Words: words,
}

func build(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
	p := params.(*Params)
	if err := param.Validate("problem.params", p); err != nil {
		return nil, nil, err
	}
	n := env.Agents()
	targets := p.Targets
	if targets == nil {
		r := rng.New(env.Seeds.Data, "rendezvous/targets")
		count := n
		if p.CommonTarget {
			count = 1
		}
		targets = RandomTargets(count, p.Dim, p.Box, r)
		for len(targets) < n {
			targets = append(targets, append([]float64(nil), targets[0]...))
		}
	} else if len(targets) != n {
		return nil, nil, check.Errorf(field, "must list one target per agent: %d, got %d", n, len(targets))
	}
	for i, t := range targets {
		if len(t) != p.Dim {
			return nil, nil, check.Errorf(check.Index(field, i), "must have %d coordinates (problem.params.dim), got %d", p.Dim, len(t))
		}
		for j, v := range t {
			if !(v >= -MaxCoordinate && v <= MaxCoordinate) {
				return nil, nil, check.Errorf(check.Index(check.Index(field, i), j), "must be a number in [−1e12, 1e12] so that squared distances stay finite (got %v)", v)
			}
		}
	}
	prob, err := New(targets)
	if err != nil {
		return nil, nil, err
	}
	if p.DomainRadius > 0 {
		// Every admissible target lies in the box, so ‖a‖ ≤ box·√dim;
		// pinned targets outside it widen the class.
		amax := p.Box * math.Sqrt(float64(p.Dim))
		for _, t := range targets {
			amax = math.Max(amax, norm(t))
		}
		prob.SetDomain(p.DomainRadius, amax)
	}
	return prob, nil, nil
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x * x)
	}
	return math.Sqrt(s)
}
