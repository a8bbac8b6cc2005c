// Package dsgd implements noise-free decentralized stochastic gradient
// descent (Pu, Olshevsky, Paschalidis, IEEE TAC 2021), the LDP online
// paper's reference without privacy (baselines.md §2.5, §7.5), in the
// combine-then-adapt form
//
//	x_{t+1}^i = Σ_j a_ij·x_t^j − α_t·∇f_t^i(x_t^i),  α_t = α_0/(t+1)^a
//
// with A = I + W for the paper's Laplacian-type W, the same step as
// Algorithm 1 (α_t = 1/(t+1)^0.71 on mushrooms) and the gradient over all
// received data (spec §7.0). Its channel "x" exists so that a scenario can
// add noise to it (as a DP-wrapped DSGD); the reference runs with none.
package dsgd

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
)

// Confidence is the source confidence baselines.md gives DSGD.
const Confidence = "high: checked against a public implementation (liboyue/Network-Distributed-Algorithm DSGD.py) and the standard form (baselines.md §2.5)"

// Params are DSGD's parameters.
type Params struct {
	Alpha0 float64 `json:"alpha0" doc:"α_0 in the step α_t = α_0/(t+1)^a (the LDP online paper: Algorithm 1's λ_0 = 1)" range:"(0, 1e6]"`
	Power  float64 `json:"power" doc:"a in α_t = α_0/(t+1)^a (the LDP online paper: Algorithm 1's v = 0.71)" range:"[0, 2]"`
	Batch  int     `json:"batch" doc:"N^i: new samples each agent receives from its shard every iteration" range:"[1, 100000]" unit:"samples per iteration"`
	Window int     `json:"window" doc:"the gradient reads the latest window batches only (0: every sample received so far)" range:"[0, 1000000]" unit:"batches"`
	// GradientBound is C, used only when noise is added.
	GradientBound float64 `json:"gradient_bound" doc:"C: the ℓ2 gradient bound, needed only when noise is added to the channel x" range:"[0, 1e100]"`
}

// Defaults: α_t = 1/(t+1)^0.71, 2 samples per iteration.
func Defaults() *Params { return &Params{Alpha0: 1, Power: 0.71, Batch: 2} }

// Factory builds DSGD from a scenario.
var Factory = method.Factory{
	Name:  "dsgd",
	Title: "DSGD without noise (Pu, Olshevsky, Paschalidis)",
	Paper: "S. Pu, A. Olshevsky and I. C. Paschalidis, A sharp estimate on the transient time of distributed stochastic gradient descent, IEEE TAC 2021; baselines.md §2.5 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "x", Dist: noise.Laplace, Description: "noise on the released estimate (none for the reference)"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

// Algorithm is DSGD on one problem instance; the engine makes it
// sim.Resumable.
type Algorithm struct{ *online.Engine }

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	e, ac, warns, err := online.BuildPlain(env, online.Plain{Alpha0: p.Alpha0, Power: p.Power, Batch: p.Batch, Window: p.Window,
		GradientBound: p.GradientBound, SelfNoisy: true, Name: "dsgd", Title: "DSGD", Field: pf, Channel: "x"}, Confidence)
	if err != nil {
		return nil, nil, err
	}
	return &method.Built{Algorithm: &Algorithm{e}, Accountant: ac}, warns, nil
}
