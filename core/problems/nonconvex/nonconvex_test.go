package nonconvex

import (
	"dpsim/core/problems/internal/learn/learntest"
	"math"
	"slices"
	"strings"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
)

func build(t *testing.T, n int, seed uint64, mod func(*Params)) *Classifier {
	t.Helper()
	g, err := graph.Ring(n)
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
	return pr.(*Classifier)
}

// TestGradients checks Grad and GradBatch against central differences,
// to 1e-6 relative, at points where the regulariser is far from linear.
func TestGradients(t *testing.T) {
	c := build(t, 3, 1, func(p *Params) { p.Samples = 20; p.Dim = 4; p.Lambda = 0.3; p.Scale = 1 })
	r := rng.New(2, "x")
	x := make([]float64, c.d)
	g, fd := make([]float64, c.d), make([]float64, c.d)
	for range 3 {
		for t := range x {
			x[t] = r.NormFloat64()
		}
		for i := range c.n {
			c.Grad(i, x, g)
			learntest.FiniteDiff(func(y []float64) float64 { return c.Value(i, y) }, x, fd)
			learntest.Close(t, "Grad", g, fd, 1e-6)
			idx := []int{1, 1, 7, 19}
			c.GradBatch(i, x, idx, g)
			learntest.FiniteDiff(func(y []float64) float64 {
				s := 0.0
				for _, k := range idx {
					z, yy := c.sample(i, k)
					s += math.Log1p(math.Exp(-yy * learn.Dot(y, z)))
				}
				return s/float64(len(idx)) + c.reg(y)
			}, x, fd)
			learntest.Close(t, "GradBatch", g, fd, 1e-6)
		}
	}
}

// TestSmoothness checks M̄ on the paper's sizes against its 5.03 (the
// spec: s ≈ 3.6 reproduces it; we accept 10 %), and that every M_i bounds
// how fast ∇f_i changes between random points.
func TestSmoothness(t *testing.T) {
	c := build(t, 50, 1, nil)
	_, mbar := c.Smoothness()
	t.Logf("M̄ = %.4f (paper 5.03); %s", mbar, c.SmoothnessSource())
	if math.Abs(mbar-5.03) > 0.5 {
		t.Errorf("M̄ = %.4g, not within 0.5 of the paper's 5.03 at s = 3.6", mbar)
	}
	r := rng.New(3, "pairs")
	x, y := make([]float64, c.d), make([]float64, c.d)
	gx, gy := make([]float64, c.d), make([]float64, c.d)
	for k := range 200 {
		i := k % c.n
		for t := range x {
			x[t] = 0.1 * r.NormFloat64()
			y[t] = x[t] + float64(0.01*r.NormFloat64())
		}
		c.Grad(i, x, gx)
		c.Grad(i, y, gy)
		dg, dx := 0.0, 0.0
		for t := range gx {
			dg += float64((gx[t] - gy[t]) * (gx[t] - gy[t]))
			dx += float64((x[t] - y[t]) * (x[t] - y[t]))
		}
		if math.Sqrt(dg) > c.M(i)*math.Sqrt(dx)*(1+1e-9) {
			t.Fatalf("agent %d: ‖∇f_i(x) − ∇f_i(y)‖ = %.4g > M_i‖x − y‖ = %.4g", i, math.Sqrt(dg), c.M(i)*math.Sqrt(dx))
		}
	}
}

// TestGramMax checks the power iteration against a 2×2 closed form.
func TestGramMax(t *testing.T) {
	z, _ := Draw(5, 1, 30, 2, 1.5)
	var a, b, d float64
	for k := range 30 {
		u, v := z[2*k], z[2*k+1]
		a, b, d = a+float64(u*u), b+float64(u*v), d+float64(v*v)
	}
	want := float64((a+d)/2) + math.Sqrt(float64((a-d)*(a-d)/4)+float64(b*b))
	if got := gramMax(z, 30, 2); math.Abs(got-want) > 1e-10*want {
		t.Errorf("gramMax %.15g, want %.15g", got, want)
	}
}

// TestPinned checks that the pinned seed rebuilds the same data under
// another data seed.
func TestPinned(t *testing.T) {
	a := build(t, 4, 1, func(p *Params) { p.Samples = 10 })
	p := Factory.NewParams().(*Params)
	p.Samples = 10
	q := Factory.Pinned(a, p).(*Params)
	if Factory.Reads(q).DataSeed {
		t.Errorf("pinned params still read the data seed")
	}
	b := build(t, 4, 2, func(p *Params) { *p = *q })
	x := []float64{1, -1, 0.5, 0, 2, 0.1, 0.3, -0.7, 0.2, 1}
	if a.Objective(x) != b.Objective(x) {
		t.Errorf("objective %v != %v after pinning", a.Objective(x), b.Objective(x))
	}
	c := build(t, 4, 2, func(p *Params) { p.Samples = 10 })
	if a.Objective(x) == c.Objective(x) {
		t.Errorf("two data seeds drew the same samples")
	}
}

// TestWHat checks Ŵ against its definition computed here from Value's
// finite differences: consensus part and gradient part apart.
func TestWHat(t *testing.T) {
	c := build(t, 3, 1, func(p *Params) { p.Samples = 15; p.Dim = 2 })
	est := []float64{0.5, -1, 1.5, 0, -0.5, 2}
	out := make([]float64, 1)
	c.Measure(est, 2, out)
	// x̄ = (0.5, 1/3): Σ‖x_i − x̄‖² = 0 + 1 + 1 + (16/9 + 1/9 + 25/9) = 2 + 42/9.
	want := 2 + 42.0/9
	sum := make([]float64, 2)
	fd := make([]float64, 2)
	for i := range 3 {
		learntest.FiniteDiff(func(y []float64) float64 { return c.Value(i, y) }, est[2*i:2*i+2], fd)
		sum[0] += fd[0]
		sum[1] += fd[1]
	}
	want += float64((float64(sum[0]*sum[0]) + float64(sum[1]*sum[1])) / 3)
	if math.Abs(out[0]-want) > 1e-8*want {
		t.Errorf("Ŵ = %.12g, want %.12g", out[0], want)
	}
	// A shared estimate (one row) is every agent's: Ŵ there is Ŵ at
	// three copies of it, with no consensus part.
	shared, copies := make([]float64, 1), make([]float64, 1)
	c.Measure(est[:2], 2, shared)
	c.Measure(append(append(append([]float64(nil), est[:2]...), est[:2]...), est[:2]...), 2, copies)
	if shared[0] != copies[0] || !(shared[0] > 0) {
		t.Errorf("Ŵ at the shared row %v, at three copies of it %v", shared[0], copies[0])
	}
}

// TestBlockedGrad holds Grad (blocks of samples, four rows per pass, one
// num.ExpTo per block) to the bits of one sample after another (gradOne),
// for sample counts that fill no block and no group of four, and at
// points from the origin to far out, where the sigmoid saturates and the
// exp underflows.
func TestBlockedGrad(t *testing.T) {
	for _, c := range []struct{ m, d int }{{1, 1}, {3, 10}, {64, 4}, {203, 10}, {130, 3}, {7, 17}, {600, 10}, {257, 3}} {
		cl := build(t, 2, 5, func(p *Params) { p.Samples = c.m; p.Dim = c.d })
		r := rng.New(9, "x")
		x := make([]float64, c.d)
		got, want := make([]float64, c.d), make([]float64, c.d)
		for _, sc := range []float64{0, 0.01, 1, 30, 1e3} {
			for t := range x {
				x[t] = sc * r.NormFloat64()
			}
			for i := range cl.n {
				cl.Grad(i, x, got)
				clear(want)
				for s := range c.m {
					cl.gradOne(i, s, x, want)
				}
				cl.finish(x, c.m, want)
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
						t.Fatalf("m = %d, d = %d, scale %g, agent %d: Grad[%d] = %v, one sample after another %v", c.m, c.d, sc, i, k, got[k], want[k])
					}
				}
			}
		}
	}
}

// BenchmarkGrad is one agent's full gradient on the paper's sizes (m =
// 200, d = 10): the DPP² iteration's 50 of them (bench/dpp2), with the
// rate its row passes reach.
func BenchmarkGrad(b *testing.B) {
	g, err := graph.Ring(2)
	if err != nil {
		b.Fatal(err)
	}
	pr, _, err := Factory.Build(&objective.Env{Graph: g, Seeds: rng.FromOne(1)}, Factory.NewParams())
	if err != nil {
		b.Fatal(err)
	}
	c := pr.(*Classifier)
	x, out := make([]float64, c.d), make([]float64, c.d)
	for t := range x {
		x[t] = 0.1 * float64(t+1)
	}
	b.ReportAllocs()
	for range b.N {
		c.Grad(0, x, out)
	}
	// The rows' two passes (dot products, then the weighted sum): 4md
	// operations and 2·8md bytes read per gradient, the floors to set
	// beside core/internal/peak's ceilings.
	md := float64(b.N) * float64(c.Samples(0)*c.d) / b.Elapsed().Seconds()
	b.ReportMetric(4*md/1e9, "GFLOP/s")
	b.ReportMetric(16*md/1e9, "GB/s")
}

// TestBlockedValue holds Value (blocks of samples, one num.ExpTo per
// block) to the bits of one sample after another (valueOne), from the
// origin to far out.
func TestBlockedValue(t *testing.T) {
	for _, c := range []struct{ m, d int }{{1, 1}, {3, 10}, {64, 4}, {203, 10}, {7, 17}, {600, 10}} {
		cl := build(t, 2, 5, func(p *Params) { p.Samples = c.m; p.Dim = c.d })
		r := rng.New(9, "x")
		x := make([]float64, c.d)
		for _, sc := range []float64{0, 0.01, 1, 30, 1e3} {
			for t := range x {
				x[t] = sc * r.NormFloat64()
			}
			for i := range cl.n {
				if got, want := cl.Value(i, x), cl.valueOne(i, x); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("m = %d, d = %d, scale %g, agent %d: Value = %v, one sample after another %v", c.m, c.d, sc, i, got, want)
				}
			}
		}
	}
}

// TestGramMaxBits holds gramMax (the blocked kernels) to the bits of the
// power iteration one row after another, on the paper's sizes and on
// sizes that fill no group of four rows (each row's dot product in
// num.Dot's lane order): M_i, and so M̄ and the privacy ledger, are those
// of the plain iteration.
func TestGramMaxBits(t *testing.T) {
	rowByRow := func(z []float64, rows, d int) float64 {
		v, w := make([]float64, d), make([]float64, d)
		for t := range v {
			v[t] = 1 / math.Sqrt(float64(d)) * (1 + float64(0.1*float64(t)))
		}
		lam := 0.0
		for range 10000 {
			clear(w)
			for k := range rows {
				row := z[k*d : (k+1)*d]
				a := num.Dot(row, v)
				for t, zt := range row {
					w[t] += float64(a * zt)
				}
			}
			nv := learn.Norm(v)
			rq := learn.Dot(v, w) / (nv * nv)
			nw := learn.Norm(w) / nv
			for t := range v {
				v[t] = w[t] / (nw * nv)
			}
			lam = nw
			if nw-rq <= 1e-12*nw {
				break
			}
		}
		return lam
	}
	for _, c := range []struct{ m, d int }{{200, 10}, {203, 3}, {5, 7}, {1, 1}} {
		z, _ := Draw(7, 1, c.m, c.d, 3.6)
		if got, want := gramMax(z, c.m, c.d), rowByRow(z, c.m, c.d); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("m = %d, d = %d: gramMax %v, row by row %v", c.m, c.d, got, want)
		}
	}
}

// The drawn samples written out (Factory.Rows) rebuild the same samples
// bit for bit under another seed: float64 as drawn, not rounded.
func TestDrawnRows(t *testing.T) {
	a := build(t, 4, 1, func(p *Params) { p.Samples = 10 })
	p := Factory.NewParams().(*Params)
	p.Samples = 10
	w, n := Factory.Rows(a, p)
	q := w.(*Params)
	if n != 4*10*(10+1) || q.Drawn == nil {
		t.Fatalf("wrote %d values, want %d", n, 4*10*11)
	}
	q.Seed = 99
	if Factory.Reads(q).DataSeed {
		t.Errorf("drawn samples still read the data seed")
	}
	b := build(t, 4, 2, func(p *Params) { *p = *q })
	if !slices.Equal(a.z, b.z) || !slices.Equal(a.y, b.y) {
		t.Errorf("the samples written out rebuild other samples")
	}
}

// Drawn samples that cannot be the problem's are refused in one line
// naming the entry.
func TestDrawnRefused(t *testing.T) {
	g, err := graph.Ring(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		drawn Drawn
		want  string
	}{
		{Drawn{Features: [][]float64{{1}}, Labels: []float64{1}}, "problem.params.drawn: holds 1 rows and 1 labels; 2 agents × 1 samples need 2 of each"},
		{Drawn{Features: [][]float64{{1}, {2, 3}}, Labels: []float64{1, 1}}, "problem.params.drawn.features[1]: has 2 features; dim is 1"},
		{Drawn{Features: [][]float64{{1}, {math.Inf(1)}}, Labels: []float64{1, 1}}, "problem.params.drawn.features[1][0]: must be a finite number"},
		{Drawn{Features: [][]float64{{1}, {1e13}}, Labels: []float64{1, 1}}, "problem.params.drawn.features[1][0]: must be within ±1e+12"},
		{Drawn{Features: [][]float64{{1}, {2}}, Labels: []float64{1, 0}}, "problem.params.drawn.labels[1]: must be −1 or +1, got 0"},
	} {
		p := Factory.NewParams().(*Params)
		p.Samples, p.Dim, p.Drawn = 1, 1, &c.drawn
		_, _, err := Factory.Build(&objective.Env{Graph: g, Seeds: rng.FromOne(1)}, p)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one line starting %q", c.drawn, err, c.want)
		}
	}
}

// Samples beyond what a replay export holds are counted, not copied.
func TestDrawnRowsCounted(t *testing.T) {
	a := build(t, 4, 1, func(p *Params) { p.Samples, p.Dim = 25_000, 20 })
	p := Factory.NewParams().(*Params)
	p.Samples, p.Dim = 25_000, 20
	w, n := Factory.Rows(a, p)
	if w != nil || n != 4*25_000*21 {
		t.Errorf("wrote %v, %d values; want none, %d counted", w != nil, n, 4*25_000*21)
	}
}
