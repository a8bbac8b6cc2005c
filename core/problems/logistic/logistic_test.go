package logistic

import (
	"dpsim/core/problems/internal/learn/learntest"
	"math"
	"slices"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

func env(n int, seed uint64) *objective.Env {
	g, err := graph.Ring(n)
	if err != nil {
		panic(err)
	}
	return &objective.Env{Graph: g, Seeds: rng.FromOne(seed)}
}

func params(mod func(*Params)) *Params {
	p := Factory.NewParams().(*Params)
	if mod != nil {
		mod(p)
	}
	return p
}

func mustBuild(t *testing.T, n int, p *Params) objective.Problem {
	t.Helper()
	pr, _, err := Factory.Build(env(n, 3), p)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// variants are the problem kinds the tests walk: both losses, smooth
// and composite, contiguous and shuffled shards.
var variants = []struct {
	name string
	mod  func(*Params)
}{
	{"logistic", nil},
	{"squares", func(p *Params) { p.Loss = Squares }},
	{"logistic-shuffled", func(p *Params) { p.Shards = learn.Shuffled }},
	{"logistic-elastic", func(p *Params) { p.Regularizer = "elastic-net"; p.L2 = 0; p.RL1 = 0.01; p.Features = 6 }},
	{"squares-elastic", func(p *Params) {
		p.Regularizer = "elastic-net"
		p.Loss = Squares
		p.L2 = 0
		p.RL1 = 0.05 // small enough that x* ≠ 0
	}},
}

// TestGradients checks Grad and GradBatch against central differences of
// Value and of the batch's average loss, to 1e-6 relative.
func TestGradients(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			pr := mustBuild(t, 4, params(v.mod))
			m := modelOf(pr)
			d := pr.Dim()
			r := rng.New(9, "x")
			x := make([]float64, d)
			for c := range x {
				x[c] = r.NormFloat64()
			}
			g, fd := make([]float64, d), make([]float64, d)
			for i := range pr.Agents() {
				if v := m.valueGrad(i, x, g); math.Abs(v-pr.Value(i, x)) > 1e-13*math.Abs(v) {
					t.Errorf("agent %d: the solver's value %.17g, Value %.17g", i, v, pr.Value(i, x))
				}
				learntest.Close(t, "the solver's gradient", g, fd0(pr, i, x), 1e-6)
				pr.Grad(i, x, g)
				learntest.FiniteDiff(func(y []float64) float64 { return pr.Value(i, y) }, x, fd)
				learntest.Close(t, "Grad", g, fd, 1e-6)
				idx := []int{0, 3, 3, m.Samples(i) - 1}
				m.GradBatch(i, x, idx, g)
				learntest.FiniteDiff(func(y []float64) float64 {
					s := 0.0
					for _, k := range idx {
						l, _ := m.lossAt(m.shards[i].Dot(k, y), label(m.shards[i], k))
						s += l
					}
					return s/float64(len(idx)) + float64(m.lambda/2*learn.Dot(y, y))
				}, x, fd)
				learntest.Close(t, "GradBatch", g, fd, 1e-6)
			}
			// GradAll agrees with Grad, agent by agent.
			n := pr.Agents()
			xs, all := make([]float64, n*d), make([]float64, n*d)
			for k := range xs {
				xs[k] = r.NormFloat64()
			}
			pr.(objective.Batch).GradAll(xs, all)
			for i := range n {
				pr.Grad(i, xs[i*d:(i+1)*d], g)
				learntest.Close(t, "GradAll", all[i*d:(i+1)*d], g, 1e-15)
			}
		})
	}
}

// fd0 returns the central differences of f_i at x.
func fd0(pr objective.Problem, i int, x []float64) []float64 {
	fd := make([]float64, len(x))
	learntest.FiniteDiff(func(y []float64) float64 { return pr.Value(i, y) }, x, fd)
	return fd
}

// TestOptimum checks x*: its KKT residual is ≤ 1e-10 and an independent
// method (L-BFGS against Newton; plain proximal gradient against the
// accelerated one) finds it to 1e-8.
func TestOptimum(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			pr := mustBuild(t, 4, params(v.mod))
			m := modelOf(pr)
			opt := pr.Optimum()
			if r := m.KKT(opt); !(r <= 1e-10) {
				t.Errorf("KKT residual %.3g > 1e-10", r)
			}
			if learn.Norm(opt) == 0 {
				t.Fatalf("x* = 0: the test data should give a nonzero optimum")
			}
			x := make([]float64, len(opt))
			f := m.central()
			if m.r == nil {
				if _, err := learn.LBFGS(f, x, 5, 1e-10, 100000); err != nil {
					t.Fatal(err)
				}
			} else {
				x = ista(m, 1e-12)
			}
			learntest.Close(t, "x*", opt, x, 1e-8)
		})
	}
}

// ista is plain proximal gradient with step 1/L, stopped at residual tol.
func ista(m *Model, tol float64) []float64 {
	f := m.central()
	d := m.dim
	x, g := make([]float64, d), make([]float64, d)
	t := 1 / (m.lip + m.r.L2)
	for range 1000000 {
		f(x, g)
		u := make([]float64, d)
		for c := range u {
			u[c] = x[c] - float64(t*g[c])
		}
		softThreshold(u, t*m.r.L1, u)
		s := 0.0
		for c := range u {
			s += float64((u[c] - x[c]) * (u[c] - x[c]))
		}
		x = u
		if math.Sqrt(s)/t <= tol {
			break
		}
	}
	return x
}

// TestProx checks the composite's prox against its definition: the
// returned u minimises r(u) + ‖u − x‖²/(2t) against perturbations.
func TestProx(t *testing.T) {
	pr := mustBuild(t, 4, params(variants[3].mod)).(objective.Composite)
	r := rng.New(4, "prox")
	d := pr.Dim()
	for _, step := range []float64{0.01, 0.3, 2} {
		x, u := make([]float64, d), make([]float64, d)
		for c := range x {
			x[c] = 2 * r.NormFloat64()
		}
		pr.Prox(x, step, u)
		obj := func(v []float64) float64 {
			s := 0.0
			for c := range v {
				s += float64((v[c] - x[c]) * (v[c] - x[c]))
			}
			return pr.Regularizer(v) + s/(2*step)
		}
		best := obj(u)
		for range 2000 {
			v := append([]float64(nil), u...)
			v[r.IntN(d)] += float64(1e-3 * r.NormFloat64())
			if obj(v) < best-1e-14 {
				t.Fatalf("step %v: prox(x) = %v is beaten by %v (%.17g < %.17g)", step, u, v, obj(v), best)
			}
		}
	}
}

// TestShards checks the split: every row once, sizes within one,
// contiguous blocks in order, shuffled ones a permutation that depends on
// the seed.
func TestShards(t *testing.T) {
	set := learn.Synthetic(1, "train", 103, 3, 2, 0)
	for _, rule := range learn.ShardRules() {
		sh, err := learn.Split(set, 10, rule, 7)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, set.Rows)
		prev := -1
		inOrder := true
		for _, s := range sh {
			if s.Len() != 10 && s.Len() != 11 {
				t.Errorf("%s: shard of %d rows", rule, s.Len())
			}
			for k := range s.Len() {
				if seen[s.Row(k)] {
					t.Errorf("%s: row %d twice", rule, s.Row(k))
				}
				seen[s.Row(k)] = true
				inOrder = inOrder && s.Row(k) == prev+1
				prev = s.Row(k)
			}
		}
		for k, ok := range seen {
			if !ok {
				t.Errorf("%s: row %d dealt to nobody", rule, k)
			}
		}
		if inOrder != (rule == learn.Contiguous) {
			t.Errorf("%s: rows in stored order = %v", rule, inOrder)
		}
	}
	a, _ := learn.Split(set, 4, learn.Shuffled, 7)
	b, _ := learn.Split(set, 4, learn.Shuffled, 8)
	if a[0].Row(0) == b[0].Row(0) && a[0].Row(1) == b[0].Row(1) && a[0].Row(2) == b[0].Row(2) {
		t.Errorf("two seeds dealt the same rows")
	}
}

// TestPinned checks that the pinned params rebuild the same instance
// under another data seed, and declare no dependence on it.
func TestPinned(t *testing.T) {
	p := params(func(p *Params) { p.Shards = learn.Shuffled })
	a, _, err := Factory.Build(env(4, 1), p)
	if err != nil {
		t.Fatal(err)
	}
	q := Factory.Pinned(a, p).(*Params)
	if Factory.Reads(q).DataSeed || !Factory.Reads(p).DataSeed {
		t.Errorf("Reads: pinned %v, unpinned %v", Factory.Reads(q), Factory.Reads(p))
	}
	b, _, err := Factory.Build(env(4, 2), q)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.3, -1, 2, 0, 0.5, 0.1, -0.2, 1}
	for i := range 4 {
		if a.Value(i, x) != b.Value(i, x) {
			t.Errorf("agent %d: %v != %v after pinning", i, a.Value(i, x), b.Value(i, x))
		}
	}
}

// TestMetrics checks the relative error and the test accuracy.
func TestMetrics(t *testing.T) {
	pr := mustBuild(t, 4, params(nil))
	m := pr.(*Model)
	opt := pr.Optimum()
	d := pr.Dim()
	est := make([]float64, 4*d)
	out := make([]float64, 1)
	m.Measure(est, d, out)
	if math.Abs(out[0]-1) > 1e-15 {
		t.Errorf("relative error at x⁰ = 0: %v, want 1", out[0])
	}
	for i := range 4 {
		copy(est[i*d:], opt)
	}
	m.Measure(est, d, out)
	if out[0] != 0 {
		t.Errorf("relative error at x*: %v, want 0", out[0])
	}
	m.Evaluate(&sim.Step{Dim: d, Estimates: est}, out)
	if !(out[0] > 0.9) || out[0] > 1 {
		t.Errorf("test accuracy at x* = %v, want in (0.9, 1] on the planted model", out[0])
	}
	m.Evaluate(&sim.Step{Dim: d, Estimates: est, Output: make([]float64, d)}, out)
	if out[0] != m.Accuracy(*m.test, make([]float64, d)) {
		t.Errorf("Evaluate ignores the shared Output")
	}
}

// TestBadInput checks the one-line errors.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Params)
		want string
	}{
		{"no-l2", func(p *Params) { p.L2 = 0 }, "problem.params.l2"},
		{"few-rows", func(p *Params) { p.Rows = 3 }, "problem.params.dataset"},
		{"loss", func(p *Params) { p.Loss = "hinge" }, "problem.params.loss"},
		{"dataset", func(p *Params) { p.Dataset = "nope" }, "problem.params.dataset"},
	}
	for _, c := range cases {
		_, _, err := Factory.Build(env(4, 1), params(c.mod))
		if err == nil || !contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %s", c.name, err, c.want)
		}
	}
}

func contains(s, sub string) bool {
	for k := 0; k+len(sub) <= len(s); k++ {
		if s[k:k+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestShared checks that one instance serves several goroutines at once
// with the answers it gives one (run with -race to see data races).
func TestShared(t *testing.T) {
	for _, v := range variants {
		pr := mustBuild(t, 4, params(v.mod))
		m := modelOf(pr)
		d := pr.Dim()
		x := make([]float64, d)
		for c := range x {
			x[c] = 0.1 * float64(c+1)
		}
		want := make([]float64, d)
		pr.Grad(2, x, want)
		wantV := pr.Objective(x)
		done := make(chan []float64)
		for range 4 {
			go func() {
				g := make([]float64, d)
				for range 20 {
					pr.Grad(2, x, g)
					m.GradBatch(1, x, []int{0, 1}, make([]float64, d))
					if pr.Objective(x) != wantV {
						g[0] = math.NaN()
						break
					}
				}
				done <- g
			}()
		}
		for range 4 {
			if g := <-done; !slices.Equal(g, want) {
				t.Errorf("%s: concurrent Grad %v, want %v", v.name, g, want)
			}
		}
	}
}
