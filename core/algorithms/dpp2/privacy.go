package dpp2

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formula is Theorem 3's budget as the ledger computes it.
const Formula = "ε_i(K) = Σ_{k=1..K} √d·δ·(1/θ_{e,i}^k + α/θ_{w,i}^k)/(1 − α·M̄),  θ^k = u·r_i^k;  " +
	"= c̃_i·(r_i^(−K) − 1)/(1 − r_i) with c̃_i = √d·δ·(1/u_{e,i} + α/u_{w,i})/(1 − α·M̄) (Theorem 3);  " +
	"conservative: + √d·δ/u_{e,i} for k = 0;  K = iterations run − 1 (Algorithm 1 runs k = 0..K)"

// CTilde returns Theorem 3's constant c̃ = √d·δ·(1/u_e + α/u_w)/(1 − α·M̄)
// for dimension d, adjacency δ, step α, base scales u_e and u_w and
// smoothness M̄. It is the paper's √d(1/(αu_e) + 1/u_w)·αδ/(1 − αM̄)
// written out. It reports an error when α·M̄ ≥ 1 (the theorem gives no
// guarantee) or a scale is not positive.
func CTilde(d int, delta, alpha, ue, uw, mbar float64) (float64, error) {
	if alpha*mbar >= 1 {
		return 0, fmt.Errorf("no guarantee: Theorem 3 needs α·M̄ < 1 (α = %g, M̄ = %g, α·M̄ = %g)", alpha, mbar, alpha*mbar)
	}
	if !(ue > 0) || !(uw > 0) {
		return 0, fmt.Errorf("no guarantee: Theorem 3 needs u_e > 0 and u_w > 0 (u_e = %g, u_w = %g)", ue, uw)
	}
	return math.Sqrt(float64(d)) * delta * (1/ue + alpha/uw) / (1 - float64(alpha*mbar)), nil
}

// logS returns ln S(r; K), S(r; K) = Σ_{k=1..K} r^(−k) = (r^(−K) − 1)/(1 −
// r), in log space so that it never overflows: ln S = K·ln(1/r) +
// ln(1 − r^K) − ln(1 − r) for 0 < r < 1, ln K at r = 1, and +Inf at r = 0.
func logS(r float64, k int) float64 {
	switch {
	case k <= 0:
		return math.Inf(-1)
	case r == 1:
		return num.Log(float64(k))
	case r <= 0:
		return math.Inf(1)
	}
	lr := num.Log(r)
	// 1 − r^K: r^K underflows harmlessly to 0.
	rk := num.Exp(float64(k) * lr)
	if r > 1 {
		// A growing noise: Σ r^(−k) = (1 − r^(−K))/(r − 1), bounded by 1/(r − 1).
		return num.Log(1-num.Exp(-float64(k)*lr)) - num.Log(r-1)
	}
	return float64(-float64(k)*lr) + num.Log(1-rk) - num.Log(1-r)
}

// Epsilon returns Theorem 3's ε = c̃·S(r; K) for decay r ∈ [0, 1] and
// horizon K, computed in log space (it grows like r^(−K): 10^x when it
// passes float64). r = 0 (noise at k = 0 only) gives ∞ for K ≥ 1.
func Epsilon(ctilde, r float64, k int) privacy.Amount {
	if k <= 0 || ctilde == 0 {
		return privacy.Of(0)
	}
	l := logS(r, k)
	if math.IsInf(l, 1) {
		return privacy.Infinite()
	}
	return privacy.OfLog10((num.Log(ctilde) + l) / math.Ln10)
}

// DecayFor returns the smallest decay r ∈ (0, 1] whose budget c̃·S(r; K)
// meets the target ε at horizon K, by bisection on ln S (S falls on (0, 1)
// to K at r = 1); every r in [r*, 1] then meets it. Corollary 1's interval
// ((c̃/ε)^(1/(K−1)), 1) is wrong (spec §3.5: with c̃ = 1, ε = 100, K = 10 it
// admits r = 0.6, whose S is 410.95), so this solves the theorem itself.
// The target is feasible iff c̃·K ≤ ε.
func DecayFor(ctilde, eps float64, k int) (float64, error) {
	switch {
	case !(ctilde > 0):
		return 0, fmt.Errorf("c̃ must be positive (got %g)", ctilde)
	case !(eps > 0) || math.IsInf(eps, 0):
		return 0, fmt.Errorf("the target ε must be positive and finite (got %g)", eps)
	case k < 1:
		return 0, fmt.Errorf("the horizon K must be at least 1 (got %d)", k)
	}
	target := num.Log(eps / ctilde)
	if logS(1, k) > target {
		return 0, fmt.Errorf("infeasible: even constant noise (r = 1) spends c̃·K = %g > ε = %g in K = %d iterations; raise the noise scales or shorten K", ctilde*float64(k), eps, k)
	}
	lo, hi := 0.0, 1.0 // S(lo) > target ≥ S(hi)
	for range 200 {
		mid := 0.5 * (lo + hi)
		if mid == lo || mid == hi {
			break
		}
		if logS(mid, k) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

// Accountant keeps Theorem 3's ledger for every agent, with any decay
// schedule per agent (the theorem's θ^k = u·r^k is the geometric one).
type Accountant struct {
	privacy.Interrupt
	alg   *Algorithm
	mbar  float64
	mFrom string
	// none is why no agent has a guarantee (α·M̄ ≥ 1, a channel off).
	none   string
	agents []acct
	k      int
	iters  int
}

type acct struct {
	sum      privacy.Sum
	infinite string
}

// NewAccountant returns the ledger keeper of alg with smoothness M̄ (and
// where it came from).
func NewAccountant(alg *Algorithm, mbar float64, mFrom string) *Accountant {
	ac := &Accountant{alg: alg, mbar: mbar, mFrom: mFrom, agents: make([]acct, alg.n)}
	switch {
	case alg.p.Alpha*mbar >= 1:
		ac.none = fmt.Sprintf("no guarantee: Theorem 3 needs α·M̄ < 1, and α·M̄ = %g·%g = %g", alg.p.Alpha, mbar, alg.p.Alpha*mbar)
	case alg.w.IsOff() && alg.e.IsOff():
		ac.none = "no noise on either message (u_w = u_e = 0)"
	case alg.e.IsOff():
		ac.none = "no noise on z (channel e): Theorem 3 needs u_e > 0"
	case alg.w.IsOff():
		ac.none = "no noise on y (channel w): Theorem 3 needs u_w > 0"
	}
	return ac
}

// term adds iteration k's term for agent i to a.
func (ac *Accountant) term(a *acct, i, k int) {
	if a.infinite != "" {
		return
	}
	lw, le := ac.alg.w.LogScaleAt(i, k), ac.alg.e.LogScaleAt(i, k)
	if math.IsInf(lw, -1) || math.IsInf(le, -1) {
		a.infinite = fmt.Sprintf("a noise scale is 0 at iteration %d", k)
		if zeroAfterStart(ac.alg.w.DecayOf(i)) || zeroAfterStart(ac.alg.e.DecayOf(i)) {
			a.infinite += " (r = 0: noise at k = 0 only)"
		}
		return
	}
	p := ac.alg.p
	l0 := num.Log(math.Sqrt(float64(ac.alg.d)) * p.Delta)
	if k == 0 {
		// The conservative k = 0 term: x^0 is the same, so only z^0
		// differs, by ∇f_i − ∇f_i' at x^0: ℓ1 sensitivity √d·δ.
		a.sum.AddLog(l0 - le)
		return
	}
	c := l0 - num.Log(1-float64(p.Alpha*ac.mbar))
	a.sum.AddLog(c - le)
	a.sum.AddLog(c + num.Log(p.Alpha) - lw)
}

// advance adds the messages of iteration k for every agent.
func (ac *Accountant) advance(a *acct, i, k int) {
	if k == 0 && !ac.alg.p.Conservative {
		return
	}
	ac.term(a, i, k)
}

// Record implements sim.Recorder: Iter = n means iterations k = 0..n−1
// have been sent, so the ledger holds ε(K = n − 1).
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	if ac.none != "" {
		ac.k = st.Iter
		return
	}
	for ac.k < st.Iter {
		for i := range ac.agents {
			ac.advance(&ac.agents[i], i, ac.k)
		}
		ac.k++
	}
}

// PredictEpsilon implements privacy.Predictor: ε is exactly proportional
// to 1/factor when both scales are multiplied by factor.
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return privacy.Rescale(ac.predict1(iterations), factor)
}

// FactorFor implements privacy.InversePredictor.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	if ac.none != "" {
		return 0, fmt.Errorf("cannot be reached: DPP² has %s", ac.none)
	}
	return privacy.ProportionalFactor(ac.predict1(iterations), iterations, target)
}

func (ac *Accountant) predict1(iterations int) privacy.Amount {
	if ac.none != "" {
		return privacy.Infinite()
	}
	type key struct {
		bw, be float64
		dw, de string
	}
	return privacy.MaxDistinct(len(ac.agents),
		func(i int) key {
			return key{ac.alg.w.Base(i), ac.alg.e.Base(i), ac.alg.w.DecayOf(i).String(), ac.alg.e.DecayOf(i).String()}
		},
		func(i int) privacy.Amount {
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
		})
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	p := ac.alg.p
	l := privacy.Ledger{
		Algorithm:  "dpp2",
		Notion:     "ε-DP of the local objectives (Laplace mechanism; δ-adjacency: sup_x ‖∇f_i − ∇f_i'‖₂ ≤ δ, no bounded gradients needed); the eavesdropper sees every y and z and knows η",
		Source:     "Ou, Wang, Liu & Lu, DPP², Theorem 3 (finite horizon only: ε grows like r^(−K))",
		Formula:    Formula,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Num("d (dimension)", float64(ac.alg.d)), privacy.Num("δ", p.Delta), privacy.Num("α", p.Alpha),
			privacy.Num("M̄", ac.mbar), privacy.Text("M̄ from", ac.mFrom), privacy.Num("α·M̄", p.Alpha*ac.mbar),
			privacy.Num("K", float64(max(ac.iters-1, 0))), privacy.Text("k = 0 term", fmt.Sprint(p.Conservative)),
		},
		Notes: []string{"Corollary 1's interval for r is wrong (spec §3.5); the inverse r for a target ε is solved by bisection (DecayFor)."},
	}
	if !p.Conservative && ac.none == "" {
		// The paper's sum starts at k = 1, so after the first iteration
		// (K = 0) it reads 0 although z^0 already depended on f_i.
		l.Notes = append(l.Notes, "Theorem 3's sum starts at k = 1: the messages of k = 0 are not counted (ε reads 0 after one iteration), although z^0 already depends on f_i; \"conservative\": true adds their √d·δ/u_e.")
	}
	if t := p.TargetEpsilon; t > 0 && ac.none == "" {
		l.Notes = append(l.Notes, ac.inverseNotes(t)...)
	}
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{
			privacy.Num("u_w", ac.alg.w.Base(i)), privacy.Num("u_e", ac.alg.e.Base(i)),
			privacy.Text("w decay", ac.alg.w.DecayOf(i).String()), privacy.Text("e decay", ac.alg.e.DecayOf(i).String())}}
		switch {
		case ac.none != "":
			e.Epsilon, e.Reason = privacy.Infinite(), ac.none
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

// zeroAfterStart reports a geometric decay with r = 0: noise at k = 0
// only (0^0 = 1), which the figures label "noise only at k = 0".
func zeroAfterStart(s noise.Schedule) bool { return s.Kind == noise.Geometric && s.R == 0 }

// inverseNotes says, for each distinct (u_e, u_w, r) among the agents,
// the decay r* = DecayFor(c̃, target, K) at the horizon so far and whether
// the agent's r meets the target (Theorem 3's geometric schedule only).
func (ac *Accountant) inverseNotes(target float64) []string {
	k := ac.iters - 1
	if k < 1 {
		return []string{fmt.Sprintf("target ε = %g: the decay r* is given from K = 1 on (after two iterations)", target)}
	}
	var out []string
	seen := map[[3]float64]bool{}
	for i := range ac.agents {
		ue, uw, r, ok := ac.geometric(i)
		if !ok {
			out = append(out, fmt.Sprintf("target ε: agent %d's noise is not one geometric decay r^k on both messages, so Theorem 3's inverse does not apply", i))
			continue
		}
		key := [3]float64{ue, uw, r}
		if seen[key] {
			continue
		}
		seen[key] = true
		ct, err := CTilde(ac.alg.d, ac.alg.p.Delta, ac.alg.p.Alpha, ue, uw, ac.mbar)
		if err != nil {
			out = append(out, fmt.Sprintf("target ε: agent %d: %v", i, err))
			continue
		}
		rs, err := DecayFor(ct, target, k)
		if err != nil {
			out = append(out, fmt.Sprintf("target ε = %g at K = %d, agent %d (c̃ = %.6g): %v", target, k, i, ct, err))
			continue
		}
		verdict := "meets it"
		if r < rs {
			verdict = "does not meet it"
		}
		out = append(out, fmt.Sprintf("target ε = %g at K = %d, agent %d (c̃ = %.6g): every r ≥ r* = %.9g meets it; its r = %g %s", target, k, i, ct, rs, r, verdict))
	}
	return out
}

// geometric returns agent i's noise as Theorem 3 states it — scales
// u_e·r^k and u_w·r^k, one decay r on both messages (r = 1: constant
// noise) — and ok false for any other schedule.
func (ac *Accountant) geometric(i int) (ue, uw, r float64, ok bool) {
	dw, de := ac.alg.w.DecayOf(i), ac.alg.e.DecayOf(i)
	ue, uw = ac.alg.e.Base(i)*de.C, ac.alg.w.Base(i)*dw.C
	switch {
	case dw.Kind == noise.Constant && de.Kind == noise.Constant:
		return ue, uw, 1, true
	case dw.Kind != noise.Geometric || de.Kind != noise.Geometric || dw.R != de.R:
		return 0, 0, 0, false
	}
	return ue, uw, de.R, true
}

// CalibrationFloor says why scaling DPP²'s noise — an equal-privacy
// calibration, the page's privacy slider — leaves ε high over a long
// horizon, and what would reach target instead. Theorem 3's ε =
// c̃·(r^(−K) − 1)/(1 − r) falls only as 1/factor when every scale is
// multiplied by factor, while the decay multiplies it by about r^(−K); a
// target is met with a decay r ≥ r* (DecayFor) once the noise is large
// enough that even constant noise meets it (c̃·K ≤ ε). It speaks of the
// most exposed agent after iterations iterations (K = iterations − 1),
// with the noise up to ×factor (the most the page allows); "" when
// Theorem 3 gives no ε or that agent's noise is not one geometric decay.
func (ac *Accountant) CalibrationFloor(iterations int, factor, target float64) string {
	k := iterations - 1
	if ac.none != "" || k < 1 || !(factor > 0) || !(target > 0) {
		return ""
	}
	// The most exposed agent: the largest ln(c̃·S(r; K)).
	var ct, r float64
	worst := math.Inf(-1)
	for i := range ac.agents {
		ue, uw, ri, ok := ac.geometric(i)
		if !ok {
			return ""
		}
		c, err := CTilde(ac.alg.d, ac.alg.p.Delta, ac.alg.p.Alpha, ue, uw, ac.mbar)
		if err != nil {
			return ""
		}
		if l := num.Log(c) + logS(ri, k); l > worst {
			worst, ct, r = l, c, ri
		}
	}
	if r >= 1 {
		return "" // constant noise: ε = c̃·K falls as 1/factor, no decay to blame
	}
	grow := float64(k) * -num.Log(r) / math.Ln10
	out := fmt.Sprintf("Theorem 3: ε = c̃·(r^(−K) − 1)/(1 − r) grows like r^(−K) — here %g^(−%d) ≈ 10^%.1f — while more noise only divides c̃, so no noise scale brings it lower", r, k, grow)
	// The noise that lets even constant noise meet the target, as a
	// power of ten, and the decay that then meets it.
	need := ct * float64(k) / target
	e := 0.0
	if need > 1 {
		e = math.Ceil(num.Log(need) / math.Ln10)
	}
	f := num.Exp(e * math.Ln10)
	if f > factor {
		return out + fmt.Sprintf("; even constant noise (r = 1) at the most noise allowed leaves ε = c̃·K = %.2g above ε = %g over K = %d iterations: only a shorter horizon reaches it", ct*float64(k)/factor, target, k)
	}
	rs, err := DecayFor(ct/f, target, k)
	if err != nil {
		return out
	}
	at := "the noise as it is"
	switch {
	case e > 6:
		at = fmt.Sprintf("the noise ×10^%.0f", e)
	case e > 0:
		at = fmt.Sprintf("the noise ×%.0f", f)
	}
	return out + fmt.Sprintf("; ε = %g needs a decay r closer to 1 or a shorter horizon: r ≥ %.6g with %s, whose noise at K is still %.3g of its start (Theorem 1's exact convergence needs it to vanish)",
		target, rs, at, num.Exp(float64(k)*num.Log(rs)))
}

// Adjacency implements privacy.Releaser (Definition 1's δ-adjacency).
func (ac *Accountant) Adjacency() string {
	return fmt.Sprintf("one agent's objective f_i is replaced by f_i' with sup_x ‖∇f_i(x) − ∇f_i'(x)‖₂ ≤ δ = %g (δ-adjacency, Definition 1; no gradient bound needed), η^k public", ac.alg.p.Delta)
}

// Releases implements privacy.Releaser: the messages of iteration k ≥ 1
// are y^k and z^k, Laplace releases of scales θ_w^k and θ_e^k whose ℓ1
// sensitivities the proof of Theorem 3 bounds by √d·α·δ/(1 − αM̄) and
// √d·δ/(1 − αM̄) (eqs. 63–64, without their factors 1 − (αM̄)^k, as
// the theorem states them); at k = 0 only z^0 differs, by √d·δ, charged
// with "conservative" as the ledger does. The product of the releases'
// density ratios in the proof (Appendix E) is their composition. With
// α·M̄ ≥ 1 the bounds are infinite.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	p := ac.alg.p
	l0 := math.Sqrt(float64(ac.alg.d)) * p.Delta
	sz := l0 / (1 - float64(p.Alpha*ac.mbar))
	if p.Alpha*ac.mbar >= 1 {
		sz = math.Inf(1)
	}
	for k := from; k < to; k++ {
		y, z := p.Alpha*sz, sz
		if k == 0 {
			y, z = 0, 0
			if p.Conservative {
				z = l0
			}
		}
		dst = append(dst,
			privacy.Charge{Agent: agent, Channel: "y", Release: privacy.ChannelRelease(ac.alg.w, agent, k, y, factor)},
			privacy.Charge{Agent: agent, Channel: "z", Release: privacy.ChannelRelease(ac.alg.e, agent, k, z, factor)})
	}
	return dst
}
