// Package dpop implements DPOP (also printed PDOP), the differentially
// private distributed optimization of Huang, Mitra and Vaidya
// ("Differentially private distributed optimization", ICDCN 2015), the
// GT-DP paper's Fig. 1 baseline, as baselines.md §5.1 specifies it
// (source confidence medium-high: the step and noise schedules match two
// independent public implementations; the order average → gradient step
// → projection is reconstructed).
//
// Agent i releases x̃_i(t) = x_i(t) + η_i(t), η ~ Lap(b·p^t)^d, mixes
// z_i(t) = Σ_j a_ij x̃_j(t) (its own noisy copy included) and steps
// x_i(t+1) = Π_X[z_i(t) − γ_t ∇f_i(z_i(t))] with the geometric step
// γ_t = c·q^t, q < p, which keeps ε finite over an infinite horizon.
package dpop

import (
	"dpsim/core/algorithms/internal/online"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Params are DPOP's parameters in Huang et al.'s notation (baselines.md
// §5.1). The noise b·p^t is the scenario's channel "eta" (scale b,
// geometric decay p).
type Params struct {
	// C is c of the step γ_t = c·q^t.
	C float64 `json:"c" doc:"c in the step size γ_t = c·q^t (default 0.5/L = 0.25 for the rendezvous, L = 2)" range:"(0, 1e6]"`
	// Q is q of γ_t = c·q^t; the noise decays as p^t with p > q.
	Q float64 `json:"q" doc:"q in γ_t = c·q^t; the noise's geometric decay p must exceed q for a finite ε as K → ∞" range:"(0, 1)"`
	// GradientBound is C of Huang et al.: ‖∇f_i‖₂ ≤ C on the domain X.
	GradientBound float64 `json:"gradient_bound" doc:"C, a bound on ‖∇f_i‖₂ over the domain X; 0 takes the problem's own bound" range:"[0, 1e100]"`
	// GradientAt is where the gradient is evaluated: "z" (Huang et al.)
	// or "x" (a public course implementation evaluates it at x_i(t)).
	GradientAt string `json:"gradient_at" doc:"evaluate ∇f_i at the mixed z_i(t) (Huang et al.) or at the own x_i(t) (a course implementation)" options:"z|x"`
	// SelfNoisy mixes the agent's own noisy copy (true, the paper's form)
	// or its clean x_i (false, the GT-DP paper's W_o form).
	SelfNoisy bool `json:"self_noisy" doc:"mix the agent's own released (noisy) copy, as Huang et al.; false mixes its clean x_i"`
	// StreamBatch > 0 runs DPOP online (the LDP online paper's PDOP
	// baseline): every agent receives that many samples of its stream
	// per iteration and ∇f_i is replaced by the gradient over the
	// samples it has received (internal/online.History).
	StreamBatch int `json:"stream_batch,omitempty" doc:"online (the LDP online paper's PDOP): new samples each agent receives per iteration, its gradient then averaged over all it has received; 0: the full local gradient ∇f_i (Huang et al.)" range:"[0, 100000]" unit:"samples per iteration"`
	// StreamWindow caps the received data the online gradient reads.
	StreamWindow int `json:"stream_window,omitempty" doc:"online only: the gradient reads the latest stream_window batches (0: all received data)" range:"[0, 1000000]" unit:"batches"`
	// Radius is the ℓ2 ball X projected onto when the problem has no
	// domain of its own (the LDP online paper's logistic regression).
	Radius float64 `json:"radius,omitempty" doc:"the radius of the ball ‖x‖ ≤ radius that X is when the problem has no domain (0: the problem's own domain is required)" range:"[0, 1e100]"`
}

// Defaults returns baselines.md §5.1's defaults: c = 0.5/L with L = 2
// (the rendezvous), q = 0.98, gradient at z, own noisy copy mixed.
func Defaults() *Params {
	return &Params{C: 0.25, Q: 0.98, GradientAt: "z", SelfNoisy: true}
}

// ball is the domain ‖x‖ ≤ r given by Params.Radius.
type ball float64

func (b ball) HasDomain() bool     { return b > 0 }
func (b ball) Project(x []float64) { online.ProjectBall(x, float64(b)) }

// Algorithm is DPOP running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Problem
	dom  objective.Bounded
	n, d int

	diag  []float64
	start []int
	col   []int
	val   []float64

	hist *online.History // nil: the full gradient ∇f_i
	eta  *noise.Spec
	smp  *noise.Sampler
	x    []float64 // x(t)
	xn   []float64 // x(t+1) under construction
	nz   []float64 // η(t)
	out  []float64 // x̃(t), the released vectors
	z    []float64 // z_i(t), agent-major
	grad []float64 // agent-major
	k    int
	step sim.Step
	// cFrom says where C comes from, for the ledger's inputs.
	cFrom string
	pool  *pool.Pool // the agents' gradients (nil: one goroutine)
}

// New returns DPOP on prob (which must have a domain to project on) with
// mixing matrix w, noise channel eta and its sampler, and initial
// estimates x0 (agent-major, copied, projected onto X).
func New(p Params, prob objective.Problem, dom objective.Bounded, w *weights.Matrix, eta *noise.Spec, smp *noise.Sampler, x0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{p: p, prob: prob, dom: dom, n: n, d: d,
		diag: w.Diag, start: w.Start, col: w.Col, val: w.Val, // W is CSR itself; read only
		eta: eta, smp: smp,
		x: append([]float64(nil), x0...), xn: make([]float64, n*d),
		nz: make([]float64, n*d), out: make([]float64, n*d),
		z: make([]float64, n*d), grad: make([]float64, n*d)}
	for i := range n {
		dom.Project(a.x[i*d : (i+1)*d])
	}
	a.step.Releases = make([]sim.Release, 0, n)
	a.step.AddReleases("x", n, d, d, 0, a.out, a.nz, false, w.Row)
	a.step.Dim = d
	a.step.Estimates = a.x
	return a
}

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dpop" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.x}
}

// Step returns γ_t = c·q^t.
func (a *Algorithm) Step(t int) float64 { return noise.Geom(a.p.C, a.p.Q).At(t) }

// Advance implements sim.Algorithm: one iteration,
//
//	x̃_i(t) = x_i(t) + η_i(t),  η_i(t) ~ Lap(b·p^t)^d
//	z_i(t) = Σ_j a_ij x̃_j(t)            (a_ii x_i(t) when self_noisy is off)
//	x_i(t+1) = Π_X[ z_i(t) − γ_t ∇f_i(z_i(t)) ],  γ_t = c·q^t
func (a *Algorithm) Advance() *sim.Step {
	n, d := a.n, a.d
	if a.hist != nil {
		a.hist.Receive()
	}
	a.smp.FillChannel(a.eta, a.eta.Decay.At(a.k), a.nz, d)
	noise.Release(a.out, a.x, a.nz, d, d, 0)
	g := a.Step(a.k)
	self := a.out
	if !a.p.SelfNoisy {
		self = a.x
	}
	for i := range n {
		lo, hi := i*d, (i+1)*d
		z := a.z[lo:hi]
		wii := a.diag[i]
		si := self[lo:hi]
		si = si[:len(z)]
		for c := range z {
			z[c] = wii * si[c]
		}
		lo2, hi2 := a.start[i], a.start[i+1]
		weights.MixRow(z, a.out, a.col[lo2:hi2], a.val[lo2:hi2])
	}
	// Every agent's gradient at once, then the steps.
	at := a.z
	if a.p.GradientAt == "x" {
		at = a.x
	}
	if a.hist != nil {
		a.hist.Grads(a.pool, at, a.grad)
	} else {
		objective.Grads(a.pool, a.prob, at, a.grad)
	}
	for i := range n {
		lo, hi := i*d, (i+1)*d
		z := a.z[lo:hi]
		xn := a.xn[lo:hi]
		xn, gr := xn[:len(z)], a.grad[lo:hi]
		for c := range z {
			xn[c] = z[c] - float64(g*gr[c])
		}
		a.dom.Project(xn)
	}
	a.x, a.xn = a.xn, a.x
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.x
	return &a.step
}

// State implements sim.Algorithm: the estimates x.
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)}}
}

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x}); err != nil {
		return err
	}
	if a.hist != nil {
		// The received samples are rebuilt by replaying the fresh
		// cursors (the runner restores their positions after Resume).
		for range iter {
			a.hist.Receive()
		}
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates = a.x
	return nil
}
