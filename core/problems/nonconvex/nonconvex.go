// Package nonconvex holds DPP²'s binary classifier with a nonconvex
// regulariser on seeded synthetic data (Ou, Wang, Liu, Lu, Sec. VI; spec
// §3.6) and its factory. Agent i holds m samples (z_is, y_is), y_is ∈
// {−1, +1}, and
//
//	f_i(x) = (1/m)·Σ_s log(1 + exp(−y_is·xᵀz_is)) + Σ_t λω[x]_t²/(1 + ω[x]_t²);
//
// the network minimises f(x) = Σ_i f_i(x) (problem (1)). The regulariser
// is nonconvex, so there is no x* to compute: the metrics are
// stationarity and consensus.
package nonconvex

import (
	"dpsim/core/num"
	"fmt"
	"math"

	"dpsim/core/data"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
)

// Classifier is the problem. It is read-only after New and safe for
// concurrent use.
type Classifier struct {
	n, d          int
	off           []int // agent i's samples are off[i] … off[i+1]−1
	lambda, omega float64
	z             []float64      // z_is, agent-major then sample-major, d each
	y             []float64      // y_is ∈ {−1, +1}
	mi            []float64      // M_i
	maxNorm       float64        // max ‖z_is‖
	scale         float64        // the feature scale s the data was drawn with (0: given)
	seedUsed      uint64         // the seed Build drew from, for Pinned
	userData      *data.UserData // the user's data with its files' sha256, for Pinned (nil: drawn)
}

// Draw draws the spec's proposal for the paper's unstated data: y ~
// U{±1} independent of z ~ N(0, s²I_d), for n agents with m samples each,
// from the stream "nonconvex/samples" of seed.
func Draw(seed uint64, n, m, d int, s float64) (z, y []float64) {
	r := rng.New(seed, "nonconvex/samples")
	z, y = make([]float64, n*m*d), make([]float64, n*m)
	for k := range y {
		y[k] = 1
		if r.Uint64()&1 == 0 {
			y[k] = -1
		}
		for t := range d {
			z[k*d+t] = s * rng.NormFloat64(r)
		}
	}
	return z, y
}

// New returns the problem for n agents with m samples each in R^d
// (z agent-major, n·m·d values; y n·m labels ±1), λ and ω ≥ 0. scale is
// the s the data was drawn with, for SmoothnessSource (0: not drawn).
func New(n, m, d int, z, y []float64, lambda, omega, scale float64) (*Classifier, error) {
	counts := make([]int, n)
	for i := range counts {
		counts[i] = m
	}
	return NewCounts(counts, d, z, y, lambda, omega, scale)
}

// NewCounts is New with counts[i] samples for agent i (a user's data
// dealt to the agents), each at least one.
func NewCounts(counts []int, d int, z, y []float64, lambda, omega, scale float64) (*Classifier, error) {
	n := len(counts)
	off := make([]int, n+1)
	for i, m := range counts {
		if m < 1 {
			return nil, fmt.Errorf("agent %d has no samples", i)
		}
		off[i+1] = off[i] + m
	}
	if len(z) != off[n]*d || len(y) != off[n] {
		return nil, fmt.Errorf("%d features and %d labels for %d samples × %d features", len(z), len(y), off[n], d)
	}
	c := &Classifier{n: n, off: off, d: d, lambda: lambda, omega: omega, z: z, y: y, mi: make([]float64, n), scale: scale}
	for k := range y {
		c.maxNorm = math.Max(c.maxNorm, learn.Norm(z[k*d:(k+1)*d]))
	}
	for i := range n {
		// M_i ≤ λ_max(Z_iᵀZ_i)/(4m_i) + 2λω: the logistic term's Hessian is
		// at most Z_iᵀZ_i/(4m_i), the regulariser's second derivative at
		// most 2λω (at [x]_t = 0).
		m := counts[i]
		c.mi[i] = gramMax(z[off[i]*d:off[i+1]*d], m, d)/(4*float64(m)) + float64(2*lambda*omega)
	}
	return c, nil
}

// span returns where agent i's samples start and how many it holds.
func (c *Classifier) span(i int) (base, m int) { return c.off[i], c.off[i+1] - c.off[i] }

// gramMax returns λ_max(ZᵀZ) for Z (rows×d, row-major) by power
// iteration from a fixed start, to a relative 1e-12 or 10,000 passes.
func gramMax(z []float64, rows, d int) float64 {
	v, w, a := make([]float64, d), make([]float64, d), make([]float64, rows)
	for t := range v {
		v[t] = 1 / math.Sqrt(float64(d)) * (1 + float64(0.1*float64(t))) // not orthogonal to the top eigenvector, almost surely
	}
	lam := 0.0
	for range 10000 {
		// w = Σ_k (z_kᵀv)·z_k, with the blocked kernels of Grad: the bits
		// of one row after another (TestGramMax), at a fraction of the
		// cost (New runs this for every agent, every build).
		clear(w)
		num.Dots(z, v, a)
		axpys(z, a, w)
		nv := learn.Norm(v)
		rq := learn.Dot(v, w) / (nv * nv)
		nw := learn.Norm(w) / nv
		for t := range v {
			v[t] = w[t] / (nw * nv)
		}
		lam = nw
		// ‖ZᵀZv‖/‖v‖ ≥ Rayleigh quotient; they meet at λ_max.
		if nw-rq <= 1e-12*nw {
			break
		}
	}
	return lam
}

// Kind implements objective.Problem.
func (c *Classifier) Kind() string { return "nonconvex-classifier" }

// Agents implements objective.Problem.
func (c *Classifier) Agents() int { return c.n }

// Dim implements objective.Problem.
func (c *Classifier) Dim() int { return c.d }

// Samples implements objective.Stochastic: m.
func (c *Classifier) Samples(i int) int { return c.off[i+1] - c.off[i] }

func (c *Classifier) sample(i, s int) ([]float64, float64) {
	k := c.off[i] + s
	return c.z[k*c.d : (k+1)*c.d], c.y[k]
}

// reg returns Σ_t λω[x]_t²/(1 + ω[x]_t²).
func (c *Classifier) reg(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += c.lambda * c.omega * v * v / (1 + float64(c.omega*v*v))
	}
	return s
}

// Value implements objective.Problem: f_i(x).
// It scores gradBlock samples at a time as Grad does; each sample's
// log(1 + e^t) takes e^(−|t|) from one num.ExpTo call per block, as
// softplus's two branches do, and the sum runs in sample order, so the
// bits are those of one sample after another (TestBlockedValue).
func (c *Classifier) Value(i int, x []float64) float64 {
	d := c.d
	x = x[:d]
	var s, e [gradBlock]float64
	base, m := c.span(i)
	sum := 0.0
	for lo := 0; lo < m; lo += gradBlock {
		nb := min(gradBlock, m-lo)
		z := c.z[(base+lo)*d : (base+lo+nb)*d]
		y := c.y[base+lo : base+lo+nb]
		sb, eb := s[:nb], e[:nb]
		num.Dots(z, x, sb)
		margins(y, sb, eb)
		num.ExpTo(eb, eb)
		for t, v := range sb {
			if v > 0 {
				sum += v + num.Log1p(eb[t])
			} else {
				sum += num.Log1p(eb[t])
			}
		}
	}
	return sum/float64(m) + c.reg(x)
}

// valueOne is Value one sample after another, the reference of
// TestBlockedValue.
func (c *Classifier) valueOne(i int, x []float64) float64 {
	s := 0.0
	m := c.Samples(i)
	for k := range m {
		z, y := c.sample(i, k)
		s += softplus(-y * num.Dot(z, x))
	}
	return s/float64(m) + c.reg(x)
}

// Grad implements objective.Problem: ∇f_i(x) = −(1/m)·Σ_s y_is·z_is·
// σ(−y_is·xᵀz_is) + [2λω[x]_t/(1 + ω[x]_t²)²]_t.
//
// It scores gradBlock samples at a time: their dot products four rows at
// a time (the four sums overlap, each still left to right in its own
// accumulator), the block's exponentials in one num.ExpTo call (under
// js/wasm a call per sample cost as much as the exp), then the samples'
// terms added to every entry in sample order, four samples per pass.
// Every operation and its order are those of one sample after another
// (gradOne), so the bits are too (TestBlockedGrad).
func (c *Classifier) Grad(i int, x, out []float64) {
	d := c.d
	x, out = x[:d], out[:d]
	clear(out)
	base, m := c.span(i)
	for lo := 0; lo < m; {
		// Under js/wasm with the dpsimsimd tag, the SIMD module scores the
		// samples from lo in one call (kernels_simd.go) up to the first
		// group it leaves to Go; elsewhere this adds nothing. The sums of
		// out run in sample order either way, so the bits do not depend
		// on where a block starts.
		lo += gradFused(c.z[(base+lo)*d:(base+m)*d], c.y[base+lo:base+m], x, out)
		if lo == m {
			break
		}
		nb := min(gradBlock, m-lo)
		c.scoreBlock(base+lo, nb, x, out)
		lo += nb
	}
	c.finish(x, m, out)
}

// scoreBlock adds the logistic terms of the nb ≤ gradBlock samples from
// sample k (of all agents') to out. Its scratch is its own, so that a
// gradient the SIMD module scores whole does not clear 4 KiB of stack
// it never reads (under js/wasm that cost ~5 % of a DPP² iteration).
func (c *Classifier) scoreBlock(k, nb int, x, out []float64) {
	var s, e [gradBlock]float64
	d := len(x)
	z := c.z[k*d : (k+nb)*d]
	y := c.y[k : k+nb]
	sb, eb := s[:nb], e[:nb]
	num.Dots(z, x, sb)
	// σ(t) is 1/(1 + e^(−t)) for t ≥ 0 and e^t/(1 + e^t) below,
	// both from e^(−|t|) (sigmoid's two branches).
	margins(y, sb, eb)
	num.ExpTo(eb, eb)
	sigmoids(y, sb, eb)
	axpys(z, sb, out)
}

// oneBits is 1.0's bit pattern, Grad's sigmoid numerator for t ≥ 0.
const oneBits = 0x3ff0000000000000

// gradBlock is how many samples Grad scores per num.ExpTo call: the
// block's scratch (4 KiB) stays on the stack and in the first-level
// cache. The paper's agents (m = 200) are one block: with 64, the four
// blocks' kernel calls cost js/wasm without the SIMD module ~12 % of the
// gradient (BenchmarkGrad 5.4 → 4.6 µs) and natively ~5 %; the bits do
// not depend on it (every sum runs in sample order).
const gradBlock = 256

// GradBatch implements objective.Stochastic: the batch's average
// logistic term plus the whole regulariser's gradient.
func (c *Classifier) GradBatch(i int, x []float64, idx []int, out []float64) {
	clear(out)
	for _, k := range idx {
		c.gradOne(i, k, x, out)
	}
	c.finish(x, len(idx), out)
}

// gradOne adds −y_is·z_is·σ(−y_is·xᵀz_is) of sample s of agent i to out.
func (c *Classifier) gradOne(i, s int, x, out []float64) {
	z, y := c.sample(i, s)
	a := -y * sigmoid(-y*num.Dot(z, x))
	for t, zt := range z {
		out[t] += float64(a * zt)
	}
}

// finish divides the logistic sum in out by the cnt samples it holds and
// adds the regulariser's gradient [2λω[x]_t/(1 + ω[x]_t²)²]_t.
func (c *Classifier) finish(x []float64, cnt int, out []float64) {
	for t, v := range x {
		q := 1 + float64(c.omega*v*v)
		out[t] = out[t]/float64(cnt) + 2*c.lambda*c.omega*v/(q*q)
	}
}

// GradAll implements objective.Batch.
func (c *Classifier) GradAll(x, out []float64) {
	for i := range c.n {
		c.Grad(i, x[i*c.d:(i+1)*c.d], out[i*c.d:(i+1)*c.d])
	}
}

// Objective implements objective.Problem: f(x) = Σ_i f_i(x), problem (1).
func (c *Classifier) Objective(x []float64) float64 {
	s := 0.0
	for i := range c.n {
		s += c.Value(i, x)
	}
	return s
}

// Optimum implements objective.Problem: none, the loss is nonconvex.
func (c *Classifier) Optimum() []float64 { return nil }

// Smoothness implements objective.Smooth: μ = 0 (nonconvex) and L = M̄ =
// max_i M_i.
func (c *Classifier) Smoothness() (mu, l float64) {
	l = 0
	for _, v := range c.mi {
		l = math.Max(l, v)
	}
	return 0, l
}

// SmoothnessSource implements objective.SmoothSource, with M̄ beside the
// paper's 5.03.
func (c *Classifier) SmoothnessSource() string {
	_, l := c.Smoothness()
	s := ""
	if c.scale > 0 {
		s = fmt.Sprintf(", features z ~ N(0, s²I) with s = %g", c.scale)
	}
	return fmt.Sprintf("μ = 0 (nonconvex); M̄ = max_i λ_max(Z_iᵀZ_i)/(4m) + 2λω = %.4g from the data%s (the paper reports 5.03; s ≈ 3.6 reproduces it)", l, s)
}

// GradientBound implements objective.Lipschitz: ‖∇f_i(x)‖ ≤ max_is ‖z_is‖
// + √d·(3√3/8)·λ√ω everywhere, since |2λωv/(1 + ωv²)²| peaks at
// ωv² = 1/3. Gaussian features have no bound over every dataset, so the
// first term is this instance's.
func (c *Classifier) GradientBound() (objective.Bound, bool) {
	b := c.maxNorm + float64(math.Sqrt(float64(c.d))*3*math.Sqrt(3)/8*c.lambda*math.Sqrt(c.omega))
	return objective.Bound{Value: b, Everywhere: true,
		Source: "max_is ‖z_is‖ over this instance's samples (Gaussian features have no bound over all data) + √d·(3√3/8)·λ√ω for the regulariser"}, true
}

// MetricNames implements objective.Measured: DPP²'s Fig. 1–2 metric.
func (c *Classifier) MetricNames() []string { return []string{"w_hat"} }

// Measure implements objective.Measured: Ŵ = Σ_i ‖x_i − x̄‖² +
// (1/N)·‖Σ_i ∇f_i(x_i)‖² at the agents' estimates (spec §3.6), or with
// every x_i the shared estimate when estimates is one row; NaN when
// there are none.
func (c *Classifier) Measure(estimates []float64, dim int, out []float64) {
	shared := len(estimates) == dim
	if len(estimates) != c.n*dim && !shared {
		out[0] = math.NaN()
		return
	}
	row := func(i int) []float64 {
		if shared {
			return estimates
		}
		return estimates[i*dim : (i+1)*dim]
	}
	mean, sum, g := make([]float64, dim), make([]float64, dim), make([]float64, dim)
	for i := range c.n {
		x := row(i)
		c.Grad(i, x, g)
		for t := range dim {
			mean[t] += x[t] / float64(c.n)
			sum[t] += g[t]
		}
	}
	w := learn.Dot(sum, sum) / float64(c.n)
	for i := range c.n {
		x := row(i)
		for t := range dim {
			e := x[t] - mean[t]
			w += float64(e * e)
		}
	}
	out[0] = w
}

// M returns M_i.
func (c *Classifier) M(i int) float64 { return c.mi[i] }

func softplus(t float64) float64 {
	if t > 0 {
		return t + num.Log1p(num.Exp(-t))
	}
	return num.Log1p(num.Exp(t))
}

func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + num.Exp(-t))
	}
	e := num.Exp(t)
	return e / (1 + e)
}

var (
	_ objective.Stochastic   = (*Classifier)(nil)
	_ objective.Batch        = (*Classifier)(nil)
	_ objective.SmoothSource = (*Classifier)(nil)
	_ objective.Lipschitz    = (*Classifier)(nil)
	_ objective.Measured     = (*Classifier)(nil)
)
