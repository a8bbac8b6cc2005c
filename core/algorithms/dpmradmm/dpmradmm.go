// Package dpmradmm implements DP-MRADMM, the DP-RECAL paper's baseline
// [17]: Recycled ADMM (Zhang, Khalili & Liu, Allerton 2019), which improves
// their M-ADMM (ICML 2018) by solving the ADMM step exactly only on odd
// iterations and, on even ones, recycling the gradient that the odd
// step's optimality condition implies, so that only half of the
// iterations touch the data and leak privacy (DP-RECAL paper, Sec. I).
// The equations are baselines.md §6.6's reconstruction: source
// confidence low — only the abstracts could be read.
//
// The paper runs it with r = 0 (it "is not applicable to optimization
// problems involving non-smooth terms", Sec. VII): the factory refuses a
// composite problem. With the penalty ρ_m = ρ_0·κ^(m−1) at iteration
// m = 1, 2, … (κ = 1: fixed; κ > 1: M-ADMM's increasing penalty, the
// paper's decaying-step row), the neighbours N_i (degree d_i), the
// published x̃_j and s_i = Σ_{j∈N_i} (x̃_i + x̃_j), agent i updates
//
//	odd m:  x_i = argmin_x f_i(x) + λ_iᵀx + ρ_m Σ_{j∈N_i} ‖x − (x̃_i + x̃_j)/2‖²      (exact, by accelerated gradient)
//	        publish x̃_i = x_i + ν_i,  ν_i ~ N(0, σ_t²I), t = (m+1)/2                 (σ_t² = σ_1²R^(−(t−1)))
//	        g̃_i = ρ_m s_i − λ_i − 2ρ_m d_i x̃_i                                      (the gradient the optimality condition implies, at x̃)
//	even m: x_i = x̃_i = ( x̃_i/τ − g̃_i − λ_i + ρ_m s_i ) / (1/τ + 2ρ_m d_i)          (recycled, published without noise)
//	both:   λ_i ← λ_i + ρ_m Σ_{j∈N_i} (x̃_i − x̃_j)
//
// g̃_i and the even step are functions of published values only (post-
// processing), so an even iteration spends no privacy and does not count
// towards the PLF: after K iterations every agent has published
// ⌈K/2⌉ noisy messages. An odd publication moves by Δ_t = c/(ρ_m d_i) when
// one record of agent i changes (the penalty makes the step 2ρ_m d_i-
// strongly convex; ∇f_i moves by 2c).
package dpmradmm

import (
	"math"

	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"

	"dpsim/core/algorithms/internal/zcdpgauss"
)

// Algorithm is DP-MRADMM on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	n, d int
	g    *graph.Graph
	l    float64 // the largest L_i, for the inner step
	mu   float64 // the smallest μ_i, for the inner momentum
	spec *noise.Spec
	smp  *noise.Sampler
	x    []float64 // x_i
	lam  []float64 // λ_i
	sent []float64 // x̃_i
	rec  []float64 // g̃_i, the recycled gradient
	nz   []float64
	s    []float64 // s_i of the iteration
	// The inner solves' gradient, extrapolated point and last iterate,
	// agent-major: the agents' solves may run at once.
	grad, y, prev []float64
	evals         []int // each agent's gradient evaluations in its last solve
	k             int
	// inner counts the gradient evaluations of the last odd iteration.
	inner int
	step  sim.Step
	pool  *pool.Pool // the agents' inner solves (nil: one goroutine)
}

// New returns DP-MRADMM on prob over g, with the largest smoothness
// constant l and the smallest strong convexity mu of the f_i, the noise channel spec drawn by smp, and initial estimates
// x0 (also the first x̃).
func New(p Params, prob objective.Problem, g *graph.Graph, l, mu float64, spec *noise.Spec, smp *noise.Sampler, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	mk := func() []float64 { return make([]float64, n*d) }
	a := &Algorithm{p: p, prob: prob, n: n, d: d, g: g, l: l, mu: mu, spec: spec, smp: smp,
		x: append([]float64(nil), x0...), lam: mk(), sent: append([]float64(nil), x0...), rec: mk(), nz: mk(), s: mk(),
		grad: mk(), y: mk(), prev: mk(), evals: make([]int, n)}
	a.step.Releases = make([]sim.Release, 0, n)
	a.step.AddReleases("x", n, d, d, 0, a.sent, a.nz, false, func(i int) ([]int, []float64) { return g.Neighbors(i), nil })
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-mradmm" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// penalty returns ρ_m of iteration m ≥ 1.
func (a *Algorithm) penalty(m int) float64 {
	if a.p.Growth == 1 {
		return a.p.Penalty
	}
	return a.p.Penalty * num.Pow(a.p.Growth, float64(m-1))
}

// Sensitivity returns Δ of agent i's t-th publication, made at the odd
// iteration m = 2t − 1: c/(ρ_m d_i).
func (a *Algorithm) Sensitivity(i, t int) float64 {
	return a.p.GradientBound / (a.penalty(2*t-1) * float64(a.g.Degree(i)))
}

// solve minimises f_i(x) + λ_iᵀx + ρ d_i‖x‖² − ρ s_iᵀx (the odd step up to
// a constant), which is (μ + 2ρd_i)-strongly convex and (L + 2ρd_i)-smooth,
// by Nesterov's accelerated gradient from x (step 1/(L + 2ρd_i), momentum
// (√κ − 1)/(√κ + 1) with κ the ratio of the two), until a step is below
// 1e-15 of ‖x‖ or after the inner budget; it returns the gradient
// evaluations.
func (a *Algorithm) solve(i int, rho float64, x, lam, s []float64) int {
	di := float64(a.g.Degree(i))
	lc, mc := a.l+float64(2*rho*di), a.mu+float64(2*rho*di)
	h := 1 / lc
	q := math.Sqrt(lc / mc)
	mom := (q - 1) / (q + 1)
	d := a.d
	y, prev, grad := a.y[i*d:(i+1)*d], a.prev[i*d:(i+1)*d], a.grad[i*d:(i+1)*d]
	copy(y, x)
	copy(prev, x)
	x, lam, s = x[:d], lam[:d], s[:d]
	r2 := 2 * rho * di // (2ρ)d_i, the update's product 2ρd_i·y as it rounds
	for it := 1; it <= a.p.Inner; it++ {
		a.prob.Grad(i, y, grad)
		mv, mx := 0.0, 0.0
		for c := range x {
			xn := y[c] - float64(h*(grad[c]+lam[c]+float64(r2*y[c])-float64(rho*s[c])))
			mv, mx = maxOf(mv, math.Abs(xn-prev[c])), maxOf(mx, math.Abs(xn))
			x[c] = xn
			y[c] = xn + float64(mom*(xn-prev[c]))
			prev[c] = xn
		}
		if mv <= 1e-15*maxOf(mx, 1e-300) {
			return it
		}
	}
	return a.p.Inner
}

// maxOf returns math.Max(m, v) — +Inf if either is +Inf, else NaN if
// either is NaN, else the larger — for m, v ≥ 0, +Inf or NaN (the solve's
// max norms), inline: math.Max is a call on amd64, and its two calls an
// entry were a tenth of the solve's own loop.
func maxOf(m, v float64) float64 {
	if v > m || v != v && m < math.Inf(1) || m != m && v == math.Inf(1) {
		return v
	}
	return m
}

// Advance implements sim.Algorithm (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	n, d := a.n, a.d
	m := a.k + 1
	rho := a.penalty(m)
	for i := range n {
		nb := a.g.Neighbors(i)
		s, own := a.s[i*d:(i+1)*d], a.sent[i*d:(i+1)*d]
		for c := range s {
			v := float64(len(nb)) * own[c]
			for _, j := range nb {
				v += a.sent[j*d+c]
			}
			s[c] = v
		}
	}
	if m%2 == 1 {
		// The agents' solves at once (none draws), then the noise in
		// agent order.
		a.pool.Each(n, func(i int) {
			lo, hi := i*d, (i+1)*d
			a.evals[i] = a.solve(i, rho, a.x[lo:hi], a.lam[lo:hi], a.s[lo:hi])
		})
		a.inner = 0
		t := (m + 1) / 2
		for i := range n {
			a.inner += a.evals[i]
			a.smp.Fill(a.nz[i*d:(i+1)*d], zcdpgauss.Sigma(a.spec, a.p.Attenuation, i, t))
		}
		noise.Release(a.sent, a.x, a.nz, d, d, 0)
		for i := range n {
			di := float64(a.g.Degree(i))
			for c := i * d; c < (i+1)*d; c++ {
				a.rec[c] = float64(rho*a.s[c]) - a.lam[c] - float64(2*rho*di*a.sent[c])
			}
		}
	} else {
		clear(a.nz)
		inv := 1 / a.p.Tau
		for i := range n {
			di := float64(a.g.Degree(i))
			ai := inv + float64(2*rho*di)
			for c := i * d; c < (i+1)*d; c++ {
				a.x[c] = (float64(a.sent[c]*inv) - a.rec[c] - a.lam[c] + float64(rho*a.s[c])) / ai
			}
		}
		copy(a.sent, a.x)
	}
	for i := range n {
		nb := a.g.Neighbors(i)
		for c := range d {
			v := float64(len(nb)) * a.sent[i*d+c]
			for _, j := range nb {
				v -= a.sent[j*d+c]
			}
			a.lam[i*d+c] += float64(rho * v)
		}
	}
	a.k++
	a.step.Iter = a.k
	return &a.step
}

// State implements sim.Algorithm: x, λ, the published x̃ and the
// recycled gradient g̃.
func (a *Algorithm) State() []sim.Var { return zcdpgauss.Snapshot(a.vars()) }

// vars are the state variables over the algorithm's own buffers, in
// State's order.
func (a *Algorithm) vars() []sim.Var {
	return zcdpgauss.Buffers(a.d, []string{"x", "lambda", "sent", "recycled"}, a.x, a.lam, a.sent, a.rec)
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, a.vars()...); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	return nil
}

// Published implements zcdpgauss.Source: the odd iterations so far.
func (a *Algorithm) Published(i int) int { return a.PublishedAfter(i, a.k) }

// PublishedAfter implements zcdpgauss.Source: ⌈k/2⌉.
func (a *Algorithm) PublishedAfter(_, k int) int { return (k + 1) / 2 }

// Cost implements zcdpgauss.Source: ρ_1 = Δ_1²/(2σ_1²) and, since
// Δ_t = Δ_1κ^(−2(t−1)) and σ_t² = σ_1²R^(−(t−1)), the ratio q = R/κ⁴.
func (a *Algorithm) Cost(i int) (float64, float64) {
	return zcdpgauss.LogRho(a.Sensitivity(i, 1), zcdpgauss.LogSigma(a.spec, a.p.Attenuation, i, 1)), num.Log(a.p.Attenuation) - float64(4*num.Log(a.p.Growth))
}
