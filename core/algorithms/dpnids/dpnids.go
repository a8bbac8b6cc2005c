// Package dpnids implements DP-NIDS, the DP-RECAL paper's baseline "NIDS
// [28] injected with DP noise" (Sec. VII): NIDS, the network-independent
// step-size algorithm of Li, Shi and Yan (IEEE TSP 2019), for the
// composite problem Σ_i f_i(x) + n·r(x), with Gaussian noise on the one
// vector an agent publishes per iteration, as baselines.md §2.4 and §6.2
// specify it. Source confidence: medium — NIDS is checked against its
// authors' code; where the noise enters is reconstructed.
//
// With W̃ = (I + W)/2 (c = 1/(2α) in W̃ = I − c·α(I − W), the choice of
// both public codes), step α < 2/L, and the noisy published
// x̄̃_i^k = x̄_i^k + ν_i^k, ν ~ N(0, σ_t²I), σ_t² = σ_1²·R^(−(t−1)) at the
// t-th publication (baselines.md §6.0), agent i updates
//
//	k = 0:  z_i^1 = x_i^0 − α∇f_i(x_i^0),  x_i^1 = prox_{αr}(z_i^1)                 (NIDS, k = 0: no message)
//	k ≥ 1:  x̄_i^k   = 2x_i^k − x_i^{k−1} − α(∇f_i(x_i^k) − ∇f_i(x_i^{k−1}))         (published, with noise)
//	        z_i^{k+1} = z_i^k − x_i^k + Σ_j w̃_ij x̄̃_j^k
//	        x_i^{k+1} = prox_{αr}(z_i^{k+1})
//
// (baselines.md §2.4). The agent's own term uses its noisy x̄̃_i or, with
// self_noisy off, its clean x̄_i (G5). Every agent publishes once per
// iteration from the second on, so after K iterations the PLF is K − 1;
// one publication has the ℓ2 sensitivity Δ = 4αc (x̄ holds
// α(∇f_i(x^k) − ∇f_i(x^{k−1})), two gradients bounded by c; §6.0).
package dpnids

import (
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Algorithm is DP-NIDS on one problem instance.
type Algorithm struct {
	p     Params
	prob  objective.Problem
	n, d  int
	w     *weights.Matrix
	prox  zcdpgauss.Proxer
	spec  *noise.Spec
	smp   *noise.Sampler
	r     float64
	x     []float64 // x^k
	z     []float64 // z^k
	xprev []float64 // x^{k−1}
	bar   []float64 // x̄^k, clean
	sent  []float64 // x̄̃^k
	nz    []float64
	g     []float64 // ∇f_i(x_i^k)
	gprev []float64 // ∇f_i(x_i^{k−1})
	acc   []float64
	k     int
	rel   []sim.Release
	step  sim.Step
	pool  *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns DP-NIDS on prob with mixing matrix w, the noise channel
// spec drawn by smp with attenuation r, and initial estimates x0.
func New(p Params, prob objective.Problem, w *weights.Matrix, spec *noise.Spec, smp *noise.Sampler, r float64, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	mk := func() []float64 { return make([]float64, n*d) }
	a := &Algorithm{p: p, prob: prob, n: n, d: d, w: w, prox: zcdpgauss.NewProxer(prob), spec: spec, smp: smp, r: r,
		x: append([]float64(nil), x0...), z: mk(), xprev: mk(), bar: mk(), sent: mk(), nz: mk(),
		g: mk(), gprev: mk(), acc: make([]float64, d)}
	a.grads(a.x, a.g)
	a.grads(a.xprev, a.gprev)
	a.step.Releases = make([]sim.Release, 0, n)
	a.step.AddReleases("xbar", n, d, d, 0, a.sent, a.nz, false, w.Row)
	a.rel = a.step.Releases
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

func (a *Algorithm) grads(x, g []float64) { objective.Grads(a.pool, a.prob, x, g) }

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-nids" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// Advance implements sim.Algorithm (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	n, d := a.n, a.d
	alpha := a.p.Alpha
	if a.k == 0 {
		// z^1 = x^0 − α∇f(x^0): no message yet.
		for c := range a.z {
			a.z[c] = a.x[c] - float64(alpha*a.g[c])
		}
		a.step.Releases = nil
	} else {
		for c := range a.bar {
			a.bar[c] = float64(2*a.x[c]) - a.xprev[c] - float64(alpha*(a.g[c]-a.gprev[c]))
		}
		for i := range n {
			a.smp.Fill(a.nz[i*d:(i+1)*d], zcdpgauss.Sigma(a.spec, a.r, i, a.k))
		}
		noise.Release(a.sent, a.bar, a.nz, d, d, 0)
		for i := range n {
			lo, hi := i*d, (i+1)*d
			own := a.sent[lo:hi]
			if !a.p.SelfNoisy {
				own = a.bar[lo:hi]
			}
			wii := a.w.Diag[i]
			for c := range a.acc {
				a.acc[c] = wii * own[c]
			}
			cols, vals := a.w.Row(i)
			weights.MixRow(a.acc, a.sent, cols, vals)
			z, x := a.z[lo:hi], a.x[lo:hi]
			for c := range z {
				// W̃x̄̃ = (x̄̃_i + (Wx̄̃)_i)/2.
				z[c] += float64(0.5*(own[c]+a.acc[c])) - x[c]
			}
		}
		a.step.Releases = a.rel
	}
	copy(a.xprev, a.x)
	for i := range n {
		a.prox.Apply(a.z[i*d:(i+1)*d], alpha, a.x[i*d:(i+1)*d])
	}
	a.g, a.gprev = a.gprev, a.g
	a.grads(a.x, a.g)
	a.k++
	a.step.Iter = a.k
	return &a.step
}

// State implements sim.Algorithm: x^k, z^k and x^{k−1}.
func (a *Algorithm) State() []sim.Var { return zcdpgauss.Snapshot(a.vars()) }

// vars are the state variables over the algorithm's own buffers, in
// State's order.
func (a *Algorithm) vars() []sim.Var {
	return zcdpgauss.Buffers(a.d, []string{"x", "z", "x_prev"}, a.x, a.z, a.xprev)
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, a.vars()...); err != nil {
		return err
	}
	a.grads(a.x, a.g)
	a.grads(a.xprev, a.gprev)
	a.k = iter
	a.step.Iter = iter
	return nil
}

// Published implements zcdpgauss.Source: once per iteration from the
// second on.
func (a *Algorithm) Published(i int) int { return a.PublishedAfter(i, a.k) }

// PublishedAfter implements zcdpgauss.Source.
func (a *Algorithm) PublishedAfter(_, k int) int { return max(k-1, 0) }

// Sensitivity is Δ = 4αc (baselines.md §6.0).
func (a *Algorithm) Sensitivity() float64 { return 4 * a.p.Alpha * a.p.GradientBound }

// Cost implements zcdpgauss.Source: ρ_1 = Δ²/(2σ_1²), ratio R.
func (a *Algorithm) Cost(i int) (float64, float64) {
	return zcdpgauss.LogRho(a.Sensitivity(), zcdpgauss.LogSigma(a.spec, a.r, i, 1)), num.Log(a.r)
}
