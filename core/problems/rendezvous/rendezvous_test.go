package rendezvous

import (
	"math"
	"testing"
)

func TestRendezvous(t *testing.T) {
	p, err := New([][]float64{{0, 0}, {2, 0}, {1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	opt := p.Optimum()
	if math.Abs(opt[0]-1) > 1e-15 || math.Abs(opt[1]-1) > 1e-15 {
		t.Errorf("optimum %v, want [1 1]", opt)
	}
	g := make([]float64, 2)
	// The average gradient vanishes at the optimum.
	sum := []float64{0, 0}
	for i := range 3 {
		p.Grad(i, opt, g)
		sum[0] += g[0]
		sum[1] += g[1]
	}
	if math.Hypot(sum[0], sum[1]) > 1e-14 {
		t.Errorf("Σ∇f_i(x*) = %v", sum)
	}
	if got := p.Value(1, []float64{0, 0}); got != 4 {
		t.Errorf("f_1(0) = %v, want 4", got)
	}
	if got, want := p.Objective(opt), (2.0+2+4)/3; math.Abs(got-want) > 1e-14 {
		t.Errorf("objective %v, want %v", got, want)
	}
	if len(p.Points()) != 3 {
		t.Error("a 2-D rendezvous must be Planar")
	}
	p3, err := New([][]float64{{0, 0, 1}, {2, 0, 1}, {0, 2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if pts := p3.Points(); pts != nil {
		t.Errorf("a 3-D rendezvous is not planar, but Points gives %v", pts)
	}
}

func TestRendezvousRejects(t *testing.T) {
	for _, targets := range [][][]float64{
		nil,
		{{0, 0}, {1}},
		{{0, math.NaN()}},
		{{math.Inf(1), 0}},
	} {
		if _, err := New(targets); err == nil {
			t.Errorf("%v: no error", targets)
		}
	}
}

// TestConstantsApart: the smoothness (μ = L = 2) and the gradient bound
// C = 2(R + a_max) are declared apart; C exists only with a domain and
// bounds every gradient there, for targets anywhere in the admissible ball.
func TestConstantsApart(t *testing.T) {
	p, err := New([][]float64{{3, 4}, {-1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.GradientBound(); ok || p.HasDomain() {
		t.Fatal("a rendezvous without a domain declares a gradient bound")
	}
	const radius, amax = 2.0, 5.0
	p.SetDomain(radius, amax)
	b, ok := p.GradientBound()
	if !ok || b.Value != 14 || b.Everywhere || b.Source == "" {
		t.Fatalf("gradient bound %+v, %v; want 2(2 + 5) = 14 on the domain only, with its source", b, ok)
	}
	if mu, l := p.Smoothness(); mu != 2 || l != 2 {
		t.Errorf("smoothness (μ, L) = (%g, %g), want (2, 2): independent of the domain", mu, l)
	}
	g := make([]float64, 2)
	worst := 0.0
	for k := range 64 {
		// x on the boundary of the domain, the target opposite at ‖a‖ = a_max.
		th := 2 * math.Pi * float64(k) / 64
		x := []float64{radius * math.Cos(th), radius * math.Sin(th)}
		q, err := New([][]float64{{-amax * math.Cos(th), -amax * math.Sin(th)}})
		if err != nil {
			t.Fatal(err)
		}
		q.Grad(0, x, g)
		worst = math.Max(worst, math.Hypot(g[0], g[1]))
	}
	if worst > b.Value*(1+1e-15) || worst < b.Value*(1-1e-12) {
		t.Errorf("the largest gradient on the domain is %g; the declared bound %g must be it (tight)", worst, b.Value)
	}
}
