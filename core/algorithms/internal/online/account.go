package online

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Sensitivity moves agent i's ℓ1 sensitivity from Δ_t (of the message
// y_t) to Δ_{t+1}; Δ_0 = 0, as θ_0 depends on no data.
type Sensitivity func(i, t int, delta float64) float64

// Accountant keeps the Laplace ledger of a method that releases one
// vector y_t^i per agent and iteration: ε^i = Σ_t Δ_t^i/ν_t^i (Lemma 1 of
// LDP online; Huang et al.'s Lemma 2), over the messages y_0, …, y_{K−1}
// of K iterations. O(1) per agent and iteration.
type Accountant struct {
	privacy.Interrupt
	spec   *noise.Spec
	next   Sensitivity
	agents []acct
	iters  int
	k      int
	// Head is the ledger without its agents and count, filled by the
	// plug-in (algorithm, notion, source, formula, inputs, notes).
	Head privacy.Ledger
	// EntryInputs returns agent i's own inputs (its base scale, decay).
	EntryInputs func(i int) []privacy.Input
	// Adjacent states the adjacency of the ledger's analysis in words
	// (privacy.Releaser), and Channel names the released value's channel.
	Adjacent, Channel string
	replay            privacy.Replay[acct]
}

type acct struct {
	delta    float64
	sum      privacy.Sum
	infinite string
}

// NewAccountant returns the ledger keeper of n agents on channel spec
// with sensitivity recursion next.
func NewAccountant(n int, spec *noise.Spec, next Sensitivity) *Accountant {
	return &Accountant{spec: spec, next: next, agents: make([]acct, n)}
}

// Record implements sim.Recorder: a step with Iter = K means the messages
// y_0, …, y_{K−1} have been sent.
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	for ac.k < st.Iter {
		for i := range ac.agents {
			ac.advance(&ac.agents[i], i, ac.k)
		}
		ac.k++
	}
}

// advance adds message y_t's term Δ_t/ν_t and moves Δ_t to Δ_{t+1}.
func (ac *Accountant) advance(a *acct, i, t int) {
	if a.infinite == "" && a.delta > 0 {
		l := ac.spec.LogScaleAt(i, t)
		if math.IsInf(l, -1) {
			a.infinite = fmt.Sprintf("the noise scale is 0 at iteration %d", t)
		} else {
			a.sum.AddLog(num.Log(a.delta) - l)
		}
	}
	a.delta = ac.next(i, t, a.delta)
}

// Epsilon returns agent i's ε after iterations iterations (messages
// y_0, …, y_{iterations−1}), computed afresh.
func (ac *Accountant) Epsilon(i, iterations int) privacy.Amount {
	if ac.spec.IsOff() {
		return privacy.Infinite()
	}
	var a acct
	for t := range iterations {
		if ac.Stop(t) {
			return privacy.Infinite()
		}
		ac.advance(&a, i, t)
	}
	if a.infinite != "" {
		return privacy.Infinite()
	}
	return a.sum.Amount()
}

// PredictEpsilon implements privacy.Predictor (ε ∝ 1/factor exactly).
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return privacy.Rescale(ac.predict1(iterations), factor)
}

// FactorFor implements privacy.InversePredictor.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	return privacy.ProportionalFactor(ac.predict1(iterations), iterations, target)
}

func (ac *Accountant) predict1(iterations int) privacy.Amount {
	if ac.spec.IsOff() {
		// No loop to interrupt; the hook is still asked once, as every
		// prediction does (so a calibration sees it answered).
		ac.Stop(0)
		return privacy.Infinite()
	}
	m := privacy.Of(0)
	for i := range ac.agents {
		e := ac.Epsilon(i, iterations)
		if e.NoGuarantee() {
			return privacy.Infinite()
		}
		m = privacy.Max(m, e)
	}
	return m
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	l := ac.Head
	l.Inputs = append([]privacy.Input(nil), ac.Head.Inputs...)
	l.Notes = append([]string(nil), ac.Head.Notes...)
	l.Iterations = ac.iters
	off := ac.spec.IsOff()
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i}
		if ac.EntryInputs != nil {
			e.Inputs = ac.EntryInputs(i)
		}
		switch {
		case off || ac.spec.Base(i) == 0:
			e.Epsilon, e.Reason = privacy.Infinite(), "no noise"
		case a.infinite != "":
			e.Epsilon, e.Reason = privacy.Infinite(), a.infinite
		default:
			e.Epsilon = a.sum.Amount()
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	return l
}

// ScaleInputs returns agent i's base scale and decay as ledger inputs.
func ScaleInputs(spec *noise.Spec, i int) []privacy.Input {
	return []privacy.Input{privacy.Num("ν_0 (base scale)", spec.Base(i)), privacy.Text("decay", spec.DecayOf(i).String())}
}

// Adjacency implements privacy.Releaser.
func (ac *Accountant) Adjacency() string { return ac.Adjacent }

// Releases implements privacy.Releaser: y_t^i is a Laplace release of
// scale ν_t^i and ℓ1 sensitivity Δ_t of the plug-in's recursion, which
// Lemma 1 composes.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	if ac.replay.Start == nil {
		ac.replay.Start = func(int) acct { return acct{} }
		ac.replay.Next = func(a *acct, i, t int) { a.delta = ac.next(i, t, a.delta) }
	}
	for t := from; t < to; t++ {
		d := ac.replay.At(agent, t, len(ac.agents)).delta
		dst = append(dst, privacy.Charge{Agent: agent, Channel: ac.Channel, Release: privacy.ChannelRelease(ac.spec, agent, t, d, factor)})
	}
	return dst
}
