package objective_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"dpsim/core/objective"
)

// lasso is a toy composite problem: agent i holds one sample (a_i, b_i),
// f_i(x) = ½(a_iᵀx − b_i)², r(x) = λ1‖x‖₁ + (λ2/2)‖x‖², and the network
// minimises (1/n)·Σ_i f_i(x) + r(x).
type lasso struct {
	a   [][]float64
	b   []float64
	reg objective.ElasticNet
}

func (p *lasso) Kind() string { return "toy-lasso" }
func (p *lasso) Agents() int  { return len(p.b) }
func (p *lasso) Dim() int     { return len(p.a[0]) }
func (p *lasso) residual(i int, x []float64) float64 {
	s := -p.b[i]
	for j, v := range x {
		s += float64(p.a[i][j] * v)
	}
	return s
}
func (p *lasso) Value(i int, x []float64) float64 { e := p.residual(i, x); return e * e / 2 }
func (p *lasso) Grad(i int, x, out []float64) {
	e := p.residual(i, x)
	for j := range x {
		out[j] = e * p.a[i][j]
	}
}
func (p *lasso) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.b {
		s += p.Value(i, x)
	}
	return s/float64(len(p.b)) + p.Regularizer(x)
}
func (p *lasso) Optimum() []float64                            { return nil }
func (p *lasso) Regularizer(x []float64) float64               { return p.reg.Value(x) }
func (p *lasso) Prox(x []float64, step float64, out []float64) { p.reg.Prox(x, step, out) }

var _ objective.Composite = (*lasso)(nil)

// TestElasticNetProxTable: the prox against values worked by hand,
// (|x| − step·λ1)₊·sign(x)/(1 + step·λ2).
func TestElasticNetProxTable(t *testing.T) {
	const tol = 1e-15
	for _, c := range []struct {
		l1, l2, step, x, want float64
	}{
		{0.5, 1, 1, 3, 1.25},      // (3 − 0.5)/2
		{0.5, 1, 1, -3, -1.25},    // odd
		{0.5, 1, 1, 0.4, 0},       // inside the threshold
		{0.5, 1, 1, 0.5, 0},       // on it
		{0.5, 1, 2, 2, 1.0 / 3},   // (2 − 1)/3
		{0.5, 1, 0.5, -1, -0.5},   // (−1 + 0.25)/1.5
		{0, 2, 0.5, 3, 1.5},       // ridge only: 3/(1 + 1)
		{1, 0, 1, -2.5, -1.5},     // ℓ1 only: soft threshold
		{0.5, 1, 4, 10, 8.0 / 5},  // DP-RECAL's prox_{n·r} with n = 4: (10 − 2)/5
		{0, 0, 7, -0.123, -0.123}, // r = 0: the identity
	} {
		r := objective.ElasticNet{L1: c.l1, L2: c.l2}
		out := []float64{math.NaN()}
		r.Prox([]float64{c.x}, c.step, out)
		if math.Abs(out[0]-c.want) > tol {
			t.Errorf("λ1 = %g, λ2 = %g, step %g: prox(%g) = %.17g, want %.17g", c.l1, c.l2, c.step, c.x, out[0], c.want)
		}
	}
	if v := (objective.ElasticNet{L1: 0.5, L2: 1}).Value([]float64{3, -4}); math.Abs(v-(3.5+12.5)) > 1e-15 {
		t.Errorf("r(3, −4) = %g, want 0.5·7 + 0.5·25 = 16", v)
	}
}

// TestElasticNetProxOptimality: on random inputs the prox satisfies its
// optimality condition 0 ∈ λ1·∂‖u‖₁ + λ2·u + (u − x)/step coordinate by
// coordinate, may be computed in place, and beats nearby points.
func TestElasticNetProxOptimality(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		reg := objective.ElasticNet{L1: 2 * r.Float64(), L2: 2 * r.Float64()}
		step := math.Exp(float64(4*r.Float64()) - 2)
		x := make([]float64, 6)
		for j := range x {
			x[j] = 6 * (r.Float64() - 0.5)
		}
		u := make([]float64, len(x))
		reg.Prox(x, step, u)
		for j, uj := range u {
			tol := float64(1e-12 * (1 + math.Abs(x[j])/step))
			if uj == 0 {
				if math.Abs(x[j])/step > reg.L1+tol {
					t.Fatalf("trial %d, coordinate %d: u = 0 but |x|/step = %g > λ1 = %g", trial, j, math.Abs(x[j])/step, reg.L1)
				}
				continue
			}
			if g := float64(reg.L1*math.Copysign(1, uj)) + float64(reg.L2*uj) + (uj-x[j])/step; math.Abs(g) > tol {
				t.Fatalf("trial %d, coordinate %d: the optimality residual is %g", trial, j, g)
			}
		}
		moreau := func(v []float64) float64 {
			d := 0.0
			for j := range v {
				d += float64((v[j] - x[j]) * (v[j] - x[j]))
			}
			return reg.Value(v) + d/(2*step)
		}
		best := moreau(u)
		for j := range u {
			for _, h := range []float64{-1e-3, 1e-3} {
				v := append([]float64(nil), u...)
				v[j] += h
				if moreau(v) < best-1e-15 {
					t.Fatalf("trial %d: moving coordinate %d by %g lowers r(u) + ‖u − x‖²/(2·step)", trial, j, h)
				}
			}
		}
		in := append([]float64(nil), x...)
		reg.Prox(in, step, in)
		for j := range in {
			if in[j] != u[j] {
				t.Fatalf("trial %d: the prox in place differs at %d: %g, want %g", trial, j, in[j], u[j])
			}
		}
	}
}

// TestCompositeProxGradient: proximal gradient with step 1/L on the toy
// composite problem decreases the composite Objective at every step and
// ends at a point that satisfies the optimality condition
// 0 ∈ ∇((1/n)Σf_i)(x) + ∂r(x).
func TestCompositeProxGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, d = 8, 5
	p := &lasso{reg: objective.ElasticNet{L1: 0.3, L2: 0.1}}
	lip := 0.0
	for range n {
		a := make([]float64, d)
		s := 0.0
		for j := range a {
			a[j] = r.NormFloat64()
			s += float64(a[j] * a[j])
		}
		p.a, p.b = append(p.a, a), append(p.b, 3*r.NormFloat64())
		lip = math.Max(lip, s)
	}
	step := 1 / lip
	x := []float64{4, -4, 4, -4, 4}
	g, gi := make([]float64, d), make([]float64, d)
	grad := func(x []float64) {
		clear(g)
		for i := range n {
			p.Grad(i, x, gi)
			for j := range g {
				g[j] += float64(gi[j] / n)
			}
		}
	}
	prev := p.Objective(x)
	for k := range 3000 {
		grad(x)
		for j := range x {
			x[j] -= float64(step * g[j])
		}
		p.Prox(x, step, x)
		f := p.Objective(x)
		if f > prev+float64(1e-12*math.Abs(prev)) {
			t.Fatalf("step %d: the composite objective rose from %.17g to %.17g", k, prev, f)
		}
		prev = f
	}
	grad(x)
	const tol = 1e-9
	zeros := 0
	for j, v := range x {
		if v == 0 {
			zeros++
			if math.Abs(g[j]) > p.reg.L1+tol {
				t.Errorf("x_%d = 0 but |∂_j f| = %g > λ1 = %g", j, math.Abs(g[j]), p.reg.L1)
			}
			continue
		}
		if res := g[j] + float64(p.reg.L1*math.Copysign(1, v)) + float64(p.reg.L2*v); math.Abs(res) > tol {
			t.Errorf("coordinate %d: stationarity residual %g", j, res)
		}
	}
	if p.Regularizer(x) <= 0 || zeros == d {
		t.Errorf("the toy's solution is x = 0 (%v): the test would not exercise the smooth part", x)
	}
}
