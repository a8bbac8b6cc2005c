// Package diadsp implements DiaDSP, the distributed algorithm via
// direction and state perturbation of Ding, Zhu, He, Chen and Guan (IEEE
// TAC 67(2), 2022), the GT-DP paper's Fig. 2 baseline, as baselines.md
// §3.1 specifies it. Source confidence: medium-low — the original could
// not be opened when the spec was written; the update is the DIGing-type
// gradient tracking with both messages perturbed that the seed papers
// describe, and the accountant is reconstructed.
//
// Agent i releases x̃_i = x_i + η_i and ỹ_i = y_i + ξ_i with Laplace noise
// of scales u_x·r^k and u_y·r^k, and updates
//
//	x_i^{k+1} = Σ_{j∈N_i∪{i}} w_ij x̃_j^k − α y_i^k
//	y_i^{k+1} = Σ_{j∈N_i∪{i}} w_ij ỹ_j^k + ∇f_i(x_i^{k+1}) − ∇f_i(x_i^k),   y_i^0 = ∇f_i(x_i^0)
//
// with a constant step α. The tracker keeps every ξ it ever mixed, so the
// algorithm stalls at a noise-dependent neighbourhood (baselines.md G4:
// that is the point, not a bug).
package diadsp

import (
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Adjacency notions the accountant offers (baselines.md §3.1).
const (
	// BoundedGradient: adjacent f_i, f_i' both have ‖∇f‖₂ ≤ C, the notion
	// of GT-DP's Theorem 2, used for equal-privacy comparisons with it.
	BoundedGradient = "bounded-gradient"
	// Affine: ∇f_i' = ∇f_i + c with ‖c‖₂ ≤ δ, DiaDSP's own notion.
	Affine = "affine"
)

// Params are DiaDSP's parameters. The noise scales u_x·r^k and u_y·r^k
// are the scenario's channels "eta" (on x) and "xi" (on y).
type Params struct {
	// Alpha is the constant step α.
	Alpha float64 `json:"alpha" doc:"constant step size α" range:"(0, 1e6]"`
	// GradientBound is C of the bounded-gradient adjacency.
	GradientBound float64 `json:"gradient_bound" doc:"C, a bound on ‖∇f_i‖₂ (bounded-gradient adjacency); 0 takes the problem's domain bound" range:"[0, 1e100]"`
	// Adjacency is the adjacency notion the ledger accounts for.
	Adjacency string `json:"adjacency" doc:"adjacency of the ledger: bounded-gradient (‖∇f_i‖ ≤ C, GT-DP's notion) or affine (∇f' = ∇f + c, ‖c‖ ≤ δ, DiaDSP's own)" options:"bounded-gradient|affine"`
	// Delta is δ of the affine adjacency.
	Delta float64 `json:"delta" doc:"δ of the affine adjacency: ‖∇f_i' − ∇f_i‖₂ ≤ δ" range:"[0, 1e100]"`
	// SelfNoisy mixes the agent's own released copies (true, the
	// spec's default) or its clean x_i, y_i (false).
	SelfNoisy bool `json:"self_noisy" doc:"mix the agent's own released (noisy) copies; false mixes its clean x_i and y_i"`
}

// Defaults returns the GT-DP paper's Fig. 2 setting: α = 0.1, the
// bounded-gradient adjacency, own noisy copies mixed.
func Defaults() *Params {
	return &Params{Alpha: 0.1, Adjacency: BoundedGradient, SelfNoisy: true}
}

// Algorithm is DiaDSP running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	n, d int

	diag  []float64
	start []int
	col   []int
	val   []float64

	eta, xi   *noise.Spec
	sEta, sXi *noise.Sampler
	x, y      []float64
	xn, yn    []float64
	g         []float64 // ∇f_i(x_i^k), agent-major
	nEta, nXi []float64
	// out holds agent i's released x̃_i and ỹ_i side by side.
	out  []float64
	acc  []float64
	gnew []float64 // ∇f_i(x_i^{k+1}), agent-major
	k    int
	step sim.Step
	pool *pool.Pool // the agents' gradients (nil: one goroutine)
	// cFrom says where C comes from, for the ledger's inputs.
	cFrom string
}

// New returns DiaDSP on prob with mixing matrix w, noise channels eta (on
// x) and xi (on y) with their samplers, initial estimates x0 and initial
// trackers y0; a nil y0 starts the tracker at y^0 = ∇F(x^0), as the paper
// does.
func New(p Params, prob objective.Problem, w *weights.Matrix, eta, xi *noise.Spec, sEta, sXi *noise.Sampler, x0, y0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{p: p, prob: prob, n: n, d: d,
		diag: w.Diag, start: w.Start, col: w.Col, val: w.Val, // W is CSR itself; read only
		eta: eta, xi: xi, sEta: sEta, sXi: sXi,
		x: append([]float64(nil), x0...), y: make([]float64, n*d),
		xn: make([]float64, n*d), yn: make([]float64, n*d), g: make([]float64, n*d),
		nEta: make([]float64, n*d), nXi: make([]float64, n*d),
		out: make([]float64, 2*n*d), acc: make([]float64, 2*d), gnew: make([]float64, n*d)}
	for i := range n {
		prob.Grad(i, a.x[i*d:(i+1)*d], a.g[i*d:(i+1)*d])
	}
	copy(a.y, a.g)
	if y0 != nil {
		copy(a.y, y0)
	}
	a.step.Releases = make([]sim.Release, 0, 2*n)
	a.step.AddReleases("x", n, d, 2*d, 0, a.out, a.nEta, false, w.Row)
	a.step.AddReleases("y", n, d, 2*d, d, a.out, a.nXi, false, w.Row)
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "diadsp" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// Advance implements sim.Algorithm: one iteration (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	n, d := a.n, a.d
	a.sEta.FillChannel(a.eta, a.eta.Decay.At(a.k), a.nEta, d)
	a.sXi.FillChannel(a.xi, a.xi.Decay.At(a.k), a.nXi, d)
	noise.Release(a.out, a.x, a.nEta, d, 2*d, 0)
	noise.Release(a.out, a.y, a.nXi, d, 2*d, d)
	d2 := 2 * d
	acc := a.acc[:d2]
	alpha := a.p.Alpha
	for i := range n {
		lo, hi := i*d, (i+1)*d
		wii := a.diag[i]
		own := a.out[i*d2 : (i+1)*d2]
		if a.p.SelfNoisy {
			for c := range acc {
				acc[c] = wii * own[c]
			}
		} else {
			xi, yi := a.x[lo:hi], a.y[lo:hi]
			for c := range xi {
				acc[c] = wii * xi[c]
				acc[d+c] = wii * yi[c]
			}
		}
		lo2, hi2 := a.start[i], a.start[i+1]
		weights.MixRow(acc, a.out, a.col[lo2:hi2], a.val[lo2:hi2])
		xn, yi := a.xn[lo:hi], a.y[lo:hi]
		for c := range xn {
			xn[c] = acc[c] - float64(alpha*yi[c])
		}
		copy(a.yn[lo:hi], acc[d:])
	}
	// The gradients at the new estimates, every agent at once; then the
	// tracker y_i^{k+1} = (mixed y)_i + ∇f_i(x_i^{k+1}) − ∇f_i(x_i^k).
	objective.Grads(a.pool, a.prob, a.xn, a.gnew)
	for t, g := range a.gnew {
		a.yn[t] = a.yn[t] + g - a.g[t]
	}
	a.g, a.gnew = a.gnew, a.g
	a.x, a.xn = a.xn, a.x
	a.y, a.yn = a.yn, a.y
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.x
	return &a.step
}

// State implements sim.Algorithm: the estimates x and trackers y.
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "y", Dim: a.d, Data: append([]float64(nil), a.y...)},
	}
}

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x}, sim.Var{Name: "y", Dim: a.d, Data: a.y}); err != nil {
		return err
	}
	// g holds ∇f_i(x_i) of the last iteration (the tracking difference
	// of the next one): the same call on the same x gives the same bits.
	for i := range a.n {
		a.prob.Grad(i, a.x[i*a.d:(i+1)*a.d], a.g[i*a.d:(i+1)*a.d])
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates = a.x
	return nil
}
