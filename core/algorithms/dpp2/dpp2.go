// Package dpp2 implements DPP², the decentralised proximal primal–dual
// algorithm with double privacy protection of Ou, Wang, Liu and Lu
// (Algorithm 1, with the sign and index fixes of spec §3.7), for smooth,
// possibly nonconvex problems min_x Σ_i f_i(x) on an undirected network.
//
// Two tiers protect an agent. The first merges its decision and gradient
// with dual variables d_i, q_i and a public sequence η^k ∈ (0, 1) before
// they travel; the second adds Laplace noise w_i^k and e_i^k of scales
// r_i^k·u_{w,i} and r_i^k·u_{e,i}. Each iteration has two communication
// rounds:
//
//	y_i^k = x_i^k + (1 − η^k)·d_i^k + w_i^k                          round 0 (Alg. 1 line 6, eq. (16))
//	a_i^k = Σ_{j∈N_i∪{i}} p_ij·y_j^k
//	z_i^k = ∇f_i(x_i^k) + η^k·q_i^k + ρ·a_i^k + e_i^k                round 1 (line 7, eq. (17))
//	x_i^{k+1} = x_i^k + w_i^k − α·(z_i^k − e_i^k) + β·Σ_j p_ij·z_j^k       (line 8, eq. (18))
//	d_i^{k+1} = η^k·d_i^k + y_i^k,   q_i^{k+1} = η^k·q_i^k + ρ·a_i^k         (lines 9–10, eq. (19))
//
// with d_i^0 = q_i^0 = 0. In stacked form, with L = P ⊗ I_d and G = αI −
// βL, this is (20)–(21):
//
//	x^{k+1} = x^k + w^k − G·(∇f̃(x^k) + q̂^k + ρL(x^k + w^k)) + βL·e^k,   q̂^{k+1} = q̂^k + ρL(x^k + w^k)
//
// in which η^k does not appear: the x-trajectory does not depend on the η
// sequence (the tests check both facts). The same algebra lets a listener
// who knows η^k undo the first tier (Listener).
//
// P defaults to the normalised Laplacian I − W_MH (spec §3.1): the
// paper's α = 0.1, β = 0.05 need λ_max(P) < α/β = 2, which the raw
// combinatorial Laplacian of its graph (λ_max ≈ 16) breaks.
package dpp2

import (
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Scalings of P a scenario may ask for (Params.ScaleP).
const (
	// ScaleNone uses the scenario's matrix as P.
	ScaleNone = "none"
	// ScaleLambdaMax divides it by its largest eigenvalue, so that the
	// combinatorial Laplacian becomes L_c/λ_max(L_c) (spec §3.1's second
	// normalisation).
	ScaleLambdaMax = "lambda-max"
)

// Params are DPP²'s parameters. The Laplace scales u_w·r^k and u_e·r^k
// are the scenario's noise channels "w" (on y) and "e" (on z); per-agent
// r_i are per-agent decays, per-agent u_i per-agent scales.
type Params struct {
	// Alpha is α, the step of G = αI − βL.
	Alpha float64 `json:"alpha" doc:"α: step size, G = αI − βL (the paper: 0.1 in Figs. 1–2, 0.0994 in Fig. 3)" range:"(0, 1e6]"`
	// Beta is β of G.
	Beta float64 `json:"beta" doc:"β: G = αI − βL must be positive definite, so β < α/λ_max(P) (the paper: 0.05)" range:"[0, 1e6]"`
	// Rho is ρ, the augmented-Lagrangian penalty.
	Rho float64 `json:"rho" doc:"ρ: augmented-Lagrangian penalty (the paper: 10)" range:"(0, 1e6]"`
	// Eta is a constant η, or 0 for η^k drawn in (0, 1).
	Eta float64 `json:"eta" doc:"η: 0 draws η^k uniformly in (0, 1) every iteration from the algorithm seed, shared by all agents (the paper; pinnable as algorithm.draws.eta); a value in (0, 1) is a constant η" range:"[0, 1)"`
	// Delta is δ of the δ-adjacency.
	Delta float64 `json:"delta" doc:"δ: adjacent f_i, f_i' have sup_x ‖∇f_i(x) − ∇f_i'(x)‖₂ ≤ δ (not given by the paper; ε is proportional to it)" range:"[0, 1e100]"`
	// Smoothness overrides M̄.
	Smoothness float64 `json:"smoothness" doc:"M̄: the largest smoothness constant of the f_i, in Theorem 3 (0 takes the problem's, computed from its data)" range:"[0, 1e100]"`
	// Conservative adds the k = 0 term of Theorem 3's sum.
	Conservative bool `json:"conservative" doc:"add the k = 0 term √d·δ/u_e to ε: z^0 already differs between adjacent problems, which the paper's sum from k = 1 leaves out (spec §3.5)"`
	// TargetEpsilon asks the ledger for the decay that meets it.
	TargetEpsilon float64 `json:"target_epsilon" doc:"a target ε (0: none): the ledger's notes give, per agent, the decay r* that meets it at the horizon so far (Theorem 3 inverted by bisection; Corollary 1's interval is wrong), and whether the agent's r does" range:"[0, 1e300]"`
	// ScaleP normalises P.
	ScaleP string `json:"scale_p" doc:"P is the scenario's weights (normalized-laplacian: I − W_MH, the default; laplacian; sym-normalized-laplacian); lambda-max divides it by λ_max(P)" options:"none|lambda-max"`
}

// Defaults returns the paper's Fig. 1–2 setting: α = 0.1, β = 0.05, ρ =
// 10, random η^k, δ = 1 (so ε reads in units of δ).
func Defaults() *Params {
	return &Params{Alpha: 0.1, Beta: 0.05, Rho: 10, Delta: 1, ScaleP: ScaleNone}
}

// Algorithm is DPP² running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	n, d int

	diag  []float64 // P, CSR
	start []int
	col   []int
	val   []float64

	w, e   *noise.Spec
	sW, sE *noise.Sampler
	eta    *method.Source

	x, dv, q []float64 // x_i, d_i, q_i, agent-major
	nw, ne   []float64 // w^k, e^k
	y        []float64 // y^k
	zc, z    []float64 // z^k without and with e^k
	a, b     []float64 // a^k = (P ⊗ I)y^k, (P ⊗ I)z^k
	g        []float64 // ∇f_i(x_i^k)
	acc      []float64
	k        int
	etaK     float64 // η^k of the last iteration
	step     sim.Step
	pool     *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns DPP² on prob with Laplacian-type matrix pm (P), noise
// channels w (on y) and e (on z) with their samplers, the η source (nil
// with p.Eta > 0) and initial estimates x0.
func New(p Params, prob objective.Problem, pm *weights.Matrix, w, e *noise.Spec, sW, sE *noise.Sampler, eta *method.Source, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	nd := n * d
	a := &Algorithm{p: p, prob: prob, n: n, d: d,
		diag: pm.Diag, start: pm.Start, col: pm.Col, val: pm.Val,
		w: w, e: e, sW: sW, sE: sE, eta: eta,
		x: append([]float64(nil), x0...), dv: make([]float64, nd), q: make([]float64, nd),
		nw: make([]float64, nd), ne: make([]float64, nd),
		y: make([]float64, nd), zc: make([]float64, nd), z: make([]float64, nd),
		a: make([]float64, nd), b: make([]float64, nd), g: make([]float64, nd), acc: make([]float64, d)}
	recv := func(i int) ([]int, []float64) { cols, _ := pm.Row(i); return cols, nil }
	a.step.Releases = make([]sim.Release, 0, 2*n)
	a.step.AddReleases("y", n, d, d, 0, a.y, a.nw, false, recv)
	a.step.AddReleases("z", n, d, d, 0, a.z, a.ne, false, recv)
	for i := n; i < 2*n; i++ {
		a.step.Releases[i].Round = 1
	}
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dpp2" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// mix writes Σ_{j∈N_i∪{i}} p_ij·v_j into a.acc and returns it.
func (a *Algorithm) mix(i int, v []float64) []float64 {
	d := a.d
	acc := a.acc
	pii := a.diag[i]
	own := v[i*d : (i+1)*d]
	for c := range acc {
		acc[c] = pii * own[c]
	}
	lo, hi := a.start[i], a.start[i+1]
	weights.MixRow(acc, v, a.col[lo:hi], a.val[lo:hi])
	return acc
}

// Advance implements sim.Algorithm: one iteration, two rounds (see the
// package doc for the equations).
func (a *Algorithm) Advance() *sim.Step {
	n, d, k := a.n, a.d, a.k
	eta := a.p.Eta
	if eta == 0 {
		eta = a.eta.OpenUnit()
	}
	a.etaK = eta
	a.sW.FillAt(a.w, k, a.nw, d)
	a.sE.FillAt(a.e, k, a.ne, d)
	// Round 0: y_i = x_i + (1 − η)d_i + w_i (16).
	round0(a.x, a.dv, a.nw, a.y, 1-eta)
	// Round 1: z_i = ∇f_i(x_i) + ηq_i + ρ·Σ_j p_ij y_j + e_i (17); with
	// it the duals' updates (19), d_i = ηd_i + y_i and q_i = ηq_i +
	// ρ·Σ_j p_ij y_j, which nothing reads before the next iteration.
	rho := a.p.Rho
	objective.Grads(a.pool, a.prob, a.x, a.g)
	mixAll(n, d, a.start, a.col, a.val, a.diag, a.y, a.a)
	round1(a.g, a.q, a.dv, a.y, a.ne, a.a, a.zc, a.z, eta, rho)
	// Local update (18): z_i − e_i is the clean zc_i.
	mixAll(n, d, a.start, a.col, a.val, a.diag, a.z, a.b)
	update(a.x, a.nw, a.zc, a.b, a.p.Alpha, a.p.Beta)
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.x
	return &a.step
}

// Eta returns η^k of the last iteration (0 before the first): public in
// the paper's threat model, so a listener may use it.
func (a *Algorithm) Eta() float64 { return a.etaK }

// State implements sim.Algorithm: x, d and q.
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "d", Dim: a.d, Data: append([]float64(nil), a.dv...)},
		{Name: "q", Dim: a.d, Data: append([]float64(nil), a.q...)},
	}
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x},
		sim.Var{Name: "d", Dim: a.d, Data: a.dv}, sim.Var{Name: "q", Dim: a.d, Data: a.q}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates = a.x
	return nil
}
