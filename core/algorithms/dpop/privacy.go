package dpop

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formula is the ledger's formula (baselines.md §5.1, Huang et al.'s
// Lemma 2 with observation-conditioned sensitivities).
const Formula = "ε_i = Σ_{t=0..K−1} Δ_t/b_t,  Δ_0 = 0,  Δ_{t+1} = 2C√d·γ_t (+ a_ii·Δ_t when self_noisy is off),  γ_t = c·q^t,  b_t = b·p^t"

// Confidence is the source confidence baselines.md gives DPOP.
const Confidence = "medium-high: the step c·q^t and noise 2C√d·c·p^t/(ε(p−q)) match two independent public implementations; the order average → gradient step → projection is reconstructed from recollection (baselines.md §5.1)"

// Accountant keeps DPOP's ledger: the message x̃_i(t) has ℓ1 sensitivity
// Δ_t (the difference x_i(t) − x_i'(t) between adjacent problems, given
// every message observed) and Laplace scale b_t, so agent i spends
// Σ_t Δ_t/b_t. With its own noisy copy mixed, z_i(t) is a function of
// the observed messages, and x_i(t+1) = Π_X[z − γ_t∇f_i(z)] differs by at
// most γ_t·‖∇f_i − ∇f_i'‖ ≤ 2C·γ_t (Π_X is nonexpansive); ℓ1 adds √d.
// O(1) per agent and iteration.
type Accountant struct {
	// Interrupt lets a calibration cancel a long prediction.
	privacy.Interrupt
	alg    *Algorithm
	pre    float64 // 2C√d
	agents []acct
	iters  int
	k      int // messages of iterations 0..k−1 accounted
	off    bool
	// replay holds each agent's Δ_t for Releases.
	replay privacy.Replay[acct]
}

type acct struct {
	delta    float64 // Δ_k
	sum      privacy.Sum
	infinite string
}

// NewAccountant returns the ledger keeper of alg.
func NewAccountant(alg *Algorithm) *Accountant {
	return &Accountant{alg: alg, pre: 2 * alg.p.GradientBound * math.Sqrt(float64(alg.d)),
		agents: make([]acct, alg.n), off: alg.eta.IsOff()}
}

// Record implements sim.Recorder: a step with Iter = n means the messages
// of iterations 0..n−1 have been sent.
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	for ac.k < st.Iter {
		for i := range ac.agents {
			ac.advance(&ac.agents[i], i, ac.k, ac.alg.eta)
		}
		ac.k++
	}
}

// advance adds the messages of iteration t to a and moves Δ_t to Δ_{t+1}.
func (ac *Accountant) advance(a *acct, i, t int, eta *noise.Spec) {
	if a.infinite == "" && a.delta > 0 {
		l := eta.LogScaleAt(i, t)
		if math.IsInf(l, -1) {
			a.infinite = fmt.Sprintf("the noise scale is 0 at iteration %d", t)
		} else {
			a.sum.AddLog(num.Log(a.delta) - l)
		}
	}
	a.delta = ac.next(a.delta, i, t)
}

// next returns Δ_{t+1} from Δ_t = delta (Formula).
func (ac *Accountant) next(delta float64, i, t int) float64 {
	next := float64(ac.pre * ac.alg.Step(t))
	if !ac.alg.p.SelfNoisy {
		next += float64(ac.alg.diag[i] * delta)
	}
	return next
}

// PredictEpsilon implements privacy.Predictor: the ledger after
// iterations iterations with every noise scale multiplied by factor
// (ε ∝ 1/factor exactly).
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return privacy.Rescale(ac.predict1(iterations), factor)
}

// FactorFor implements privacy.InversePredictor.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	return privacy.ProportionalFactor(ac.predict1(iterations), iterations, target)
}

func (ac *Accountant) predict1(iterations int) privacy.Amount {
	if ac.off {
		return privacy.Infinite()
	}
	type key struct{ w, b float64 }
	return privacy.MaxDistinct(len(ac.agents),
		func(i int) key { return key{ac.alg.diag[i], ac.alg.eta.Base(i)} },
		func(i int) privacy.Amount {
			var a acct
			for t := range iterations {
				if ac.Stop(t) {
					return privacy.Infinite() // cancelled: the calibration reports it
				}
				ac.advance(&a, i, t, ac.alg.eta)
			}
			if a.infinite != "" {
				return privacy.Infinite()
			}
			return a.sum.Amount()
		})
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	p := ac.alg.p
	l := privacy.Ledger{
		Algorithm:  "dpop",
		Notion:     "ε-DP of the local objectives (Laplace mechanism; adjacent problems differ in one f_i, both with ‖∇f_i‖₂ ≤ C on X)",
		Source:     "Huang, Mitra & Vaidya 2015 (DPOP), as baselines.md §5.1 reconstructs it; confidence " + Confidence,
		Formula:    Formula,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Num("d (dimension)", float64(ac.alg.d)),
			privacy.Num("C (gradient bound)", p.GradientBound),
			privacy.Text("C from", ac.alg.cFrom),
			privacy.Num("c", p.C), privacy.Num("q", p.Q),
			privacy.Text("b_t decay", ac.alg.eta.Decay.String()),
			privacy.Text("self_noisy", fmt.Sprint(p.SelfNoisy)),
		},
	}
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{privacy.Num("b", ac.alg.eta.Base(i)), privacy.Num("a_ii", ac.alg.diag[i])}}
		switch {
		case ac.off:
			e.Epsilon, e.Reason = privacy.Infinite(), "no noise (channel eta)"
		case a.infinite != "":
			e.Epsilon, e.Reason = privacy.Infinite(), a.infinite
		default:
			e.Epsilon = a.sum.Amount()
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	l.Notes = append(l.Notes, fmt.Sprintf("C = %g bounds ‖∇f_i‖ on the domain X, onto which every iterate is projected", p.GradientBound))
	return l
}

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "DPOP's update and ledger (Huang et al., Lemma 2) take one noise decay b·p^t for all agents"

// Adjacency implements privacy.Releaser (Huang et al.'s adjacency, as
// baselines.md §5.1 reconstructs it).
func (ac *Accountant) Adjacency() string {
	return "one agent's objective f_i is replaced by another, both with ‖∇f_i‖₂ ≤ C on the domain X (Huang, Mitra & Vaidya 2015), so a gradient changes by at most 2C√d in ℓ1"
}

// Releases implements privacy.Releaser: the message x̃_i(t) = x_i(t) +
// η_i(t) is a Laplace release of scale b_t and ℓ1 sensitivity Δ_t of
// Formula (Huang et al.'s Lemma 2), which the ledger composes.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	if ac.replay.Start == nil {
		ac.replay.Start = func(int) acct { return acct{} }
		ac.replay.Next = func(a *acct, i, t int) { a.delta = ac.next(a.delta, i, t) }
	}
	for t := from; t < to; t++ {
		d := ac.replay.At(agent, t, len(ac.agents)).delta
		dst = append(dst, privacy.Charge{Agent: agent, Channel: "x", Release: privacy.ChannelRelease(ac.alg.eta, agent, t, d, factor)})
	}
	return dst
}
