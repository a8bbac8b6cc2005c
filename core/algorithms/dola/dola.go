// Package dola implements DOLA, the differentially private distributed
// online learning of Li, Zhou, Xiong, Wang and Wang (IEEE TKDE
// 30(8):1440–1453, 2018), as baselines.md §7.2 reconstructs it for the LDP
// online paper's comparison:
//
//	b_t^i = Σ_j a_ij·(w_t^j + σ_t^j),  σ_t^j ~ Lap(μ_t)^n   (Algorithm 1, line 3; own noisy copy included)
//	w_{t+1}^i = Π_W[ b_t^i − α_t·∇f_t^i(b_t^i) ]          (lines 4–5)
//	α_t = α_0/(t+1)^a,  μ_t decaying at the step's rate (the noise channel's decay)
//
// with ∇f_t^i the gradient over all received data (spec §7.0) and A = I + W
// for the paper's Laplacian-type W. Its ε is the LDP online paper's
// matching: the largest ε^i of Algorithm 1 (calibrate.epsilon).
package dola

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
)

// Confidence is the source confidence baselines.md gives DOLA.
const Confidence = "medium-high: the update follows the published Algorithm 1 listing (PMC6764830); the noise scale μ_t = 2α_t√d·L/ε is reconstructed from recollection (baselines.md §7.2)"

// Params are DOLA's parameters.
type Params struct {
	Alpha0        float64 `json:"alpha0" doc:"α_0 in the step α_t = α_0/(t+1)^a (the LDP online paper tunes it near-optimally)" range:"(0, 1e6]"`
	Power         float64 `json:"power" doc:"a in α_t = α_0/(t+1)^a (DOLA: ½); the noise should decay at the same rate (baselines.md §7.2)" range:"[0, 2]"`
	Batch         int     `json:"batch" doc:"N^i: new samples each agent receives from its shard every iteration" range:"[1, 100000]" unit:"samples per iteration"`
	Window        int     `json:"window" doc:"the gradient reads the latest window batches only (0: every sample received so far, the LDP online paper's strategy for all methods)" range:"[0, 1000000]" unit:"batches"`
	GradientBound float64 `json:"gradient_bound" doc:"C: the ℓ2 bound on every per-sample gradient; the ledger's sensitivity is 2√n·C·α_t (baselines.md)" range:"[0, 1e100]"`
	Clip          bool    `json:"clip_gradients" doc:"modification: scale the gradient to ‖g‖₂ ≤ C"`
	Radius        float64 `json:"radius" doc:"W: project onto the ball ‖w‖ ≤ radius (0: no projection)" range:"[0, 1e100]"`
}

// Defaults: α_t = 1/√(t+1), 2 samples per iteration, C = 1.
func Defaults() *Params { return &Params{Alpha0: 1, Power: 0.5, Batch: 2, GradientBound: 1} }

// Factory builds DOLA from a scenario.
var Factory = method.Factory{
	Name:  "dola",
	Title: "DOLA (Li et al., TKDE 2018)",
	Paper: "C. Li, P. Zhou, L. Xiong, Q. Wang and T. Wang, Differentially private distributed online learning, IEEE TKDE 30(8), 2018; as baselines.md §7.2 gives it (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "sigma", Dist: noise.Laplace, Description: "σ on the released estimate w: scale μ_t decaying like the step α_t"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

// Algorithm is DOLA on one problem instance; the engine makes it
// sim.Resumable.
type Algorithm struct{ *online.Engine }

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	e, ac, warns, err := online.BuildPlain(env, online.Plain{Alpha0: p.Alpha0, Power: p.Power, Batch: p.Batch, Window: p.Window,
		GradientBound: p.GradientBound, Clip: p.Clip, Radius: p.Radius, SelfNoisy: true, AtMix: true,
		Name: "dola", Title: "DOLA", Field: pf, Channel: "sigma"}, Confidence)
	if err != nil {
		return nil, nil, err
	}
	return &method.Built{Algorithm: &Algorithm{e}, Accountant: ac}, warns, nil
}
