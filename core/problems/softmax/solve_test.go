package softmax

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/problems/internal/learn/learntest"
	"dpsim/core/rng"
)

// TestSolverView checks the central solver's own view of the data
// (sparse rows, feature-major weights) against the model: the same F and
// ∇F to 1e-12 relative, on float features and on image bytes; its
// Hessian-vector product against central differences of its gradient to
// 1e-6 relative; and its preconditioner symmetric and positive.
func TestSolverView(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(*Params)
	}{
		{"synthetic", func(p *Params) { p.Features = 5; p.Classes = 4 }},
		{"pixels", nil},
	} {
		m := build4(t, 2, c.mod)
		if c.name == "pixels" {
			m = pixelModel(t)
		}
		sv := newSolver(m)
		k, d := m.k, m.d
		r := rng.New(5, "x")
		w := make([]float64, k*d)
		for j := range w {
			w[j] = r.NormFloat64()
		}
		x := make([]float64, len(w)) // w in the model's class-major order
		for j := range d {
			for cl := range k {
				x[cl*d+j] = w[j*k+cl]
			}
		}
		gs, gm := make([]float64, len(w)), make([]float64, len(w))
		fs, fm := sv.eval(w, gs), m.central()(x, gm)
		if math.Abs(fs-fm) > 1e-12*math.Abs(fm) {
			t.Errorf("%s: solver F %.17g, model %.17g", c.name, fs, fm)
		}
		for j := range d {
			for cl := range k {
				if a, b := gs[j*k+cl], gm[cl*d+j]; math.Abs(a-b) > 1e-12*(1+math.Abs(b)) {
					t.Fatalf("%s: ∇F[class %d, feature %d] solver %.17g, model %.17g", c.name, cl, j, a, b)
				}
			}
		}
		hv, prec := sv.curvature(w)
		v, u := make([]float64, len(w)), make([]float64, len(w))
		for j := range v {
			v[j], u[j] = r.NormFloat64(), r.NormFloat64()
		}
		got := make([]float64, len(w))
		hv(v, got)
		const h = 1e-5
		fd := make([]float64, len(w))
		wp, wm, gp, gn := make([]float64, len(w)), make([]float64, len(w)), make([]float64, len(w)), make([]float64, len(w))
		for j := range w {
			wp[j], wm[j] = w[j]+float64(h*v[j]), w[j]-float64(h*v[j])
		}
		sv.eval(wp, gp)
		sv.eval(wm, gn)
		for j := range fd {
			fd[j] = (gp[j] - gn[j]) / (2 * h)
		}
		learntest.Close(t, c.name+": Hessian-vector product", got, fd, 1e-6)
		pv, pu := make([]float64, len(w)), make([]float64, len(w))
		prec(v, pv)
		prec(u, pu)
		if a, b := learn.Dot(u, pv), learn.Dot(v, pu); math.Abs(a-b) > 1e-9*(math.Abs(a)+math.Abs(b)) {
			t.Errorf("%s: preconditioner not symmetric: uᵀM⁻¹v = %g, vᵀM⁻¹u = %g", c.name, a, b)
		}
		if q := learn.Dot(v, pv); !(q > 0) {
			t.Errorf("%s: vᵀM⁻¹v = %g, want > 0", c.name, q)
		}
	}
}

// pixelModel is softmax regression on 40 rows of 6 random bytes (a third
// of them zero) in 3 classes, over 4 agents.
func pixelModel(t *testing.T) *Model {
	t.Helper()
	r := rng.New(6, "pixels")
	set := &data.Set{Name: "pixels", Split: "train", Rows: 40, Cols: 6, Classes: []string{"a", "b", "c"}}
	for range set.Rows * set.Cols {
		b := uint8(r.Uint64())
		if r.Uint64()%3 == 0 {
			b = 0
		}
		set.Pixels = append(set.Pixels, b)
	}
	for range set.Rows {
		set.Y = append(set.Y, uint8(r.Uint64()%3))
	}
	shards, err := learn.Split(set, 4, learn.Contiguous, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(shards, nil, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if kkt := m.KKT(m.Optimum()); !(kkt <= 1e-10) {
		t.Errorf("pixels: KKT residual %.3g > 1e-10", kkt)
	}
	return m
}
