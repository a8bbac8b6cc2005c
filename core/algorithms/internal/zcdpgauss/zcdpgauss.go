// Package zcdpgauss holds what the DP-RECAL paper's baselines (DP-EXTRA,
// DP-NIDS, DP-ADMM, DP-RWADMM, DP-MRADMM; baselines.md §6) share: the
// Gaussian noise on every published message, whose variance shrinks by
// 1/R per publication of the same agent, σ_t² = σ_1²·R^(−(t−1))
// (baselines.md §6.0 and §0.3), and the per-agent ρ-zCDP ledger that sums
// ρ_t = Δ_t²/(2σ_t²) over an agent's publications and converts the total
// into (ε, δ)-DP with the shared conversions of core/privacy.
//
// An agent's budget depends only on how many times it published (its own
// privacy leakage frequency, PLF, DP-RECAL's Theorem 1) and on the
// sensitivity of each publication, which the algorithm supplies.
package zcdpgauss

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Settings are the privacy inputs every baseline takes from its
// parameters.
type Settings struct {
	// C bounds every ‖∇f_i‖₂ (DP-RECAL's Assumption 3): the sensitivity
	// input.
	C float64
	// R ≥ 1 is the attenuation: the noise variance of an agent's t-th
	// publication is σ_1²·R^(−(t−1)).
	R float64
	// Delta is δ of (ε, δ)-DP.
	Delta float64
	// Conv is the conversion the ledger reports as ε.
	Conv privacy.Conversion
}

// Check validates s against the noise channel sp: c > 0 when noise is on,
// δ in (0, 1), R ≥ 1, and a channel whose decay is a constant, because the
// decay of these algorithms is the attenuation R per publication, not a
// schedule in the global iteration. prefix names the parameters
// (algorithm.params), channel the channel (noise.<name>).
func Check(prefix, channel string, s Settings, sp *noise.Spec) error {
	if sp.PerAgentDecay() || sp.Decay.Kind != noise.Constant {
		key, text := sp.DecayKey()
		return check.Errorf(check.Join(channel, key), "must be a constant (got %s): the variance shrinks by 1/R per publication of the same agent, set by %s", text, check.Join(prefix, "attenuation"))
	}
	if !(s.R >= 1) || math.IsInf(s.R, 0) {
		return check.Errorf(check.Join(prefix, "attenuation"), "R must be a finite number ≥ 1 (got %v)", s.R)
	}
	if !(s.Delta > 0 && s.Delta < 1) {
		return check.Errorf(check.Join(prefix, "delta"), "δ must be in (0, 1) (got %v)", s.Delta)
	}
	if !(s.C >= 0) || math.IsInf(s.C, 0) {
		return check.Errorf(check.Join(prefix, "gradient_bound"), "c must be a finite number ≥ 0 (got %v)", s.C)
	}
	if !sp.IsOff() && !(s.C > 0) {
		return check.Errorf(check.Join(prefix, "gradient_bound"), "c must be > 0 when noise is on: it is the sensitivity input of the ledger (got %v)", s.C)
	}
	return nil
}

// Sigma returns agent i's noise standard deviation at its t-th
// publication (t ≥ 1): base_i·c·R^(−(t−1)/2), with c the channel's
// constant decay. A base of 0 gives exactly 0.
func Sigma(sp *noise.Spec, r float64, i, t int) float64 {
	b := sp.Base(i) * sp.Decay.C
	if b == 0 || r == 1 {
		return b
	}
	return b * num.Pow(r, -0.5*float64(t-1))
}

// LogSigma is ln Sigma without underflow (−Inf for a base of 0).
func LogSigma(sp *noise.Spec, r float64, i, t int) float64 {
	b := sp.Base(i) * sp.Decay.C
	if b == 0 {
		return math.Inf(-1)
	}
	return num.Log(b) - float64(0.5*float64(t-1)*num.Log(r))
}

// LogRho returns ln(Δ²/(2σ²)), the natural log of the ρ-zCDP of one
// Gaussian release with sensitivity delta and log standard deviation
// logSigma: −Inf when Δ = 0 (nothing sensitive), +Inf when σ = 0.
func LogRho(delta, logSigma float64) float64 {
	if delta == 0 {
		return math.Inf(-1)
	}
	if math.IsInf(logSigma, -1) {
		return math.Inf(1)
	}
	return 2*num.Log(delta) - math.Ln2 - 2*logSigma
}

// Source is what the ledger reads from the algorithm.
type Source interface {
	// Published returns how many times agent i has published a noisy
	// message so far.
	Published(i int) int
	// PublishedAfter returns how many times agent i publishes in the
	// first k iterations of a run from the start (for predictions).
	PublishedAfter(i, k int) int
	// Cost returns the zCDP of agent i's publications at the channel's
	// own scales as a geometric sequence: the t-th costs ρ_1·q^(t−1), and
	// Cost returns ln ρ_1 (LogRho(Δ_1, ln σ_1); −Inf: nothing sensitive,
	// +Inf: no noise) and ln q (ln R for a constant Δ).
	Cost(i int) (logRho1, logQ float64)
}

// LogGeometric returns the natural log of Σ_{t=1..count} ρ_1·q^(t−1)
// from ln ρ_1 and ln q, without overflow: ln ρ_1 + ln((q^count − 1)/(q − 1)),
// ln ρ_1 + ln count for q = 1, −Inf for count = 0 or ρ_1 = 0.
func LogGeometric(logRho1, logQ float64, count int) float64 {
	switch {
	case count <= 0 || math.IsInf(logRho1, -1):
		return math.Inf(-1)
	case math.IsInf(logRho1, 1) || math.IsNaN(logRho1):
		return math.Inf(1)
	case logQ == 0:
		return logRho1 + num.Log(float64(count))
	}
	tl := float64(float64(count) * logQ)
	if logQ > 0 {
		// q^T (1 − q^−T)/(q − 1)
		return logRho1 + tl + num.Log(-expm1(-tl)) - num.Log(expm1(logQ))
	}
	// (1 − q^T)/(1 − q)
	return logRho1 + num.Log(-expm1(tl)) - num.Log(-expm1(logQ))
}

// expm1 is e^x − 1 without the cancellation of num.Exp(x) − 1 near 0
// (R = 1 + 10⁻⁷ would lose nine digits): its Taylor series below 0.01,
// whose seventh term is under 10⁻¹⁶ of the sum there.
func expm1(x float64) float64 {
	if math.Abs(x) >= 0.01 {
		return num.Exp(x) - 1
	}
	return x * (1 + float64(x/2*(1+float64(x/3*(1+float64(x/4*(1+float64(x/5*(1+float64(x/6*(1+x/7)))))))))))
}

// Noiser is a Source whose noise is not the channel's σ_1·R^(−(t−1)/2)
// (DP-ADMM's Huang variant scales it with Δ_t): SigmaAt is agent i's
// standard deviation at its t-th publication.
type Noiser interface {
	SigmaAt(i, t int) float64
}

// Meta is what the ledger says about its algorithm.
type Meta struct {
	// Algorithm is the factory's name, Title its title.
	Algorithm, Title string
	// Source cites the accounting and the source confidence.
	Source string
	// Sensitivity is the formula of Δ, in the algorithm's notation.
	Sensitivity string
	// Inputs are the algorithm's own inputs (α, c, …).
	Inputs func() []privacy.Input
	// Off, when not empty, says why no noise is added (the channel is
	// off): every publication then has no guarantee.
	Off string
	// Channel names the published value (sim.Release.Channel) and Spec
	// is its noise channel, for privacy.Releaser.
	Channel string
	Spec    *noise.Spec
}

// Accountant is the per-agent ρ-zCDP ledger of a Gaussian baseline. It
// implements privacy.Accountant and privacy.InversePredictor: every ρ
// scales as 1/λ² when the noise scales are multiplied by λ, so a target ε
// has the closed-form factor λ = √(ρ(1)/ρ_target).
type Accountant struct {
	// Interrupt lets a calibration cancel a long prediction.
	privacy.Interrupt
	src   Source
	set   Settings
	meta  Meta
	n     int
	done  []int
	iters int
}

// New returns the ledger of n agents reading src.
func New(src Source, n int, set Settings, meta Meta) *Accountant {
	return &Accountant{src: src, set: set, meta: meta, n: n, done: make([]int, n)}
}

// Record implements sim.Recorder: it reads every agent's publications so
// far (a resumed run's first step reads all of them at once).
func (ac *Accountant) Record(st *sim.Step) {
	ac.iters = st.Iter
	for i := range ac.n {
		ac.done[i] = ac.src.Published(i)
	}
}

// Formula is the ledger's formula (baselines.md §6.0; DP-RECAL Theorem 4
// for a constant Δ).
const Formula = "ρ_i = Σ_{t=1..τ_i} Δ_t²/(2σ_t²), σ_t² = σ_1²·R^(−(t−1)), = ρ_1(q^τ_i − 1)/(q − 1) with q = R for a constant Δ (DP-RECAL's Theorem 4); " +
	"ε_i = min_a aρ_i + (ln(1/δ) + (a−1)ln(1−1/a) − ln a)/(a−1) (tight) or ρ_i + 2√(ρ_i ln(1/δ)) (simple, the paper's); PLF = max_i τ_i"

// epsilon converts a ρ total into ε with conversion c (Epsilon).
func (ac *Accountant) epsilon(rho privacy.Amount, c privacy.Conversion) privacy.Amount {
	return Epsilon(rho, c, ac.set.Delta)
}

// Epsilon converts a ρ total into the ε of (ε, δ)-DP with conversion c:
// ∞ only for ρ = ∞ (no guarantee); beyond float64, ε is ρ to every
// printed digit (the other terms are below its last one), written 10^x.
func Epsilon(rho privacy.Amount, c privacy.Conversion, delta float64) privacy.Amount {
	if rho.NoGuarantee() {
		return privacy.Infinite()
	}
	if v := rho.Value(); !math.IsInf(v, 0) {
		return privacy.Of(c.Epsilon(v, delta))
	}
	return rho
}

// rhoAfter returns agent i's ρ total after count publications at factor
// 1, in closed form (O(1), so a prediction over 10⁷ iterations of 5 000
// agents takes microseconds).
func (ac *Accountant) rhoAfter(i, count int) privacy.Amount {
	r1, q := ac.src.Cost(i)
	return LogAmount(LogGeometric(r1, q, count))
}

// LogAmount returns the amount whose natural logarithm is l: 0 for −Inf,
// ∞ for +Inf or NaN, 10^(l/ln 10) otherwise (beyond float64 too).
func LogAmount(l float64) privacy.Amount {
	switch {
	case math.IsInf(l, -1):
		return privacy.Of(0)
	case math.IsInf(l, 1) || math.IsNaN(l):
		return privacy.Infinite()
	}
	return privacy.OfLog10(l / math.Ln10)
}

// maxRho returns the largest ρ total over the agents at factor 1, agent
// i having published pubs(i) times.
func (ac *Accountant) maxRho(pubs func(i int) int) privacy.Amount {
	if ac.meta.Off != "" {
		return privacy.Infinite()
	}
	best := privacy.Of(0)
	for i := range ac.n {
		if ac.Stop(i) {
			return privacy.Infinite() // cancelled: the calibration reports it
		}
		r := ac.rhoAfter(i, pubs(i))
		if r.NoGuarantee() {
			return privacy.Infinite()
		}
		best = privacy.Max(best, r)
	}
	return best
}

// after returns agent i's publications in the first iterations
// iterations of a run from the start.
func (ac *Accountant) after(iterations int) func(i int) int {
	return func(i int) int { return ac.src.PublishedAfter(i, iterations) }
}

// ScaleRho returns ρ at factor λ from ρ at 1: ρ/λ², in log space (0
// and ∞ unchanged), since ρ = Δ²/(2σ²) at every publication.
func ScaleRho(rho privacy.Amount, factor float64) privacy.Amount {
	if rho.NoGuarantee() || rho.Value() == 0 {
		return rho
	}
	return privacy.OfLog10(rho.Log10() - 2*num.Log(factor)/math.Ln10)
}

// PredictEpsilon implements privacy.Predictor.
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return ac.epsilon(ScaleRho(ac.maxRho(ac.after(iterations)), factor), ac.set.Conv)
}

// FactorFor implements privacy.InversePredictor: λ = √(ρ(1)/ρ_target),
// with ρ_target the inverse of the ledger's conversion at the target ε.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	return ac.factorFor(ac.maxRho(ac.after(iterations)), iterations, "iteration(s)", target)
}

// factorFor returns λ = √(ρ(1)/ρ_target) from rho = ρ(1), the largest
// total after count counts of unit, or why there is none.
func (ac *Accountant) factorFor(rho privacy.Amount, count int, unit string, target float64) (float64, error) {
	if ac.meta.Off != "" {
		return 0, fmt.Errorf("cannot be reached: %s has %s, and no scale gives a finite ε", ac.meta.Title, ac.meta.Off)
	}
	return FactorFor(rho, count, unit, ac.set.Conv, ac.set.Delta, target)
}

// FactorFor returns the factor λ on every noise scale at which a ρ total
// of rho at factor 1 (the largest over the agents after count counts of
// unit, "iteration(s)" or "activations per agent") converts into the
// target ε with conversion c at δ: ρ ∝ 1/λ², so λ = √(ρ(1)/ρ_target);
// or an error saying why no factor reaches it.
func FactorFor(rho privacy.Amount, count int, unit string, c privacy.Conversion, delta, target float64) (float64, error) {
	switch {
	case rho.NoGuarantee():
		return 0, fmt.Errorf("cannot be reached: a noise scale is 0 within %d %s, so ε is infinite at every scale", count, unit)
	case rho.Value() == 0:
		return 0, fmt.Errorf("cannot be reached: after %d %s nothing sensitive has been published (ε = 0)", count, unit)
	}
	want := c.Rho(target, delta)
	if !(want > 0) || math.IsInf(want, 0) {
		return 0, fmt.Errorf("cannot be reached: ε = %g at δ = %g corresponds to no finite ρ > 0", target, delta)
	}
	if v := rho.Value(); !math.IsInf(v, 0) {
		return math.Sqrt(v / want), nil
	}
	return num.Exp(0.5 * (float64(rho.Log10()*math.Ln10) - num.Log(want))), nil
}

// PerAgent returns the ledger's prediction over an agent's own
// publications (activations, for a walk): its iterations argument is a
// count every agent is taken to reach — DP-RECAL's privacy leakage
// frequency — and ε is the largest over the agents at that count. A
// target_epsilon at plf is calibrated through it (method.Target); it is
// a privacy.InversePredictor.
func (ac *Accountant) PerAgent() privacy.InversePredictor { return perAgent{ac} }

type perAgent struct{ ac *Accountant }

func (p perAgent) count(c int) func(int) int { return func(int) int { return c } }

func (p perAgent) PredictEpsilon(count int, factor float64) privacy.Amount {
	return p.ac.epsilon(ScaleRho(p.ac.maxRho(p.count(count)), factor), p.ac.set.Conv)
}

func (p perAgent) FactorFor(count int, target float64) (float64, error) {
	return p.ac.factorFor(p.ac.maxRho(p.count(count)), count, "publication(s) per agent", target)
}

// Rho returns agent i's ρ total so far.
func (ac *Accountant) Rho(i int) privacy.Amount {
	if ac.meta.Off != "" {
		return privacy.Infinite()
	}
	return ac.rhoAfter(i, ac.done[i])
}

// PLF returns the privacy leakage frequency so far: the largest number of
// publications of any agent (DP-RECAL's Definition of Θ_K).
func (ac *Accountant) PLF() int {
	m := 0
	for _, d := range ac.done {
		m = max(m, d)
	}
	return m
}

// Ledger implements privacy.Accountant: each agent's publications τ_i, ρ_i
// and ε_i (with the other conversion beside it).
func (ac *Accountant) Ledger() privacy.Ledger {
	other := privacy.Simple
	if ac.set.Conv == privacy.Simple {
		other = privacy.Tight
	}
	l := privacy.Ledger{
		Algorithm:  ac.meta.Algorithm,
		Notion:     "(ε, δ)-DP through ρ-zCDP (Gaussian mechanism; adjacent datasets differ in one record of one agent, every ‖∇f_i‖₂ ≤ c)",
		Source:     ac.meta.Source,
		Formula:    Formula + "; Δ_t = " + ac.meta.Sensitivity,
		Iterations: ac.iters,
		Inputs: append([]privacy.Input{
			privacy.Num("c (gradient bound)", ac.set.C), privacy.Num("R (attenuation)", ac.set.R),
			privacy.Num("δ", ac.set.Delta), privacy.Text("conversion", ac.set.Conv.String()),
			privacy.Num("PLF", float64(ac.PLF())),
		}, ac.meta.Inputs()...),
		Notes: []string{fmt.Sprintf("ε is the %s conversion of ρ; the %s one is listed per agent beside it", ac.set.Conv, other)},
	}
	for i := range ac.n {
		e := privacy.Entry{Agent: i, Delta: ac.set.Delta}
		rho := ac.Rho(i)
		e.Inputs = []privacy.Input{privacy.Num("τ_i (publications)", float64(ac.done[i]))}
		switch {
		case ac.meta.Off != "":
			e.Epsilon, e.Reason = privacy.Infinite(), ac.meta.Off
		case rho.NoGuarantee():
			e.Epsilon, e.Reason = privacy.Infinite(), "a publication had no noise (σ = 0)"
		default:
			e.Epsilon = ac.epsilon(rho, ac.set.Conv)
			e.Inputs = append(e.Inputs, AmountInput("ρ_i", rho), AmountInput("ε_i ("+other.String()+")", ac.epsilon(rho, other)))
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	return l
}

// AmountInput is a ledger input holding a, as a number while it fits in
// a float64 and as its text (10^x, ∞) beyond: JSON has no infinity.
func AmountInput(name string, a privacy.Amount) privacy.Input {
	if v := a.Value(); !math.IsInf(v, 0) && !math.IsNaN(v) {
		return privacy.Num(name, v)
	}
	return privacy.Text(name, a.String())
}

// Adjacency implements privacy.Releaser.
func (ac *Accountant) Adjacency() string {
	return "one record of one agent's data set is replaced (DP-RECAL's adjacency, applied to every agent); every ‖∇f_i‖₂ ≤ c (Assumption 3)"
}

// Releases implements privacy.Releaser: agent i's t-th publication is a
// Gaussian release of standard deviation σ_t = σ_1·R^(−(t−1)/2) whose ℓ2
// sensitivity Δ_t is the one of Cost (ρ_t = Δ_t²/(2σ_t²), so Δ_t =
// σ_t·√(2ρ_t)); the ledger sums their ρ_t (sequential composition).
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	a, b := ac.src.PublishedAfter(agent, from), ac.src.PublishedAfter(agent, to)
	r1, q := ac.src.Cost(agent)
	for t := a + 1; t <= b; t++ {
		// σ_t as the run draws it, and the logarithms for what overflows.
		sigma := Sigma(ac.meta.Spec, ac.set.R, agent, t)
		ls := LogSigma(ac.meta.Spec, ac.set.R, agent, t)
		if nz, ok := ac.src.(Noiser); ok && sigma > 0 {
			s := nz.SigmaAt(agent, t)
			ls += num.Log(s) - num.Log(sigma)
			sigma = s
		}
		sigma *= factor
		lr := r1 + float64(float64(t-1)*q) // ln ρ_t
		var rel pld.Release
		switch {
		case math.IsInf(lr, -1): // nothing sensitive
			rel = pld.Release{Mechanism: pld.Gaussian, Scale: sigma}
		case math.IsInf(ls, -1) || math.IsInf(lr, 1): // no noise
			rel = pld.Release{Mechanism: pld.Gaussian, Sensitivity: 1}
		default:
			lsens := ls + float64(0.5*(math.Ln2+lr))
			rel = privacy.Release(pld.Gaussian, lsens, ls+num.Log(factor))
			if d := num.Exp(lsens); sigma > 0 && !math.IsInf(sigma, 0) && !math.IsInf(d, 0) {
				rel.Scale, rel.Sensitivity = sigma, d
			}
		}
		dst = append(dst, privacy.Charge{Agent: agent, Channel: ac.meta.Channel, Release: rel})
	}
	return dst
}
