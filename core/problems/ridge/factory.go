package ridge

import (
	"dpsim/core/check"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/rng"
)

// Params are the scenario's parameters of the ridge problem. The paper
// gives neither the dimension nor ρ; the defaults are the spec's proposal
// (dim = 2, ρ = 0.1).
type Params struct {
	Dim int `json:"dim" doc:"dimension r of x (not given in the paper)" range:"[1, 500]" unit:"coordinates"`
	// Penalty is ρ; the paper reuses ρ for it.
	Penalty float64 `json:"penalty" doc:"ridge penalty ρ (not given in the paper)" range:"(0, 1e6]"`
	// NoiseSD is the standard deviation of ζ_i in v_i = u_iᵀx̃_i + ζ_i.
	NoiseSD float64 `json:"output_noise_sd" doc:"standard deviation of the output noise ζ_i in v_i = u_iᵀx̃_i + ζ_i (the paper: 25)" range:"[0, 1e6]"`
	// Features and Outputs pin the samples (u_i, v_i), one per agent.
	Features [][]float64 `json:"features,omitempty" doc:"pinned features u_i, one row of dim numbers per agent"`
	Outputs  []float64   `json:"outputs,omitempty" doc:"pinned outputs v_i, one per agent"`
}

// Factory builds the ridge problem from a scenario.
var Factory = objective.Factory{
	Name:   "ridge",
	Title:  "Ridge regression: f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖²",
	Source: "Xuan & Wang, GT-DP, Sec. 5.2 (after Pu 2020), with the minimiser corrected to include the output noise",
	NewParams: func() any {
		return &Params{Dim: 2, Penalty: 0.1, NoiseSD: 25}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		d, n := int64(max(p.Dim, 0)), int64(agents)
		// The samples (u_i, v_i), their copy in the pinned export, and
		// the dense d×d system the optimum solves.
		return p.Dim, 2*8*n*(d+1) + 8*d*d
	},
	Build: build,
	// The samples (u_i, v_i) as text, at most 24 bytes a number.
	PinnedBytes: func(params any, agents int) int64 {
		return 24 * int64(agents) * int64(max(params.(*Params).Dim, 0)+1)
	},
	Pinned: func(p objective.Problem, params any) any {
		q := *params.(*Params)
		r := p.(*Ridge)
		q.Features = make([][]float64, r.Agents())
		q.Outputs = make([]float64, r.Agents())
		for i := range q.Features {
			q.Features[i] = append([]float64(nil), r.Feature(i)...)
			q.Outputs[i] = r.Output(i)
		}
		return &q
	},
	// Samples are drawn from the data seed unless pinned; the graph is
	// not read.
	Reads: func(params any) objective.Reads {
		p := params.(*Params)
		return objective.Reads{DataSeed: p.Features == nil || p.Outputs == nil}
	},
	Words: words,
}

func build(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
	p := params.(*Params)
	if err := param.Validate("problem.params", p); err != nil {
		return nil, nil, err
	}
	n := env.Agents()
	if (p.Features == nil) != (p.Outputs == nil) {
		return nil, nil, check.Errorf(fieldFeatures, "features and outputs are pinned together or not at all")
	}
	feats, outs := p.Features, p.Outputs
	if feats == nil {
		feats, outs = Draw(n, p.Dim, p.NoiseSD, env)
	}
	if len(feats) != n {
		return nil, nil, check.Errorf(fieldFeatures, "must list one feature vector per agent: %d, got %d", n, len(feats))
	}
	for i, u := range feats {
		if len(u) != p.Dim {
			return nil, nil, check.Errorf(check.Index(fieldFeatures, i), "must have %d coordinates (problem.params.dim), got %d", p.Dim, len(u))
		}
	}
	r, err := New(feats, outs, p.Penalty)
	if err != nil {
		return nil, nil, err
	}
	return r, nil, nil
}

// Draw draws the paper's data for n agents: u_i ~ U[−1, 1]^dim,
// x̃_i ~ U[0, 10]^dim and v_i = u_iᵀx̃_i + ζ_i with ζ_i ~ N(0, sd²), from
// the data seed's streams.
func Draw(n, dim int, sd float64, env *objective.Env) ([][]float64, []float64) {
	r := rng.New(env.Seeds.Data, "ridge/samples")
	zeta := make([]float64, n)
	noise.NewSampler(noise.Gaussian, rng.NewStream(env.Seeds.Data, "ridge/output-noise")).Fill(zeta, sd)
	feats := make([][]float64, n)
	outs := make([]float64, n)
	for i := range n {
		u := make([]float64, dim)
		for c := range u {
			u[c] = float64(2*float64(r.Float64())) - 1 // the inlined draw's product rounded
		}
		v := zeta[i]
		for c := range u {
			v += float64(u[c] * 10 * r.Float64()) // x̃_ic ~ U[0, 10]
		}
		feats[i], outs[i] = u, v
	}
	return feats, outs
}
