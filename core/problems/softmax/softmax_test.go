package softmax

import (
	"dpsim/core/problems/internal/learn/learntest"
	"math"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

func build4(t *testing.T, seed uint64, mod func(*Params)) *Model {
	t.Helper()
	g, err := graph.Ring(4)
	if err != nil {
		t.Fatal(err)
	}
	p := Factory.NewParams().(*Params)
	if mod != nil {
		mod(p)
	}
	pr, _, err := Factory.Build(&objective.Env{Graph: g, Seeds: rng.FromOne(seed)}, p)
	if err != nil {
		t.Fatal(err)
	}
	return pr.(*Model)
}

// TestGradients checks Grad and GradBatch against central differences of
// Value and of the batch's average loss, to 1e-6 relative.
func TestGradients(t *testing.T) {
	m := build4(t, 1, nil)
	r := rng.New(2, "x")
	x := make([]float64, m.Dim())
	for c := range x {
		x[c] = r.NormFloat64()
	}
	g, fd := make([]float64, len(x)), make([]float64, len(x))
	for i := range m.Agents() {
		if v := m.valueGrad(m.shards[i], nil, x, g); math.Abs(v-m.Value(i, x)) > 1e-13*math.Abs(v) {
			t.Errorf("agent %d: the solver's value %.17g, Value %.17g", i, v, m.Value(i, x))
		}
		m.Grad(i, x, g)
		learntest.FiniteDiff(func(y []float64) float64 { return m.Value(i, y) }, x, fd)
		learntest.Close(t, "Grad", g, fd, 1e-6)
		idx := []int{0, 2, 2, m.Samples(i) - 1}
		m.GradBatch(i, x, idx, g)
		learntest.FiniteDiff(func(y []float64) float64 {
			z := make([]float64, m.k)
			s := 0.0
			for _, k := range idx {
				s += m.scores(m.shards[i], k, y, z) - z[m.shards[i].Label(k)]
			}
			return s/float64(len(idx)) + float64(m.lambda/2*learn.Dot(y, y))
		}, x, fd)
		learntest.Close(t, "GradBatch", g, fd, 1e-6)
	}
}

// TestOptimum checks x* from Newton-CG: KKT residual ≤ 1e-10, and Newton's
// method on the explicit Hessian finds the same point to 1e-8.
func TestOptimum(t *testing.T) {
	m := build4(t, 1, func(p *Params) { p.Features = 3 })
	opt := m.Optimum()
	if r := m.KKT(opt); !(r <= 1e-10) {
		t.Errorf("KKT residual %.3g > 1e-10", r)
	}
	dim, d, k := m.Dim(), m.d, m.k
	hess := func(x, h []float64) {
		clear(h)
		z := make([]float64, k)
		row := make([]float64, 0, d)
		for _, v := range m.shards {
			w := 1 / (float64(len(m.shards)) * float64(v.Len()))
			for r := range v.Len() {
				lse := m.scores(v, r, x, z)
				row = v.Set.RowTo(row, v.Row(r))
				for c := range k {
					pc := math.Exp(z[c] - lse)
					for c2 := range k {
						q := -pc * math.Exp(z[c2]-lse)
						if c == c2 {
							q += pc
						}
						for a := range d {
							for b := range d {
								h[(c*d+a)*dim+c2*d+b] += float64(w * q * row[a] * row[b])
							}
						}
					}
				}
			}
		}
		for j := range dim {
			h[j*dim+j] += m.lambda
		}
	}
	x := make([]float64, dim)
	if _, err := learn.Newton(m.central(), hess, x, 1e-11, 100); err != nil {
		t.Fatal(err)
	}
	learntest.Close(t, "x*", opt, x, 1e-8)
}

// TestMetrics checks the relative error at x⁰ and x*, and that the test
// accuracy at x* beats chance on the planted model.
func TestMetrics(t *testing.T) {
	m := build4(t, 1, nil)
	opt, dim := m.Optimum(), m.Dim()
	est := make([]float64, 4*dim)
	out := make([]float64, 1)
	m.Measure(est, dim, out)
	if math.Abs(out[0]-1) > 1e-15 {
		t.Errorf("relative error at 0: %v", out[0])
	}
	for i := range 4 {
		copy(est[i*dim:], opt)
	}
	m.Measure(est, dim, out)
	if out[0] != 0 {
		t.Errorf("relative error at x*: %v", out[0])
	}
	m.Evaluate(&sim.Step{Dim: dim, Estimates: est}, out)
	if !(out[0] > 0.7) {
		t.Errorf("test accuracy at x* %.3f ≤ 0.7 with 3 classes (chance: 1/3)", out[0])
	}
}

// TestPinned checks that the pinned seed rebuilds the same instance.
func TestPinned(t *testing.T) {
	a := build4(t, 1, func(p *Params) { p.Shards = learn.Shuffled })
	p := Factory.NewParams().(*Params)
	p.Shards = learn.Shuffled
	q := Factory.Pinned(a, p).(*Params)
	if Factory.Reads(q).DataSeed {
		t.Errorf("pinned params still read the data seed")
	}
	b := build4(t, 2, func(p *Params) { *p = *q })
	x := make([]float64, a.Dim())
	x[1] = 1
	for i := range 4 {
		if a.Value(i, x) != b.Value(i, x) {
			t.Errorf("agent %d differs after pinning", i)
		}
	}
}

// TestBlockedPassBits checks that the full pass, which handles rows in
// blocks (scores four rows at a time, gradient terms class by class),
// gives the bits of the row-by-row pass (the batch path over every row),
// value and gradient, on a shard whose length is not a multiple of the
// block.
func TestBlockedPassBits(t *testing.T) {
	m := build4(t, 3, func(p *Params) { p.Rows = 4*block + 4*37 })
	r := rng.New(4, "x")
	x := make([]float64, m.Dim())
	for c := range x {
		x[c] = r.NormFloat64()
	}
	for i := range m.Agents() {
		v := m.shards[i]
		all := make([]int, v.Len())
		for k := range all {
			all[k] = k
		}
		gb, gr := make([]float64, len(x)), make([]float64, len(x))
		vb, vr := m.valueGrad(v, nil, x, gb), m.valueGrad(v, all, x, gr)
		if math.Float64bits(vb) != math.Float64bits(vr) {
			t.Errorf("agent %d: blocked value %.17g, row by row %.17g", i, vb, vr)
		}
		for c := range gb {
			if math.Float64bits(gb[c]) != math.Float64bits(gr[c]) {
				t.Fatalf("agent %d: gradient[%d] blocked %.17g, row by row %.17g", i, c, gb[c], gr[c])
			}
		}
	}
}
