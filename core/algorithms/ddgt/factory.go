package ddgt

import (
	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/weights"
)

// Factory builds DDGT from a scenario.
var Factory = method.Factory{
	Name:  "ddgt",
	Title: "DDGT (noisy messages)",
	Paper: "J. Zhang, K. You and K. Cai, Distributed dual gradient tracking for resource allocation in unbalanced networks, IEEE TSP 68 (2020), eq. (9), with the message noise of the DP-DGT paper's eq. (10) (baseline; baselines.md §4.1, confidence high)",
	Channels: []method.Channel{
		{Name: "xi", Dist: noise.Laplace, Description: "ξ on the pushed gap tracker z (the DP-DGT paper's Fig. 5 uses DP-DGT's noise)"},
		{Name: "zeta", Dist: noise.Laplace, Description: "ζ on the pulled price w̃"},
	},
	Solves: method.Allocation,
	States: []string{"w", "z", "price"},
	Matrices: []method.MatrixRole{
		{Role: method.RolePull, Default: weights.KindRowStochastic, Description: "R, row-stochastic: agent i pulls w̃_j + ζ_j and weighs it by R_ij"},
		{Role: method.RolePush, Default: weights.KindColumnStochastic, Description: "C, column-stochastic: agent i pushes C_li·(z_i + ξ_i)"},
	},
	RootedDigraphs: true,
	NewParams:      func() any { return Defaults() },
	Build:          build,
	Words:          words,
}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := env.RequireOneDecay(oneDecay); err != nil {
		return nil, nil, err
	}
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := p.Beta.Validate(check.Join(pf, "beta")); err != nil {
		return nil, nil, err
	}
	prob, err := pushpull.Allocation(env, "DDGT")
	if err != nil {
		return nil, nil, err
	}
	if err := pushpull.CheckStochastic(env, "DDGT"); err != nil {
		return nil, nil, err
	}
	if _, err := pushpull.CheckRoots(env, "DDGT"); err != nil {
		return nil, nil, err
	}
	warns := []check.Warning{check.Warnf("algorithm", "DDGT has no privacy analysis: it runs with the noise given so that it can be compared with DP-DGT at the same noise, as the DP-DGT paper's Fig. 5 does; no ε is claimed, and the noise on z accumulates in Σz (the DP-DGT paper's eq. (11))")}
	var w0, z0 []float64
	if _, ok := env.Init["w"]; ok {
		w0 = env.InitState("w")
	}
	if _, ok := env.Init["z"]; ok {
		z0 = env.InitState("z")
	}
	a := New(p, prob, pushpull.NewMix(env.Matrices[method.RolePull]), pushpull.NewMix(env.Matrices[method.RolePush]),
		env.Noise["xi"], env.Noise["zeta"], env.Sampler("ddgt", "xi"), env.Sampler("ddgt", "zeta"),
		w0, z0, env.InitState("price"))
	led := pushpull.NewNoLedger(prob.Agents(), "ddgt", "Zhang, You & Cai 2020 (no privacy analysis); run with DP-DGT's noise as in the DP-DGT paper's Sec. 6.3",
		"DDGT claims no differential privacy: it carries the noise only for the comparison at equal noise")
	return &method.Built{Algorithm: a, Accountant: led}, warns, nil
}

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "DDGT (DP-DGT paper, eq. 10) draws its noise with one decay per channel for all agents"
