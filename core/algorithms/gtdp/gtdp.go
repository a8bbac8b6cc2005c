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
	"dpsim/core/method"
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Params are GT-DP's parameters in the paper's notation. The noise scales
// b_η, b_ξ and the noise factor β_k are the scenario's noise channels "eta"
// and "xi" (scale b, decay β_k), so that every algorithm's noise is
// described the same way.
type Params struct {
	// Alpha is the step size α.
	Alpha float64 `json:"alpha" doc:"step size α" range:"(0, 1e6]"`
	// Gamma is the gradient weight γ_k = γ/(m+k)^p (constant 1 in the
	// paper's Theorem 3).
	Gamma noise.Schedule `json:"gamma" doc:"gradient weight γ_k = γ/(m+k)^p"`
	// GradientBound is C of Assumption 2: ‖∇f_i(x)‖₂ ≤ C on the domain. The
	// privacy budget (eq. 18) holds only where it does.
	GradientBound float64 `json:"gradient_bound" doc:"C, a bound on ‖∇f_i‖₂ (Assumption 2); the privacy budget is computed from it" range:"[0, 1e100]"`
	// ClipGradients clips every gradient to norm C before use, so that
	// Assumption 2 holds by construction. A modification of the paper,
	// suggested by its remark after Assumption 2; off by default.
	ClipGradients bool `json:"clip_gradients" doc:"clip every gradient to norm C (a modification of the paper)"`
}

// Defaults returns the parameters of the paper's Fig. 2 setting (α = 0.1,
// γ_k = 1) with C = 0, which the scenario must set when noise is on.
func Defaults() *Params {
	return &Params{Alpha: 0.1, Gamma: noise.Const(1)}
}

// Algorithm is GT-DP running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	n, d int

	// W as CSR: self weights, and per agent its neighbours j with w_ij
	// (= w_ji, W is symmetric). The receivers of agent i's releases alias
	// row i, so reporting an iteration copies nothing per link.
	diag  []float64
	start []int
	col   []int
	val   []float64

	eta, xi   *noise.Spec
	sEta, sXi *noise.Sampler
	x, s      []float64 // x_k, s_k, agent-major
	xn, sn    []float64 // x_{k+1}, s_{k+1} under construction
	nEta, nXi []float64 // β_k·η_{i,k}, β_k·ξ_{i,k} for every agent
	// out holds agent i's released vectors s_{i,k} + β_k η_{i,k} and
	// x_{i,k} + β_k ξ_{i,k} side by side in out[2id : 2(i+1)d].
	out   []float64
	acc   []float64 // one row's mixing sums, s then x
	grads []float64 // ∇f_i(x_i) of every agent, agent-major
	k     int
	step  sim.Step
	gmax2 float64    // largest squared gradient norm seen (before clipping)
	cFrom string     // where C comes from, for the ledger's inputs
	pool  *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns GT-DP on prob with mixing matrix w (symmetric, doubly
// stochastic; the caller validates Assumption 4), noise channels eta (on
// s) and xi (on x) with their samplers, and initial states x0, s0
// (agent-major, copied).
func New(p Params, prob objective.Problem, w *weights.Matrix,
	eta, xi *noise.Spec, sEta, sXi *noise.Sampler, x0, s0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{
		p: p, prob: prob, n: n, d: d,
		diag: w.Diag, start: w.Start, col: w.Col, val: w.Val, // W is CSR itself; read only
		eta: eta, xi: xi, sEta: sEta, sXi: sXi,
		x: append([]float64(nil), x0...), s: append([]float64(nil), s0...),
		xn: make([]float64, n*d), sn: make([]float64, n*d),
		nEta: make([]float64, n*d), nXi: make([]float64, n*d),
		out: make([]float64, 2*n*d), acc: make([]float64, 2*d),
		grads: make([]float64, n*d),
	}
	// Two releases per agent, s then x, fixed for the whole run (the
	// buffers they alias are overwritten in place every iteration); j
	// receives agent i's with factor w_ji = w_ij, row i of the symmetric W.
	a.step.Releases = make([]sim.Release, 0, 2*n)
	a.step.AddReleases("s", n, d, 2*d, 0, a.out, a.nEta, false, w.Row)
	a.step.AddReleases("x", n, d, 2*d, d, a.out, a.nXi, false, w.Row)
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
//	   releases s_{i,k} + β_k η_{i,k} and x_{i,k} + β_k ξ_{i,k}; neighbour j
//	   receives them weighted by w_ji;
//	b) s_{i,k+1} = w_ii s_{i,k} + Σ_{j≠i} w_ij(s_{j,k} + β_k η_{j,k}) + γ_k ∇f_i(x_{i,k})
//	   x_{i,k+1} = w_ii x_{i,k} + Σ_{j≠i} w_ij(x_{j,k} + β_k ξ_{j,k}) − α(s_{i,k+1} − s_{i,k})
//
// (Algorithm 1, compact form eq. 4.) The noise is drawn already scaled:
// the channel's scale at iteration k is b_i·β_k, with β_k evaluated once.
func (a *Algorithm) Advance() *sim.Step {
	n, d, k := a.n, a.d, a.k
	// a) the noises, drawn already scaled (b_i·β_k), and the released
	// vectors, s and x side by side in each agent's block of out.
	a.sEta.FillChannel(a.eta, a.eta.Decay.At(k), a.nEta, d)
	a.sXi.FillChannel(a.xi, a.xi.Decay.At(k), a.nXi, d)
	noise.Release(a.out, a.s, a.nEta, d, 2*d, 0)
	noise.Release(a.out, a.x, a.nXi, d, 2*d, d)

	// b) updates; a node mixes its own clean state (the W_o form) and the
	// neighbours' released copies. out holds agent j's two released
	// vectors side by side, so one pass over a row mixes both channels.
	// b) the updates (eq. 4), in update: a node mixes its own clean state
	// (the W_o form) and the neighbours' released copies; out holds agent
	// j's two released vectors side by side, so one pass over a row mixes
	// both channels.
	update(n, d, a.out, a.start, a.col, a.val, a.diag, a.s, a.x, a.gradients(), a.sn, a.xn, a.acc, a.p.Gamma.At(k), a.p.Alpha)
	a.x, a.xn = a.xn, a.x
	a.s, a.sn = a.sn, a.s
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.x
	return &a.step
}

// gradients returns ∇f_i(x_i) of every agent (agent-major, in a.grads),
// each clipped to norm C when asked, and tracks the largest norm seen.
func (a *Algorithm) gradients() []float64 {
	d, gs := a.d, a.grads
	objective.Grads(a.pool, a.prob, a.x, gs)
	c := a.p.GradientBound
	for i := range a.n {
		g := gs[i*d : (i+1)*d]
		sq := 0.0
		for _, v := range g {
			sq += float64(v * v)
		}
		// Squared norms: a square root per agent per iteration is
		// measurable.
		if sq > a.gmax2 {
			a.gmax2 = sq
		}
		if a.p.ClipGradients && sq > c*c {
			f := c / math.Sqrt(sq)
			for k := range g {
				g[k] *= f
			}
		}
	}
	return gs
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
func (a *Algorithm) MaxGradientNorm() float64 { return math.Sqrt(a.gmax2) }

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x}, sim.Var{Name: "s", Dim: a.d, Data: a.s}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates = a.x
	return nil
}

// carriedGradient names the largest squared gradient norm seen in
// checkpoints: the ledger's note on Assumption 2 reads it.
const carriedGradient = "max_gradient_norm_sq"

// Carried returns what the run keeps beyond x and s: the largest squared
// gradient norm seen (runner.Carrier).
func (a *Algorithm) Carried() map[string][]float64 {
	return map[string][]float64{carriedGradient: {a.gmax2}}
}

// SetCarried puts back what Carried returned.
func (a *Algorithm) SetCarried(c map[string][]float64) error {
	v, ok := c[carriedGradient]
	if !ok || len(v) != 1 {
		return fmt.Errorf("the checkpoint does not carry GT-DP's %s", carriedGradient)
	}
	a.gmax2 = v[0]
	return nil
}
