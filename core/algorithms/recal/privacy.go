package recal

import (
	"fmt"

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
	alg   *Algorithm
	conv  privacy.Conversion
	iters int
}

// NewAccountant returns the ledger keeper of alg, converting ρ to (ε, δ)
// with conv.
func NewAccountant(alg *Algorithm, conv privacy.Conversion) *Accountant {
	return &Accountant{alg: alg, conv: conv}
}

// Record implements sim.Recorder. The activation counts are the
// algorithm's own τ_i, which the ledger reads when asked.
func (ac *Accountant) Record(st *sim.Step) { ac.iters = st.Iter }

// Rho1 returns agent i's first-release ρ_1 = Δ²/(2σ_1²) (+Inf without
// noise).
func (ac *Accountant) Rho1(i int) float64 { return privacy.GaussianRho(ac.alg.sens, ac.alg.sigma[i]) }

// Rho returns agent i's ρ so far: ρ_1·(R^τ_i − 1)/(R − 1).
func (ac *Accountant) Rho(i int) float64 {
	t := ac.alg.tau[i]
	if t == 0 {
		return 0
	}
	return privacy.GeometricRho(ac.Rho1(i), ac.alg.r, t)
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
	if a.calibrated {
		l.Inputs = append(l.Inputs, privacy.Num("target ε", p.TargetEpsilon), privacy.Num("PLF calibrated for", float64(p.PLF)))
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
			e.Epsilon = privacy.Of(ac.conv.Epsilon(rho, p.Delta))
			e.Inputs = append(e.Inputs, privacy.Num("ρ_i", rho),
				privacy.Num("ε tight", privacy.ZCDPEpsilon(rho, p.Delta)),
				privacy.Num("ε simple (the paper's)", privacy.ZCDPEpsilonSimple(rho, p.Delta)))
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	if !off {
		plf := ac.PLF()
		rho := privacy.GeometricRho(ac.Rho1(0), a.r, plf)
		l.Notes = append(l.Notes,
			fmt.Sprintf("PLF = %d: agent ρ at the PLF (σ_1 of agent 0 = %.6g) is %.6g; ε = %.6g (tight), %.6g (simple, the paper's), δ = %g",
				plf, a.sigma[0], rho, privacy.ZCDPEpsilon(rho, p.Delta), privacy.ZCDPEpsilonSimple(rho, p.Delta), p.Delta),
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
