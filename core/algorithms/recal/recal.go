// Package recal implements DP-RECAL (Wang, Guo, Yang and Shi, a
// differentially private relayed, communication-efficient algorithm,
// Algorithm 1; spec algorithms.md §6), and RECAL, its noise-free form.
//
// One baton (ũ, x) walks the graph as a Markov chain whose P comes from
// the scenario's weights, P_ij = |w_ij| / Σ_k |w_ik| over the links (no
// self-loops; randwalk.Transition): random-walk weights give the paper's
// P = I − D⁻¹L, every neighbour equally likely (Assumption 2). In
// iteration k only the holder i = i_k computes and speaks:
//
//	τ_i ← τ_i + 1
//	λ̂      = λ_i + β(x^k − y_i)                              (7a)
//	x^{k+1} = prox_{n·r}(x^k − (ũ^k + λ̂ − λ_i))              (7b)
//	y_i⁺    = y_i − α_i(∇f_i(y_i) − λ̂)                       (7c)
//	λ_i⁺    = λ̂ + β[(x^{k+1} − x^k) − (y_i⁺ − y_i)]          (7d)
//	u^{k+1} = u^k + λ_i⁺ − λ_i                               (7e)
//	ũ^{k+1} = u^{k+1} − ε^k,  ε^k ~ N(0, σ_1²·R^(−(τ_i−1))·I)  (Alg. 1, line 8)
//
// and passes (ũ^{k+1}, x^{k+1}) to the neighbour P draws, with
// β = 1/(2(n+1)) and uncoordinated steps α_i ∈ (0, 2/(L_i+1)).
//
// Algorithm 1 as printed adds to a noise-free u^k that the next agent
// cannot hold (it receives ũ^k only; spec §6.2). Mode "literal" (the
// default) keeps the exact running sum u = Σ_j λ_j as a hidden part of the
// baton, as the paper's analysis does; mode "realisable" adds to what the
// holder received, u^{k+1} = ũ^k + λ_i⁺ − λ_i, so the noise accumulates in
// u and x converges to a perturbed problem's minimiser.
package recal

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/randwalk"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// The modes of the u bookkeeping (spec §6.2).
const (
	Literal    = "literal"
	Realisable = "realisable"
)

// Algorithm is DP-RECAL running on one problem instance.
type Algorithm struct {
	p     Params
	n, d  int
	prob  objective.Problem
	prox  objective.Composite // nil: r = 0, the prox is the identity
	g     *graph.Graph
	alpha []float64 // α_i
	beta  float64   // β = 1/(2(n+1))
	sigma []float64 // σ_1 of each agent (0: no noise)
	r     float64   // R, the variance attenuation per activation
	sens  float64   // Δ, the ℓ2 sensitivity of u per activation

	walk randwalk.Walk // the baton's walk (algorithm stream or pinned)
	smp  *noise.Sampler

	k      int
	holder int       // i_k: the agent holding the baton
	tau    []int     // τ_i: activations so far
	x      []float64 // the baton's x^k
	ut     []float64 // the baton's ũ^k
	u      []float64 // the exact u^k (literal) or u^k before noise (realisable)
	y, lam []float64 // y_i and λ_i, agent-major

	grad, lh, v, xn, yn, ln []float64 // scratch
	eps                     []float64 // ε^k (d)
	msg, nz                 []float64 // the release: (ũ, x) and its noise part (−ε, 0)
	st                      sim.Step
	rel                     [1]sim.Release
	to, active              [1]int
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-recal" }

// Beta returns β = 1/(2(n+1)).
func (a *Algorithm) Beta() float64 { return a.beta }

// Alphas returns the agents' steps α_i.
func (a *Algorithm) Alphas() []float64 { return a.alpha }

// Activations returns τ_i, the activation counts so far (read-only).
func (a *Algorithm) Activations() []int { return a.tau }

// Sigma1 returns agent i's initial noise standard deviation σ_1.
func (a *Algorithm) Sigma1(i int) float64 { return a.sigma[i] }

// Holder returns the agent that holds the baton for the next iteration.
func (a *Algorithm) Holder() int { return a.holder }

// SigmaAt returns the noise standard deviation of agent i at its τ-th
// activation: σ_1·R^(−(τ−1)/2).
func (a *Algorithm) SigmaAt(i, tau int) float64 {
	if a.sigma[i] == 0 {
		return 0
	}
	if a.r == 1 || tau <= 1 {
		return a.sigma[i]
	}
	return a.sigma[i] * num.Pow(a.r, -float64(tau-1)/2)
}

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.y, Output: a.x}
	return &a.st
}

// Advance implements sim.Algorithm: the holder's update (7a)–(7e), its
// noise, and the one release of the baton to the next holder.
func (a *Algorithm) Advance() *sim.Step {
	i, d := a.holder, a.d
	a.tau[i]++
	y, lam := a.y[i*d:(i+1)*d], a.lam[i*d:(i+1)*d]
	for c := range d {
		a.lh[c] = lam[c] + float64(a.beta*(a.x[c]-y[c])) // (7a)
	}
	for c := range d {
		a.v[c] = a.x[c] - (a.ut[c] + a.lh[c] - lam[c])
	}
	if a.prox != nil {
		a.prox.Prox(a.v, float64(a.n), a.xn) // (7b): prox of n·r
	} else {
		copy(a.xn, a.v)
	}
	a.prob.Grad(i, y, a.grad)
	if a.p.ClipGradients {
		clip(a.grad, a.p.GradientBound)
	}
	al := a.alpha[i]
	for c := range d {
		a.yn[c] = y[c] - float64(al*(a.grad[c]-a.lh[c])) // (7c)
	}
	for c := range d {
		a.ln[c] = a.lh[c] + float64(a.beta*((a.xn[c]-a.x[c])-(a.yn[c]-y[c]))) // (7d)
	}
	base := a.u
	if a.p.Mode == Realisable {
		base = a.ut
	}
	for c := range d {
		a.u[c] = base[c] + (a.ln[c] - lam[c]) // (7e)
	}
	a.smp.Fill(a.eps, a.SigmaAt(i, a.tau[i]))
	for c := range d {
		a.ut[c] = a.u[c] - a.eps[c]
	}
	copy(y, a.yn)
	copy(lam, a.ln)
	copy(a.x, a.xn)

	nx := a.walk.Next(i)
	copy(a.msg[:d], a.ut)
	copy(a.msg[d:], a.x)
	for c := range d {
		a.nz[c] = -a.eps[c]
	}
	a.to[0], a.active[0] = nx, i
	a.rel[0] = sim.Release{From: i, Channel: "u", Sent: a.msg, Noise: a.nz, To: a.to[:]}
	a.holder = nx
	a.k++
	a.st = sim.Step{Iter: a.k, Dim: d, Estimates: a.y, Output: a.x, Releases: a.rel[:], Active: a.active[:]}
	return &a.st
}

// clip scales g to norm at most c.
func clip(g []float64, c float64) {
	s := 0.0
	for _, v := range g {
		s += float64(v * v)
	}
	if n := math.Sqrt(s); n > c {
		f := c / n
		for k := range g {
			g[k] *= f
		}
	}
}

// State implements sim.Algorithm: the baton's x, ũ and u (one row each)
// and the agents' y and λ.
func (a *Algorithm) State() []sim.Var {
	cp := func(s []float64) []float64 { return append([]float64(nil), s...) }
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: cp(a.x)},
		{Name: "u_noisy", Dim: a.d, Data: cp(a.ut)},
		{Name: "u", Dim: a.d, Data: cp(a.u)},
		{Name: "y", Dim: a.d, Data: cp(a.y)},
		{Name: "lambda", Dim: a.d, Data: cp(a.lam)},
	}
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state,
		sim.Var{Name: "x", Dim: a.d, Data: a.x}, sim.Var{Name: "u_noisy", Dim: a.d, Data: a.ut},
		sim.Var{Name: "u", Dim: a.d, Data: a.u}, sim.Var{Name: "y", Dim: a.d, Data: a.y},
		sim.Var{Name: "lambda", Dim: a.d, Data: a.lam}); err != nil {
		return err
	}
	a.k = iter
	return nil
}

// Carried implements runner.Carrier: the activation counters τ_i and the
// baton's holder, which are not per-agent vectors of dimension d.
func (a *Algorithm) Carried() map[string][]float64 {
	t := make([]float64, a.n)
	for i, v := range a.tau {
		t[i] = float64(v)
	}
	return map[string][]float64{"tau": t, "holder": {float64(a.holder)}}
}

// SetCarried implements runner.Carrier.
func (a *Algorithm) SetCarried(m map[string][]float64) error {
	t, h := m["tau"], m["holder"]
	if len(t) != a.n || len(h) != 1 {
		return fmt.Errorf("the checkpoint carries %d activation counts and %d holders; DP-RECAL needs %d and 1", len(t), len(h), a.n)
	}
	if hv := int(h[0]); float64(hv) != h[0] || hv < 0 || hv >= a.n {
		return fmt.Errorf("the checkpoint's baton holder %v is not an agent of 0..%d", h[0], a.n-1)
	}
	for i, v := range t {
		if v < 0 || v != math.Trunc(v) {
			return fmt.Errorf("the checkpoint's activation count of agent %d is %v, not a whole number ≥ 0", i, v)
		}
		a.tau[i] = int(v)
	}
	a.holder = int(h[0])
	return nil
}
