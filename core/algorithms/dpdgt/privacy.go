package dpdgt

import (
	"fmt"
	"math"
	"sync"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formulas, as the ledger prints them.
const (
	// FormulaClosed is Corollary 2, eq. (37): geometric schedules, K = ∞.
	FormulaClosed = "ε = α_0·δ·(γφμ + α_0) / (γφμ·(γφμ − α_0)) · [ q_ξ/(θ_ξ0·(q_ξ − q)) + φ·q_ζ/(θ_ζ0·(q_ζ − q)) ]"
	// FormulaRecursion is the sensitivity recursion (31) of Theorem 3's
	// proof, summed over the message rounds.
	FormulaRecursion = "ε_K = Σ_{k=0..K} ( φ_k/θ_ξ,k + η_k/θ_ζ,k ),  φ_{k+1} = (1−γ)φ_k + (α_k/μ)η_k + α_kδ/μ,  η_{k+1} = (2−γ)φ_k + (1−φ+α_k/μ)η_k + α_kδ/μ,  φ_0 = η_0 = 0"
)

// MaxHorizon bounds the iterations the recursion (31) runs to find its
// infinite-horizon sum; a sum still growing there is reported as not
// converged.
const MaxHorizon = 2_000_000

// Sensitivity is the recursion (31): φ_k bounds ‖Δs_{i0,k}‖₁ and η_k bounds
// ‖Δw̃_{i0,k}‖₁, the changes one agent's cost can make to its own released
// values when the eavesdropper's observations are held fixed. The bounds
// are the same for every agent (they use the common μ and δ); only the
// noise scales that divide them are the agent's own.
type Sensitivity struct {
	Alpha      noise.Schedule
	Gamma, Phi float64
	Mu, Delta  float64
	k          int
	phi, eta   float64
	// scale is the natural log of a common factor of φ_k and η_k: the
	// bounds are φ_k = e^scale·phi. It stays 0 (and the arithmetic is
	// exactly the plain recursion) until the bounds pass 1e200, as they do
	// when α_k/μ ≫ 1 (a tiny μ); φ_k then outgrows float64 while ε is
	// still a finite 10^N, and without the factor ∞ − ∞ made it NaN.
	scale            float64
	sumXi, sumZe     privacy.Sum // Σ φ_k/decay_ξ(k), Σ η_k/decay_ζ(k)
	decayXi, decayZe noise.Schedule
	lastXi, lastZe   float64 // the latest terms, to tell a converged sum
	maxEta           float64
	infinite         bool // a term was infinite (a noise scale reached 0)
	// diverges says why the infinite-horizon sum is +∞ when Infinite has
	// proven it (see divergence).
	diverges string
}

// NewSensitivity starts the recursion at k = 0 (φ_0 = η_0 = 0). decayXi
// and decayZe are the noise channels' decays: the sums are kept per unit
// base scale, so agent i's ε is sumXi/θ_i,ξ + sumZe/θ_i,ζ.
func NewSensitivity(alpha noise.Schedule, gamma, phi, mu, delta float64, decayXi, decayZe noise.Schedule) *Sensitivity {
	return &Sensitivity{Alpha: alpha, Gamma: gamma, Phi: phi, Mu: mu, Delta: delta, decayXi: decayXi, decayZe: decayZe}
}

// Step adds the terms of message round k (the current one) and moves the
// bounds to k+1.
func (s *Sensitivity) Step() {
	k := s.k
	if s.phi > 0 {
		t := num.Log(s.phi) + s.scale - s.decayXi.LogAt(k)
		s.sumXi.AddLog(t)
		s.lastXi = t
		s.infinite = s.infinite || math.IsInf(t, 1)
	}
	if s.eta > 0 {
		t := num.Log(s.eta) + s.scale - s.decayZe.LogAt(k)
		s.sumZe.AddLog(t)
		s.lastZe = t
		s.infinite = s.infinite || math.IsInf(t, 1)
	}
	s.moveBounds()
}

// advance moves the bounds φ_k, η_k to round k + 1 (the recursion (31))
// and returns them before any rescaling.
func (s *Sensitivity) advance() (phi, eta float64) {
	a := s.Alpha.At(s.k)
	am := a / s.Mu
	d := am * s.Delta
	if s.scale != 0 {
		d *= num.Exp(-s.scale)
	}
	phi = float64((1-s.Gamma)*s.phi) + float64(am*s.eta) + d
	eta = float64((2-s.Gamma)*s.phi) + float64((1-s.Phi+am)*s.eta) + d
	s.phi, s.eta = phi, eta
	return phi, eta
}

// Rounds returns how many message rounds have been added (K + 1).
func (s *Sensitivity) Rounds() int { return s.k }

// Epsilon returns ε_K for an agent with base scales bXi and bZe: the sum
// so far divided by the agent's scales. A zero scale gives +Inf once
// anything leaks.
func (s *Sensitivity) Epsilon(bXi, bZe float64) privacy.Amount {
	var tot privacy.Sum
	for _, part := range []struct {
		sum privacy.Sum
		b   float64
	}{{s.sumXi, bXi}, {s.sumZe, bZe}} {
		if s.diverges != "" {
			return privacy.Infinite()
		}
		a := part.sum.Amount()
		if a.Value() == 0 {
			continue
		}
		if part.b == 0 {
			return privacy.Infinite()
		}
		tot.AddLog(float64(a.Log10()*math.Ln10) - num.Log(part.b))
	}
	return tot.Amount()
}

// MaxEta returns sup_k η_k so far: the paper's D_η bounds it.
func (s *Sensitivity) MaxEta() float64 { return s.maxEta }

// converged reports whether the latest terms add less than a relative
// 1e-17 to both sums (geometric tails: the sum is final to double
// precision) after the bounds have stopped growing.
func (s *Sensitivity) converged() bool {
	if s.infinite {
		return true // +Inf is final
	}
	if s.k < 10 {
		return false
	}
	ok := func(sum privacy.Sum, last float64) bool {
		a := sum.Amount()
		return a.Value() == 0 || last < float64(a.Log10()*math.Ln10)-39 // e^−39 ≈ 1e−17
	}
	return ok(s.sumXi, s.lastXi) && ok(s.sumZe, s.lastZe) && s.Alpha.At(s.k) < 1e-12*max(s.Mu, 1e-300)
}

// Infinite runs a copy of the recursion until its sum converges (at most
// MaxHorizon rounds) and returns it; ok is false when it was still
// growing there (the sum diverges or converges too slowly to tell). When
// divergence proves the sum infinite it returns at once, with an
// infinite ε (Diverges says why).
func (s Sensitivity) Infinite() (sum Sensitivity, ok bool) {
	if why := s.divergence(); why != "" {
		s.diverges = why
		return s, true
	}
	for s.k < MaxHorizon {
		s.Step()
		if s.converged() {
			return s, true
		}
	}
	return s, false
}

// Diverges returns why the infinite-horizon sum is +∞, when Infinite
// proved it, and "" otherwise.
func (s *Sensitivity) Diverges() string { return s.diverges }

// divergence proves, when it can, that the sum of (31) is infinite, and
// says why; "" when it cannot tell. For 0 < γ, φ ≤ 1 every coefficient
// of (31) is nonnegative, so with α_k = c·q^k (c > 0) and δ > 0:
// φ_{k+1} ≥ (α_k/μ)δ and φ_{k+1} ≥ (1−γ)φ_k give φ_k ≥ C·max(q, 1−γ)^k;
// η_{k+1} ≥ (2−γ)φ_k ≥ φ_k and η_{k+1} ≥ (1−φ)η_k give
// η_k ≥ C·max(q, 1−γ, 1−φ)^k. A noise scale θ_k ∝ r^k that decays no
// slower than its bound (r ≤ that rate) leaves terms that do not tend to
// 0. Without this the recursion would run MaxHorizon rounds only to say
// it had not converged (about 0.2 s natively, more in the page).
func (s *Sensitivity) divergence() string {
	c, q, ok := Geometric(s.Alpha)
	if !ok || !(c > 0) || !(s.Delta > 0) || !(s.Mu > 0) ||
		!(s.Gamma > 0 && s.Gamma <= 1) || !(s.Phi > 0 && s.Phi <= 1) {
		return ""
	}
	phiRate := max(q, 1-s.Gamma)
	etaRate := max(phiRate, 1-s.Phi)
	for _, ch := range []struct {
		name, bound string
		decay       noise.Schedule
		rate        float64
	}{{"θ_ξ,k", "φ_k", s.decayXi, phiRate}, {"θ_ζ,k", "η_k", s.decayZe, etaRate}} {
		if _, r, ok := Geometric(ch.decay); ok && r > 0 && ch.rate >= r {
			return fmt.Sprintf("%s decays as %.6g^k, no slower than its sensitivity bound %s ≥ C·%.6g^k, so the terms %s/%s do not tend to 0",
				ch.name, r, ch.bound, ch.rate, ch.bound, ch.name)
		}
	}
	return ""
}

// ClosedForm evaluates Corollary 2's eq. (37) for geometric schedules
// α_k = α0·q^k, θ_ξ,k = thXi·qXi^k, θ_ζ,k = thZe·qZe^k. It does not check
// the conditions (see Conditions); with α_0 ≥ γφμ its value is meaningless.
func ClosedForm(alpha0, q, gamma, phi, mu, delta, thXi, qXi, thZe, qZe float64) float64 {
	g := float64(gamma * phi * mu)
	return alpha0 * delta * (g + alpha0) / (g * (g - alpha0)) *
		(qXi/(thXi*(qXi-q)) + phi*qZe/(thZe*(qZe-q)))
}

// Geometric returns the ratio r of a schedule c·r^k (1 for a constant)
// and whether the schedule is of that form.
func Geometric(s noise.Schedule) (c, r float64, ok bool) {
	switch s.Kind {
	case noise.Geometric:
		return s.C, s.R, true
	case noise.Constant:
		return s.C, 1, true
	}
	return 0, 0, false
}

// Spectral holds the network quantities of the paper's conditions.
type Spectral struct {
	// QR = (1 + σ_R²)/2 with σ_R = ρ(R_φ − 1π_Rᵀ); QC likewise for C_γ.
	QR, QC float64
	// PiCPiR is π_Cᵀπ_R (Theorem 3 needs it below 1/2).
	PiCPiR float64
	// OK is false when they could not be computed (too large a network).
	OK bool
}

// Conditions lists, in words, each of Corollary 2's conditions for the
// closed form (37) that does not hold for these parameters and an agent
// with base scales thXi, thZe (decays from the noise specs). An empty
// list means (37) applies.
func Conditions(p Params, mu float64, xi, ze *noise.Spec, thXi, thZe float64, sp Spectral) []string {
	var out []string
	a0, q, okA := Geometric(p.Alpha)
	if !okA || p.Alpha.Kind != noise.Geometric {
		out = append(out, fmt.Sprintf("the step is not geometric α_0·q^k (it is %s)", p.Alpha))
	}
	cXi, qXi, okXi := Geometric(xi.Decay)
	cZe, qZe, okZe := Geometric(ze.Decay)
	if !okXi || !okZe {
		out = append(out, "the noise scales do not decay geometrically (θ_0·q_θ^k)")
	}
	if len(out) > 0 {
		return out
	}
	if thXi*cXi == 0 || thZe*cZe == 0 {
		out = append(out, "θ_0 = 0: a message goes out without noise, so there is no guarantee (ε = ∞)")
	}
	if g := p.Gamma * p.Phi * mu; !(a0 < g) {
		out = append(out, fmt.Sprintf("α_0 = %g is not below μγφ = %.6g", a0, g))
	}
	lows := []struct {
		name string
		v    float64
	}{{"q_ξ²", qXi * qXi}, {"q_ζ²", qZe * qZe}}
	if sp.OK {
		lows = append([]struct {
			name string
			v    float64
		}{{"q_R", sp.QR}, {"q_C", sp.QC}}, lows...)
	}
	for _, l := range lows {
		if !(l.v < q) {
			out = append(out, fmt.Sprintf("q = %g is not above %s = %.6g", q, l.name, l.v))
		}
	}
	for _, h := range []struct {
		name string
		v    float64
	}{{"q_ξ", qXi}, {"q_ζ", qZe}} {
		if !(q < h.v) {
			out = append(out, fmt.Sprintf("q = %g is not below %s = %.6g", q, h.name, h.v))
		}
	}
	if !(min(qXi, qZe) < 1) {
		out = append(out, "min(q_ξ, q_ζ) is not below 1: the noise does not decay")
	}
	if !sp.OK {
		out = append(out, "q_R and q_C could not be computed for this network, so q > max(q_R, q_C) is unchecked")
	}
	return out
}

// Accountant keeps DP-DGT's privacy ledger. An agent's ε after the
// messages of rounds 0..K is the recursion's ε_K with its own noise
// scales (the numerical bound); the ledger also gives the infinite-horizon
// value of the recursion and, when Corollary 2's conditions hold, the
// closed form (37), which slightly under-estimates the recursion.
//
// Recording costs nothing per iteration: the recursion is advanced when
// the ledger is read, from where the last reading left it.
type Accountant struct {
	alg   *Algorithm
	mu    float64
	muSrc string
	spec  Spectral
	sens  *Sensitivity
	iters int

	// replay holds the bounds for Releases.
	replay privacy.Replay[Sensitivity]

	inf    *Sensitivity // the infinite-horizon run, computed once when asked
	infOK  bool
	bounds map[[2]float64]Bounds // by the agents' (θ_ξ0, θ_ζ0)
}

// NewAccountant returns the ledger keeper of alg, with μ (and where it
// came from) and the network's spectral quantities.
func NewAccountant(alg *Algorithm, mu float64, muSrc string, sp Spectral) *Accountant {
	p := alg.p
	return &Accountant{alg: alg, mu: mu, muSrc: muSrc, spec: sp,
		sens: NewSensitivity(p.Alpha, p.Gamma, p.Phi, mu, p.Delta, alg.xi.Decay, alg.ze.Decay)}
}

// Record implements sim.Recorder. A step with Iter = n means the messages
// of rounds 0..n−1 have been sent.
func (ac *Accountant) Record(st *sim.Step) { ac.iters = st.Iter }

func (ac *Accountant) catchUp() {
	if ac.sens.Rounds() == ac.iters {
		return
	}
	if ac.sens.Rounds() == 0 {
		// A sweep reads the ledger of thousands of runs with the same
		// schedules at the same K: the sums are computed once.
		if s, ok := sensAt(ac.sens.key(), ac.iters); ok {
			*ac.sens = s
			return
		}
	}
	for ac.sens.Rounds() < ac.iters {
		ac.sens.Step()
	}
	storeSens(*ac.sens)
}

// sensKey is everything the recursion depends on, and the round.
type sensKey struct {
	alpha, decXi, decZe   noise.Schedule
	gamma, phi, mu, delta float64
	rounds                int
}

func (s *Sensitivity) key() sensKey {
	return sensKey{alpha: s.Alpha, decXi: s.decayXi, decZe: s.decayZe,
		gamma: s.Gamma, phi: s.Phi, mu: s.Mu, delta: s.Delta}
}

// The memo of the recursion's states, by parameters and round (−1: the
// infinite-horizon run, with whether it converged).
var (
	sensMu   sync.Mutex
	sensMemo = map[sensKey]sensEntry{}
)

type sensEntry struct {
	s  Sensitivity
	ok bool
}

func sensAt(k sensKey, rounds int) (Sensitivity, bool) {
	k.rounds = rounds
	sensMu.Lock()
	defer sensMu.Unlock()
	e, ok := sensMemo[k]
	return e.s, ok
}

func storeSens(s Sensitivity) {
	k := s.key()
	k.rounds = s.Rounds()
	storeEntry(k, sensEntry{s: s, ok: true})
}

func storeEntry(k sensKey, e sensEntry) {
	sensMu.Lock()
	defer sensMu.Unlock()
	if len(sensMemo) >= 256 {
		clear(sensMemo)
	}
	sensMemo[k] = e
}

// shared returns the infinite-horizon run of the recursion with these
// parameters, computed once per parameter set.
func (s *Sensitivity) shared() (Sensitivity, bool) {
	k := s.key()
	k.rounds = -1
	sensMu.Lock()
	e, ok := sensMemo[k]
	sensMu.Unlock()
	if ok {
		return e.s, e.ok
	}
	inf, conv := s.fresh().Infinite()
	storeEntry(k, sensEntry{s: inf, ok: conv})
	return inf, conv
}

// Bounds are one agent's infinite-horizon budgets.
type Bounds struct {
	// Recursion is the sum of (31) over every round (the numerical bound);
	// RecursionOK is false when it had not converged after MaxHorizon
	// rounds (then Recursion is the partial sum: a lower bound).
	Recursion   privacy.Amount
	RecursionOK bool
	// Diverges says why Recursion is +∞ when the sum is proven infinite.
	Diverges string
	// Closed is eq. (37), meaningful only when Failures is empty.
	Closed   float64
	Failures []string
}

// Infinite returns agent i's infinite-horizon budgets. They depend on the
// agent only through its two noise scales, so agents that share them
// (the paper gives all the same) share one computation.
func (ac *Accountant) Infinite(i int) Bounds {
	if ac.inf == nil {
		s, ok := ac.sens.shared()
		ac.inf, ac.infOK = &s, ok
	}
	xi, ze := ac.alg.xi, ac.alg.ze
	key := [2]float64{xi.Base(i), ze.Base(i)}
	if b, ok := ac.bounds[key]; ok {
		return b
	}
	b := ac.infinite(i)
	if ac.bounds == nil {
		ac.bounds = map[[2]float64]Bounds{}
	}
	ac.bounds[key] = b
	return b
}

func (ac *Accountant) infinite(i int) Bounds {
	xi, ze := ac.alg.xi, ac.alg.ze
	b := Bounds{Recursion: ac.inf.Epsilon(xi.Base(i), ze.Base(i)), RecursionOK: ac.infOK, Diverges: ac.inf.Diverges()}
	b.Failures = Conditions(ac.alg.p, ac.mu, xi, ze, xi.Base(i), ze.Base(i), ac.spec)
	if len(b.Failures) == 0 {
		a0, q, _ := Geometric(ac.alg.p.Alpha)
		cXi, qXi, _ := Geometric(xi.Decay)
		cZe, qZe, _ := Geometric(ze.Decay)
		p := ac.alg.p
		b.Closed = ClosedForm(a0, q, p.Gamma, p.Phi, ac.mu, p.Delta, xi.Base(i)*cXi, qXi, ze.Base(i)*cZe, qZe)
	}
	return b
}

// fresh returns the recursion restarted at k = 0.
func (s *Sensitivity) fresh() Sensitivity {
	return *NewSensitivity(s.Alpha, s.Gamma, s.Phi, s.Mu, s.Delta, s.decayXi, s.decayZe)
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	ac.catchUp()
	a := ac.alg
	p := a.p
	l := privacy.Ledger{
		Algorithm:  "dp-dgt",
		Notion:     "ε-DP of the cost functions (Laplace mechanism; δ-adjacent problems differ in one F_i, with ‖∇F_i − ∇F′_i‖ ≤ δ on W_i; an eavesdropper sees every message and knows the initial states, demands and topology)",
		Source:     "Huo et al., DP-DGT, Theorem 3: the sensitivity recursion (31) summed over the rounds so far (numerical bound); Corollary 2, eq. (37), for K = ∞",
		Formula:    FormulaRecursion + ";  closed form (37): " + FormulaClosed,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Text("α_k", p.Alpha.String()),
			privacy.Num("γ", p.Gamma),
			privacy.Num("φ", p.Phi),
			privacy.Num("δ (adjacency bound)", p.Delta),
			privacy.Num("μ ("+ac.muSrc+")", ac.mu),
			privacy.Text("θ_ξ,k decay (xi)", a.xi.Decay.String()),
			privacy.Text("θ_ζ,k decay (zeta)", a.ze.Decay.String()),
			privacy.Num("K (last message round accounted)", float64(ac.sens.Rounds()-1)),
		},
	}
	if ac.spec.OK {
		l.Inputs = append(l.Inputs,
			privacy.Num("q_R = (1+σ_R²)/2", ac.spec.QR),
			privacy.Num("q_C = (1+σ_C²)/2", ac.spec.QC),
			privacy.Num("π_Cᵀπ_R", ac.spec.PiCPiR))
	}
	var anyNoisy bool
	for i := range a.n {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{
			privacy.Num("θ_ξ0", a.xi.Base(i)),
			privacy.Num("θ_ζ0", a.ze.Base(i)),
		}}
		if a.prob.Fixed(i) {
			e.Epsilon = privacy.Of(0)
			e.Reason = "no allocation (W_i = {0}): its cost never changes what it sends"
			l.Agents = append(l.Agents, e)
			continue
		}
		anyNoisy = true
		e.Epsilon = ac.sens.Epsilon(a.xi.Base(i), a.ze.Base(i))
		if e.Epsilon.IsInf() {
			e.Reason = "a noise scale is 0 on one channel (θ_0 = 0, or a decay that reaches 0 such as r = 0): its messages from then on carry no noise (no guarantee)"
		}
		b := ac.Infinite(i)
		rec := b.Recursion.String()
		if b.Diverges != "" {
			rec = "∞, no finite bound: the sum diverges (" + b.Diverges + ")"
		}
		if !b.RecursionOK {
			rec = "≥ " + rec + " (still growing after " + fmt.Sprint(MaxHorizon) + " rounds)"
		}
		e.Inputs = append(e.Inputs, privacy.Text("ε∞ by the recursion (31), numerical bound", rec))
		if len(b.Failures) == 0 {
			e.Inputs = append(e.Inputs, privacy.Num("ε∞ by the closed form (37)", b.Closed))
		} else {
			e.Inputs = append(e.Inputs, privacy.Text("ε∞ by the closed form (37)", "not applicable"))
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	if anyNoisy {
		// The conditions are the same for every agent with the same scales;
		// report those of the first agent with a real cost.
		for i := range a.n {
			if a.prob.Fixed(i) {
				continue
			}
			b := ac.Infinite(i)
			if len(b.Failures) == 0 {
				l.Notes = append(l.Notes, fmt.Sprintf("Corollary 2's conditions hold (α_0 < μγφ, max(q_R, q_C, q_ξ², q_ζ²) < q < min(q_ξ, q_ζ)): ε∞ = %.6g by (37) and %s by the recursion (31), which (37) slightly under-estimates", b.Closed, b.Recursion))
			} else {
				l.Notes = append(l.Notes, "closed form (37) not applicable: "+joinSemi(b.Failures)+"; ε∞ by the recursion (31): "+b.Recursion.String())
			}
			if ac.spec.OK && !(ac.spec.PiCPiR < 0.5) {
				l.Notes = append(l.Notes, fmt.Sprintf("Theorem 3 assumes π_Cᵀπ_R < 1/2; here it is %.4g", ac.spec.PiCPiR))
			}
			break
		}
	}
	return l
}

func joinSemi(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// Sens returns the finite-horizon recursion, caught up with the run.
func (ac *Accountant) Sens() *Sensitivity {
	ac.catchUp()
	return ac.sens
}

// Summary is one line for people: the infinite-horizon budgets of the
// most exposed agent, by the recursion and, when it applies, the closed
// form.
func (ac *Accountant) Summary() string {
	for i := range ac.alg.n {
		if ac.alg.prob.Fixed(i) {
			continue
		}
		b := ac.Infinite(i)
		if b.Diverges != "" {
			return "ε∞: no finite bound, the sum of the recursion (31) diverges: " + b.Diverges
		}
		if b.Recursion.IsInf() {
			return "ε∞ = ∞: a message carries no noise"
		}
		out := "ε∞ ≤ " + b.Recursion.String() + " by the recursion (31)"
		if !b.RecursionOK {
			out = "ε∞ ≥ " + b.Recursion.String() + " (the recursion (31) had not converged)"
		}
		if len(b.Failures) == 0 {
			out += fmt.Sprintf("; %.6g by the closed form (37)", b.Closed)
		} else {
			out += "; closed form (37) not applicable"
		}
		return out
	}
	return "no agent allocates: ε = 0"
}

// PredictEpsilon implements privacy.Predictor: the largest ε after the
// messages of the given iterations with every noise scale multiplied by
// factor. The sensitivities do not depend on the noise, and every term of
// the sum is divided by a scale, so ε is exactly ε(1)/factor.
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	s, ok := sensAt(ac.sens.key(), iterations)
	if !ok {
		s = ac.sens.fresh()
		for s.Rounds() < iterations {
			s.Step()
		}
		storeSens(s)
	}
	best := privacy.Of(0)
	for i := range ac.alg.n {
		if ac.alg.prob.Fixed(i) {
			continue
		}
		// privacy.Max: an undefined ε counts as ∞, never skipped.
		best = privacy.Max(best, s.Epsilon(ac.alg.xi.Base(i)*factor, ac.alg.ze.Base(i)*factor))
	}
	return best
}

// FactorFor implements privacy.InversePredictor: ε is ε(1)/λ, so the
// factor that meets target is ε(1)/target.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	if !(target > 0) {
		return 0, fmt.Errorf("the target ε must be > 0 (got %g)", target)
	}
	return privacy.ProportionalFactor(ac.PredictEpsilon(iterations, 1), iterations, target)
}

var (
	_ privacy.InversePredictor = (*Accountant)(nil)
)

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "DP-DGT's accountant (Theorem 2) assumes one noise decay θ_k per channel for all agents"

// Adjacency implements privacy.Releaser (Theorem 3's δ-adjacency).
func (ac *Accountant) Adjacency() string {
	return fmt.Sprintf("one agent's cost F_i is replaced by F_i' with ‖∇F_i − ∇F_i'‖ ≤ δ = %g on W_i (δ-adjacency; the same demands, sets and topology)", ac.alg.p.Delta)
}

// Releases implements privacy.Releaser: in round k agent i pushes s_i,k +
// ξ_i,k and its out-neighbours pull w̃_i,k + ζ_i,k, Laplace releases of
// scales θ_ξ,k and θ_ζ,k whose ℓ1 sensitivities the recursion (31) bounds
// by φ_k and η_k (the same for every agent: they use the common μ and δ);
// the proof of Theorem 3 composes them, and the ledger sums them. An
// agent without allocation (W_i = {0}) releases nothing that depends on
// its cost.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	if ac.replay.Start == nil {
		ac.replay.Start = func(int) Sensitivity { return ac.sens.fresh() }
		ac.replay.Next = func(s *Sensitivity, _, _ int) { s.moveBounds() }
	}
	fixed := ac.alg.prob.Fixed(agent)
	for k := from; k < to; k++ {
		s := ac.replay.At(0, k, 1)
		xi, ze := s.release(ac.alg.xi, agent, k, s.phi, factor), s.release(ac.alg.ze, agent, k, s.eta, factor)
		if fixed {
			xi.Sensitivity, ze.Sensitivity = 0, 0
		}
		dst = append(dst,
			privacy.Charge{Agent: agent, Channel: "s", Release: xi},
			privacy.Charge{Agent: agent, Channel: "w̃", Release: ze})
	}
	return dst
}

// moveBounds moves the bounds to the next round (Step, without the sums).
func (s *Sensitivity) moveBounds() {
	phi, eta := s.advance()
	if s.scale == 0 {
		s.maxEta = max(s.maxEta, eta)
	} else {
		s.maxEta = max(s.maxEta, eta*num.Exp(s.scale)) // +Inf beyond float64
	}
	if m := max(phi, eta); m > 1e200 && !math.IsInf(m, 1) {
		s.phi, s.eta = phi/m, eta/m
		s.scale += num.Log(m)
	}
	s.k++
}

// release is agent i's release on channel c in round k of a value whose
// bound is v·e^scale.
func (s *Sensitivity) release(c *noise.Spec, i, k int, v, factor float64) pld.Release {
	if s.scale == 0 || v == 0 {
		return privacy.ChannelRelease(c, i, k, v, factor)
	}
	return privacy.Release(pld.Laplace, num.Log(v)+s.scale, c.LogScaleAt(i, k)+num.Log(factor))
}
