// Package dmod implements DMOD, the differentially private distributed
// online mirror descent of Yuan, Lei and Hong (Neurocomputing 551:126531,
// 2023), as baselines.md §7.4 reconstructs it (no source text was found:
// the textbook form with the Euclidean mirror map):
//
//	y_t^i = Σ_j a_ij·(x_t^j + η_t^j),  η_t^j ~ Lap(μ_t)^n          (own noisy copy included)
//	x_{t+1}^i = argmin_x { α_t·⟨∇f_t^i(x_t^i), x⟩ + ½‖x − y_t^i‖² } = Π_X[ y_t^i − α_t·∇f_t^i(x_t^i) ]
//	α_t = α_0/(t+1)^a,  μ_t decaying at the step's rate
//
// It differs from DOLA only in where the gradient is evaluated (the
// agent's own x_t^i). ∇f_t^i is the gradient over all received data
// (spec §7.0), A = I + W for the LDP online paper's Laplacian-type W.
package dmod

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
)

// Confidence is the source confidence baselines.md gives DMOD.
const Confidence = "low: no source text was found; the textbook mirror-descent form with the Euclidean mirror map and noise decaying like the step is reconstructed (baselines.md §7.4)"

// Params are DMOD's parameters.
type Params struct {
	Alpha0        float64 `json:"alpha0" doc:"α_0 in the step α_t = α_0/(t+1)^a ([39]'s recommended defaults are unknown)" range:"(0, 1e6]"`
	Power         float64 `json:"power" doc:"a in α_t = α_0/(t+1)^a (½ by default); the noise should decay at the same rate" range:"[0, 2]"`
	Batch         int     `json:"batch" doc:"N^i: new samples each agent receives from its shard every iteration" range:"[1, 100000]" unit:"samples per iteration"`
	Window        int     `json:"window" doc:"the gradient reads the latest window batches only (0: every sample received so far, the LDP online paper's strategy for all methods)" range:"[0, 1000000]" unit:"batches"`
	GradientBound float64 `json:"gradient_bound" doc:"C: the ℓ2 bound on every per-sample gradient; the ledger's sensitivity is 2√n·C·α_t (baselines.md)" range:"[0, 1e100]"`
	Clip          bool    `json:"clip_gradients" doc:"modification: scale the gradient to ‖g‖₂ ≤ C"`
	Radius        float64 `json:"radius" doc:"X: project onto the ball ‖x‖ ≤ radius (0: no projection)" range:"[0, 1e100]"`
}

// Defaults: α_t = 1/√(t+1), 2 samples per iteration, C = 1.
func Defaults() *Params { return &Params{Alpha0: 1, Power: 0.5, Batch: 2, GradientBound: 1} }

// Factory builds DMOD from a scenario.
var Factory = method.Factory{
	Name:  "dmod",
	Title: "DMOD (Yuan, Lei, Hong 2023)",
	Paper: "M. Yuan, J. Lei and Y. Hong, Differentially private distributed online mirror descent algorithm, Neurocomputing 551, 2023; as baselines.md §7.4 reconstructs it (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "eta", Dist: noise.Laplace, Description: "η on the released estimate x: scale μ_t decaying like the step α_t"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

// Algorithm is DMOD on one problem instance; the engine makes it
// sim.Resumable.
type Algorithm struct{ *online.Engine }

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	e, ac, warns, err := online.BuildPlain(env, online.Plain{Alpha0: p.Alpha0, Power: p.Power, Batch: p.Batch, Window: p.Window,
		GradientBound: p.GradientBound, Clip: p.Clip, Radius: p.Radius, SelfNoisy: true,
		Name: "dmod", Title: "DMOD", Field: pf, Channel: "eta"}, Confidence)
	if err != nil {
		return nil, nil, err
	}
	return &method.Built{Algorithm: &Algorithm{e}, Accountant: ac}, warns, nil
}
