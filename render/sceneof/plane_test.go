package sceneof

import (
	"math"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/problems/rendezvous"
	"dpsim/core/sim"
	"dpsim/render/scene"
)

// planarToy is a small problem that offers targets in the plane (in any
// dimension it is given, as a careless Planar might) and an optimum only
// when it has one.
type planarToy struct {
	n   int
	dim int
	opt []float64
	pts [][2]float64
}

func (p *planarToy) Kind() string                     { return "planar-toy" }
func (p *planarToy) Agents() int                      { return p.n }
func (p *planarToy) Dim() int                         { return p.dim }
func (p *planarToy) Value(i int, x []float64) float64 { return 0 }
func (p *planarToy) Grad(i int, x, out []float64)     { clear(out) }
func (p *planarToy) Objective(x []float64) float64    { return 0 }
func (p *planarToy) Optimum() []float64               { return p.opt }
func (p *planarToy) Points() [][2]float64             { return p.pts }

// TestPlane checks that only a 2-D Planar problem gets a plane, that
// one without an optimum gets a plane without a star, and that drawing
// it neither panics nor draws a star.
func TestPlane(t *testing.T) {
	const n = 5
	pts := make([][2]float64, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / n
		pts[i] = [2]float64{math.Cos(a), math.Sin(a)}
	}
	r3, err := rendezvous.New([][]float64{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := rendezvous.New([][]float64{{0, 1}, {1, 0}, {2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		plane *scene.Plane
		want  bool // a plane
		star  bool // an optimum
	}{
		{"2-D with an optimum", Plane(&planarToy{n: n, dim: 2, opt: []float64{0.1, 0.2}, pts: pts}), true, true},
		{"2-D without an optimum", Plane(&planarToy{n: n, dim: 2, pts: pts}), true, false},
		{"3-D claiming points", Plane(&planarToy{n: n, dim: 3, opt: []float64{0, 0, 0}, pts: pts}), false, false},
		{"points for too few agents", Plane(&planarToy{n: n, dim: 2, pts: pts[:2]}), false, false},
		{"rendezvous in 3-D", Plane(r3), false, false},
		{"rendezvous in 2-D", Plane(r2), true, true},
	} {
		if (c.plane != nil) != c.want {
			t.Errorf("%s: plane %v, want one: %v", c.name, c.plane, c.want)
			continue
		}
		if c.plane == nil {
			continue
		}
		if c.plane.HasOptimum != c.star {
			t.Errorf("%s: HasOptimum %v, want %v", c.name, c.plane.HasOptimum, c.star)
		}
		if len(c.plane.Targets) == n {
			g, err := graph.Ring(n)
			if err != nil {
				t.Fatal(err)
			}
			m := scene.NewModel(g, c.plane)
			for k := range 2 {
				st := &sim.Step{Iter: k, Dim: 2, Estimates: make([]float64, 2*n)}
				for i := range n {
					st.Estimates[2*i], st.Estimates[2*i+1] = math.Cos(float64(i+k)), math.Sin(float64(i+k))
				}
				m.Record(st)
			}
			f := m.Frame(0, 900, 500)
			if !f.HasPlane {
				t.Fatalf("%s: the frame has no plane panel", c.name)
			}
			if drawn := f.Optimum.R > 0; drawn != c.star {
				t.Errorf("%s: star drawn %v, want %v", c.name, drawn, c.star)
			}
			if len(f.Estimates) != n || math.IsNaN(f.Estimates[0].X) {
				t.Errorf("%s: %d estimates, first at %v", c.name, len(f.Estimates), f.Estimates)
			}
			for i, d := range f.Estimates {
				if !f.PlaneBox.Contains(d.X, d.Y) {
					t.Errorf("%s: estimate %d outside the plot", c.name, i)
				}
			}
		}
	}
}
