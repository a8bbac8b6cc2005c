package online

import (
	"fmt"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/pool"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Config is what distinguishes the online methods that share Engine's
// update
//
//	y_t^j = θ_t^j + ϑ_t^j                          (released, one channel)
//	s_i   = y_t^i (self_noisy) or θ_t^i
//	z_i   = s_i + γ_t·Σ_{j∈N_i} w_ij·(y_t^j − s_i)
//	θ_{t+1}^i = Π[ z_i − λ_t·g_i(θ_t^i or z_i) ]
//
// with g_i the gradient over the agent's received data (History). With a
// Laplacian-type W (w_ii = −Σ_j w_ij) this is LDP online's
// θ + Σ_j w_ij(y_j − θ); with a stochastic A it is Σ_j a_ij·y_j, since
// a_ii = 1 − Σ_{j≠i} a_ij: either way only the off-diagonal weights enter.
type Config struct {
	// Name is the algorithm's name (sim.Algorithm.Name).
	Name string
	// Channel is the noise channel's name.
	Channel string
	// Step is λ_t.
	Step func(t int) float64
	// Weaken is γ_t (LDOL's weakening factor); nil means 1.
	Weaken func(t int) float64
	// SelfNoisy mixes the agent's own released copy y_i instead of θ_i.
	SelfNoisy bool
	// GradAtMix evaluates the gradient at z_i (DOLA, DPOP) instead of at
	// the agent's own θ_t^i.
	GradAtMix bool
	// Radius projects onto the ℓ2 ball of that radius (0: none).
	Radius float64
	// Clip scales the gradient to ‖g‖₁ ≤ Clip (0: no clipping).
	Clip float64
	// ClipL2 scales the gradient to ‖g‖₂ ≤ ClipL2 (0: no clipping).
	ClipL2 float64
}

// Engine runs Config's update on one problem instance.
type Engine struct {
	c    Config
	h    *History
	n, d int
	w    *weights.Matrix
	row  []float64 // Σ_{j≠i} w_ij

	spec *noise.Spec
	smp  *noise.Sampler
	x    []float64 // θ_t
	xn   []float64
	nz   []float64 // ϑ_t
	out  []float64 // y_t
	z    []float64 // z_i, agent-major
	acc  []float64
	grad []float64 // g_i, agent-major
	pool *pool.Pool
	k    int
	step sim.Step
	// Clipped counts the gradients clipping changed.
	Clipped int
}

// NewEngine returns the engine on env with history h, noise channel spec
// (drawn from its own stream) and the initial estimates of state "x".
func NewEngine(c Config, env *method.Env, h *History) *Engine {
	n, d := env.Problem.Agents(), env.Problem.Dim()
	e := &Engine{c: c, h: h, n: n, d: d, w: env.Weights, row: make([]float64, n),
		spec: env.Noise[c.Channel], smp: env.Sampler(c.Name, c.Channel),
		x: env.InitState("x"), xn: make([]float64, n*d), nz: make([]float64, n*d), out: make([]float64, n*d),
		z: make([]float64, n*d), acc: make([]float64, d), grad: make([]float64, n*d), pool: env.Pool}
	for i := range n {
		_, vals := e.w.Row(i)
		for _, v := range vals {
			e.row[i] += v
		}
		ProjectBall(e.x[i*d:(i+1)*d], c.Radius)
	}
	e.step.Releases = make([]sim.Release, 0, n)
	e.step.AddReleases(c.Channel, n, d, d, 0, e.out, e.nz, false, e.w.Row)
	e.step.Dim = d
	e.step.Estimates = e.x
	return e
}

// Name implements sim.Algorithm.
func (e *Engine) Name() string { return e.c.Name }

// Initial implements sim.Algorithm.
func (e *Engine) Initial() *sim.Step { return &sim.Step{Iter: 0, Dim: e.d, Estimates: e.x} }

// Iter returns the number of iterations done.
func (e *Engine) Iter() int { return e.k }

// Advance implements sim.Algorithm: one iteration of Config's update.
func (e *Engine) Advance() *sim.Step {
	n, d, t := e.n, e.d, e.k
	e.smp.FillAt(e.spec, t, e.nz, d)
	noise.Release(e.out, e.x, e.nz, d, d, 0)
	e.h.Receive()
	lam := e.c.Step(t)
	gam := 1.0
	if e.c.Weaken != nil {
		gam = e.c.Weaken(t)
	}
	self := e.x
	if e.c.SelfNoisy {
		self = e.out
	}
	acc := e.acc
	for i := range n {
		lo, hi := i*d, (i+1)*d
		z, s := e.z[lo:hi], self[lo:hi]
		s = s[:len(z)]
		clear(acc)
		cols, vals := e.w.Row(i)
		weights.MixRow(acc, e.out, cols, vals)
		keep := 1 - float64(gam*e.row[i])
		for c := range z {
			z[c] = float64(keep*s[c]) + float64(gam*acc[c])
		}
	}
	// Every agent's gradient at once (each reads its own data), then the
	// steps in agent order.
	at := e.x
	if e.c.GradAtMix {
		at = e.z
	}
	e.h.Grads(e.pool, at, e.grad)
	for i := range n {
		lo, hi := i*d, (i+1)*d
		z, g := e.z[lo:hi], e.grad[lo:hi]
		if e.c.Clip > 0 && ClipL1(g, e.c.Clip) {
			e.Clipped++
		}
		if e.c.ClipL2 > 0 && clipL2(g, e.c.ClipL2) {
			e.Clipped++
		}
		xn := e.xn[lo:hi]
		xn, g = xn[:len(z)], g[:len(z)]
		for c := range z {
			xn[c] = z[c] - float64(lam*g[c])
		}
		ProjectBall(xn, e.c.Radius)
	}
	e.x, e.xn = e.xn, e.x
	e.k++
	e.step.Iter = e.k
	e.step.Estimates = e.x
	return &e.step
}

// State implements sim.Algorithm: the estimates θ (state "x").
func (e *Engine) State() []sim.Var {
	return []sim.Var{{Name: "x", Dim: e.d, Data: append([]float64(nil), e.x...)}}
}

// CheckWeights checks the weights the online methods mix with: an
// undirected graph, W symmetric with nonnegative off-diagonal entries
// exactly on the edges, and either zero row sums (Laplacian-type, LDP
// online's A3; the effective mixing matrix is I + W) or row sums 1 (a
// stochastic A). It returns that mixing matrix's smallest eigenvalue
// when known (ok false otherwise).
func CheckWeights(env *method.Env, title string) (minMix float64, ok bool, err error) {
	if err := env.RequireUndirected(title, title+" mixes with a symmetric W whose support is the graph; W fails",
		weights.FindNonnegative, weights.FindSymmetric, weights.FindSparsity); err != nil {
		return 0, false, err
	}
	r := env.Report
	switch {
	case r.ZeroRowSums:
		if r.HasEigenRange {
			return 1 + r.EigenMin, true, nil
		}
	case r.RowStochastic:
		if r.HasEigenRange {
			return r.EigenMin, true, nil
		}
	default:
		return 0, false, check.Errorf("weights", "%s needs either a Laplacian-type W with w_ii = −Σ_j w_ij (zero row sums; weights kind ldp-laplacian) or a stochastic A with rows summing to 1 (metropolis); neither holds", title)
	}
	return 0, false, nil
}

// MixingWarning warns when the mixing matrix's smallest eigenvalue is
// ≤ −1 (the iteration oscillates or diverges: LDP online's pitfall 1).
func MixingWarning(minMix float64, ok bool) []check.Warning {
	if ok && minMix <= -1+1e-12 {
		return []check.Warning{check.Warnf("weights", "the mixing matrix I + W (or A) has smallest eigenvalue %.6g ≤ −1: consensus oscillates or diverges (on a ring keep w_ij < 0.5)", minMix)}
	}
	return nil
}

// Doc lines of the parameters every online method has (batch, window),
// so that their forms read alike.
const (
	DocBatch  = "N^i: new samples each agent receives from its shard every iteration (the paper: 2 on mushrooms, 32 images on MNIST and CIFAR-10)"
	DocWindow = "the gradient reads the latest window batches only (0: every sample received so far, as the paper; its cost is then bounded by the shard; a window is cheaper but forgets older data, 1 is classic online SGD)"
)

// Resume implements sim.Resumable. The received samples are not part of
// the state: a resumed run is built afresh, its sample cursors at their
// start (the runner puts every stream at its checkpoint position only
// after Resume), so the history is rebuilt by replaying the first iter
// batches, O(iter·batch). The runner's restore then finds the cursors
// where the replay left them.
func (e *Engine) Resume(iter int, state []sim.Var) error {
	if e.h.Received() != 0 {
		return fmt.Errorf("%s: resume a freshly built run (its samples were already drawn)", e.c.Name)
	}
	if err := method.Restore(state, sim.Var{Name: "x", Dim: e.d, Data: e.x}); err != nil {
		return err
	}
	for range iter {
		e.h.Receive()
	}
	e.k, e.step.Iter, e.step.Estimates = iter, iter, e.x
	return nil
}
