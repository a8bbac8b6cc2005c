package dpp2

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/weights"
)

// Factory builds DPP² from a scenario.
var Factory = method.Factory{
	Name:  "dpp2",
	Title: "DPP² (Ou et al.)",
	Paper: "Ou, Wang, Liu & Lu, Decentralized proximal primal–dual algorithm with double privacy protection for nonconvex optimization, Algorithm 1 with the sign and index fixes of spec §3.7",
	Channels: []method.Channel{
		{Name: "w", Dist: noise.Laplace, Description: "w on the state message y: scale u_w, decay r^k (Laplace, θ_w = r^k·u_w)"},
		{Name: "e", Dist: noise.Laplace, Description: "e on the gradient message z: scale u_e, decay r^k (Laplace, θ_e = r^k·u_e)"},
	},
	Solves: method.Minimisation,
	// d and q start at 0 (Algorithm 1, line 2); the compact form (20)–(21)
	// and η-invariance need q = ρ(P ⊗ I)d, which a pinned pair must keep.
	States: []string{"x", "d", "q"},
	Draws: []method.Draw{{Name: "eta", Description: "η^k ∈ (0, 1), the merging coefficient shared by all agents",
		Min: 0x1p-53, Max: 1 - 0x1p-53}},
	NewParams: func() any { return Defaults() },
	// x, d, q, two noises, y and z with and without noise, a, ∇f.
	Footprint: func(agents, _, dim int) int64 { return 8 * 11 * int64(agents) * int64(dim) },
	Build:     build,
	Words:     words,
}

// pNeeds are the properties of P that spec §3.1 requires: symmetric, zero
// row sums (P·1 = 0), supported on the graph's edges.
var pNeeds = []string{weights.FindSymmetric, weights.FindZeroRowSums, weights.FindSparsity}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("DPP²", "DPP² needs a Laplacian-type P (symmetric, P·1 = 0, supported on the edges: weights kind normalized-laplacian, laplacian or sym-normalized-laplacian); P fails", pNeeds...); err != nil {
		return nil, nil, err
	}
	pm := env.Weights
	eig, err := weights.SymEigenvalues(pm)
	if err != nil {
		return nil, nil, check.Errorf("weights", "DPP² needs the eigenvalues of P: %v", err)
	}
	lmax := eig[len(eig)-1]
	scale := 1.0
	if p.ScaleP == ScaleLambdaMax {
		if !(lmax > 0) {
			return nil, nil, check.Errorf(check.Join(pf, "scale_p"), "cannot divide P by λ_max(P) = %g", lmax)
		}
		scale = 1 / lmax
		pm = pm.Clone()
		for i := range pm.Diag {
			pm.Diag[i] *= scale
		}
		for k := range pm.Val {
			pm.Val[k] *= scale
		}
		for k := range eig {
			eig[k] *= scale
		}
		lmax = eig[len(eig)-1]
	}
	// P ⪰ 0 with Null(P) = span(1): the smallest eigenvalue is 0 (P·1 = 0
	// holds) and the second is positive.
	tol := 1e-10 * math.Max(1, lmax)
	if eig[0] < -tol {
		return nil, nil, check.Errorf("weights", "DPP² needs P positive semidefinite; its smallest eigenvalue is %.6g", eig[0])
	}
	if len(eig) > 1 && eig[1] <= tol {
		return nil, nil, check.Errorf("weights", "DPP² needs Null(P) = span(1) (a connected graph); P's second smallest eigenvalue is %.3g", eig[1])
	}
	// G = αI − βL ≻ 0 ⇔ β·λ_max(P) < α.
	if p.Beta*lmax >= p.Alpha {
		return nil, nil, check.Errorf(check.Join(pf, "beta"), "G = αI − βL must be positive definite: β < α/λ_max(P) = %g/%.6g = %.6g (got β = %g; the raw combinatorial Laplacian needs scale_p lambda-max or weights kind normalized-laplacian)", p.Alpha, lmax, p.Alpha/lmax, p.Beta)
	}
	w, e := env.Noise["w"], env.Noise["e"]
	noisy := !w.IsOff() || !e.IsOff()
	if noisy && p.Delta == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "delta"), "must be positive when noise is on: Theorem 3's ε is proportional to δ (give 1 to read ε in units of δ)")
	}
	mbar, mFrom, _ := mbarOf(env, &p)
	var warns []check.Warning
	if noisy && mbar == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "smoothness"), "is required (> 0) when noise is on: %s states no smoothness constant M̄ for Theorem 3", env.Problem.Kind())
	}
	if noisy && p.Alpha*mbar >= 1 {
		warns = append(warns, check.Warnf(check.Join(pf, "alpha"), "no privacy guarantee: Theorem 3 needs α·M̄ < 1 (α = %g, M̄ = %.4g, α·M̄ = %.4g)", p.Alpha, mbar, p.Alpha*mbar))
	}
	for _, ch := range []struct {
		name string
		s    *noise.Spec
	}{{"w", w}, {"e", e}} {
		for i := range env.Problem.Agents() {
			dec := ch.s.DecayOf(i)
			if zeroAfterStart(dec) && ch.s.Base(i) != 0 {
				warns = append(warns, check.Warnf(check.Join("noise", ch.name), "r = 0: noise only at k = 0 (0^0 = 1), none afterwards, so Theorem 3 gives no guarantee"))
				break
			}
		}
	}
	x0 := env.InitState("x")
	var src *method.Source
	if p.Eta == 0 {
		src = env.Draws("dpp2", "eta")
	}
	a := New(p, env.Problem, pm, w, e, env.Sampler("dpp2", "w"), env.Sampler("dpp2", "e"), src, x0)
	a.pool = env.Pool
	_, dPinned := env.Init["d"]
	_, qPinned := env.Init["q"]
	if dPinned || qPinned {
		copy(a.dv, env.InitState("d"))
		copy(a.q, env.InitState("q"))
		if dev := a.dualGap(); dev > 1e-9 {
			warns = append(warns, check.Warnf("init.q", "q_0 differs from ρ·(P ⊗ I)·d_0 by %.3g: the compact form (20)–(21) then fails and the trajectory depends on η", dev))
		}
	}
	// Theory: λ̄_G, λ̲_G of spec §3.4, reported, never blocking (§3.8.7).
	lmin := 0.0
	if len(eig) > 1 {
		lmin = eig[1]
	}
	th := &method.Theory{
		Source: "Ou, Wang, Liu & Lu, DPP², Theorems 1–3 and eqs. (23)–(27); spec §3.4",
		Convergence: fmt.Sprintf("Theorem 1: O(1/K) ergodic stationarity when r < 1 (exact convergence: the noise decays); λ_max(P) = %.6g, λ_2(P) = %.6g, G's eigenvalues on the disagreement space in [%.6g, %.6g]. "+
			"The theory's condition (27), α < ξ6/ξ7 = (1/4)/(M̄ + 21M̄²/2) = %.3g here, is far stricter than the paper's own α = %g: it is reported, not enforced. Consensus is damped only by the objective's curvature: expect a large transient.",
			lmax, lmin, p.Alpha-float64(p.Beta*lmax), p.Alpha-float64(p.Beta*lmin), 0.25/(mbar+float64(10.5*mbar*mbar)), p.Alpha),
		InfiniteHorizon: &method.Budget{Source: "Theorem 3", Formula: Formula,
			Reason: "none: Theorem 3 is for a finite horizon K, and ε grows like r^(−K)"},
	}
	ac := NewAccountant(a, mbar, mFrom)
	return &method.Built{Algorithm: a, Accountant: ac, Theory: th}, warns, nil
}

// dualGap returns max |q − ρ(P ⊗ I)d| over the agents' entries.
func (a *Algorithm) dualGap() float64 {
	dev := 0.0
	for i := range a.n {
		m := a.mix(i, a.dv)
		for c := range m {
			dev = math.Max(dev, math.Abs(a.q[i*a.d+c]-float64(a.p.Rho*m[c])))
		}
	}
	return dev
}

var _ privacy.InversePredictor = (*Accountant)(nil)
