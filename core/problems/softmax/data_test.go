package softmax

import (
	"runtime"
	"slices"
	"testing"

	"dpsim/core/data"
	_ "dpsim/core/data/files" // the committed datasets
	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
)

// TestMNIST solves central softmax regression on the committed MNIST
// (10 digits, 30000 rows, 7840 weights) and checks x* (‖∇F‖ ≤ 1e-10)
// and that the test accuracy is what a linear model reaches (≥ 90 %).
// Newton-CG takes some 12 s of CPU (L-BFGS took 159 s; docs/data.md);
// skipped with -short.
func TestMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("a central solve over 7,840 weights: some 12 s of CPU")
	}
	if runtime.GOOS == "js" {
		// 48 s of CPU under js/wasm; the solver's arithmetic is checked
		// there by TestSolverView and TestBlockedPassBits.
		t.Skip("a central solve over 7,840 weights: natively only")
	}
	if !slices.Contains(data.Names(), "mnist") {
		t.Skip("dataset mnist is not committed")
	}
	g, err := graph.Ring(10)
	if err != nil {
		t.Fatal(err)
	}
	p := Factory.NewParams().(*Params)
	p.Dataset, p.L2 = "mnist", 1e-3
	pr, _, err := Factory.Build(&objective.Env{Graph: g, Seeds: rng.FromOne(1)}, p)
	if err != nil {
		t.Fatal(err)
	}
	m := pr.(*Model)
	x := m.Optimum()
	if r := m.KKT(x); !(r <= 1e-10) {
		t.Errorf("KKT residual %.3g > 1e-10", r)
	}
	test, err := data.Load("mnist", "test")
	if err != nil {
		t.Fatal(err)
	}
	acc := m.Accuracy(learn.Rows{Set: test}, x)
	_, l := m.Smoothness()
	t.Logf("mnist softmax: λ = %g, test accuracy %.4f (%d rows), L = %.4g", p.L2, acc, test.Rows, l)
	if acc < 0.9 {
		t.Errorf("test accuracy %.4f < 0.90", acc)
	}
}

// TestDatasetOptions checks that the dataset parameter offers exactly the
// committed datasets, synthetic and user, and that Size agrees with Build on a
// committed one.
func TestDatasetOptions(t *testing.T) {
	f := param.Describe(Factory.NewParams())
	var got []string
	for _, fd := range f {
		if fd.Name == "dataset" {
			got = fd.Options
		}
	}
	want := append([]string{"synthetic", "user"}, data.Names()...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("dataset options %v, want %v", got, want)
	}
	p := Factory.NewParams().(*Params)
	p.Dataset, p.L2 = "mushrooms", 0.1
	dim, _ := Factory.Size(p, 4)
	if dim != 112*2 {
		t.Errorf("Size on mushrooms: dimension %d, want 224", dim)
	}
}

// BenchmarkSolveMNIST times the central solve for x* on MNIST (10
// classes, λ = 10⁻³, 10 agents): building the solver's view of the data
// and Newton-CG to ‖∇F‖ ≤ 1e-11.
func BenchmarkSolveMNIST(b *testing.B) {
	set, err := data.Load("mnist", "train")
	if err != nil {
		b.Fatal(err)
	}
	shards, err := learn.Split(set, 10, learn.Contiguous, 1)
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		if _, err := New(shards, nil, 1e-3); err != nil {
			b.Fatal(err)
		}
	}
}
