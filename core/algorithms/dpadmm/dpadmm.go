// Package dpadmm implements DP-ADMM, the DP-RECAL paper's ADMM-based
// baselines: by default DP-ADMM [12] (Zhang & Zhu, "Dynamic differential
// privacy for ADMM-based distributed classification learning", IEEE TIFS
// 12(1), 2017), the one of its Fig. 3, with fixed steps; and, as the
// variant "huang", DP-ADMM [13] (Huang, Hu, Guo, Chan-Tin & Gong, IEEE
// TIFS 15, 2020), which the paper runs only in Table IV, with decaying
// steps. Both follow the reconstruction of baselines.md §6.3–§6.4: the
// linearized (inexact consensus, Chang–Hong–Wang) ADMM the paper says
// both are rooted in, with primal perturbation — Gaussian noise on the
// published x_i. Source confidence: low-medium — the originals could not
// be opened when the spec was written.
//
// With penalty ρ, the neighbours N_i of agent i (degree d_i), the noisy
// published x̃_j^k and a proximal step η_k (τ fixed for [12],
// η_k = η_0·γ^k for [13]), agent i updates
//
//	a_i       = 1/η_k + 2ρd_i
//	v_i       = ( x_i^k/η_k − ∇f_i(x_i^k) − λ_i^k + ρ Σ_{j∈N_i} (x̃_i^k + x̃_j^k) ) / a_i     (§6.3)
//	x_i^{k+1} = prox_{r/a_i}(v_i);  publish x̃_i^{k+1} = x_i^{k+1} + ν_i^{k+1}
//	λ_i^{k+1} = λ_i^k + ρ Σ_{j∈N_i} (x̃_i^{k+1} − x̃_j^{k+1})
//
// from λ^0 = 0 and x̃^0 = x^0. The published x_i^{k+1} moves by at most
// Δ = 2c/a_i when one record of agent i changes (∇f_i by 2c, divided by
// a_i; the prox is nonexpansive). For [12] the noise variance shrinks by
// 1/R per publication, σ_t² = σ_1²R^(−(t−1)) (the paper's remark that [12]
// decays σ_k² per global iteration, §III-D); for [13] σ_t = σ_1·Δ_t/Δ_1
// shrinks with the step, so that with R = 1 every iteration spends the
// same ρ, [13]'s "per-iteration budget fixed through decaying step sizes"
// (a zCDP ledger in place of its moments accountant).
package dpadmm

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
)

// Variants.
const (
	// ZhangZhu is DP-ADMM [12]: a fixed proximal step τ.
	ZhangZhu = "zhang-zhu"
	// Huang is DP-ADMM [13]: decaying steps η_k = η_0·γ^k.
	Huang = "huang"
)

// Algorithm is DP-ADMM on one problem instance.
type Algorithm struct {
	p     Params
	prob  objective.Problem
	n, d  int
	g     *graph.Graph
	prox  zcdpgauss.Proxer
	spec  *noise.Spec
	smp   *noise.Sampler
	x     []float64 // x^k
	lam   []float64 // λ^k
	sent  []float64 // x̃^k
	nz    []float64
	grad  []float64 // ∇f_i(x_i^k)
	xn    []float64
	v     []float64
	k     int
	step  sim.Step
	delta []float64  // Δ_i at η_0, per agent
	pool  *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns DP-ADMM on prob over graph g with the noise channel spec
// drawn by smp, and initial estimates x0 (also the first x̃^0).
func New(p Params, prob objective.Problem, g *graph.Graph, spec *noise.Spec, smp *noise.Sampler, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	mk := func() []float64 { return make([]float64, n*d) }
	a := &Algorithm{p: p, prob: prob, n: n, d: d, g: g, prox: zcdpgauss.NewProxer(prob), spec: spec, smp: smp,
		x: append([]float64(nil), x0...), lam: mk(), sent: append([]float64(nil), x0...), nz: mk(),
		grad: mk(), xn: make([]float64, d), v: make([]float64, d), delta: make([]float64, n)}
	for i := range n {
		a.delta[i] = a.Sensitivity(i, 1)
	}
	a.grads()
	a.step.Releases = make([]sim.Release, 0, n)
	a.step.AddReleases("x", n, d, d, 0, a.sent, a.nz, false, func(i int) ([]int, []float64) { return g.Neighbors(i), nil })
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

func (a *Algorithm) grads() { objective.Grads(a.pool, a.prob, a.x, a.grad) }

// eta returns the proximal step of iteration k (from 0): τ, or η_0·γ^k.
func (a *Algorithm) eta(k int) float64 {
	if a.p.Variant == Huang {
		return a.p.Tau * num.Pow(a.p.Gamma, float64(k))
	}
	return a.p.Tau
}

// Sensitivity returns Δ of agent i's t-th publication (t ≥ 1), made at
// iteration t−1: 2c/a_i with a_i = 1/η_{t−1} + 2ρd_i.
func (a *Algorithm) Sensitivity(i, t int) float64 {
	return 2 * a.p.GradientBound / (1/a.eta(t-1) + float64(2*a.p.Penalty*float64(a.g.Degree(i))))
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-admm" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// SigmaAt implements zcdpgauss.Noiser: the noise of the Huang variant is
// proportional to Δ_t.
func (a *Algorithm) SigmaAt(i, t int) float64 { return a.sigma(i, t) }

// sigma returns agent i's noise at its t-th publication.
func (a *Algorithm) sigma(i, t int) float64 {
	s := zcdpgauss.Sigma(a.spec, a.p.Attenuation, i, t)
	if a.p.Variant == Huang && s != 0 {
		s *= a.Sensitivity(i, t) / a.delta[i]
	}
	return s
}

// Advance implements sim.Algorithm (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	n, d := a.n, a.d
	eta, rho := a.eta(a.k), a.p.Penalty
	for i := range n {
		lo, hi := i*d, (i+1)*d
		nb := a.g.Neighbors(i)
		di := float64(len(nb))
		ai := 1/eta + float64(2*rho*di)
		x, g, l, own := a.x[lo:hi], a.grad[lo:hi], a.lam[lo:hi], a.sent[lo:hi]
		for c := range a.v {
			s := di * own[c]
			for _, j := range nb {
				s += a.sent[j*d+c]
			}
			a.v[c] = (x[c]/eta - g[c] - l[c] + float64(rho*s)) / ai
		}
		// Agents read each other's published x̃^k only, never x_j: x_i
		// is overwritten at once.
		a.prox.Apply(a.v, 1/ai, a.xn)
		copy(x, a.xn)
	}
	for i := range n {
		a.smp.Fill(a.nz[i*d:(i+1)*d], a.sigma(i, a.k+1))
	}
	noise.Release(a.sent, a.x, a.nz, d, d, 0)
	for i := range n {
		lo, hi := i*d, (i+1)*d
		nb := a.g.Neighbors(i)
		l, own := a.lam[lo:hi], a.sent[lo:hi]
		for c := range l {
			s := float64(len(nb)) * own[c]
			for _, j := range nb {
				s -= a.sent[j*d+c]
			}
			l[c] += float64(rho * s)
		}
	}
	a.grads()
	a.k++
	a.step.Iter = a.k
	return &a.step
}

// State implements sim.Algorithm: x^k, λ^k and the published x̃^k.
func (a *Algorithm) State() []sim.Var { return zcdpgauss.Snapshot(a.vars()) }

// vars are the state variables over the algorithm's own buffers, in
// State's order.
func (a *Algorithm) vars() []sim.Var {
	return zcdpgauss.Buffers(a.d, []string{"x", "lambda", "sent"}, a.x, a.lam, a.sent)
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, a.vars()...); err != nil {
		return err
	}
	a.grads()
	a.k = iter
	a.step.Iter = iter
	return nil
}

// Published implements zcdpgauss.Source: once per iteration.
func (a *Algorithm) Published(int) int { return a.k }

// PublishedAfter implements zcdpgauss.Source.
func (a *Algorithm) PublishedAfter(_, k int) int { return k }

// Cost implements zcdpgauss.Source: ρ_1 = Δ_1²/(2σ_1²), ratio R — for
// [12] Δ is constant, for [13] σ_t/Δ_t is, the step's decay cancelling.
func (a *Algorithm) Cost(i int) (float64, float64) {
	return zcdpgauss.LogRho(a.delta[i], zcdpgauss.LogSigma(a.spec, a.p.Attenuation, i, 1)), num.Log(a.p.Attenuation)
}
