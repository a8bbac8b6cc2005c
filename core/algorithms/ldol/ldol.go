// Package ldol implements LDOL, the weakening-factor algorithm of Chen &
// Wang ("Locally differentially private distributed online learning with
// guaranteed optimality", IEEE TAC 2025), as the LDP online paper writes
// it in its eq. (17) and runs it as its main comparator (spec §7.6,
// baselines.md §7.1):
//
//	y_t^j = θ_t^j + ϑ̌_t^j,  ϑ̌_t^j ~ Lap(ν̌_t^j)^n,  ν̌_t^j = ν̌_0^j·(t+1)^{ς^j}   (noise GROWS)
//	θ_{t+1}^i = Π_Θ[ θ_t^i + γ_t·Σ_{j∈N_i} w_ij·(y_t^j − θ_t^i) − λ̌_t·∇f_t^i(θ_t^i) ]   (17)
//	γ_t = γ_0/(t+1)^u,  λ̌_t = λ̌_0/(t+1)^v,  v > u > ς + ½,  ς = max_i ς^i
//
// with the same Laplacian-type W and the same gradient over all received
// data as Algorithm 1. The noise settings the paper used are not given:
// the preset's σ̌_0 = 0.1√2 (Laplace scale 0.1) and ς^i = 0.09 + 0.01·i
// are baselines.md's reconstruction.
package ldol

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
)

// Confidence is the source confidence baselines.md gives LDOL.
const Confidence = "high for the update (the LDP online paper's eq. (17)); low for the noise settings, which the paper does not give (baselines.md §7.1: σ̌_0 = 0.1√2, ς^i = 0.09 + 0.01·i reconstructed); the ledger's recursion is reconstructed"

// Params are LDOL's parameters in eq. (17)'s notation. The growing noise
// ν̌_0^i·(t+1)^{ς^i} is the channel "theta" with per-agent polynomial
// decays of negative power −ς^i.
type Params struct {
	Gamma0 float64 `json:"gamma0" doc:"γ_0 in the weakening factor γ_t = γ_0/(t+1)^u (the paper: 1)" range:"(0, 1e6]"`
	U      float64 `json:"u" doc:"u in γ_t = γ_0/(t+1)^u; needs v > u > max_i ς^i + ½ (the paper: 0.7)" range:"[0, 2]"`
	// Lambda0 and V give the step λ̌_t = λ̌_0/(t+1)^v.
	Lambda0 float64 `json:"lambda0" doc:"λ̌_0 in the step λ̌_t = λ̌_0/(t+1)^v (the paper: 1)" range:"(0, 1e6]"`
	V       float64 `json:"v" doc:"v in λ̌_t = λ̌_0/(t+1)^v (the paper: 0.71)" range:"[0, 2]"`
	Batch   int     `json:"batch" doc:"N^i: new samples each agent receives from its shard every iteration (the paper: 2 on mushrooms, 32 images on MNIST and CIFAR-10)" range:"[1, 100000]" unit:"samples per iteration"`
	Window  int     `json:"window" doc:"the gradient reads the latest window batches only (0: every sample received so far, as the paper; a window is cheaper but forgets older data)" range:"[0, 1000000]" unit:"batches"`
	// GradientBound is d, the ℓ1 bound on per-sample gradients.
	GradientBound float64 `json:"gradient_bound" doc:"d: the ℓ1 bound on every per-sample gradient, the ledger's sensitivity input" range:"[0, 1e100]"`
	Clip          bool    `json:"clip_gradients" doc:"modification (not in the paper): scale the gradient to ‖g‖₁ ≤ d"`
	Radius        float64 `json:"radius" doc:"Θ: project onto the ball ‖θ‖ ≤ radius (0: no projection; the paper does not give Θ)" range:"[0, 1e100]"`
}

// Defaults returns the mushrooms settings of Sec. VI-A: γ_t = 1/(t+1)^0.7,
// λ̌_t = 1/(t+1)^0.71, 2 samples per iteration, no projection, d = 1.
func Defaults() *Params {
	return &Params{Gamma0: 1, U: 0.7, Lambda0: 1, V: 0.71, Batch: 2, GradientBound: 1}
}

// Factory builds LDOL from a scenario.
var Factory = method.Factory{
	Name:  "ldol",
	Title: "LDOL (Chen & Wang, TAC 2025; weakening factor)",
	Paper: "Z. Chen and Y. Wang, Locally differentially private distributed online learning with guaranteed optimality, IEEE TAC 2025; as the LDP online paper's eq. (17) and baselines.md §7.1 give it (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "theta", Dist: noise.Laplace, Description: "ϑ̌ on the released estimate: scale ν̌_0^i·(t+1)^{ς^i}, growing (per-agent polynomial decays with power −ς^i)"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

// Algorithm is LDOL on one problem instance; the engine makes it
// sim.Resumable.
type Algorithm struct{ *online.Engine }

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	minMix, known, err := online.CheckWeights(env, "LDOL")
	if err != nil {
		return nil, nil, err
	}
	if !env.Report.ZeroRowSums {
		return nil, nil, check.Errorf("weights", "LDOL's eq. (17) mixes with a Laplacian-type W (w_ii = −Σ_j w_ij, zero row sums; weights kind ldp-laplacian); the rows of this W do not sum to 0")
	}
	th := env.Noise["theta"]
	if (!th.IsOff() || p.Clip) && p.GradientBound == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) when noise is on or gradients are clipped: the ledger is computed from d")
	}
	warns := online.MixingWarning(minMix, known)
	vs := 0.0
	for i := range env.Problem.Agents() {
		if dec := th.DecayOf(i); dec.Kind == noise.Polynomial {
			vs = max(vs, -dec.P)
		}
	}
	if !(p.V > p.U && p.U > vs+0.5) {
		warns = append(warns, check.Warnf(check.Join(pf, "u"), "eq. (17) needs v > u > ς + ½ with ς = max_i ς^i = %g (v = %g, u = %g): its convergence result does not apply", vs, p.V, p.U))
	}
	h, err := online.NewHistory(env, p.Batch, p.Window)
	if err != nil {
		return nil, nil, err
	}
	clip := 0.0
	if p.Clip {
		clip = p.GradientBound
	}
	step := func(t int) float64 { return noise.Poly(p.Lambda0, 1, p.V).At(t) }
	weaken := func(t int) float64 { return noise.Poly(p.Gamma0, 1, p.U).At(t) }
	e := online.NewEngine(online.Config{Name: "ldol", Channel: "theta", Step: step, Weaken: weaken, Radius: p.Radius, Clip: clip}, env, h)
	diag := env.Weights.Diag
	ac := online.NewAccountant(env.Problem.Agents(), th, func(_, t int, delta float64) float64 {
		g := weaken(t)
		c := 0.0
		for _, w := range diag {
			c = max(c, math.Abs(1+float64(g*w)))
		}
		return float64(c*delta) + 2*p.GradientBound*step(t)/float64(t+1)
	})
	ac.Head = privacy.Ledger{
		Algorithm: "ldol",
		Notion:    "ε^i-LDP per agent (Laplace; adjacent streams differ in one sample)",
		Source:    "baselines.md §7.1's reconstruction (the LDP online paper does not recompute LDOL's budget); confidence " + Confidence,
		Formula:   "ε^i = Σ_t Δ_t/ν̌_t^i,  Δ_0 = 0,  Δ_{t+1} = max_i|1 + γ_t·w_ii|·Δ_t + 2d·λ̌_t/(t+1)",
		Inputs: []privacy.Input{privacy.Num("d (ℓ1 gradient bound)", p.GradientBound), privacy.Num("γ_0", p.Gamma0), privacy.Num("u", p.U),
			privacy.Num("λ̌_0", p.Lambda0), privacy.Num("v", p.V), privacy.Text("clip_gradients (modification)", fmt.Sprint(p.Clip))},
		Notes: []string{"The noise grows as (t+1)^{ς^i} while the weakening factor γ_t shrinks the neighbours' influence (eq. (17))."},
	}
	ac.EntryInputs = func(i int) []privacy.Input { return online.ScaleInputs(th, i) }
	ac.Adjacent, ac.Channel = "one sample of one agent's data stream is replaced (the LDP online paper's Definition 1); every sample gradient has ℓ1 norm at most d", "theta"
	return &method.Built{Algorithm: &Algorithm{e}, Accountant: ac}, warns, nil
}
