// Package logistic holds the binary linear models dpsim trains on real
// and synthetic datasets — logistic regression and least squares, with an
// ℓ2 term in each agent's loss and, optionally, DP-RECAL's composite
// regulariser r(x) = ½‖x‖² + ½‖x‖₁ (spec §6.6, §7.5) — and its factory.
//
// Agent i holds a shard of m_i rows (a_ij, b_ij), b_ij ∈ {−1, +1}, and
//
//	f_i(x) = (1/m_i)·Σ_j ℓ(b_ij·a_ijᵀx) + (λ/2)‖x‖²,
//
// with ℓ(t) = log(1 + e^(−t)) (logistic) or ℓ = ½(a_ijᵀx − b_ij)²
// (squares). The network minimises (1/n)·Σ_i f_i(x), or, when the
// problem is composite, Σ_i f_i(x) + n·r(x) (DP-RECAL's form).
package logistic

import (
	"dpsim/core/num"
	"math"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/sim"
)

// The losses.
const (
	Logistic = "logistic"
	Squares  = "squares"
)

// Model is the binary linear model on sharded data (see the package
// comment). It is read-only after New and safe for concurrent use.
type Model struct {
	loss     string
	lambda   float64
	shards   []learn.Rows
	test     *learn.Rows // nil: no test accuracy
	dim      int
	lip      float64 // max_i L_i
	opt      []float64
	r        *objective.ElasticNet // nil unless composite
	seedUsed uint64                // the seed Build drew from, for Pinned
	userData *data.UserData        // the user's data with its files' sha256, for Pinned (nil: none)
	// rowBound is max ‖a_ij‖ when some feature lies outside [0, 1] (a
	// user's data), where √d bounds no row; 0 otherwise.
	rowBound float64
	// signs holds each shard's labels as ±1 in view order, so that the
	// full gradient reads one byte a row instead of the set's label
	// through the view's index (a tenth of a DP-RECAL iteration on
	// ijcnn1's 22 features); nil in models assembled without New.
	signs [][]int8
	// packed holds each shard's rows in the full-pass kernels' layouts
	// (learn.Pack; nil entries where they would not be read): the full
	// gradient of a dense float32 shard then reads contiguous memory,
	// twice as fast on ijcnn1, for about twice the shard's features.
	packed []*learn.Packed
}

// Composite is a Model with DP-RECAL's regulariser r: it implements
// objective.Composite (Value and Grad stay the smooth f_i).
type Composite struct{ *Model }

// Config is what New needs besides the data.
type Config struct {
	// Loss is Logistic or Squares.
	Loss string
	// L2 is λ ≥ 0, the ℓ2 weight inside every f_i.
	L2 float64
	// Reg, when set, makes the problem composite with r = Reg.
	Reg *objective.ElasticNet
}

// Solver tolerances: x* is accepted at a KKT residual (‖∇F‖, or the
// prox-gradient fixed-point residual) of tol, below the contract's 1e-10.
const tol = 1e-11

// newtonMaxDim is the largest dimension solved by Newton's method (a
// d×d Hessian over every row: rows·d² work per step); above it L-BFGS.
const newtonMaxDim = 300

// New builds the model on shards (one view per agent, binary labels)
// with test rows for the test accuracy (nil: none), computes every L_i
// and solves for x*. It returns an Objective value wrapped as
// objective.Problem: a *Composite when cfg.Reg is set, else a *Model.
func New(shards []learn.Rows, test *learn.Rows, cfg Config) (objective.Problem, []check.Warning, error) {
	if len(shards) == 0 {
		return nil, nil, check.Errorf(fieldDataset, "has no rows for any agent")
	}
	set := shards[0].Set
	if len(set.Classes) != 2 {
		return nil, nil, check.Errorf(fieldDataset, "%q has %d classes; binary models need 2 (the softmax problem takes more)", set.Name, len(set.Classes))
	}
	if cfg.Loss != Logistic && cfg.Loss != Squares {
		return nil, nil, check.Errorf(fieldLoss, "must be %q or %q (got %q)", Logistic, Squares, cfg.Loss)
	}
	mu := cfg.L2
	if cfg.Reg != nil {
		mu += cfg.Reg.L2
	}
	if !(mu > 0) {
		if cfg.Reg != nil {
			// Either weight would do: name the regulariser's, which the
			// composite problem (DP-RECAL's) sets, and give both values.
			return nil, nil, check.Errorf("problem.params.r_l2", "or l2 must be > 0 so that the objective is strongly convex and has one minimiser x* (got r_l2 = %v and l2 = %v)", cfg.Reg.L2, cfg.L2)
		}
		return nil, nil, check.Errorf(fieldL2, "must be > 0 so that the objective is strongly convex and has one minimiser x* (got %v)", cfg.L2)
	}
	m := &Model{loss: cfg.Loss, lambda: cfg.L2, shards: shards, test: test, dim: set.Cols, r: cfg.Reg}
	m.setSigns()
	for _, s := range shards {
		if s.Set.OutsideUnit {
			m.rowBound = math.Max(m.rowBound, s.MaxNorm())
		}
	}
	m.packed = make([]*learn.Packed, len(shards))
	for i, s := range shards {
		m.packed[i] = learn.Pack(s)
	}
	c := 1.0
	if cfg.Loss == Logistic {
		c = 0.25 // ℓ'' ≤ ¼
	}
	for _, s := range shards {
		if s.Len() == 0 {
			return nil, nil, check.Errorf(fieldDataset, "an agent received no rows")
		}
		m.lip = math.Max(m.lip, float64(c*s.GramMax())+cfg.L2)
	}
	var warns []check.Warning
	opt, err := m.solve()
	if err != nil {
		return nil, nil, check.Errorf("problem.params", "%v", err)
	}
	m.opt = opt
	if learn.Norm(opt) == 0 {
		warns = append(warns, check.Warnf(fieldRegularizer, "x* = 0 on this data: the relative error ‖x̄ − x*‖/‖x⁰ − x*‖ from x⁰ = 0 is undefined, and the soft threshold alone can make a noisy method look exact (spec §6.8)"))
	}
	if cfg.Reg != nil {
		return &Composite{m}, warns, nil
	}
	return m, warns, nil
}

// Kind implements objective.Problem.
func (m *Model) Kind() string { return "logistic" }

// Agents implements objective.Problem.
func (m *Model) Agents() int { return len(m.shards) }

// Dim implements objective.Problem.
func (m *Model) Dim() int { return m.dim }

// Loss returns the loss's name (Logistic or Squares).
func (m *Model) Loss() string { return m.loss }

// Shard returns agent i's rows (read-only).
func (m *Model) Shard(i int) learn.Rows { return m.shards[i] }

// setSigns fills m.signs from the shards' labels.
func (m *Model) setSigns() {
	m.signs = make([][]int8, len(m.shards))
	for i, s := range m.shards {
		m.signs[i] = make([]int8, s.Len())
		for k := range m.signs[i] {
			m.signs[i][k] = int8(label(s, k))
		}
	}
}

// label maps class 1 to +1 and class 0 to −1.
func label(r learn.Rows, k int) float64 {
	if r.Label(k) == 1 {
		return 1
	}
	return -1
}

// softplus returns log(1 + e^t) without overflow.
func softplus(t float64) float64 {
	if t > 0 {
		return t + num.Log1p(num.Exp(-t))
	}
	return num.Log1p(num.Exp(t))
}

// sigmoid returns 1/(1 + e^(−t)) without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + num.Exp(-t))
	}
	e := num.Exp(t)
	return e / (1 + e)
}

// lossAt returns ℓ and dℓ/d(aᵀx) for a row with score z = aᵀx, label b.
func (m *Model) lossAt(z, b float64) (v, dz float64) {
	if m.loss == Squares {
		e := z - b
		return e * e / 2, e
	}
	// log(1 + e^(−bz)); derivative −b·σ(−bz).
	return softplus(-b * z), -b * sigmoid(-b*z)
}

// slope returns dℓ/d(aᵀx) alone, for gradients: no exp or log beyond
// the sigmoid's one exp.
func (m *Model) slope(z, b float64) float64 {
	if m.loss == Squares {
		return z - b
	}
	return -b * sigmoid(-b*z)
}

// Value implements objective.Problem: f_i(x).
func (m *Model) Value(i int, x []float64) float64 {
	r := m.shards[i]
	var p *learn.Packed
	if m.packed != nil {
		p = m.packed[i]
	}
	s := 0.0
	var z [evalBlock]float64
	for lo := 0; lo < r.Len(); lo += len(z) {
		blk := z[:min(len(z), r.Len()-lo)]
		dotsOf(r, p, lo, x, blk)
		for t, zt := range blk {
			v, _ := m.lossAt(zt, label(r, lo+t))
			s += v
		}
	}
	return s/float64(r.Len()) + float64(m.lambda/2*learn.Dot(x, x))
}

// evalBlock is the rows of one block of Value's and Accuracy's dot
// products.
const evalBlock = 256

// dotsOf writes the dot products of r's rows lo, … with x into out, from
// p (r packed) where there is one: Dot's bits either way, a block at a
// time through the full passes' kernels. (Row by row, each Dot's lookup
// of the set's sparse form and its short loop made a run's evaluation
// under js/wasm about 3 % of DP-RECAL's benchmark on ijcnn1 by node's
// profile: its last evaluation, over the shards and the test set.)
func dotsOf(r learn.Rows, p *learn.Packed, lo int, x, out []float64) {
	if p != nil {
		p.Dots(lo, x, out)
	} else {
		r.Dots(lo, x, out)
	}
}

// Grad implements objective.Problem: ∇f_i(x) = (1/m_i)·Σ_j ℓ'·a_ij + λx.
func (m *Model) Grad(i int, x, out []float64) {
	var signs []int8
	if m.signs != nil {
		signs = m.signs[i]
	}
	var p *learn.Packed
	if m.packed != nil {
		p = m.packed[i]
	}
	m.gradRows(m.shards[i], p, signs, nil, x, out)
}

// gradRows writes the gradient of the average loss over the view rows
// idx of r (all of them when idx is nil), plus λx, into out. signs, when
// not nil, holds r's labels as ±1 (Model.signs); p, when not nil, is r
// packed (Model.packed), which the full pass reads instead (the same
// bits).
func (m *Model) gradRows(r learn.Rows, p *learn.Packed, signs []int8, idx []int, x, out []float64) {
	for c := range out {
		out[c] = 0
	}
	cnt := r.Len()
	if idx != nil {
		cnt = len(idx)
		for _, k := range idx {
			r.Axpy(k, m.slope(r.Dot(k, x), label(r, k)), out)
		}
	} else if p != nil && m.loss == Squares && signs != nil {
		// The same bits in one pass where a kernel fuses the two
		// (ijcnn1's shard gradient on amd64).
		p.SquaresGrad(x, signs, out)
	} else if m.loss == Squares && signs != nil {
		// The blocked passes below with one scan for −0 instead of one
		// a block (MNIST 0 vs 1's sparse rows).
		r.SquaresGrad(x, signs, out)
	} else {
		// Scores a block of rows at a time (Dots overlaps their sums),
		// then adds the rows' terms (Axpys, in row order for every
		// entry): the same bits as one row after another, whatever the
		// block. 64 rows (the logistic slopes' SIMD kernel takes at
		// most that many); 256 for the squared loss, where a block's two
		// calls cost as much as a tenth of the kernels' work at 64
		// (ijcnn1's shard gradient 34 → 31 µs).
		var z, e [256]float64
		bs := 64
		if m.loss == Squares {
			bs = len(z)
		}
		for lo := 0; lo < cnt; lo += bs {
			blk := z[:min(bs, cnt-lo)]
			dotsOf(r, p, lo, x, blk)
			if m.loss == Squares {
				for t, v := range blk {
					blk[t] = m.slope(v, label(r, lo+t))
				}
			} else {
				m.slopes(r, lo, blk, e[:len(blk)])
			}
			if p != nil {
				p.Axpys(lo, blk, out)
			} else {
				r.Axpys(lo, blk, out)
			}
		}
	}
	inv := 1 / float64(cnt)
	for c, v := range x {
		out[c] = float64(out[c]*inv) + float64(m.lambda*v)
	}
}

// valueGrad returns f_i(x) and writes ∇f_i(x) into out in one pass over
// the shard, for the central solver.
func (m *Model) valueGrad(i int, x, out []float64) float64 {
	r := m.shards[i]
	clear(out)
	s := 0.0
	for k := range r.Len() {
		v, dz := m.lossAt(r.Dot(k, x), label(r, k))
		s += v
		r.Axpy(k, dz, out)
	}
	inv := 1 / float64(r.Len())
	for c, v := range x {
		out[c] = float64(out[c]*inv) + float64(m.lambda*v)
	}
	return float64(s*inv) + float64(m.lambda/2*learn.Dot(x, x))
}

// GradAll implements objective.Batch: ∇f_i(x_i) for every agent, one
// call for the whole network.
func (m *Model) GradAll(x, out []float64) {
	d := m.dim
	for i := range m.shards {
		m.Grad(i, x[i*d:(i+1)*d], out[i*d:(i+1)*d])
	}
}

// Samples implements objective.Stochastic: m_i.
func (m *Model) Samples(i int) int { return m.shards[i].Len() }

// GradBatch implements objective.Stochastic: the gradient of
// (1/|idx|)·Σ_{j∈idx} ℓ(b_ij·a_ijᵀx) + (λ/2)‖x‖² (each sample's loss
// carries the ℓ2 term, as LDP online's per-batch loss does).
func (m *Model) GradBatch(i int, x []float64, idx []int, out []float64) {
	m.gradRows(m.shards[i], nil, nil, idx, x, out)
}

// Objective implements objective.Problem: (1/n)·Σ_i f_i(x); on a
// Composite, Σ_i f_i(x) + n·r(x).
func (m *Model) Objective(x []float64) float64 {
	s := 0.0
	for i := range m.shards {
		s += m.Value(i, x)
	}
	n := float64(len(m.shards))
	if m.r != nil {
		return s + float64(n*m.r.Value(x))
	}
	return s / n
}

// Optimum implements objective.Problem: x*, computed once by New.
func (m *Model) Optimum() []float64 { return append([]float64(nil), m.opt...) }

// Smoothness implements objective.Smooth for the f_i: μ = λ and L =
// max_i L_i with L_i = c·λ_max(A_iᵀA_i)/m_i + λ, c = ¼ (logistic) or 1
// (squares).
func (m *Model) Smoothness() (mu, l float64) { return m.lambda, m.lip }

// SmoothnessSource implements objective.SmoothSource.
func (m *Model) SmoothnessSource() string {
	c := "1"
	if m.loss == Logistic {
		c = "1/4"
	}
	return "μ = λ; L = max_i (" + c + ")·λ_max(A_iᵀA_i)/m_i + λ, λ_max by power iteration on each agent's shard"
}

// GradientBound implements objective.Lipschitz. With features in [0, 1]^d
// the logistic loss has ‖∇ℓ‖ = σ(·)·‖a‖ ≤ √d for every row of every
// dataset; an ℓ2 term (λ > 0) or the squared loss grow without bound, so
// then there is no bound everywhere.
func (m *Model) GradientBound() (objective.Bound, bool) {
	if m.loss != Logistic || m.lambda != 0 {
		return objective.Bound{}, false
	}
	if m.rowBound > 0 {
		return objective.Bound{Value: m.rowBound, Everywhere: true,
			Source: "max ‖a_ij‖ over the training rows: ‖∇ℓ(x; a, b)‖ ≤ ‖a‖ for the logistic loss (features outside [0, 1])"}, true
	}
	return objective.Bound{Value: math.Sqrt(float64(m.dim)), Everywhere: true,
		Source: "√d: ‖∇ℓ(x; a, b)‖ ≤ ‖a‖ ≤ √d for the logistic loss, features in [0, 1]^d"}, true
}

// MetricNames implements objective.Measured.
func (m *Model) MetricNames() []string { return []string{"relative_error"} }

// Measure implements objective.Measured: the relative error
// ‖x̄ − x*‖/‖x⁰ − x*‖ of the agents' mean x̄ (or the shared estimate, one
// row) from x⁰ = 0, the start of every method here unless a scenario
// pins init (DP-RECAL's metric, spec §6.6); NaN when x* = 0 or there are
// no estimates.
func (m *Model) Measure(estimates []float64, dim int, out []float64) {
	out[0] = learn.RelativeError(estimates, dim, m.opt)
}

// EvaluatedNames implements metrics.Evaluated: the test accuracy, when
// the problem has a test split.
func (m *Model) EvaluatedNames() []string {
	if m.test == nil {
		return nil
	}
	return []string{"test_accuracy"}
}

// Evaluate implements metrics.Evaluated: the fraction of test rows with
// sign(aᵀx) = b at the agents' mean estimate (or the shared Output).
func (m *Model) Evaluate(s *sim.Step, out []float64) {
	if m.test == nil {
		return
	}
	out[0] = m.Accuracy(*m.test, learn.Point(s.Output, s.Estimates, m.dim))
}

// Accuracy returns the fraction of rows r classified right by x: class 1
// when aᵀx > 0, else class 0.
func (m *Model) Accuracy(r learn.Rows, x []float64) float64 {
	ok := 0
	var z [evalBlock]float64
	for lo := 0; lo < r.Len(); lo += len(z) {
		blk := z[:min(len(z), r.Len()-lo)]
		r.Dots(lo, x, blk)
		for t, zt := range blk {
			if (zt > 0) == (r.Label(lo+t) == 1) {
				ok++
			}
		}
	}
	return float64(ok) / float64(r.Len())
}

// Regularizer implements objective.Composite: r(x).
func (c *Composite) Regularizer(x []float64) float64 { return c.r.Value(x) }

// Prox implements objective.Composite: the elastic net's prox.
func (c *Composite) Prox(x []float64, step float64, out []float64) { c.r.Prox(x, step, out) }

// Set returns the dataset the shards view.
func (m *Model) Set() *data.Set { return m.shards[0].Set }

var (
	_ objective.Stochastic   = (*Model)(nil)
	_ objective.Batch        = (*Model)(nil)
	_ objective.SmoothSource = (*Model)(nil)
	_ objective.Lipschitz    = (*Model)(nil)
	_ objective.Measured     = (*Model)(nil)
	_ metrics.Evaluated      = (*Model)(nil)
	_ objective.Composite    = (*Composite)(nil)
	_ objective.Stochastic   = (*Composite)(nil)
)
