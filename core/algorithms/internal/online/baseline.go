package online

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/privacy"
)

// Plain is what the online baselines that mix with a stochastic A (DOLA,
// DMOD, DSGD) take: the step α_t = α_0/(t+1)^a, the stream, d, clipping
// and the projection radius.
type Plain struct {
	Alpha0, Power      float64
	Batch, Window      int
	GradientBound      float64
	Clip               bool
	Radius             float64
	SelfNoisy, AtMix   bool
	Name, Title, Field string
	// Channel is the noise channel ("" for none).
	Channel string
}

// Step returns α_t = α_0/(t+1)^a.
func (p Plain) Step(t int) float64 { return noise.Poly(p.Alpha0, 1, p.Power).At(t) }

// BuildPlain builds p's engine on env with the ledger ε^i = Σ_t Δ_t/b_t,
// Δ_0 = 0, Δ_{t+1} = 2√n·C·α_t, C the ℓ2 gradient bound and n the
// dimension: with the agent's own noisy copy mixed, z_i is a function of
// published messages only, and the step changes the released estimate
// by at most α_t·‖g − g'‖₂ ≤ 2C·α_t in ℓ2 (the projection does not expand
// distances), √n times that in ℓ1 — DOLA's and DPOP's S(t) = 2α_t·√n·C
// (baselines.md §5.1, §7.2, §7.4). A Laplacian-type W is used as
// A = I + W (baselines.md §7).
func BuildPlain(env *method.Env, p Plain, confidence string) (*Engine, *Accountant, []check.Warning, error) {
	minMix, known, err := CheckWeights(env, p.Title)
	if err != nil {
		return nil, nil, nil, err
	}
	var spec *noise.Spec
	if p.Channel != "" {
		spec = env.Noise[p.Channel]
	}
	noisy := spec != nil && !spec.IsOff()
	if (noisy || p.Clip) && p.GradientBound == 0 {
		return nil, nil, nil, check.Errorf(check.Join(p.Field, "gradient_bound"), "is required (> 0) when noise is on or gradients are clipped: the ledger is computed from C")
	}
	warns := MixingWarning(minMix, known)
	h, err := NewHistory(env, p.Batch, p.Window)
	if err != nil {
		return nil, nil, nil, err
	}
	clip := 0.0
	if p.Clip {
		clip = p.GradientBound
	}
	e := NewEngine(Config{Name: p.Name, Channel: p.Channel, Step: p.Step, SelfNoisy: p.SelfNoisy, GradAtMix: p.AtMix, Radius: p.Radius, ClipL2: clip}, env, h)
	pre := 2 * math.Sqrt(float64(env.Problem.Dim())) * p.GradientBound
	if spec == nil {
		return e, nil, warns, nil
	}
	ac := NewAccountant(env.Problem.Agents(), spec, func(_, t int, _ float64) float64 { return pre * p.Step(t) })
	ac.Head = privacy.Ledger{
		Algorithm: p.Name,
		Notion:    "ε-DP per agent (Laplace mechanism; one sample of the agent's stream replaced)",
		Source:    p.Title + ", as baselines.md reconstructs it; confidence " + confidence,
		Formula:   "ε^i = Σ_{t=0..K−1} Δ_t/b_t^i,  Δ_0 = 0,  Δ_{t+1} = 2√n·C·α_t,  α_t = α_0/(t+1)^a",
		Inputs: []privacy.Input{privacy.Num("C (ℓ2 gradient bound)", p.GradientBound), privacy.Num("n (dimension)", float64(env.Problem.Dim())), privacy.Num("α_0", p.Alpha0), privacy.Num("a", p.Power),
			privacy.Text("clip_gradients (modification)", fmt.Sprint(p.Clip))},
	}
	if !p.Clip {
		ac.Head.Notes = append(ac.Head.Notes, fmt.Sprintf("C = %g is taken as given, not enforced (clip_gradients is off)", p.GradientBound))
	}
	ac.EntryInputs = func(i int) []privacy.Input { return ScaleInputs(spec, i) }
	ac.Adjacent, ac.Channel = "one sample of one agent's stream is replaced; every gradient has ‖∇‖₂ ≤ C, so a step changes the estimate by at most 2C·α_t in ℓ2, √n times that in ℓ1", p.Channel
	return e, ac, warns, nil
}
