package gtdp

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formula is eq. (18)–(19) of the paper, as the ledger prints it.
const Formula = "ε_i = 2√r·C·Σ_{k=1..K} Σ_{t=0..k−1} [ w_ii^{k−1−t}/(β_k·b_η) + α·|c_{k,t}|/(β_k·b_ξ) ]·γ_t,  " +
	"c_{k,t} = w_ii^{k−2−t}·((k−t−1) − (k−t)·w_ii)"

// Accountant keeps GT-DP's privacy ledger: agent i's budget after the
// messages of iterations 0..K is eq. (18) of Theorem 2, evaluated with i's
// own self-weight w_ii and noise scales. The messages of iteration k carry
// s_k and x_k, whose sensitivity is 0 at k = 0; so after n iterations the
// ledger reports eq. (18) with K = n − 1.
//
// The double sum is kept in O(1) per iteration (plus a short correction)
// by the recursions
//
//	S_{k+1} = w·S_k + γ_k                       (S_k = Σ_t w^{k−1−t} γ_t)
//	Q_{k+1} = γ_k + w·(Q_k + S_k)               (Q_k = Σ_{j=1..k} j·w^{j−1} γ_{k−j})
//	Σ_t c_{k,t} γ_t = Q_{k−1} − Q_k
//
// and |c| = c − 2·min(c, 0), where c(j) < 0 exactly for j < 1/(1−w): a
// fixed, short list of terms.
type Accountant struct {
	alg    *Algorithm
	eta    *noise.Spec
	xi     *noise.Spec
	pre    float64 // 2√r·C
	gammas []float64
	agents []account
	k      int // last iteration whose messages are accounted
	iters  int // iterations recorded
	off    string
}

type account struct {
	w         float64
	s, q, q1  float64 // S_k, Q_k, Q_{k−1}
	negC      []float64
	logBEta   float64 // ln b_η of the agent (−Inf when 0), so that ln(b·β_k) costs one add
	logBXi    float64
	invBEta   float64 // 1/b_η and 1/b_ξ, for the linear-space terms
	invBXi    float64
	sum       privacy.Sum
	infinite  bool
	infReason string
}

// NewAccountant returns the ledger keeper of alg.
func NewAccountant(alg *Algorithm) *Accountant {
	ac := &Accountant{alg: alg, eta: alg.eta, xi: alg.xi,
		pre: 2 * math.Sqrt(float64(alg.d)) * alg.p.GradientBound}
	for i := range alg.n {
		w := alg.diag[i]
		var neg []float64
		// c(j) = w^{j−2}((j−1) − j·w) is negative for j < 1/(1−w).
		for j := 1; j < 1<<20; j++ {
			c := num.Pow(w, float64(j-2)) * (float64(j-1) - float64(j)*w)
			if c >= 0 {
				break
			}
			neg = append(neg, c)
		}
		ac.agents = append(ac.agents, account{w: w, negC: neg, logBEta: logBase(alg.eta, i), logBXi: logBase(alg.xi, i),
			invBEta: 1 / alg.eta.Base(i), invBXi: 1 / alg.xi.Base(i)})
	}
	switch {
	case alg.eta.IsOff() && alg.xi.IsOff():
		ac.off = "no noise on either channel"
	case alg.eta.IsOff():
		ac.off = "no noise on s (channel eta)"
	case alg.xi.IsOff():
		ac.off = "no noise on x (channel xi)"
	}
	return ac
}

// logBase returns ln b of agent i's base scale on channel s, exactly as
// noise.Spec.LogScaleAt computes it (−Inf for no noise).
func logBase(s *noise.Spec, i int) float64 {
	b := s.Base(i)
	if b == 0 {
		return math.Inf(-1)
	}
	return num.Log(b)
}

// Record implements sim.Recorder. A step with Iter = n means the messages
// of iteration n − 1 have been sent. The sums catch up when the ledger is
// read, so that a run whose budget nobody reads (a Monte Carlo sweep of
// the error alone) pays nothing for it; the arithmetic, and so every bit
// of ε, is the same either way.
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
}

// catchUp accounts for every message sent so far.
func (ac *Accountant) catchUp() {
	for ac.k < ac.iters-1 {
		ac.advance()
	}
}

// advance accounts for the messages of iteration k+1.
func (ac *Accountant) advance() {
	k := ac.k
	g := ac.alg.p.Gamma.At(k)
	ac.gammas = append(ac.gammas, g) // γ_k
	k++
	// ln(b_i·β_k) = ln b_i + ln β_k, as noise.Spec.LogScaleAt adds them;
	// ln β_k is the same for every agent.
	// 1/β_k, once per iteration (and once for both channels when they
	// share β_k, as in the paper): the terms are then products, with no
	// logarithm per agent (the ledger is a sweep's largest cost after the
	// algorithm). Where 1/β_k or a term overflows, the term is added in log
	// space as before.
	dEta := ac.eta.Decay.LogAt(k)
	invEta := num.Exp(-dEta)
	dXi, invXi := dEta, invEta
	if ac.xi.Decay != ac.eta.Decay {
		dXi = ac.xi.Decay.LogAt(k)
		invXi = num.Exp(-dXi)
	}
	for i := range ac.agents {
		a := &ac.agents[i]
		// Move from (S_{k−1}, Q_{k−1}) to (S_k, Q_k).
		sPrev, qPrev := a.s, a.q
		a.s = a.w*sPrev + g
		a.q = g + a.w*(qPrev+sPrev)
		a.q1 = qPrev
		if a.infinite || ac.off != "" {
			continue
		}
		t := a.q1 - a.q // Σ_t c_{k,t} γ_t
		for j, c := range a.negC {
			if j+1 > k {
				break
			}
			t -= 2 * c * ac.gammas[k-(j+1)]
		}
		le, lx := a.logBEta+dEta, a.logBXi+dXi
		if math.IsInf(le, -1) || math.IsInf(lx, -1) {
			a.infinite = true
			a.infReason = fmt.Sprintf("a noise scale is 0 at iteration %d", k)
			continue
		}
		if a.s > 0 {
			if v := ac.pre * a.s * a.invBEta * invEta; v <= math.MaxFloat64 {
				a.sum.Add(v)
			} else {
				a.sum.AddLog(num.Log(ac.pre*a.s) - le)
			}
		}
		if t > 0 {
			if v := ac.pre * ac.alg.p.Alpha * t * a.invBXi * invXi; v <= math.MaxFloat64 {
				a.sum.Add(v)
			} else {
				a.sum.AddLog(num.Log(ac.pre*ac.alg.p.Alpha*t) - lx)
			}
		}
	}
	ac.k = k
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	ac.catchUp()
	p := ac.alg.p
	l := privacy.Ledger{
		Algorithm:  "gt-dp",
		Notion:     "ε-DP of the local objectives (Laplace mechanism; adjacent problems differ in one f_i, both with ‖∇f_i‖₂ ≤ C)",
		Source:     "Xuan & Wang, GT-DP, Theorem 2, eqs. (18)–(19)",
		Formula:    Formula,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Num("r (dimension)", float64(ac.alg.d)),
			privacy.Num("C (gradient bound)", p.GradientBound),
			privacy.Num("α", p.Alpha),
			privacy.Text("γ_k", p.Gamma.String()),
			privacy.Text("β_k on s (eta decay)", ac.eta.Decay.String()),
			privacy.Text("β_k on x (xi decay)", ac.xi.Decay.String()),
			privacy.Num("K (last message round accounted)", float64(ac.k)),
		},
	}
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{
			privacy.Num("w_ii", a.w),
			privacy.Num("b_η", ac.eta.Base(i)),
			privacy.Num("b_ξ", ac.xi.Base(i)),
		}}
		switch {
		case ac.off != "":
			e.Epsilon, e.Reason = privacy.Infinite(), ac.off
		case a.infinite:
			e.Epsilon, e.Reason = privacy.Infinite(), a.infReason
		default:
			e.Epsilon = a.sum.Amount()
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	if ac.off == "" {
		g := ac.alg.MaxGradientNorm()
		switch {
		case p.ClipGradients:
			l.Notes = append(l.Notes, fmt.Sprintf("gradients are clipped to C = %g (a modification of the paper), so Assumption 2 holds", p.GradientBound))
		case g > p.GradientBound:
			l.Notes = append(l.Notes, fmt.Sprintf("NOT A GUARANTEE: a gradient of norm %.4g exceeded C = %g, so Assumption 2 fails on this run; raise C or clip gradients", g, p.GradientBound))
		default:
			l.Notes = append(l.Notes, fmt.Sprintf("valid only if C = %g bounds ‖∇f_i‖ on every admissible f_i; the largest gradient seen so far is %.4g", p.GradientBound, g))
		}
	}
	return l
}
