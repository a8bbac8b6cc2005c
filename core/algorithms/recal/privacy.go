package recal

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/randwalk"
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/num"
	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Formula is the ledger's formula (Lemmas 5–6, Theorem 4; spec §6.4).
const Formula = "ρ_i = ρ_1·(R^τ_i − 1)/(R − 1) (ρ_1·τ_i at R = 1),  ρ_1 = Δ²/(2σ_1²) = 8α²β²c²/σ_1² with Δ = 4αβc;  ε_i from (ρ_i, δ);  PLF = max_i τ_i"

// Accountant keeps DP-RECAL's ledger. Agent i's data enters only the
// messages it sends while holding the baton; its τ-th release is a
// Gaussian mechanism of sensitivity Δ and variance σ_1²R^(−(τ−1)), so it
// costs ρ_1·R^(τ−1)-zCDP, and its releases compose sequentially
// (Theorem 4). Different agents hold disjoint data (parallel
// composition, Theorem 1): the run's guarantee is the largest ρ_i, which
// is that of the most activated agent when σ_1 is the same for all — the
// privacy leakage frequency PLF = max_i τ_i.
type Accountant struct {
	alg    *Algorithm
	conv   privacy.Conversion
	iters  int
	visits *randwalk.Visits
}

// NewAccountant returns the ledger keeper of alg, converting ρ to (ε, δ)
// with conv; visits replays the walk for predictions over iterations.
func NewAccountant(alg *Algorithm, conv privacy.Conversion, visits *randwalk.Visits) *Accountant {
	return &Accountant{alg: alg, conv: conv, visits: visits}
}

// Record implements sim.Recorder. The activation counts are the
// algorithm's own τ_i, which the ledger reads when asked.
func (ac *Accountant) Record(st *sim.Step) { ac.iters = st.Iter }

// Rho1 returns agent i's first-release ρ_1 = Δ²/(2σ_1²) (+Inf without
// noise).
func (ac *Accountant) Rho1(i int) float64 { return privacy.GaussianRho(ac.alg.sens, ac.alg.sigma[i]) }

// Rho returns agent i's ρ so far: ρ_1·(R^τ_i − 1)/(R − 1).
func (ac *Accountant) Rho(i int) privacy.Amount { return ac.rhoAfter(i, ac.alg.tau[i]) }

// linearSigma is the smallest σ_1 whose ρ_1 = Δ²/(2σ_1²) is computed in
// float64 directly: σ_1² is then a normal number.
const linearSigma = 1e-150

// rhoAfter returns agent i's ρ after count activations: in float64 while
// that is exact, and in log space beyond (a tiny σ_1, or R^count past
// float64), so that a finite ρ is written 10^x, never ∞.
func (ac *Accountant) rhoAfter(i, count int) privacy.Amount {
	a := ac.alg
	if count <= 0 {
		return privacy.Of(0)
	}
	if s := a.sigma[i]; s >= linearSigma {
		if v := privacy.GeometricRho(ac.Rho1(i), a.r, count); !math.IsInf(v, 0) {
			return privacy.Of(v)
		}
	}
	return zcdpgauss.LogAmount(zcdpgauss.LogGeometric(zcdpgauss.LogRho(a.sens, num.Log(a.sigma[i])), num.Log(a.r), count))
}

// maxRho returns the largest ρ over the agents, agent i having been
// activated count(i) times (∞ when one of them has no noise).
func (ac *Accountant) maxRho(count func(i int) int) privacy.Amount {
	best := privacy.Of(0)
	for i := range ac.alg.n {
		best = privacy.Max(best, ac.rhoAfter(i, count(i)))
	}
	return best
}

// off says why no scale gives a finite ε ("" when one does).
func (ac *Accountant) off() string {
	if ac.alg.off() {
		return "RECAL has no noise (noise.u.scale = 0), and no scale gives a finite ε"
	}
	return ""
}

// PredictEpsilon implements privacy.Predictor: the walk's activation
// counts after iterations iterations (replayed from its start: its draws
// come from the algorithm's own stream, which neither the data nor the
// noise touch) with every σ_1 multiplied by factor.
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return ac.predict(func(i int) int { return ac.visits.After(i, iterations) }, factor)
}

func (ac *Accountant) predict(count func(i int) int, factor float64) privacy.Amount {
	if ac.alg.off() {
		return privacy.Infinite()
	}
	return zcdpgauss.Epsilon(zcdpgauss.ScaleRho(ac.maxRho(count), factor), ac.conv, ac.alg.p.Delta)
}

// FactorFor implements privacy.InversePredictor: ρ ∝ 1/λ², so
// λ = √(ρ(1)/ρ_target).
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	if why := ac.off(); why != "" {
		return 0, fmt.Errorf("cannot be reached: %s", why)
	}
	rho := ac.maxRho(func(i int) int { return ac.visits.After(i, iterations) })
	return zcdpgauss.FactorFor(rho, iterations, "iteration(s)", ac.conv, ac.alg.p.Delta, target)
}

// PerAgent returns the ledger's prediction over an agent's own
// activations, the paper's privacy leakage frequency: its iterations
// argument is the PLF, and ε is that of the agent whose σ_1 is smallest,
// activated PLF times. target_epsilon at plf is calibrated through it
// (method.Target).
func (ac *Accountant) PerAgent() privacy.InversePredictor { return perAgent{ac} }

type perAgent struct{ ac *Accountant }

func (p perAgent) PredictEpsilon(plf int, factor float64) privacy.Amount {
	return p.ac.predict(func(int) int { return plf }, factor)
}

// FactorFor is the paper's recipe (spec §6.4): ρ_tot from the target,
// ρ_1 = ρ_tot(R − 1)/(R^PLF − 1) and σ_1 = √(Δ²/(2ρ_1)), divided by the
// smallest σ_1 the channel gives; where that overflows, the general
// closed form in log space.
func (p perAgent) FactorFor(plf int, target float64) (float64, error) {
	ac := p.ac
	a := ac.alg
	if why := ac.off(); why != "" {
		return 0, fmt.Errorf("cannot be reached: %s", why)
	}
	least := math.Inf(1)
	for _, s := range a.sigma {
		least = math.Min(least, s)
	}
	if want := ac.conv.Rho(target, a.p.Delta); want > 0 && !math.IsInf(want, 0) && least > 0 {
		rho1 := privacy.GeometricRho1(want, a.r, plf)
		if f := math.Sqrt(a.sens*a.sens/(2*rho1)) / least; f > 0 && !math.IsInf(f, 0) {
			return f, nil
		}
	}
	return zcdpgauss.FactorFor(ac.maxRho(func(int) int { return plf }), plf, "activations per agent", ac.conv, a.p.Delta, target)
}

// PLF returns the privacy leakage frequency max_i τ_i.
func (ac *Accountant) PLF() int {
	m := 0
	for _, t := range ac.alg.tau {
		m = max(m, t)
	}
	return m
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	a, p := ac.alg, ac.alg.p
	am := 0.0
	for _, v := range a.alpha {
		am = max(am, v)
	}
	sens := "4αβc (Lemma 5)"
	if p.Sensitivity == "direct" {
		sens = "2αβc (direct: Δλ = αβ·Δ∇f)"
	}
	l := privacy.Ledger{
		Algorithm:  "dp-recal",
		Notion:     fmt.Sprintf("(ε, δ)-DP from ρ-zCDP (Gaussian mechanism), %s conversion; adjacent datasets of one agent differ in one record, ‖∇f_i‖ ≤ c", ac.conv),
		Source:     "Wang, Guo, Yang & Shi (dp-recal-relay), Lemmas 5–6, Theorems 1 and 4; spec §6.4; conversion: " + conversionSource(ac.conv),
		Formula:    Formula,
		Iterations: ac.iters,
		Inputs: []privacy.Input{
			privacy.Num("α = max_i α_i", am), privacy.Num("β = 1/(2(n+1))", a.beta),
			privacy.Num("c (gradient bound)", p.GradientBound), privacy.Text("Δ", sens), privacy.Num("Δ value", a.sens),
			privacy.Num("R", a.r), privacy.Num("δ", p.Delta), privacy.Text("conversion", ac.conv.String()),
			privacy.Num("PLF = max_i τ_i", float64(ac.PLF())),
		},
	}
	off := a.off()
	for i := range a.n {
		rho := ac.Rho(i)
		e := privacy.Entry{Agent: i, Delta: p.Delta, Inputs: []privacy.Input{
			privacy.Num("τ_i (activations)", float64(a.tau[i])), privacy.Num("σ_1", a.sigma[i]),
		}}
		switch {
		case off || a.sigma[i] == 0:
			e.Epsilon, e.Reason = privacy.Infinite(), "no noise (RECAL: σ_1 = 0)"
			if off {
				e.Reason = "no noise (RECAL, noise.u.scale = 0)"
			}
		default:
			e.Epsilon = zcdpgauss.Epsilon(rho, ac.conv, p.Delta)
			e.Inputs = append(e.Inputs, zcdpgauss.AmountInput("ρ_i", rho),
				zcdpgauss.AmountInput("ε tight", zcdpgauss.Epsilon(rho, privacy.Tight, p.Delta)),
				zcdpgauss.AmountInput("ε simple (the paper's)", zcdpgauss.Epsilon(rho, privacy.Simple, p.Delta)))
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	if !off {
		plf := ac.PLF()
		rho := ac.rhoAfter(0, plf)
		l.Notes = append(l.Notes,
			fmt.Sprintf("PLF = %d: agent ρ at the PLF (σ_1 of agent 0 = %.6g) is %s; ε = %s (tight), %s (simple, the paper's), δ = %g",
				plf, a.sigma[0], rho, zcdpgauss.Epsilon(rho, privacy.Tight, p.Delta), zcdpgauss.Epsilon(rho, privacy.Simple, p.Delta), p.Delta),
			"ε grows like R^PLF: there is no infinite-horizon budget; stop the run at a PLF budget with stop.max_activations")
	}
	return l
}

func conversionSource(c privacy.Conversion) string {
	if c == privacy.Simple {
		return "ε = ρ + 2√(ρ ln 1/δ) (Bun & Steinke 2016, Prop. 1.3; the paper's)"
	}
	return "tight, min over Rényi orders (Canonne, Kamath & Steinke 2020, Cor. 13; OpenDP)"
}

// Adjacency implements privacy.Releaser (spec §6.4).
func (ac *Accountant) Adjacency() string {
	return "one record of one agent's local data set is replaced; every ‖∇f_i‖₂ ≤ c (Assumption 3)"
}

// Releases implements privacy.Releaser: agent i's data enters only the
// message ũ it sends while holding the baton; its τ-th is a Gaussian
// release of standard deviation σ_1·R^(−(τ−1)/2) and ℓ2 sensitivity Δ
// (Lemma 5), which Theorem 4 composes. The walk is replayed from its seed.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	a := ac.alg
	for tau := ac.visits.After(agent, from) + 1; tau <= ac.visits.After(agent, to); tau++ {
		r := pld.Release{Mechanism: pld.Gaussian, Scale: a.SigmaAt(agent, tau) * factor, Sensitivity: a.sens}
		if r.Scale == 0 && a.sigma[agent] > 0 {
			// σ_τ underflowed: the ratio from the logarithms.
			r = privacy.Release(pld.Gaussian, num.Log(a.sens), num.Log(a.sigma[agent])-float64(0.5*float64(tau-1)*num.Log(a.r))+num.Log(factor))
		}
		dst = append(dst, privacy.Charge{Agent: agent, Channel: "u", Release: r})
	}
	return dst
}
