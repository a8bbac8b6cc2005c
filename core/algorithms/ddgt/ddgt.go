// Package ddgt implements DDGT, the distributed dual gradient tracking of
// Zhang, You and Cai ("Distributed dual gradient tracking for resource
// allocation in unbalanced networks", IEEE TSP 68, 2020, eq. (9)), with the
// information-sharing noise the DP-DGT paper adds to its messages for its
// Fig. 5 comparison (DP-DGT paper, eq. (10); baselines.md §4.1, confidence
// high).
//
// DDGT tracks the per-step supply–demand gap z directly, so the noise on
// the pushed z accumulates in 1ᵀz (DP-DGT paper, eq. (11)) — the flaw
// DP-DGT's cumulative tracker s removes. Keep it that way: "fixing" it
// turns the baseline into DP-DGT (baselines.md G4).
package ddgt

import (
	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Params are DDGT's parameters in its paper's notation.
type Params struct {
	// Beta is the step β_k of the price update (10a).
	Beta noise.Schedule `json:"beta" doc:"step β_k of the price update; the DP-DGT paper's Fig. 5 uses 0.99^k"`
	// Iota is ι, the gain on the change of the allocation in (10b).
	Iota float64 `json:"iota" doc:"ι, the gain on the allocation's change in the z update (0.034 in Fig. 5, so that ι·β_k = α_k of DP-DGT)" range:"(0, 1e6]"`
}

// Defaults returns the DP-DGT paper's Fig. 5 setting: β_k = 0.99^k,
// ι = 0.034.
func Defaults() *Params { return &Params{Beta: noise.Geom(1, 0.99), Iota: 0.034} }

// Algorithm is DDGT with noisy messages on one problem instance.
type Algorithm struct {
	p    Params
	resp *pushpull.Responder
	n, d int
	r, c *pushpull.Mix

	xi, ze             *noise.Spec
	sXi, sZe           *noise.Sampler
	betaT, decXi, decZ *noise.Table

	z, wt, w   []float64 // z_k, w̃_k, w_k
	zn, wtn    []float64
	nXi, nZe   []float64 // ξ_k on z, ζ_k on w̃
	outZ, outW []float64 // z_k + ξ_k, w̃_k + ζ_k
	acc        []float64
	wPrev      []float64
	k          int
	step       sim.Step
}

// New returns DDGT on prob with pull matrix r and push matrix c, noise
// channels xi (on z) and zeta (on w̃), and the initial price wt0. The
// initial allocation is the best response to wt0 unless w0 is given
// (non-nil), and z_0 = −ι(w_0 − d), which DDGT requires
// (1ᵀz_0 = −ι(Σw_0 − Σd)), unless z0 is given.
func New(p Params, prob objective.Allocation, r, c *pushpull.Mix,
	xi, zeta *noise.Spec, sXi, sZeta *noise.Sampler, w0, z0, wt0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{
		p: p, resp: pushpull.NewResponder(prob), n: n, d: d, r: r, c: c,
		xi: xi, ze: zeta, sXi: sXi, sZe: sZeta,
		betaT: noise.Tabulate(p.Beta), decXi: noise.Tabulate(xi.Decay), decZ: noise.Tabulate(zeta.Decay),
		z: make([]float64, n*d), wt: append([]float64(nil), wt0...), w: make([]float64, n*d),
		zn: make([]float64, n*d), wtn: make([]float64, n*d),
		nXi: make([]float64, n*d), nZe: make([]float64, n*d),
		outZ: make([]float64, n*d), outW: make([]float64, n*d),
		acc: make([]float64, d), wPrev: make([]float64, d),
	}
	for i := range n {
		lo, hi := i*d, (i+1)*d
		if w0 != nil {
			copy(a.w[lo:hi], w0[lo:hi])
		} else {
			a.resp.Respond(i, a.wt[lo:hi], a.w[lo:hi])
		}
		dem := prob.Demand(i)
		for c := range d {
			a.z[lo+c] = -p.Iota * (a.w[lo+c] - dem[c])
		}
	}
	if z0 != nil {
		copy(a.z, z0)
	}
	push, pull := c.Out(), r.Out()
	a.step.AddReleases("z", n, d, d, 0, a.outZ, a.nXi, false, push.Receivers)
	a.step.AddReleases("w̃", n, d, d, 0, a.outW, a.nZe, true, pull.Pullers)
	a.step.Dim = d
	a.step.Estimates, a.step.Prices = a.w, a.wt
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "ddgt" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.w, Prices: a.wt}
}

// Advance implements sim.Algorithm: one iteration of DDGT with noisy
// messages (DP-DGT paper, eq. (10), per agent):
//
//	w̃_{i,k+1} = Σ_j R_ij(w̃_{j,k} + ζ_{j,k}) + β_k z_{i,k}
//	w_{i,k+1} = argmin_{w∈W_i} F_i(w) − w̃_{i,k+1}ᵀw
//	z_{i,k+1} = Σ_j C_ij(z_{j,k} + ξ_{j,k}) − ι(w_{i,k+1} − w_{i,k})
//
// Both sums include the agent's own noisy value (the compact form R(w̃+ζ),
// C(z+ξ) of eq. (10)).
func (a *Algorithm) Advance() *sim.Step {
	k, d := a.k, a.d
	beta := a.betaT.At(k)
	pushpull.Draw(a.sXi, a.xi, a.decXi.At(k), a.nXi, a.z, a.outZ, d)
	pushpull.Draw(a.sZe, a.ze, a.decZ.At(k), a.nZe, a.wt, a.outW, d)
	iota := a.p.Iota
	acc, wPrev := a.acc, a.wPrev
	for i := range a.n {
		lo, hi := i*d, (i+1)*d
		a.r.MixRow(acc, i, a.outW, d)
		wtn, z := a.wtn[lo:hi], a.z[lo:hi]
		for c := range wtn {
			wtn[c] = acc[c] + float64(beta*z[c])
		}
		wi := a.w[lo:hi]
		copy(wPrev, wi)
		a.resp.Respond(i, wtn, wi)
		a.c.MixRow(acc, i, a.outZ, d)
		zn := a.zn[lo:hi]
		for c := range zn {
			zn[c] = acc[c] - float64(iota*(wi[c]-wPrev[c]))
		}
	}
	a.z, a.zn = a.zn, a.z
	a.wt, a.wtn = a.wtn, a.wt
	a.k++
	a.step.Iter = a.k
	a.step.Estimates, a.step.Prices = a.w, a.wt
	return &a.step
}

// State implements sim.Algorithm: the allocations w, the gap trackers z
// and the prices w̃ ("price").
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "w", Dim: a.d, Data: append([]float64(nil), a.w...)},
		{Name: "z", Dim: a.d, Data: append([]float64(nil), a.z...)},
		{Name: "price", Dim: a.d, Data: append([]float64(nil), a.wt...)},
	}
}

// Params returns the parameters the algorithm runs with.
func (a *Algorithm) Params() Params { return a.p }

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "w", Dim: a.d, Data: a.w}, sim.Var{Name: "z", Dim: a.d, Data: a.z}, sim.Var{Name: "price", Dim: a.d, Data: a.wt}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates, a.step.Prices = a.w, a.wt
	return nil
}
