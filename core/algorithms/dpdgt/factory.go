package dpdgt

import (
	"math"
	"slices"
	"sync"

	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/weights"
)

// Factory builds DP-DGT from a scenario.
var Factory = method.Factory{
	Name:  "dp-dgt",
	Title: "DP-DGT",
	Paper: "W. Huo, X. Chen, L. Huang, K. H. Johansson and L. Shi, Differentially private dual gradient tracking for distributed resource allocation, Algorithm 1",
	Channels: []method.Channel{
		{Name: "xi", Dist: noise.Laplace, Description: "ξ on the pushed deviation tracker s: scale θ_ξ0, decay q_ξ^k"},
		{Name: "zeta", Dist: noise.Laplace, Description: "ζ on the pulled price w̃: scale θ_ζ0, decay q_ζ^k"},
	},
	Solves: method.Allocation,
	States: []string{"w", "s", "price"},
	Matrices: []method.MatrixRole{
		{Role: method.RolePull, Default: weights.KindRowStochastic, Description: "R, row-stochastic: agent i pulls w̃_j + ζ_j from its in-neighbours j and weighs it by R_ij"},
		{Role: method.RolePush, Default: weights.KindColumnStochastic, Description: "C, column-stochastic: agent i pushes C_li·(s_i + ξ_i) to each out-neighbour l"},
	},
	RootedDigraphs: true,
	NewParams:      func() any { return Defaults() },
	Build:          build,
	Words:          words,
}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := env.RequireOneDecay(oneDecay); err != nil {
		return nil, nil, err
	}
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := p.Alpha.Validate(check.Join(pf, "alpha")); err != nil {
		return nil, nil, err
	}
	prob, err := pushpull.Allocation(env, "DP-DGT")
	if err != nil {
		return nil, nil, err
	}
	if err := pushpull.CheckStochastic(env, "DP-DGT"); err != nil {
		return nil, nil, err
	}
	net := networkOf(env, p)
	if net.rootsErr != nil {
		return nil, nil, net.rootsErr
	}
	sp := net.spectral
	mu, muSrc := p.Mu, "given"
	if mu == 0 {
		mu, muSrc = prob.StrongConvexity(), "derived from the costs"
	}
	xi, ze := env.Noise["xi"], env.Noise["zeta"]
	warns := theoryWarnings(env, p, mu, sp, xi, ze)
	if sc := prob.StrongConvexity(); p.Mu != 0 && p.Mu > sc {
		// A μ above the costs' true modulus shrinks the sensitivity bound
		// (31), so the ledger would understate ε.
		warns = append(warns, check.Warnf(check.Join("algorithm.params", "mu"),
			"Assumption 1 needs every cost F_i to be μ-strongly convex, but these costs are only %.6g-strongly convex (2·min a_i); μ = %g is outside the assumption and the ledger's ε understates the privacy loss", sc, p.Mu))
	}

	r := pushpull.NewMix(env.Matrices[method.RolePull])
	c := pushpull.NewMix(env.Matrices[method.RolePush])
	a := New(p, prob, r, c, xi, ze, env.Sampler("dp-dgt", "xi"), env.Sampler("dp-dgt", "zeta"),
		env.InitState("w"), env.InitState("s"), env.InitState("price"))
	ac := NewAccountant(a, mu, muSrc, sp)
	return &method.Built{Algorithm: a, Accountant: ac, Theory: theory(p, ac, xi, ze)}, warns, nil
}

// theory states what the paper proves for these parameters: convergence
// to a neighbourhood of w* (Theorems 1–2) and, where Corollary 2 applies,
// the closed-form infinite-horizon budget (37) of the most exposed agent.
// The error bound (38) is an order, O(1 + 1/((q − q_ζ²)(q − q_ξ²)(q − q_C)
// (q − q_R)(1 − q))), with no constant, so no number is predicted.
func theory(p Params, ac *Accountant, xi, ze *noise.Spec) *method.Theory {
	const src = "Huo et al., DP-DGT: Theorems 1–2, Corollary 2"
	t := &method.Theory{Source: src,
		Convergence: "Theorems 1–2: with summable steps and noise the allocations converge to a neighbourhood of w* (not to w*), the dual iterates reach consensus",
		Error: &method.PredictedError{Available: false, Source: "Corollary 2, eq. (38)",
			Formula: "E‖w_k − w*‖² ≤ O(1 + 1/((q − q_ζ²)(q − q_ξ²)(q − q_C)(q − q_R)(1 − q)))",
			Reason:  "(38) is an order of magnitude without constants: it predicts no number"},
	}
	if !p.Alpha.Summable() {
		t.Convergence = "outside Theorems 1–2: the step α_k is not summable"
	}
	b := &method.Budget{Source: "Corollary 2, eq. (37)", Formula: FormulaClosed, Agent: -1}
	for i := range ac.alg.n {
		if ac.alg.prob.Fixed(i) {
			continue
		}
		bd := ac.Infinite(i)
		if len(bd.Failures) > 0 {
			b.Reason = "Corollary 2's conditions fail: " + joinSemi(bd.Failures)
			break
		}
		if b.Agent < 0 || bd.Closed > b.Epsilon.Value() {
			b.Available, b.Agent, b.Epsilon = true, i, privacy.Of(bd.Closed)
		}
	}
	if b.Agent < 0 {
		b.Agent = 0
	}
	b.Inputs = []privacy.Input{privacy.Text("α_k", p.Alpha.String()), privacy.Num("γ", p.Gamma), privacy.Num("φ", p.Phi),
		privacy.Num("δ", p.Delta), privacy.Num("μ", ac.mu), privacy.Text("θ_ξ decay", xi.Decay.String()), privacy.Text("θ_ζ decay", ze.Decay.String())}
	t.InfiniteHorizon = b
	return t
}

// network is what DP-DGT derives from its two matrices alone: whether
// Assumption 2 holds (the error naming the nodes if not) and the spectral
// quantities of its conditions.
type network struct {
	rootsErr error
	spectral Spectral
}

// networkOf checks Assumption 2 and computes q_R, q_C and π_Cᵀπ_R (when
// the network is small enough for the dense eigen-solvers). A sweep builds
// the same matrices thousands of times, so the results are remembered by
// the matrices' entries and φ, γ; a lookup allocates nothing.
func networkOf(env *method.Env, p Params) network {
	r, c := env.Matrices[method.RolePull], env.Matrices[method.RolePush]
	h := networkHash(r, c, p.Phi, p.Gamma)
	networkMu.Lock()
	for _, e := range networkMemo[h] {
		if e.phi == p.Phi && e.gamma == p.Gamma && sameMatrix(e.r, r) && sameMatrix(e.c, c) {
			networkMu.Unlock()
			return e.net
		}
	}
	networkMu.Unlock()
	var net network
	if _, err := pushpull.CheckRoots(env, "DP-DGT"); err != nil {
		net.rootsErr = err
	} else {
		rep := env.Reports
		piR, piC := rep[method.RolePull].PerronLeft, rep[method.RolePush].PerronRight
		sR, errR := weights.SigmaR(r, p.Phi)
		sC, errC := weights.SigmaC(c, p.Gamma)
		if errR == nil && errC == nil && piR != nil && piC != nil {
			dot := 0.0
			for i := range piR {
				dot += float64(piR[i] * piC[i])
			}
			net.spectral = Spectral{QR: (1 + float64(sR*sR)) / 2, QC: (1 + float64(sC*sC)) / 2, PiCPiR: dot, OK: true}
		}
	}
	networkMu.Lock()
	if networkN >= 64 {
		clear(networkMemo)
		networkN = 0
	}
	networkMemo[h] = append(networkMemo[h], networkEntry{r: r.Clone(), c: c.Clone(), phi: p.Phi, gamma: p.Gamma, net: net})
	networkN++
	networkMu.Unlock()
	return net
}

// networkEntry is a remembered network with the inputs it is for.
type networkEntry struct {
	r, c       *weights.Matrix
	phi, gamma float64
	net        network
}

var (
	networkMu   sync.Mutex
	networkMemo = map[uint64][]networkEntry{}
	networkN    int
)

// sameMatrix compares two matrices entry by entry, bit for bit.
func sameMatrix(a, b *weights.Matrix) bool {
	eq := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	return a.N == b.N && slices.Equal(a.Start, b.Start) && slices.Equal(a.Col, b.Col) && eq(a.Diag, b.Diag) && eq(a.Val, b.Val)
}

// networkHash mixes both matrices and the two weights (FNV-1a over 64-bit
// words).
func networkHash(r, c *weights.Matrix, phi, gamma float64) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for _, m := range []*weights.Matrix{r, c} {
		mix(uint64(m.N))
		for _, v := range m.Diag {
			mix(math.Float64bits(v))
		}
		for _, v := range m.Col {
			mix(uint64(v))
		}
		for _, v := range m.Val {
			mix(math.Float64bits(v))
		}
	}
	mix(math.Float64bits(phi))
	mix(math.Float64bits(gamma))
	return h
}

// theoryWarnings compares the parameters with the paper's conditions:
// Theorems 1–2 (convergence to a neighbourhood of w*), Corollary 2 (the
// closed form (37)) and Theorem 3 (π_Cᵀπ_R < 1/2). The run goes ahead
// either way; the ledger then reports the recursion (31) alone.
func theoryWarnings(env *method.Env, p Params, mu float64, sp Spectral, xi, ze *noise.Spec) []check.Warning {
	const pf = "algorithm.params"
	var ws []check.Warning
	if !p.Alpha.Summable() {
		ws = append(ws, check.Warnf(check.Join(pf, "alpha"), "α_k = %s is not summable: Theorems 1–3 need Σα_k < ∞, and with Laplace noise no ε-DP holds over an infinite horizon (Huang et al. 2024); the recursion's ε grows without bound", p.Alpha))
	}
	for _, ch := range []struct {
		name string
		spec *noise.Spec
	}{{"xi", xi}, {"zeta", ze}} {
		if ch.spec.IsOff() {
			ws = append(ws, check.Warnf(check.Join("noise", ch.name), "no noise on this channel: θ_0 = 0 gives no privacy guarantee (ε = ∞)"))
			continue
		}
		if !ch.spec.Decay.Summable() {
			ws = append(ws, check.Warnf(check.Join(check.Join("noise", ch.name), "decay"), "the noise scale does not decay (%s): Theorem 1 needs Σθ_k² < ∞ and Σθ_k²/α_k < ∞, so expect no convergence to a neighbourhood of w*", ch.spec.Decay))
		}
	}
	// Corollary 2's conditions, for the first agent with a real cost (the
	// paper gives every agent the same scales).
	prob := env.Problem
	for i := range prob.Agents() {
		if xi.IsOff() || ze.IsOff() {
			break // the warnings above say it: no guarantee at all
		}
		if f, ok := prob.(interface{ Fixed(int) bool }); ok && f.Fixed(i) {
			continue
		}
		if fails := Conditions(p, mu, xi, ze, xi.Base(i), ze.Base(i), sp); len(fails) > 0 {
			ws = append(ws, check.Warnf(pf, "Corollary 2's conditions fail, so its closed form (37) of ε does not apply (the ledger reports the recursion (31), a numerical bound): %s", joinSemi(fails)))
		}
		break
	}
	if sp.OK && !(sp.PiCPiR < 0.5) {
		ws = append(ws, check.Warnf("weights", "Theorem 3 assumes π_Cᵀπ_R < 1/2; here π_Cᵀπ_R = %.4g", sp.PiCPiR))
	}
	if a0, q, ok := Geometric(p.Alpha); ok && sp.OK && p.Alpha.Kind == noise.Geometric && a0 > 0 && !(q > max(sp.QR, sp.QC)) {
		ws = append(ws, check.Warnf(check.Join(pf, "alpha.r"), "Theorem 1 needs α_k to decay no faster than λ^k for some λ > max(q_R, q_C) = %.4g; q = %g decays faster, so the dual iterates may stop short of consensus", max(sp.QR, sp.QC), q))
	}
	return ws
}
