package privacy

import (
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/pld"
)

// Charge is one release an accountant charges an agent for: the channel
// that carried it (sim.Release.Channel) and the release as the tight
// accountant composes it — the noise law, its scale, the sensitivity its
// paper's analysis gives for one agent's change of data under the
// paper's adjacency, and how many times it was made (pld.Release.Count).
type Charge struct {
	Agent   int         `json:"agent"`
	Channel string      `json:"channel"`
	Release pld.Release `json:"release"`
}

// Releaser is implemented by an accountant whose paper's bound is a
// composition of releases, each a Laplace or Gaussian mechanism with a
// stated sensitivity: it states those releases, so that core/pld can
// compose them exactly (the tight bound, docs/privacy-truth.md) and an
// audit can test them. Its paper's bound is then at least the tight
// bound of the same releases, up to the conversions the paper uses.
type Releaser interface {
	Accountant
	// Adjacency states, in words, the neighbouring relation of the
	// paper's analysis: which data of one agent may change, and by how
	// much (the bound the sensitivities come from).
	Adjacency() string
	// Releases appends to dst the releases charged to agent for the
	// messages of iterations from … to−1 of a run from the start (a step
	// with Iter = k reports the messages of iteration k − 1), with every
	// noise scale multiplied by factor > 0 (1: the run's own scales).
	// They come in the order of the iterations; a release made several
	// times in a row on one channel may be given once with its Count.
	// The answer depends on the scenario alone (a walk is replayed from
	// its seed), so that a prediction equals what a run charges.
	Releases(dst []Charge, agent, from, to int, factor float64) []Charge
}

// Uncharged is implemented by an accountant whose bound is not a
// composition of releases with stated sensitivities (no privacy analysis,
// or a bound proved another way): the tight accountant does not apply,
// and Uncharged says why, in one sentence the ledger shows.
type Uncharged interface {
	Accountant
	Uncharged() string
}

// StepCharges appends to dst what r charges every agent (0 … agents−1)
// for the step with Iter = iter: the messages of iteration iter − 1 at
// the run's own scales.
func StepCharges(dst []Charge, r Releaser, agents, iter int) []Charge {
	if iter < 1 {
		return dst
	}
	for i := range agents {
		dst = r.Releases(dst, i, iter-1, iter, 1)
	}
	return dst
}

// Release returns the release of a value of sensitivity sens under noise
// of law mech and the given scale, each given by its natural logarithm
// (−Inf for 0): the accountants keep their scales and sensitivities in
// log space, where a budget of 10⁴⁰⁰ stays finite. A scale below
// float64's range or a sensitivity above it is written as their ratio
// over a scale of 1, which is all that composition reads.
func Release(mech pld.Mechanism, logSens, logScale float64) pld.Release {
	r := pld.Release{Mechanism: mech}
	if math.IsInf(logSens, -1) {
		r.Scale = num.Exp(logScale)
		return r
	}
	if math.IsInf(logScale, -1) {
		r.Sensitivity = num.Exp(logSens)
		return r
	}
	r.Scale, r.Sensitivity = num.Exp(logScale), num.Exp(logSens)
	if r.Scale == 0 || math.IsInf(r.Sensitivity, 1) || math.IsInf(r.Scale, 1) {
		r.Scale, r.Sensitivity = 1, num.Exp(logSens-logScale)
	}
	return r
}

// Replay keeps, per agent, the state of a recursion over the iterations
// (a sensitivity bound, say) where the last call to At left it, so that
// Releases read as a run goes costs O(1) per iteration; asked for an
// earlier iteration, it restarts from the first.
type Replay[S any] struct {
	states []S
	at     []int
	// Start returns agent i's state at iteration 0; Next moves it from
	// iteration k to k + 1.
	Start func(i int) S
	Next  func(s *S, i, k int)
}

// At returns agent i's state at iteration k (of n agents).
func (r *Replay[S]) At(i, k, n int) *S {
	if r.states == nil {
		r.states, r.at = make([]S, n), make([]int, n)
		for j := range n {
			r.states[j] = r.Start(j)
		}
	}
	if r.at[i] > k {
		r.states[i], r.at[i] = r.Start(i), 0
	}
	for ; r.at[i] < k; r.at[i]++ {
		r.Next(&r.states[i], i, r.at[i])
	}
	return &r.states[i]
}

// ChannelRelease is the release agent i makes on noise channel s at
// iteration k of a value of sensitivity sens, with the channel's law and
// its scale multiplied by factor; where that scale under- or overflows
// float64, the ratio comes from the logarithms (Release).
func ChannelRelease(s *noise.Spec, i, k int, sens, factor float64) pld.Release {
	mech := pld.Mechanism(s.Dist)
	b := s.ScaleAt(i, k) * factor
	if b > 0 && !math.IsInf(b, 0) || s.Base(i) == 0 {
		return pld.Release{Mechanism: mech, Scale: b, Sensitivity: sens}
	}
	ls := math.Inf(-1)
	if sens > 0 {
		ls = num.Log(sens)
	}
	return Release(mech, ls, s.LogScaleAt(i, k)+num.Log(factor))
}
