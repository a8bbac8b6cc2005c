// Package dprwadmm implements DP-RWADMM, the DP-RECAL paper's random-walk
// baseline "RWADMM [30]" (Shah & Avrachenkov, "Linearly convergent
// asynchronous distributed ADMM via Markov sampling", arXiv 1810.05067,
// 2018) with DP noise, as baselines.md §6.5 specifies it: the algorithm
// body of [30] could not be retrieved, so the update is Walkman's (Mao,
// Gu, Yin et al., the same family, whose authors' code was read) with a
// linearized local step, and the noise is reconstructed. Source
// confidence: low-medium.
//
// One token x̄ walks the network on P, from the scenario's weights as
// DP-RECAL's baton (randwalk.Transition; the random-walk weights give
// P = I − D⁻¹L, a uniformly chosen neighbour). Only its holder i = i_k
// computes and speaks; every agent keeps y_i and z_i. With step α, the
// holder updates
//
//	x^k     = prox_{αr}(x̄^k)                                    (the estimate, from the token it received)
//	y_i     ← x^k + z_i − α∇f_i(y_i^old)                          (Walkman(b), a linearized y-step)
//	z_i     ← z_i + x^k − y_i                                      (dual step)
//	x̄^{k+1} = x̄^k + [(y_i − z_i) − (y_i^old − z_i^old)]/n + ν^k   (published to the next holder)
//
// so that x̄ = (1/n)Σ_j (y_j − z_j) without noise, and the fixed point is
// y_j = x* with 0 ∈ (1/n)Σ_j ∇f_j(x*) + ∂r(x*): the composite problem
// Σ_j f_j + n·r. The noise ν^k ~ N(0, σ_τ²I) uses the holder's own
// activation count τ = τ_i (as DP-RECAL), σ_τ² = σ_1²·R^(−(τ−1)), and stays
// in the token: the next holder cannot remove it (the physically
// realisable relay). One publication moves by Δ = 4αc/n when one record
// of agent i changes (2α∇f_i enters y_i − z_i; baselines.md §6.0).
package dprwadmm

import (
	"fmt"

	"dpsim/core/algorithms/internal/randwalk"
	"dpsim/core/algorithms/internal/zcdpgauss"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Algorithm is DP-RWADMM on one problem instance.
type Algorithm struct {
	p      Params
	prob   objective.Problem
	n, d   int
	prox   zcdpgauss.Proxer
	spec   *noise.Spec
	smp    *noise.Sampler
	w      randwalk.Walk
	visits *randwalk.Visits
	y, z   []float64 // per agent
	x      []float64 // prox_{αr}(x̄): the estimate
	xbar   []float64 // the token as published
	sent   []float64
	nz     []float64
	grad   []float64
	yo, zo []float64
	tau    []int
	holder int
	k      int
	to     []int
	step   sim.Step
}

// New returns DP-RWADMM on prob, its token walking on tr (from walk) and its
// noise (channel spec) from smp; y0, z0 are the agents' initial states and
// xbar0 the token's (by default (1/n)Σ_j (y_j − z_j)). replay returns a
// fresh copy of the walk's source from its start, for predictions.
func New(p Params, prob objective.Problem, tr *randwalk.Transition, spec *noise.Spec, smp *noise.Sampler, walk *method.Source, replay func() *method.Source, y0, z0, xbar0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{p: p, prob: prob, n: n, d: d, prox: zcdpgauss.NewProxer(prob), spec: spec, smp: smp, visits: randwalk.NewVisits(replay, tr),
		y: append([]float64(nil), y0...), z: append([]float64(nil), z0...), x: make([]float64, d),
		xbar: append([]float64(nil), xbar0...), sent: make([]float64, d), nz: make([]float64, d), grad: make([]float64, d),
		yo: make([]float64, d), zo: make([]float64, d), tau: make([]int, n), to: make([]int, 1)}
	a.prox.Apply(a.xbar, p.Alpha, a.x)
	a.w = randwalk.New(walk, tr)
	a.holder = a.w.First()
	a.step.Dim = d
	a.step.Releases = []sim.Release{{Channel: "xbar", Sent: a.sent, Noise: a.nz, To: a.to}}
	a.step.Active = make([]int, 1)
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-rwadmm" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.y, Output: a.x}
}

// Advance implements sim.Algorithm: the holder's update, then the token
// moves to a neighbour (see the package doc).
func (a *Algorithm) Advance() *sim.Step {
	d, i := a.d, a.holder
	alpha, inv := a.p.Alpha, 1/float64(a.n)
	a.tau[i]++
	y, z := a.y[i*d:(i+1)*d], a.z[i*d:(i+1)*d]
	copy(a.yo, y)
	copy(a.zo, z)
	// x^k = prox(x̄^k) is a.x already: New and the last step computed it.
	a.prob.Grad(i, a.yo, a.grad)
	for c := range y {
		y[c] = a.x[c] + z[c] - float64(alpha*a.grad[c])
		z[c] += a.x[c] - y[c]
		a.xbar[c] += float64(((y[c] - z[c]) - (a.yo[c] - a.zo[c])) * inv)
	}
	a.smp.Fill(a.nz, zcdpgauss.Sigma(a.spec, a.p.Attenuation, i, a.tau[i]))
	for c := range a.xbar {
		a.xbar[c] += a.nz[c]
	}
	copy(a.sent, a.xbar)
	next := a.w.Next(i)
	a.prox.Apply(a.xbar, alpha, a.x)
	a.to[0] = next
	a.step.Releases[0].From = i
	a.step.Active[0] = i
	a.holder = next
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.y
	a.step.Output = a.x
	return &a.step
}

// State implements sim.Algorithm: the estimate x = prox(x̄) and the token
// x̄ (shared), then every agent's y and z.
func (a *Algorithm) State() []sim.Var { return zcdpgauss.Snapshot(a.vars()) }

// vars are the state variables over the algorithm's own buffers, in
// State's order.
func (a *Algorithm) vars() []sim.Var {
	return zcdpgauss.Buffers(a.d, []string{"x", "xbar", "y", "z"}, a.x, a.xbar, a.y, a.z)
}

// Resume implements sim.Resumable; the holder and the activation counts
// come back through SetCarried.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, a.vars()...); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	return nil
}

// Carried implements runner.Carrier: the holder and every agent's
// activation count τ_i, which the noise and the ledger read.
func (a *Algorithm) Carried() map[string][]float64 {
	t := make([]float64, a.n)
	for i, v := range a.tau {
		t[i] = float64(v)
	}
	return map[string][]float64{"holder": {float64(a.holder)}, "activations": t}
}

// SetCarried implements runner.Carrier.
func (a *Algorithm) SetCarried(c map[string][]float64) error {
	h, t := c["holder"], c["activations"]
	if len(h) != 1 || len(t) != a.n {
		return fmt.Errorf("the checkpoint carries %d holder(s) and %d activation counts; DP-RWADMM needs 1 and %d", len(h), len(t), a.n)
	}
	if h[0] < 0 || int(h[0]) >= a.n || h[0] != float64(int(h[0])) {
		return fmt.Errorf("the checkpoint's holder %v is not an agent of 0..%d", h[0], a.n-1)
	}
	for i, v := range t {
		if v < 0 || v != float64(int(v)) {
			return fmt.Errorf("the checkpoint's activation count of agent %d is %v, not a whole number ≥ 0", i, v)
		}
		a.tau[i] = int(v)
	}
	a.holder = int(h[0])
	return nil
}

// Holder returns the agent that holds the token.
func (a *Algorithm) Holder() int { return a.holder }

// Published implements zcdpgauss.Source: agent i's activation count.
func (a *Algorithm) Published(i int) int { return a.tau[i] }

// PublishedAfter implements zcdpgauss.Source by replaying the walk from
// its start (randwalk.Visits).
func (a *Algorithm) PublishedAfter(i, k int) int { return a.visits.After(i, k) }

// Sensitivity is Δ = 4αc/n (baselines.md §6.0).
func (a *Algorithm) Sensitivity() float64 { return 4 * a.p.Alpha * a.p.GradientBound / float64(a.n) }

// Cost implements zcdpgauss.Source: ρ_1 = Δ²/(2σ_1²), ratio R.
func (a *Algorithm) Cost(i int) (float64, float64) {
	return zcdpgauss.LogRho(a.Sensitivity(), zcdpgauss.LogSigma(a.spec, a.p.Attenuation, i, 1)), num.Log(a.p.Attenuation)
}
