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
// It costs O(1) time and memory per agent and iteration, whatever w_ii
// and K (see series); γ_t is read from its schedule, never stored.
type Accountant struct {
	alg   *Algorithm
	eta   *noise.Spec
	xi    *noise.Spec
	pre   float64 // 2√r·C
	alpha float64
	gamma noise.Schedule
	// agents holds one account per agent; agents with the same w_ii and
	// scales would give the same numbers, but n accounts of a few words
	// each cost nothing next to the algorithm's own state.
	agents []account
	iters  int // iterations recorded
	off    string
}

// account is one agent's running eq. (18).
type account struct {
	ser       series
	sum       privacy.Sum
	infinite  bool
	infReason string
}

// series evaluates the two inner sums of eq. (18) for one self-weight w,
// k = 1, 2, …, in O(1) per k, with the kernel c(j) = c_{k,k−j}:
//
//	S_k = Σ_{t<k} w^{k−1−t} γ_t          S_{k+1} = w·S_k + γ_k
//	B_k = Σ_{j=1..k} j·w^{j−1} γ_{k−j}     B_{k+1} = γ_k + w·(B_k + S_k)
//	F_k = Σ_{j=1..k} c(j) γ_{k−j} = (1−w)·B_{k−1} − S_k
//
// because c(j) = (1−w)(j−1)w^{j−2} − w^{j−1}. The ledger needs Σ|c(j)|γ_{k−j};
// c(j) < 0 exactly for j ≤ J = ⌈w/(1−w)⌉, and for w near 1 that is many
// terms (J = 1999 at w = 0.9995, all of them at w = 1), the cause of the
// old O(K) cost. Splitting c(J+i) = w^J·c(i) + J(1−w)·w^{J+i−2} gives the
// positive tail in closed form from the same recursions J steps behind:
//
//	G_k = Σ_{j=J+1..k} c(j) γ_{k−j} = w^{J−1}·( w·F_{k−J} + J(1−w)·S_{k−J} )   (k > J; else 0)
//	Σ_j |c(j)| γ_{k−j} = F_k − 2(F_k − G_k) = 2·G_k − F_k
//
// The lagged copy is driven by γ_{k−J−1}, read from the schedule, so
// nothing grows with k.
type series struct {
	w     float64
	j     int64   // J; math.MaxInt64 when every c(j) is negative (w ≥ 1)
	wj1   float64 // w^{J−1}
	jw    float64 // J·(1−w)
	k     int64   // index of the current sums
	s, b  float64 // S_k, B_k
	b1    float64 // B_{k−1}
	ls    float64 // lagged S_{k−J}
	lb    float64 // lagged B_{k−J}
	lb1   float64 // lagged B_{k−J−1}
	sAbsC float64 // Σ_t |c_{k,t}| γ_t at the current k
}

// newSeries returns the sums of self-weight w at k = 0.
func newSeries(w float64) series {
	se := series{w: w, j: math.MaxInt64}
	if w < 1 {
		// The largest j with c(j) < 0, i.e. (j−1) − j·w < 0, evaluated the
		// way the literal sum does so that both classify the same terms.
		r := w / (1 - w)
		if r < 1<<52 {
			j := max(int64(math.Ceil(r)), 1)
			for j > 1 && !(float64(j-1)-float64(j)*w < 0) {
				j--
			}
			for float64(j)-float64(j+1)*w < 0 {
				j++
			}
			se.j = j
			se.wj1 = num.Pow(w, float64(j-1))
			se.jw = float64(j) * (1 - w)
		}
	}
	return se
}

// next moves from k to k+1 given γ_k and, when k+1 > J, γ_{k−J}; it
// returns S_{k+1} and Σ_t |c_{k+1,t}| γ_t.
func (se *series) next(g, gLag float64) (s, absC float64) {
	w := se.w
	sPrev, bPrev := se.s, se.b
	se.s = w*sPrev + g
	se.b = g + w*(bPrev+sPrev)
	se.b1 = bPrev
	se.k++
	f := (1-w)*se.b1 - se.s // F_k
	if se.k <= se.j {
		se.sAbsC = -f
		return se.s, se.sAbsC
	}
	// Advance the lagged sums from index k−J−1 to k−J.
	ls, lb := se.ls, se.lb
	se.ls = w*ls + gLag
	se.lb = gLag + w*(lb+ls)
	se.lb1 = lb
	fl := (1-w)*se.lb1 - se.ls
	gk := se.wj1 * (w*fl + se.jw*se.ls)
	se.sAbsC = 2*gk - f
	return se.s, se.sAbsC
}

// lag returns the iteration whose γ drives the lagged sums at the next
// step, or −1 when they do not run yet.
func (se *series) lag() int64 {
	if se.k+1 <= se.j {
		return -1
	}
	return se.k - se.j
}

// NewAccountant returns the ledger keeper of alg.
func NewAccountant(alg *Algorithm) *Accountant {
	ac := &Accountant{alg: alg, eta: alg.eta, xi: alg.xi,
		pre: 2 * math.Sqrt(float64(alg.d)) * alg.p.GradientBound, alpha: alg.p.Alpha, gamma: alg.p.Gamma}
	for i := range alg.n {
		ac.agents = append(ac.agents, account{ser: newSeries(alg.diag[i])})
	}
	ac.off = offReason(alg.eta, alg.xi)
	return ac
}

func offReason(eta, xi *noise.Spec) string {
	switch {
	case eta.IsOff() && xi.IsOff():
		return "no noise on either channel"
	case eta.IsOff():
		return "no noise on s (channel eta)"
	case xi.IsOff():
		return "no noise on x (channel xi)"
	}
	return ""
}

// Record implements sim.Recorder. A step with Iter = n means the messages
// of iteration n − 1 have been sent.
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	for ac.k() < st.Iter-1 {
		ac.advance()
	}
}

// k is the last iteration whose messages are accounted.
func (ac *Accountant) k() int {
	if len(ac.agents) == 0 {
		return ac.iters - 1
	}
	return int(ac.agents[0].ser.k)
}

// advance accounts for the messages of iteration k+1: eq. (18)'s term k+1
// for every agent, O(1) each.
func (ac *Accountant) advance() {
	for i := range ac.agents {
		ac.advanceAgent(i, i)
	}
}

// advanceAgent moves account slot by one iteration with the noise scales
// of agent i.
func (ac *Accountant) advanceAgent(slot, i int) {
	a := &ac.agents[slot]
	k := a.ser.k
	g := ac.gamma.At(int(k))
	gl := 0.0
	if l := a.ser.lag(); l >= 0 {
		gl = ac.gamma.At(int(l))
	}
	s, t := a.ser.next(g, gl)
	if a.infinite || ac.off != "" {
		return
	}
	k++
	le, lx := ac.eta.LogScaleAt(i, int(k)), ac.xi.LogScaleAt(i, int(k))
	if math.IsInf(le, -1) || math.IsInf(lx, -1) {
		a.infinite = true
		a.infReason = fmt.Sprintf("a noise scale is 0 at iteration %d", k)
		return
	}
	if s > 0 {
		a.sum.AddLog(num.Log(ac.pre*s) - le)
	}
	if t > 0 {
		a.sum.AddLog(num.Log(ac.pre*ac.alpha*t) - lx)
	}
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
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
			privacy.Num("K (last message round accounted)", float64(max(ac.k(), 0))),
		},
	}
	for i, a := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{
			privacy.Num("w_ii", a.ser.w),
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
