// Package softmax holds multinomial softmax regression over K classes on
// a dataset — LDP online's MNIST experiment with its CNN replaced by a
// linear model and labelled as such (spec §7.5 B, [PROPOSAL]) — and its
// factory. Agent i holds a shard of m_i rows (a_ij, y_ij) and
//
//	f_i(W) = (1/m_i)·Σ_j [log Σ_c exp(w_cᵀa_ij) − w_{y_ij}ᵀa_ij] + (λ/2)‖W‖²,
//
// with x = (w_0, …, w_{K−1}) class-major; the network minimises
// (1/n)·Σ_i f_i.
package softmax

import (
	"dpsim/core/data"
	"math"
	"runtime"

	"dpsim/core/num"

	"dpsim/core/check"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/sim"
)

// Model is the problem. It is read-only after New and safe for
// concurrent use.
type Model struct {
	shards   []learn.Rows
	test     *learn.Rows
	k, d     int // classes, features
	lambda   float64
	lip      float64
	opt      []float64
	seedUsed uint64
	userData *data.UserData // the user's data with its files' sha256, for Pinned (nil: none)
}

// tol is the KKT residual ‖∇F(x*)‖ the central solver reaches.
const tol = 1e-11

// New builds the model on shards with λ > 0 (without it the loss is
// unchanged by adding one vector to every w_c, and x* is not unique),
// computes every L_i and solves for x* by Newton-CG (solve.go).
func New(shards []learn.Rows, test *learn.Rows, lambda float64) (*Model, error) {
	if len(shards) == 0 {
		return nil, check.Errorf(fieldDataset, "has no rows for any agent")
	}
	set := shards[0].Set
	if len(set.Classes) < 2 {
		return nil, check.Errorf(fieldDataset, "%q has %d classes; softmax needs at least 2", set.Name, len(set.Classes))
	}
	if !(lambda > 0) {
		return nil, check.Errorf("problem.params.l2", "must be > 0: without it softmax regression has no unique minimiser x* (got %v)", lambda)
	}
	m := &Model{shards: shards, test: test, k: len(set.Classes), d: set.Cols, lambda: lambda}
	for _, s := range shards {
		// The per-sample Hessian (diag(p) − ppᵀ) ⊗ aaᵀ has norm ≤ ½‖a‖².
		m.lip = math.Max(m.lip, float64(s.GramMax()/2)+lambda)
	}
	if m.d > math.MaxUint16 {
		// The solver's sparse rows index features with 16 bits.
		return nil, check.Errorf(fieldDataset, "%q has %d features; softmax takes at most %d", set.Name, m.d, math.MaxUint16)
	}
	x, _, err := newSolver(m).solve(tol)
	if err != nil {
		return nil, check.Errorf("problem.params", "%v", err)
	}
	m.opt = x
	return m, nil
}

// Kind implements objective.Problem.
func (m *Model) Kind() string { return "softmax" }

// Agents implements objective.Problem.
func (m *Model) Agents() int { return len(m.shards) }

// Dim implements objective.Problem: K·d.
func (m *Model) Dim() int { return m.k * m.d }

// Classes returns K.
func (m *Model) Classes() int { return m.k }

// scores writes w_cᵀa for row r of view v into z (len K) and returns
// log Σ_c exp(z_c), computed without overflow.
func (m *Model) scores(v learn.Rows, r int, x, z []float64) float64 {
	top := math.Inf(-1)
	for c := range z {
		z[c] = v.Dot(r, x[c*m.d:(c+1)*m.d])
		top = math.Max(top, z[c])
	}
	s := 0.0
	for _, zc := range z {
		s += num.Exp(zc - top)
	}
	return top + num.Log(s)
}

// Value implements objective.Problem: f_i(x).
func (m *Model) Value(i int, x []float64) float64 {
	v := m.shards[i]
	z := make([]float64, m.k)
	s := 0.0
	for r := range v.Len() {
		lse := m.scores(v, r, x, z)
		s += lse - z[v.Label(r)]
	}
	return s/float64(v.Len()) + float64(m.lambda/2*learn.Dot(x, x))
}

// Grad implements objective.Problem: ∇_{w_c} f_i = (1/m_i)·Σ_j (p_c −
// [y_ij = c])·a_ij + λw_c, p = softmax(Wa_ij).
func (m *Model) Grad(i int, x, out []float64) { m.grad(m.shards[i], nil, x, out) }

// GradBatch implements objective.Stochastic: the gradient of the average
// loss over the batch, each sample carrying the ℓ2 term.
func (m *Model) GradBatch(i int, x []float64, idx []int, out []float64) {
	m.grad(m.shards[i], idx, x, out)
}

func (m *Model) grad(v learn.Rows, idx []int, x, out []float64) {
	m.valueGrad(v, idx, x, out)
}

// valueGrad writes the gradient of the average loss over the rows idx of
// v (all of them when idx is nil), plus λx, into out, and returns that
// average loss plus (λ/2)‖x‖²: one pass for both, for the solver.
func (m *Model) valueGrad(v learn.Rows, idx []int, x, out []float64) float64 {
	clear(out)
	z := make([]float64, m.k)
	val := 0.0
	cnt := v.Len()
	if idx != nil {
		cnt = len(idx)
		for _, r := range idx {
			lse := m.scores(v, r, x, z)
			y := v.Label(r)
			val += lse - z[y]
			for c, zc := range z {
				p := num.Exp(zc - lse)
				if c == y {
					p--
				}
				v.Axpy(r, p, out[c*m.d:(c+1)*m.d])
			}
		}
	} else {
		val = m.blocks(v, x, func(lo int, b int, _, coef []float64) {
			for c := range m.k {
				v.Axpys(lo, coef[c*block:c*block+b], out[c*m.d:(c+1)*m.d])
			}
		})
	}
	inv := 1 / float64(cnt)
	for c, xc := range x {
		out[c] = float64(out[c]*inv) + float64(m.lambda*xc)
	}
	return float64(val*inv) + float64(m.lambda/2*learn.Dot(x, x))
}

// block is the number of rows the full passes handle together: their
// scores are computed class by class four rows at a time (learn.Rows.Dots)
// and their gradient terms added class by class (Axpys), with the same
// bits as row after row, each entry's sum running in row order.
const block = 64

// blocks runs over the rows of v in blocks of at most block rows: for
// each it computes the scores z (class-major: z[c·block + t] for row
// lo+t) and coef[c·block + t] = p_c − [y = c], p = softmax(z) (with the
// bits of scores and the row-by-row gradient), and calls use(lo, b, p, coef)
// with p[c·block + t] = p_c. It returns the sum of the rows' losses.
func (m *Model) blocks(v learn.Rows, x []float64, use func(lo, b int, p, coef []float64)) float64 {
	z := make([]float64, block*m.k)
	p := make([]float64, block*m.k)
	coef := make([]float64, block*m.k)
	val := 0.0
	n := v.Len()
	for lo := 0; lo < n; lo += block {
		b := min(block, n-lo)
		for c := range m.k {
			v.Dots(lo, x[c*m.d:(c+1)*m.d], z[c*block:c*block+b])
		}
		for t := range b {
			top := math.Inf(-1)
			for c := range m.k {
				top = math.Max(top, z[c*block+t])
			}
			s := 0.0
			for c := range m.k {
				s += num.Exp(z[c*block+t] - top)
			}
			lse := top + num.Log(s)
			y := v.Label(lo + t)
			val += lse - z[y*block+t]
			for c := range m.k {
				pc := num.Exp(z[c*block+t] - lse)
				p[c*block+t] = pc
				if c == y {
					pc--
				}
				coef[c*block+t] = pc
			}
		}
		use(lo, b, p, coef)
	}
	return val
}

// GradAll implements objective.Batch.
func (m *Model) GradAll(x, out []float64) {
	dim := m.Dim()
	for i := range m.shards {
		m.Grad(i, x[i*dim:(i+1)*dim], out[i*dim:(i+1)*dim])
	}
}

// Samples implements objective.Stochastic: m_i.
func (m *Model) Samples(i int) int { return m.shards[i].Len() }

// Objective implements objective.Problem: (1/n)·Σ_i f_i(x).
func (m *Model) Objective(x []float64) float64 {
	s := 0.0
	for i := range m.shards {
		s += m.Value(i, x)
	}
	return s / float64(len(m.shards))
}

// central returns F = (1/n)·Σ_i f_i with its gradient, for the solver:
// the shards' passes run in parallel (natively), each into its own
// buffer, and are summed in shard order, so the bits do not depend on
// the scheduling or the number of threads.
func (m *Model) central() learn.Func {
	n := float64(len(m.shards))
	gs := make([][]float64, len(m.shards))
	vs := make([]float64, len(m.shards))
	return func(x, g []float64) float64 {
		m.perShard(func(i int) {
			if gs[i] == nil {
				gs[i] = make([]float64, len(x))
			}
			vs[i] = m.valueGrad(m.shards[i], nil, x, gs[i])
		})
		clear(g)
		s := 0.0
		for i, gi := range gs {
			s += vs[i]
			for c, v := range gi {
				g[c] += v / n
			}
		}
		return s / n
	}
}

// perShard calls f(i) for every shard, on up to GOMAXPROCS goroutines.
func (m *Model) perShard(f func(i int)) {
	pool.New(runtime.GOMAXPROCS(0)).Each(len(m.shards), f)
}

// KKT returns ‖∇F(x)‖, F = (1/n)·Σ_i f_i.
func (m *Model) KKT(x []float64) float64 {
	g := make([]float64, len(x))
	m.central()(x, g)
	return math.Sqrt(learn.Dot(g, g))
}

// Optimum implements objective.Problem: x*, computed once by New.
func (m *Model) Optimum() []float64 { return append([]float64(nil), m.opt...) }

// Smoothness implements objective.Smooth: μ = λ, L = max_i
// λ_max(A_iᵀA_i)/(2m_i) + λ.
func (m *Model) Smoothness() (mu, l float64) { return m.lambda, m.lip }

// SmoothnessSource implements objective.SmoothSource.
func (m *Model) SmoothnessSource() string {
	return "μ = λ; L = max_i λ_max(A_iᵀA_i)/(2m_i) + λ (‖diag(p) − ppᵀ‖ ≤ ½), λ_max by power iteration on each agent's shard"
}

// MetricNames implements objective.Measured.
func (m *Model) MetricNames() []string { return []string{"relative_error"} }

// Measure implements objective.Measured: ‖x̄ − x*‖/‖x⁰ − x*‖ from x⁰ = 0,
// x̄ the agents' mean or the shared estimate (one row).
func (m *Model) Measure(estimates []float64, dim int, out []float64) {
	out[0] = learn.RelativeError(estimates, dim, m.opt)
}

// EvaluatedNames implements metrics.Evaluated.
func (m *Model) EvaluatedNames() []string {
	if m.test == nil {
		return nil
	}
	return []string{"test_accuracy"}
}

// Evaluate implements metrics.Evaluated: the test accuracy at the
// agents' mean estimate (or the shared Output).
func (m *Model) Evaluate(s *sim.Step, out []float64) {
	if m.test == nil {
		return
	}
	out[0] = m.Accuracy(*m.test, learn.Point(s.Output, s.Estimates, m.Dim()))
}

// Accuracy returns the fraction of rows whose highest score is their
// class.
func (m *Model) Accuracy(v learn.Rows, x []float64) float64 {
	z := make([]float64, m.k)
	ok := 0
	for r := range v.Len() {
		m.scores(v, r, x, z)
		best := 0
		for c := range z {
			if z[c] > z[best] {
				best = c
			}
		}
		if best == v.Label(r) {
			ok++
		}
	}
	return float64(ok) / float64(v.Len())
}

var (
	_ objective.Stochastic   = (*Model)(nil)
	_ objective.Batch        = (*Model)(nil)
	_ objective.SmoothSource = (*Model)(nil)
	_ objective.Measured     = (*Model)(nil)
	_ metrics.Evaluated      = (*Model)(nil)
)
