package nonconvex

import (
	"dpsim/core/check"
	"dpsim/core/objective"
	"dpsim/core/param"
)

// Params are the scenario's parameters; the defaults are the paper's
// (N = 50 comes from the graph) with the spec's proposal for the data.
type Params struct {
	Samples int     `json:"samples" doc:"m: samples per agent (the paper: 200)" range:"[1, 100000]" unit:"samples per agent"`
	Dim     int     `json:"dim" doc:"d: features (the paper: 10)" range:"[1, 1000]" unit:"coordinates"`
	Lambda  float64 `json:"lambda" doc:"λ: the regulariser's weight (the paper: 0.001)" range:"[0, 1e6]"`
	Omega   float64 `json:"omega" doc:"ω: the regulariser's shape (the paper: 1)" range:"[0, 1e6]"`
	Scale   float64 `json:"scale" doc:"s: features z ~ N(0, s²I), labels ±1 at random (the paper's data are unstated; s ≈ 3.6 reproduces its M̄ ≈ 5.03)" range:"(0, 1e3]"`
	Seed    uint64  `json:"seed,omitempty" doc:"seed of the samples (0: the scenario's data seed; a pinned scenario writes the seed used)"`
}

// Factory builds the problem from a scenario.
var Factory = objective.Factory{
	Name:   "nonconvex-classifier",
	Title:  "Binary classifier with a nonconvex regulariser on synthetic data (DPP², Sec. VI)",
	Source: "Ou, Wang, Liu, Lu, DPP², Sec. VI; the data distribution is the spec's proposal (§3.6)",
	NewParams: func() any {
		return &Params{Samples: 200, Dim: 10, Lambda: 0.001, Omega: 1, Scale: 3.6}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		return p.Dim, 8 * int64(agents) * int64(max(p.Samples, 0)) * int64(max(p.Dim, 0)+1)
	},
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		p := params.(*Params)
		if err := param.Validate("problem.params", p); err != nil {
			return nil, nil, err
		}
		n := env.Agents()
		if int64(n)*int64(p.Samples)*int64(p.Dim) > 50_000_000 {
			return nil, nil, check.Errorf("problem.params.samples", "agents × samples × dim must be at most 5e7 (got %d × %d × %d)", n, p.Samples, p.Dim)
		}
		seed := p.Seed
		if seed == 0 {
			seed = env.Seeds.Data
		}
		z, y := Draw(seed, n, p.Samples, p.Dim, p.Scale)
		c, err := New(n, p.Samples, p.Dim, z, y, p.Lambda, p.Omega, p.Scale)
		if err != nil {
			return nil, nil, check.Errorf("problem.params", "%v", err)
		}
		c.seedUsed = seed
		return c, nil, nil
	},
	Pinned: func(pr objective.Problem, params any) any {
		q := *params.(*Params)
		q.Seed = pr.(*Classifier).seedUsed
		return &q
	},
	Reads: func(params any) objective.Reads {
		return objective.Reads{DataSeed: params.(*Params).Seed == 0}
	},
	Words: words,
}
