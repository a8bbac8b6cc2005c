// Package diffdradt implements diff-DRADT, the differentially private
// resource allocation via deviation tracking of Ding, Zhu, Chen, Xu and
// Guan (IEEE TSIPN 7, 2021), as the DP-DGT paper runs it in its Fig. 5:
// constant step, the same noise as DP-DGT.
//
// The original paper could not be consulted: these updates are the
// reconstruction of baselines.md §4.2 (confidence medium-low) — the DDGT
// structure with one mixing matrix W for both variables, a constant step,
// and a deviation tracker y_i ≈ d_i − w_i whose sum tracks the global gap
// only when W is column-stochastic. The method is designed for undirected
// graphs (doubly-stochastic W); on a digraph it runs with W = R for both
// variables by default, which reproduces the large error the DP-DGT paper
// reports, and the scenario may choose another W.
package diffdradt

import (
	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Params are diff-DRADT's parameters (reconstruction).
type Params struct {
	// Alpha is the constant step α of the price update.
	Alpha float64 `json:"alpha" doc:"constant step α of the price update (0.015 in the DP-DGT paper's Fig. 5)" range:"(0, 1e6]"`
}

// Defaults returns the DP-DGT paper's Fig. 5 setting, α = 0.015.
func Defaults() *Params { return &Params{Alpha: 0.015} }

// Algorithm is diff-DRADT on one problem instance.
type Algorithm struct {
	p    Params
	resp *pushpull.Responder
	n, d int
	w    *pushpull.Mix

	xi, ze        *noise.Spec
	sXi, sZe      *noise.Sampler
	decXi, decZe  *noise.Table
	y, lam, alloc []float64 // y_k, λ̃_k, w_k
	yn, lamn      []float64
	nXi, nZe      []float64 // ξ_k on y, ζ_k on λ̃
	outY, outL    []float64
	acc, wPrev    []float64
	k             int
	step          sim.Step
}

// New returns diff-DRADT on prob with mixing matrix w, noise channels xi
// (on y, the "direction") and zeta (on λ̃, the "state"), the initial
// price lam0, and optionally the initial allocation w0 and trackers y0:
// a nil w0 is the best response to lam0, a nil y0 is d − w_0.
func New(p Params, prob objective.Allocation, w *pushpull.Mix,
	xi, zeta *noise.Spec, sXi, sZeta *noise.Sampler, lam0, w0, y0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{
		p: p, resp: pushpull.NewResponder(prob), n: n, d: d, w: w,
		xi: xi, ze: zeta, sXi: sXi, sZe: sZeta,
		decXi: noise.Tabulate(xi.Decay), decZe: noise.Tabulate(zeta.Decay),
		y: make([]float64, n*d), lam: append([]float64(nil), lam0...), alloc: make([]float64, n*d),
		yn: make([]float64, n*d), lamn: make([]float64, n*d),
		nXi: make([]float64, n*d), nZe: make([]float64, n*d),
		outY: make([]float64, n*d), outL: make([]float64, n*d),
		acc: make([]float64, d), wPrev: make([]float64, d),
	}
	for i := range n {
		lo, hi := i*d, (i+1)*d
		if w0 != nil {
			copy(a.alloc[lo:hi], w0[lo:hi])
		} else {
			a.resp.Respond(i, a.lam[lo:hi], a.alloc[lo:hi])
		}
		dem := prob.Demand(i)
		for c := range d {
			a.y[lo+c] = dem[c] - a.alloc[lo+c]
		}
	}
	if y0 != nil {
		copy(a.y, y0)
	}
	// Both values go to the out-neighbours in G_W, each receiver l weighing
	// them by W_li.
	out := w.Out()
	a.step.AddReleases("λ̃", n, d, d, 0, a.outL, a.nZe, false, out.Receivers)
	a.step.AddReleases("y", n, d, d, 0, a.outY, a.nXi, false, out.Receivers)
	a.step.Dim = d
	a.step.Estimates, a.step.Prices = a.alloc, a.lam
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "diff-dradt" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.alloc, Prices: a.lam}
}

// Advance implements sim.Algorithm: one iteration (baselines.md §4.2):
//
//	λ̃_{i,k+1} = Σ_j W_ij(λ̃_{j,k} + ζ_{j,k}) + α y_{i,k}
//	w_{i,k+1} = argmin_{w∈W_i} F_i(w) − λ̃_{i,k+1}ᵀw
//	y_{i,k+1} = Σ_j W_ij(y_{j,k} + ξ_{j,k}) − (w_{i,k+1} − w_{i,k})
func (a *Algorithm) Advance() *sim.Step {
	k, d := a.k, a.d
	pushpull.Draw(a.sXi, a.xi, a.decXi.At(k), a.nXi, a.y, a.outY, d)
	pushpull.Draw(a.sZe, a.ze, a.decZe.At(k), a.nZe, a.lam, a.outL, d)
	alpha := a.p.Alpha
	acc, wPrev := a.acc, a.wPrev
	for i := range a.n {
		lo, hi := i*d, (i+1)*d
		a.w.MixRow(acc, i, a.outL, d)
		ln, y := a.lamn[lo:hi], a.y[lo:hi]
		for c := range ln {
			ln[c] = acc[c] + float64(alpha*y[c])
		}
		wi := a.alloc[lo:hi]
		copy(wPrev, wi)
		a.resp.Respond(i, ln, wi)
		a.w.MixRow(acc, i, a.outY, d)
		yn := a.yn[lo:hi]
		for c := range yn {
			yn[c] = acc[c] - (wi[c] - wPrev[c])
		}
	}
	a.y, a.yn = a.yn, a.y
	a.lam, a.lamn = a.lamn, a.lam
	a.k++
	a.step.Iter = a.k
	a.step.Estimates, a.step.Prices = a.alloc, a.lam
	return &a.step
}

// State implements sim.Algorithm: the allocations w, the deviation
// trackers y and the prices λ̃ ("price").
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "w", Dim: a.d, Data: append([]float64(nil), a.alloc...)},
		{Name: "y", Dim: a.d, Data: append([]float64(nil), a.y...)},
		{Name: "price", Dim: a.d, Data: append([]float64(nil), a.lam...)},
	}
}

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "w", Dim: a.d, Data: a.alloc}, sim.Var{Name: "y", Dim: a.d, Data: a.y}, sim.Var{Name: "price", Dim: a.d, Data: a.lam}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates, a.step.Prices = a.alloc, a.lam
	return nil
}
