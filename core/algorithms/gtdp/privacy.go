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
	// Interrupt lets a calibration cancel a long prediction.
	privacy.Interrupt
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
	k      int // last iteration whose messages are accounted
	iters  int // iterations recorded
	off    string
	// replay holds each agent's sums for Releases.
	replay privacy.Replay[series]
}

// account is one agent's running eq. (18).
type account struct {
	ser       series
	logBEta   float64 // ln b_η of the agent (−Inf when 0), so that ln(b·β_k) costs one add
	logBXi    float64
	invBEta   float64 // 1/b_η and 1/b_ξ, for the linear-space terms
	invBXi    float64
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
			for j > 1 && !(float64(j-1)-float64(float64(j)*w) < 0) {
				j--
			}
			for float64(j)-float64(float64(j+1)*w) < 0 {
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
	se.s = float64(w*sPrev) + g
	se.b = g + float64(w*(bPrev+sPrev))
	se.b1 = bPrev
	se.k++
	f := float64((1-w)*se.b1) - se.s // F_k
	if se.k <= se.j {
		se.sAbsC = -f
		return se.s, se.sAbsC
	}
	// Advance the lagged sums from index k−J−1 to k−J.
	ls, lb := se.ls, se.lb
	se.ls = float64(w*ls) + gLag
	se.lb = gLag + float64(w*(lb+ls))
	se.lb1 = lb
	fl := float64((1-w)*se.lb1) - se.ls
	gk := float64(se.wj1 * (float64(w*fl) + float64(se.jw*se.ls)))
	se.sAbsC = float64(2*gk) - f
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
		ac.agents = append(ac.agents, newAccount(alg.diag[i], alg.eta, alg.xi, i))
	}
	ac.off = offReason(alg.eta, alg.xi)
	return ac
}

// newAccount returns agent i's account at k = 0, with self-weight w and
// the channels' scales.
func newAccount(w float64, eta, xi *noise.Spec, i int) account {
	return account{ser: newSeries(w), logBEta: logBase(eta, i), logBXi: logBase(xi, i),
		invBEta: 1 / eta.Base(i), invBXi: 1 / xi.Base(i)}
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

// iterScale is what one iteration's terms share across agents: ln β_k of
// each channel and its inverse 1/β_k.
type iterScale struct{ dEta, invEta, dXi, invXi float64 }

// scalesAt returns β_k's logarithm and inverse for both channels, once
// per iteration (once for both when they share β_k, as in the paper):
// the terms are then products, with no logarithm per agent.
func (ac *Accountant) scalesAt(k int) iterScale {
	var sc iterScale
	sc.dEta = ac.eta.Decay.LogAt(k)
	sc.invEta = num.Exp(-sc.dEta)
	sc.dXi, sc.invXi = sc.dEta, sc.invEta
	if ac.xi.Decay != ac.eta.Decay {
		sc.dXi = ac.xi.Decay.LogAt(k)
		sc.invXi = num.Exp(-sc.dXi)
	}
	return sc
}

// advance accounts for the messages of iteration k+1: eq. (18)'s term k+1
// for every agent, O(1) each.
func (ac *Accountant) advance() {
	k := ac.k
	g := ac.gamma.At(k) // γ_k
	sc := ac.scalesAt(k + 1)
	// Agents with the same w_ii share the lag J and so the lagged γ:
	// a one-entry memo saves a power per agent on regular graphs.
	memo := lagMemo{at: -1}
	for i := range ac.agents {
		ac.step(&ac.agents[i], k+1, g, sc, &memo)
	}
	ac.k = k + 1
}

// lagMemo remembers the last lagged γ read from the schedule.
type lagMemo struct {
	at int64
	g  float64
}

// step moves account a from iteration k−1 to k: γ_{k−1} = g, and the
// scales of iteration k in sc.
func (ac *Accountant) step(a *account, k int, g float64, sc iterScale, memo *lagMemo) {
	gl := 0.0
	if l := a.ser.lag(); l >= 0 {
		if l != memo.at {
			memo.at, memo.g = l, ac.gamma.At(int(l))
		}
		gl = memo.g
	}
	s, t := a.ser.next(g, gl)
	if a.infinite || ac.off != "" {
		return
	}
	le, lx := a.logBEta+sc.dEta, a.logBXi+sc.dXi
	if math.IsInf(le, -1) || math.IsInf(lx, -1) {
		a.infinite = true
		a.infReason = fmt.Sprintf("a noise scale is 0 at iteration %d", k)
		return
	}
	// Where 1/β_k or a term overflows, the term is added in log space.
	if s > 0 {
		if v := ac.pre * s * a.invBEta * sc.invEta; v <= math.MaxFloat64 {
			a.sum.Add(v)
		} else {
			a.sum.AddLog(num.Log(ac.pre*s) - le)
		}
	}
	if t > 0 {
		if v := ac.pre * ac.alpha * t * a.invBXi * sc.invXi; v <= math.MaxFloat64 {
			a.sum.Add(v)
		} else {
			a.sum.AddLog(num.Log(ac.pre*ac.alpha*t) - lx)
		}
	}
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
			privacy.Text("C from", ac.alg.cFrom),
			privacy.Num("α", p.Alpha),
			privacy.Text("γ_k", p.Gamma.String()),
			privacy.Text("β_k on s (eta decay)", ac.eta.Decay.String()),
			privacy.Text("β_k on x (xi decay)", ac.xi.Decay.String()),
			privacy.Num("K (last message round accounted)", float64(ac.k)),
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

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "GT-DP's accountant (Theorem 2, eq. 18) assumes one noise factor β_k for all agents"

// Adjacency implements privacy.Releaser (Definition 1 with Assumption 2).
func (ac *Accountant) Adjacency() string {
	return "one agent's objective f_i is replaced by another (same domain and graph, Definition 1); both have ‖∇f_i‖₂ ≤ C (Assumption 2), so a gradient changes by at most 2√r·C in ℓ1 (eq. 22)"
}

// Releases implements privacy.Releaser: the messages of iteration k are
// s_{i,k} + β_k η_{i,k} and x_{i,k} + β_k ξ_{i,k}, Laplace releases of
// scales β_k·b_η and β_k·b_ξ whose ℓ1 sensitivities are eq. (20)–(22)'s
// 2√r·C·Σ_t w_ii^{k−1−t}γ_t and 2√r·C·α·Σ_t |c_{k,t}|γ_t (0 at k = 0);
// Proposition 1 (eq. 17) composes them, which is eq. (18).
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	if ac.replay.Start == nil {
		ac.replay.Start = func(i int) series { return newSeries(ac.alg.diag[i]) }
		ac.replay.Next = func(se *series, _, k int) {
			gl := 0.0
			if l := se.lag(); l >= 0 {
				gl = ac.gamma.At(int(l))
			}
			se.next(ac.gamma.At(k), gl)
		}
	}
	for k := from; k < to; k++ {
		se := ac.replay.At(agent, k, len(ac.agents))
		var ds, dx float64
		if k > 0 {
			ds, dx = ac.pre*se.s, ac.pre*ac.alpha*se.sAbsC
		}
		dst = append(dst,
			privacy.Charge{Agent: agent, Channel: "s", Release: privacy.ChannelRelease(ac.eta, agent, k, ds, factor)},
			privacy.Charge{Agent: agent, Channel: "x", Release: privacy.ChannelRelease(ac.xi, agent, k, dx, factor)})
	}
	return dst
}
