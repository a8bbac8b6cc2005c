// Package gtdp implements GT-DP, the gradient-tracking differentially
// private algorithm of Xuan and Wang ("Gradient-tracking based
// differentially private distributed optimization with enhanced optimization
// accuracy"), Algorithm 1, with its finite-horizon privacy budget
// (Theorem 2, eqs. 18–19).
//
// Every agent i keeps an estimate x_i and a tracker s_i of the cumulative
// gradient. At iteration k it sends w_ji·(s_i + β_k·η_i) and
// w_ji·(x_i + β_k·ξ_i) to each neighbour j, with Laplace noises η, ξ, and
// mixes its own clean state with the neighbours' noisy copies.
package gtdp

import (
	"math"

	"dpsim/core/noise"
	"dpsim/core/problem"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Params are GT-DP's parameters in the paper's notation. The noise scales
// b_η, b_ξ and the noise factor β_k are the scenario's noise channels "eta"
// and "xi" (scale b, decay β_k), so that every algorithm's noise is
// described the same way.
type Params struct {
	// Alpha is the step size α.
	Alpha float64 `json:"alpha"`
	// Gamma is the gradient weight γ_k = γ/(m+k)^p (constant 1 in the
	// paper's Theorem 3).
	Gamma noise.Schedule `json:"gamma"`
	// GradientBound is C of Assumption 2: ‖∇f_i(x)‖₂ ≤ C on the domain. The
	// privacy budget (eq. 18) holds only where it does.
	GradientBound float64 `json:"gradient_bound"`
	// ClipGradients clips every gradient to norm C before use, so that
	// Assumption 2 holds by construction. A modification of the paper,
	// suggested by its remark after Assumption 2; off by default.
	ClipGradients bool `json:"clip_gradients"`
}

// Defaults returns the parameters of the paper's Fig. 2 setting (α = 0.1,
// γ_k = 1) with C = 0, which the scenario must set when noise is on.
func Defaults() *Params {
	return &Params{Alpha: 0.1, Gamma: noise.Const(1)}
}

// Algorithm is GT-DP running on one problem instance.
type Algorithm struct {
	p    Params
	prob problem.Problem
	n, d int

	// Mixing weights: self weights and, per agent, its neighbours and
	// w_ij (= w_ji, W is symmetric).
	self  []float64
	nbr   [][]int
	wgt   [][]float64
	eta   *noise.Spec
	xi    *noise.Spec
	sEta  *noise.Sampler
	sXi   *noise.Sampler
	x, s  []float64 // x_k, s_k, agent-major
	xn    []float64 // x_{k+1} under construction
	sn    []float64 // s_{k+1} under construction
	nEta  []float64 // β_k·η_{i,k} for every agent
	nXi   []float64 // β_k·ξ_{i,k}
	grad  []float64
	k     int
	arena []float64 // message payloads and noises
	step  sim.Step
	gmax  float64 // largest gradient norm seen (before clipping)
}

// New returns GT-DP on prob with mixing matrix w (symmetric, doubly
// stochastic; the caller validates Assumption 4), noise channels eta (on
// s) and xi (on x) with their samplers, and initial states x0, s0
// (agent-major, copied).
func New(p Params, prob problem.Problem, w *weights.Matrix, nbrs func(i int) []int,
	eta, xi *noise.Spec, sEta, sXi *noise.Sampler, x0, s0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{
		p: p, prob: prob, n: n, d: d,
		self: make([]float64, n), nbr: make([][]int, n), wgt: make([][]float64, n),
		eta: eta, xi: xi, sEta: sEta, sXi: sXi,
		x: append([]float64(nil), x0...), s: append([]float64(nil), s0...),
		xn: make([]float64, n*d), sn: make([]float64, n*d),
		nEta: make([]float64, n*d), nXi: make([]float64, n*d), grad: make([]float64, d),
	}
	links := 0
	for i := range n {
		a.self[i] = w.At(i, i)
		for _, j := range nbrs(i) {
			a.nbr[i] = append(a.nbr[i], j)
			a.wgt[i] = append(a.wgt[i], w.At(i, j))
		}
		links += len(a.nbr[i])
	}
	// Two messages (s and x) per directed link, each with payload and noise.
	a.arena = make([]float64, 4*links*d)
	a.step.Messages = make([]sim.Message, 2*links)
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "gt-dp" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// Advance implements sim.Algorithm: one iteration of Algorithm 1.
//
//	a) agent i draws η_{i,k} ~ Lap(β_k b_η)^r, ξ_{i,k} ~ Lap(β_k b_ξ)^r and
//	   sends w_ji(s_{i,k} + β_k η_{i,k}) and w_ji(x_{i,k} + β_k ξ_{i,k}) to
//	   each neighbour j;
//	b) s_{i,k+1} = w_ii s_{i,k} + Σ_{j≠i} w_ij(s_{j,k} + β_k η_{j,k}) + γ_k ∇f_i(x_{i,k})
//	   x_{i,k+1} = w_ii x_{i,k} + Σ_{j≠i} w_ij(x_{j,k} + β_k ξ_{j,k}) − α(s_{i,k+1} − s_{i,k})
//
// (Algorithm 1, compact form eq. 4.) The noise is drawn already scaled:
// the channel's scale at iteration k is b·β_k.
func (a *Algorithm) Advance() *sim.Step {
	n, d, k := a.n, a.d, a.k
	for i := range n {
		a.sEta.Fill(a.nEta[i*d:(i+1)*d], a.eta.ScaleAt(i, k))
		a.sXi.Fill(a.nXi[i*d:(i+1)*d], a.xi.ScaleAt(i, k))
	}
	// a) messages, as transmitted: the receiver's weight times the noisy copy.
	m, off := 0, 0
	for i := range n {
		si, xi := a.s[i*d:(i+1)*d], a.x[i*d:(i+1)*d]
		ei, qi := a.nEta[i*d:(i+1)*d], a.nXi[i*d:(i+1)*d]
		for t, j := range a.nbr[i] {
			w := a.wgt[i][t] // w_ji = w_ij
			m = a.message(m, &off, i, j, "s", w, si, ei)
			m = a.message(m, &off, i, j, "x", w, xi, qi)
		}
	}
	// b) updates; a node mixes its own clean state (the W_o form).
	gk := a.p.Gamma.At(k)
	for i := range n {
		sn, xn := a.sn[i*d:(i+1)*d], a.xn[i*d:(i+1)*d]
		si, xi := a.s[i*d:(i+1)*d], a.x[i*d:(i+1)*d]
		for c := range d {
			sn[c] = a.self[i] * si[c]
			xn[c] = a.self[i] * xi[c]
		}
		for t, j := range a.nbr[i] {
			w := a.wgt[i][t]
			sj, ej := a.s[j*d:(j+1)*d], a.nEta[j*d:(j+1)*d]
			xj, qj := a.x[j*d:(j+1)*d], a.nXi[j*d:(j+1)*d]
			for c := range d {
				sn[c] += w * (sj[c] + ej[c])
				xn[c] += w * (xj[c] + qj[c])
			}
		}
		a.gradient(i, xi)
		for c := range d {
			sn[c] += gk * a.grad[c]
			xn[c] -= a.p.Alpha * (sn[c] - si[c])
		}
	}
	a.x, a.xn = a.xn, a.x
	a.s, a.sn = a.sn, a.s
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.x
	return &a.step
}

// message records one transmission w·(v + e) with noise part w·e.
func (a *Algorithm) message(m int, off *int, from, to int, ch string, w float64, v, e []float64) int {
	d := a.d
	pay := a.arena[*off : *off+d : *off+d]
	nz := a.arena[*off+d : *off+2*d : *off+2*d]
	*off += 2 * d
	for c := range d {
		pay[c] = w * (v[c] + e[c])
		nz[c] = w * e[c]
	}
	a.step.Messages[m] = sim.Message{From: from, To: to, Channel: ch, Payload: pay, Noise: nz}
	return m + 1
}

// gradient writes ∇f_i(x) into a.grad, clipped to norm C when asked.
func (a *Algorithm) gradient(i int, x []float64) {
	a.prob.Grad(i, x, a.grad)
	norm := 0.0
	for _, g := range a.grad {
		norm += g * g
	}
	norm = math.Sqrt(norm)
	if norm > a.gmax {
		a.gmax = norm
	}
	if a.p.ClipGradients && norm > a.p.GradientBound {
		f := a.p.GradientBound / norm
		for c := range a.grad {
			a.grad[c] *= f
		}
	}
}

// State implements sim.Algorithm: the estimates x and trackers s.
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "s", Dim: a.d, Data: append([]float64(nil), a.s...)},
	}
}

// MaxGradientNorm returns the largest ‖∇f_i(x_{i,k})‖ seen so far, before
// clipping: the privacy budget holds only if C is at least this.
func (a *Algorithm) MaxGradientNorm() float64 { return a.gmax }
