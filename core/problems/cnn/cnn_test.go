package cnn

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	_ "dpsim/core/data/files" // the committed datasets
	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

func buildN(t *testing.T, n int, mod func(*Params)) (*Model, error) {
	t.Helper()
	g, err := graph.Ring(n)
	if err != nil {
		t.Fatal(err)
	}
	p := Factory.NewParams().(*Params)
	p.TrainRows, p.EvalRows = 96, 64
	if mod != nil {
		mod(p)
	}
	pr, _, err := Factory.Build(&objective.Env{Graph: g, Seeds: rng.FromOne(5)}, p)
	if err != nil {
		return nil, err
	}
	return pr.(*Model), nil
}

func mustBuild(t *testing.T, n int, mod func(*Params)) *Model {
	t.Helper()
	m, err := buildN(t, n, mod)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func randomX(m *Model, seed uint64, scale float64) []float64 {
	r := rng.NewStream(seed, "x")
	x := make([]float64, m.Dim())
	for k := range x {
		x[k] = scale * (2*r.Float64() - 1)
	}
	return x
}

// TestShapes checks the network built for each dataset: its dimension
// agrees with Size, and the image shape and classes are the dataset's.
func TestShapes(t *testing.T) {
	cases := []struct {
		dataset string
		dim     int
	}{
		{"mnist", 8*25 + 8 + 16*8*25 + 16 + 10*256 + 10},
		{"cifar10-catdog", 8*75 + 8 + 16*8*25 + 16 + 2*400 + 2},
		{"mnist-01", 8*25 + 8 + 16*8*25 + 16 + 2*256 + 2},
	}
	for _, tc := range cases {
		m := mustBuild(t, 4, func(p *Params) { p.Dataset = tc.dataset })
		p := Factory.NewParams().(*Params)
		p.Dataset = tc.dataset
		if dim, _ := Factory.Size(p, 4); m.Dim() != tc.dim || dim != tc.dim {
			t.Errorf("%s: Dim %d, Size %d, want %d", tc.dataset, m.Dim(), dim, tc.dim)
		}
	}
}

// TestScratchBytes holds the memory estimate's scratch to what one
// scratch allocates (runtime.MemStats, within the allocator's size
// classes: 10 %), on both image shapes.
func TestScratchBytes(t *testing.T) {
	for _, dataset := range []string{"mnist", "cifar10-catdog"} {
		m := mustBuild(t, 2, func(p *Params) { p.Dataset = dataset })
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := m.get()
		runtime.ReadMemStats(&after)
		got, want := float64(after.TotalAlloc-before.TotalAlloc), float64(scratchBytes(m.net))
		if got < want || got > 1.1*want {
			t.Errorf("%s: a scratch allocates %.0f bytes, the estimate counts %.0f", dataset, got, want)
		}
		m.put(s)
	}
}

// TestGradBatch checks GradBatch against the mean of single-image
// gradients (with the ℓ2 term), Grad against GradBatch over the whole
// shard, and that chunking a long list (more than 32 images) keeps the
// bits of the one-call result; tolerances are float32's.
func TestGradBatch(t *testing.T) {
	m := mustBuild(t, 2, func(p *Params) { p.L2 = 0.01 })
	x := randomX(m, 1, 0.01)
	d := m.Dim()
	idx := []int{3, 0, 7, 7, 40}
	got := make([]float64, d)
	m.GradBatch(1, x, idx, got)
	want, one := make([]float64, d), make([]float64, d)
	for _, k := range idx {
		m.GradBatch(1, x, []int{k}, one)
		for c := range want {
			want[c] += one[c] / float64(len(idx))
		}
	}
	if e := relErr(got, want); e > 1e-5 {
		t.Errorf("GradBatch differs from the mean of single-image gradients by %.3g (relative)", e)
	}
	all := make([]int, m.Samples(0))
	for k := range all {
		all[k] = k
	}
	m.GradBatch(0, x, all, want)
	m.Grad(0, x, got)
	for c := range got {
		if got[c] != want[c] {
			t.Fatalf("Grad[%d] = %v, GradBatch over the whole shard %v", c, got[c], want[c])
		}
	}
}

// TestGradientDirection checks the gradient against a central difference
// of Value along it: (f(x + h·u) − f(x − h·u))/(2h) ≈ ‖∇f‖ for u =
// ∇f/‖∇f‖, to 2 % (θ is rounded to float32, so h cannot be tiny).
func TestGradientDirection(t *testing.T) {
	m := mustBuild(t, 2, func(p *Params) { p.L2 = 0.001 }) // 48 images each: two chunks
	x := randomX(m, 2, 0.01)
	g := make([]float64, m.Dim())
	m.Grad(1, x, g)
	norm := math.Sqrt(dot(g, g))
	const h = 1e-3
	xp, xm := make([]float64, len(x)), make([]float64, len(x))
	for k := range x {
		xp[k], xm[k] = x[k]+h*g[k]/norm, x[k]-h*g[k]/norm
	}
	fd := (m.Value(1, xp) - m.Value(1, xm)) / (2 * h)
	if math.Abs(fd-norm) > 0.02*norm {
		t.Errorf("directional difference %.6g, ‖∇f‖ %.6g", fd, norm)
	}
}

// TestConcurrent checks that concurrent callers (a sweep's workers share
// one instance) get the sequential result.
func TestConcurrent(t *testing.T) {
	m := mustBuild(t, 4, nil)
	x := randomX(m, 3, 0.01)
	want := make([][]float64, 4)
	for i := range want {
		want[i] = make([]float64, m.Dim())
		m.Grad(i, x, want[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := w % 4
			g := make([]float64, m.Dim())
			m.Grad(i, x, g)
			for c := range g {
				if g[c] != want[i][c] {
					errs <- "a concurrent gradient differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestEvaluate checks the expensive metrics at the initialisation:
// accuracies in [0, 1] and a loss near log(10) for ten classes.
func TestEvaluate(t *testing.T) {
	m := mustBuild(t, 4, nil)
	if got := strings.Join(m.EvaluatedNames(), ","); got != "training_loss,training_accuracy,test_accuracy" {
		t.Fatalf("EvaluatedNames %s", got)
	}
	s := &sim.Step{Dim: m.Dim(), Estimates: make([]float64, 4*m.Dim())}
	out := make([]float64, 3)
	m.Evaluate(s, out)
	if !(out[0] > 1 && out[0] < 5) || !(out[1] >= 0 && out[1] <= 1) || !(out[2] >= 0 && out[2] <= 1) {
		t.Errorf("metrics at θ⁰: loss %v, training accuracy %v, test accuracy %v", out[0], out[1], out[2])
	}
	opt, cons, obj := m.GenericMetrics(s)
	if !math.IsNaN(opt) || cons != 0 || !math.IsNaN(obj) {
		t.Errorf("GenericMetrics at consensus: %v %v %v, want NaN 0 NaN", opt, cons, obj)
	}
}

// TestBadInput checks that bad parameters are one-line errors naming the
// field.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		agent int
		mod   func(*Params)
		field string
	}{
		{"unknown dataset", 4, func(p *Params) { p.Dataset = "ijcnn1" }, "problem.params.dataset"},
		{"fewer images than agents", 4, func(p *Params) { p.TrainRows = 3 }, "problem.params.train_rows"},
		{"negative l2", 4, func(p *Params) { p.L2 = -1 }, "problem.params.l2"},
	}
	for _, tc := range cases {
		_, err := buildN(t, tc.agent, tc.mod)
		if err == nil || !strings.Contains(err.Error(), tc.field) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %s", tc.name, err, tc.field)
		}
	}
	if _, _, _, err := Shape(112); err == nil {
		t.Error("Shape(112): no error")
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		s += float64(a[k] * b[k])
	}
	return s
}

func relErr(got, want []float64) float64 {
	d := make([]float64, len(got))
	for k := range d {
		d[k] = got[k] - want[k]
	}
	return math.Sqrt(dot(d, d) / dot(want, want))
}

// TestLearns trains one agent by plain SGD on batches of 32 of its 128
// images (GradBatch, x from 0, i.e. from θ⁰) and requires the training
// accuracy on the first 128 MNIST images to pass 50 % (chance: 10 %)
// after 40 steps; the test accuracy (128 images) is logged.
func TestLearns(t *testing.T) {
	m := mustBuild(t, 2, func(p *Params) { p.TrainRows, p.EvalRows = 256, 128 })
	x := make([]float64, m.Dim())
	g := make([]float64, m.Dim())
	idx := make([]int, 32)
	for step := range 40 {
		for k := range idx {
			idx[k] = (step*32 + k) % m.Samples(0)
		}
		m.GradBatch(0, x, idx, g)
		for c := range x {
			x[c] -= float64(0.1 * g[c])
		}
	}
	out := make([]float64, 3)
	m.Evaluate(&sim.Step{Dim: m.Dim(), Estimates: x}, out)
	t.Logf("after 40 steps: training loss %.3f, training accuracy %.3f, test accuracy %.3f", out[0], out[1], out[2])
	if out[1] < 0.5 || out[2] < 0.3 {
		t.Errorf("training accuracy %.3f, test accuracy %.3f after 40 SGD steps, want ≥ 0.5 and ≥ 0.3", out[1], out[2])
	}
}
