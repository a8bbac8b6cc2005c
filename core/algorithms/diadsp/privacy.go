package diadsp

import (
	"fmt"
	"math"

	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formula is the ledger's formula (baselines.md §3.1, reconstructed).
const Formula = "ε_i = Σ_{k=0..K−1} ( s_x(k)/(u_x r^k) + s_y(k)/(u_y r^k) ),  " +
	"bounded-gradient: s_y(0) = 2√d·C, s_y(k≥1) = 4√d·C, s_x(0) = 0, s_x(k+1) = α·s_y(k);  " +
	"affine: s_y(0) = √d·δ, s_x(k+1) = α·s_y(k), s_y(k+1) = L·(s_x(k+1) + s_x(k));  " +
	"without self_noisy add w_ii·s_x(k) and w_ii·s_y(k)"

// Confidence is the source confidence baselines.md gives DiaDSP.
const Confidence = "medium-low: the update is reconstructed from recollection (the original could not be opened) and the accountant is reconstructed (baselines.md §3.1)"

// Accountant keeps DiaDSP's ledger: Laplace composition over the two
// message streams with ℓ1 sensitivities from the observation-conditioned
// recursion of baselines.md §3.1 (fixed messages: only the target agent's
// own state differs between adjacent problems). O(1) per agent and
// iteration.
type Accountant struct {
	// Interrupt lets a calibration cancel a long prediction.
	privacy.Interrupt
	alg    *Algorithm
	l      float64 // L for the affine adjacency
	agents []acct
	k      int
	iters  int
	off    string
	// replay holds each agent's sensitivities for Releases.
	replay privacy.Replay[acct]
}

type acct struct {
	sx, sy   float64 // s_x(k), s_y(k), ℓ1
	sum      privacy.Sum
	infinite string
}

// NewAccountant returns the ledger keeper of alg; l is the smoothness
// constant the affine adjacency needs.
func NewAccountant(alg *Algorithm, l float64) *Accountant {
	ac := &Accountant{alg: alg, l: l, agents: make([]acct, alg.n)}
	for i := range ac.agents {
		ac.agents[i] = ac.initial()
	}
	switch {
	case alg.eta.IsOff() && alg.xi.IsOff():
		ac.off = "no noise on either channel"
	case alg.eta.IsOff():
		ac.off = "no noise on x (channel eta)"
	case alg.xi.IsOff():
		ac.off = "no noise on y (channel xi)"
	}
	return ac
}

func (ac *Accountant) initial() acct {
	rd := math.Sqrt(float64(ac.alg.d))
	if ac.alg.p.Adjacency == Affine {
		return acct{sy: rd * ac.alg.p.Delta}
	}
	return acct{sy: 2 * rd * ac.alg.p.GradientBound}
}

// Record implements sim.Recorder: Iter = n means the messages of
// iterations 0..n−1 have been sent.
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	for ac.k < st.Iter {
		for i := range ac.agents {
			ac.advance(&ac.agents[i], i, ac.k)
		}
		ac.k++
	}
}

// advance adds the messages of iteration k and moves the sensitivities to
// k+1.
func (ac *Accountant) advance(a *acct, i, k int) {
	if a.infinite == "" {
		for _, c := range []struct {
			s    float64
			logb float64
		}{{a.sx, ac.alg.eta.LogScaleAt(i, k)}, {a.sy, ac.alg.xi.LogScaleAt(i, k)}} {
			if c.s == 0 {
				continue
			}
			if math.IsInf(c.logb, -1) {
				a.infinite = fmt.Sprintf("a noise scale is 0 at iteration %d", k)
				break
			}
			a.sum.AddLog(num.Log(c.s) - c.logb)
		}
	}
	ac.next(a, i)
}

// next moves the sensitivities s_x(k), s_y(k) of a to k + 1 (Formula).
func (ac *Accountant) next(a *acct, i int) {
	p := ac.alg.p
	w := 0.0
	if !p.SelfNoisy {
		w = ac.alg.diag[i]
	}
	sx := float64(w*a.sx) + float64(p.Alpha*a.sy)
	var sy float64
	if p.Adjacency == Affine {
		sy = float64(w*a.sy) + float64(ac.l*(sx+a.sx))
	} else {
		sy = float64(w*a.sy) + float64(4*math.Sqrt(float64(ac.alg.d))*p.GradientBound)
	}
	a.sx, a.sy = sx, sy
}

// Adjacency implements privacy.Releaser.
func (ac *Accountant) Adjacency() string {
	if ac.alg.p.Adjacency == Affine {
		return "one agent's objective f_i is replaced by f_i + cᵀx with ‖c‖₂ ≤ δ (DiaDSP's adjacency, baselines.md §3.1)"
	}
	return "one agent's objective f_i is replaced by another, both with ‖∇f_i‖₂ ≤ C (GT-DP's adjacency, baselines.md §3.1)"
}

// Releases implements privacy.Releaser: the messages of iteration k are
// Laplace releases of x (scale u_x r^k) and y (scale u_y r^k) with the ℓ1
// sensitivities s_x(k), s_y(k) of Formula's recursion, which the ledger
// composes.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	if ac.replay.Start == nil {
		ac.replay.Start = func(int) acct { return ac.initial() }
		ac.replay.Next = func(a *acct, i, _ int) { ac.next(a, i) }
	}
	for k := from; k < to; k++ {
		a := ac.replay.At(agent, k, len(ac.agents))
		dst = append(dst,
			privacy.Charge{Agent: agent, Channel: "x", Release: privacy.ChannelRelease(ac.alg.eta, agent, k, a.sx, factor)},
			privacy.Charge{Agent: agent, Channel: "y", Release: privacy.ChannelRelease(ac.alg.xi, agent, k, a.sy, factor)})
	}
	return dst
}

// PredictEpsilon implements privacy.Predictor (ε ∝ 1/factor exactly).
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return privacy.Rescale(ac.predict1(iterations), factor)
}

// FactorFor implements privacy.InversePredictor.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	if ac.off != "" {
		return 0, fmt.Errorf("cannot be reached: DiaDSP has %s, and no scale gives a finite ε", ac.off)
	}
	return privacy.ProportionalFactor(ac.predict1(iterations), iterations, target)
}

func (ac *Accountant) predict1(iterations int) privacy.Amount {
	if ac.off != "" {
		return privacy.Infinite()
	}
	type key struct{ w, bx, by float64 }
	return privacy.MaxDistinct(len(ac.agents),
		func(i int) key { return key{ac.alg.diag[i], ac.alg.eta.Base(i), ac.alg.xi.Base(i)} },
		func(i int) privacy.Amount {
			a := ac.initial()
			for t := range iterations {
				if ac.Stop(t) {
					return privacy.Infinite() // cancelled: the calibration reports it
				}
				ac.advance(&a, i, t)
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
	notion := "ε-DP of the local objectives (Laplace mechanism; adjacent f_i, f_i' both with ‖∇f‖₂ ≤ C — GT-DP's notion)"
	if p.Adjacency == Affine {
		notion = "ε-DP of the local objectives (Laplace mechanism; adjacent f_i' = f_i + cᵀx with ‖c‖₂ ≤ δ — DiaDSP's notion)"
	}
	l := privacy.Ledger{
		Algorithm:  "diadsp",
		Notion:     notion,
		Source:     "Ding, Zhu, He, Chen & Guan 2022 (DiaDSP), as baselines.md §3.1 reconstructs it; confidence " + Confidence,
		Formula:    Formula,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Num("d (dimension)", float64(ac.alg.d)), privacy.Num("α", p.Alpha),
			privacy.Text("adjacency", p.Adjacency), privacy.Num("C", p.GradientBound), privacy.Text("C from", ac.alg.cFrom), privacy.Num("δ", p.Delta), privacy.Num("L", ac.l),
			privacy.Text("u_x decay", ac.alg.eta.Decay.String()), privacy.Text("u_y decay", ac.alg.xi.Decay.String()),
			privacy.Text("self_noisy", fmt.Sprint(p.SelfNoisy)),
		},
	}
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{privacy.Num("u_x", ac.alg.eta.Base(i)), privacy.Num("u_y", ac.alg.xi.Base(i))}}
		switch {
		case ac.off != "":
			e.Epsilon, e.Reason = privacy.Infinite(), ac.off
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

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "DiaDSP's update and accountant take one noise decay per channel for all agents"
