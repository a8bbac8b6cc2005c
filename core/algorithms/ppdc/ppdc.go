// Package ppdc implements PPDC, the private primal–dual method of Xie, Yi,
// Wang, Cao and Ren (Automatica 177, 2025), without compression, as the
// DPP² paper's Fig. 3 runs it and baselines.md §3.2 reconstructs it.
// Source confidence: low — the original equations could not be opened;
// this is the uncompressed primal–dual (PI-consensus) method of Yi et al.
// whose parameters the DPP² paper names (γ, ω, η), with Laplace noise on
// both messages because the DPP² paper lists a noise scale for each.
//
// Agent i releases x̂_i = x_i + ζ^x_i and v̂_i = v_i + ζ^v_i with Laplace
// noise of scales u_x·r^k and u_v·r^k and updates, with L = P ⊗ I_d a
// Laplacian-type matrix (the normalised I − W_MH by default),
//
//	x_i^{k+1} = x_i^k − η·( γ·Σ_j L_ij x̂_j^k + ω·Σ_j L_ij v̂_j^k + ∇f_i(x_i^k) )
//	v_i^{k+1} = v_i^k + η·ω·Σ_j L_ij x̂_j^k,      v_i^0 = 0
//
// (the sums include the agent's own released copy). The "local-dual" form
// replaces ω·Σ_j L_ij v̂_j by ω·v_i, so v is never sent.
package ppdc

import (
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Forms of the dual term (Params.Form).
const (
	// FormPI mixes the neighbours' released duals: ω·Σ_j L_ij v̂_j.
	FormPI = "pi"
	// FormLocalDual uses the agent's own dual: ω·v_i (v is not sent).
	FormLocalDual = "local-dual"
)

// Params are PPDC's parameters; the noise scales u_x·r^k and u_v·r^k are
// the scenario's channels "zeta_x" and "zeta_v".
type Params struct {
	// Gamma is γ, the consensus gain.
	Gamma float64 `json:"gamma" doc:"γ: consensus gain (DPP²'s Fig. 3: 65)" range:"(0, 1e6]"`
	// Omega is ω, the dual gain.
	Omega float64 `json:"omega" doc:"ω: dual gain (DPP²'s Fig. 3: 5)" range:"(0, 1e6]"`
	// Eta is η, the step.
	Eta float64 `json:"eta" doc:"η: step size (DPP²'s Fig. 3: 0.01)" range:"(0, 1e6]"`
	// Form chooses the dual term.
	Form string `json:"form" doc:"pi: ω·Σ_j L_ij v̂_j with v released (both noise scales matter); local-dual: ω·v_i, v never sent" options:"pi|local-dual"`
	// GradientBound is C of the reconstructed ledger.
	GradientBound float64 `json:"gradient_bound" doc:"C, a bound on ‖∇f_i‖₂ for the reconstructed ledger (0 takes the problem's)" range:"[0, 1e100]"`
}

// Defaults returns the DPP² paper's Fig. 3 setting.
func Defaults() *Params {
	return &Params{Gamma: 65, Omega: 5, Eta: 0.01, Form: FormPI}
}

// Algorithm is PPDC running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	n, d int

	diag  []float64
	start []int
	col   []int
	val   []float64

	zx, zv    *noise.Spec
	sX, sV    *noise.Sampler
	x, v      []float64
	nX, nV    []float64
	xs, vs    []float64 // released x̂, v̂
	g         []float64 // ∇f_i(x_i^k), agent-major
	lx, lv    []float64
	k         int
	step      sim.Step
	cFrom     string
	gradBound float64
	pool      *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns PPDC on prob with Laplacian-type matrix pm, noise channels
// zx (on x) and zv (on v) with their samplers, and initial estimates x0.
func New(p Params, prob objective.Problem, pm *weights.Matrix, zx, zv *noise.Spec, sX, sV *noise.Sampler, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	nd := n * d
	a := &Algorithm{p: p, prob: prob, n: n, d: d,
		diag: pm.Diag, start: pm.Start, col: pm.Col, val: pm.Val,
		zx: zx, zv: zv, sX: sX, sV: sV,
		x: append([]float64(nil), x0...), v: make([]float64, nd),
		nX: make([]float64, nd), nV: make([]float64, nd), xs: make([]float64, nd), vs: make([]float64, nd),
		g: make([]float64, nd), lx: make([]float64, d), lv: make([]float64, d)}
	recv := func(i int) ([]int, []float64) { cols, _ := pm.Row(i); return cols, nil }
	a.step.AddReleases("x", n, d, d, 0, a.xs, a.nX, false, recv)
	if p.Form == FormPI {
		a.step.AddReleases("v", n, d, d, 0, a.vs, a.nV, false, recv)
	}
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "ppdc" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step { return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x} }

// mix writes Σ_j L_ij·v_j (own term included) into acc.
func (a *Algorithm) mix(acc []float64, i int, v []float64) {
	d := a.d
	own, lii := v[i*d:(i+1)*d], a.diag[i]
	for c := range acc {
		acc[c] = lii * own[c]
	}
	lo, hi := a.start[i], a.start[i+1]
	weights.MixRow(acc, v, a.col[lo:hi], a.val[lo:hi])
}

// Advance implements sim.Algorithm: one iteration (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	d := a.d
	a.sX.FillAt(a.zx, a.k, a.nX, d)
	noise.Release(a.xs, a.x, a.nX, d, d, 0)
	if a.p.Form == FormPI {
		a.sV.FillAt(a.zv, a.k, a.nV, d)
		noise.Release(a.vs, a.v, a.nV, d, d, 0)
	}
	eta, gamma, omega := a.p.Eta, a.p.Gamma, a.p.Omega
	// Agent i's gradient reads its own x_i before its update: every
	// agent's first, at once.
	objective.Grads(a.pool, a.prob, a.x, a.g)
	for i := range a.n {
		lo, hi := i*d, (i+1)*d
		x, v, g := a.x[lo:hi], a.v[lo:hi], a.g[lo:hi]
		a.mix(a.lx, i, a.xs)
		if a.p.Form == FormPI {
			a.mix(a.lv, i, a.vs)
		} else {
			copy(a.lv, v)
		}
		for c := range x {
			x[c] -= float64(eta * (float64(gamma*a.lx[c]) + float64(omega*a.lv[c]) + g[c]))
			v[c] += float64(eta * omega * a.lx[c])
		}
	}
	a.k++
	a.step.Iter = a.k
	return &a.step
}

// State implements sim.Algorithm: x and v.
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "v", Dim: a.d, Data: append([]float64(nil), a.v...)},
	}
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x}, sim.Var{Name: "v", Dim: a.d, Data: a.v}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	return nil
}
