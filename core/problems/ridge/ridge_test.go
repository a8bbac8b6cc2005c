package ridge

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/rng"
)

// The optimum equals a direct dense solve of the normal equations
// (Σ u_iu_iᵀ + nρI)x = Σ u_i v_i (gonum's LU, an independent method), and
// the average gradient vanishes there.
func TestOptimumIsDirectSolve(t *testing.T) {
	for _, dim := range []int{1, 2, 5, 30} {
		g, _ := graph.Ring(4)
		env := &objective.Env{Graph: g, Seeds: rng.Seeds{Data: uint64(dim)}}
		if dim == 30 {
			g, _ = graph.Ring(50)
			env.Graph = g
		}
		n := g.N
		feats, outs := Draw(n, dim, 25, env)
		r, err := New(feats, outs, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		a := mat.NewDense(dim, dim, nil)
		b := mat.NewVecDense(dim, nil)
		for i := range n {
			u := mat.NewVecDense(dim, feats[i])
			var uu mat.Dense
			uu.Outer(1, u, u)
			a.Add(a, &uu)
			b.AddScaledVec(b, outs[i], u)
		}
		for c := range dim {
			a.Set(c, c, a.At(c, c)+float64(float64(n)*0.1))
		}
		var want mat.VecDense
		if err := want.SolveVec(a, b); err != nil {
			t.Fatal(err)
		}
		got := r.Optimum()
		for c := range dim {
			if math.Abs(got[c]-want.AtVec(c)) > 1e-10*(1+math.Abs(want.AtVec(c))) {
				t.Fatalf("dim %d: x* = %v, direct solve %v", dim, got, mat.Formatted(&want))
			}
		}
		gsum := make([]float64, dim)
		gi := make([]float64, dim)
		for i := range n {
			r.Grad(i, got, gi)
			for c := range gi {
				gsum[c] += gi[c]
			}
		}
		for c := range gsum {
			if math.Abs(gsum[c]) > 1e-9 {
				t.Fatalf("dim %d: Σ∇f_i(x*) = %v", dim, gsum)
			}
		}
	}
}

// The paper's printed optimum (Σu_iu_iᵀ + nρI)⁻¹Σu_iu_iᵀx̃_i ignores the
// output noise; on the paper's data (ζ ~ N(0, 25²)) it is far from the
// minimiser, while with ζ = 0 the two coincide.
func TestPrintedOptimumIgnoresNoise(t *testing.T) {
	g, _ := graph.Ring(4)
	env := &objective.Env{Graph: g, Seeds: rng.Seeds{Data: 7}}
	clean, cleanOut := Draw(4, 2, 0, env) // same u_i and x̃_i, ζ = 0
	noisy, noisyOut := Draw(4, 2, 25, env)
	rc, _ := New(clean, cleanOut, 0.1)
	rn, _ := New(noisy, noisyOut, 0.1)
	// With ζ = 0, Σu_i v_i = Σu_iu_iᵀx̃_i: rc's optimum is the printed one.
	d := 0.0
	for c, v := range rn.Optimum() {
		d += float64((v - rc.Optimum()[c]) * (v - rc.Optimum()[c]))
	}
	if math.Sqrt(d) < 1 {
		t.Errorf("printed optimum %v and true %v agree to %g: the output noise should move it", rc.Optimum(), rn.Optimum(), math.Sqrt(d))
	}
}

func TestRejects(t *testing.T) {
	for _, c := range []struct {
		f [][]float64
		v []float64
		p float64
	}{
		{nil, nil, 0.1},
		{[][]float64{{1}}, []float64{1, 2}, 0.1},
		{[][]float64{{1}, {1, 2}}, []float64{1, 2}, 0.1},
		{[][]float64{{1}}, []float64{math.NaN()}, 0.1},
		{[][]float64{{1}}, []float64{1}, 0},
	} {
		if _, err := New(c.f, c.v, c.p); err == nil {
			t.Errorf("%v %v %v: no error", c.f, c.v, c.p)
		}
	}
}
