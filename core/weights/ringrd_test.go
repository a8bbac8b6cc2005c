package weights

import (
	"math"
	"testing"

	"dpsim/core/graph"
)

// ρ(W_o) and ρ_w of W(r, d) equal the eigenvalues computed numerically,
// and the paper's printed ρ_w = 1 − r(1 − d) does not (spec §5.6).
func TestRingRDSpectrum(t *testing.T) {
	g, _ := graph.Ring(4)
	for _, c := range [][2]float64{{0.3, 0.5}, {0.1, 0.5}, {0.5, 0.1}, {0.3, 0.1}, {0.45, 0.8}, {0.2, 0.25}} {
		r, d := c[0], c[1]
		w, err := RingRD(g, r, d)
		if err != nil {
			t.Fatal(err)
		}
		rep := Analyze(w, g)
		if !rep.HasRhoW || !rep.HasRhoWo {
			t.Fatalf("r=%v d=%v: no spectral findings", r, d)
		}
		wo, rw := RingRDSpectrum(r, d)
		if math.Abs(wo-rep.RhoWo) > 1e-12 || math.Abs(rw-rep.RhoW) > 1e-12 {
			t.Errorf("r=%v d=%v: closed forms ρ(W_o)=%v ρ_w=%v, eigenvalues %v %v", r, d, wo, rw, rep.RhoWo, rep.RhoW)
		}
		if want := 1 - float64(2*r*math.Min(d, 1-d)); math.Abs(rw-want) > 1e-15 {
			t.Errorf("ρ_w = %v, 1 − 2r·min(d, 1−d) = %v", rw, want)
		}
		for _, f := range []string{FindSymmetric, FindDoublyStochastic, FindNonnegative, FindPositiveDiagonal, FindSparsity} {
			if fd, _ := rep.Find(f); !fd.Holds {
				t.Errorf("r=%v d=%v: %s fails: %s", r, d, f, fd.Detail)
			}
		}
	}
	if _, rw := RingRDSpectrum(0.3, 0.5); math.Abs(rw-0.7) > 1e-15 {
		t.Errorf("r = 0.3, d = 0.5: ρ_w = %v, want 0.70 (the paper's formula gives 0.85)", rw)
	}
	d, err := RingRDForRhoW(0.2, 0.9)
	if err != nil || math.Abs(d-0.25) > 1e-15 {
		t.Errorf("d for ρ_w = 0.9 at r = 0.2: %v %v", d, err)
	}
}

func TestRingRDRejects(t *testing.T) {
	r4, _ := graph.Ring(4)
	r5, _ := graph.Ring(5)
	p4, _ := graph.Path(4)
	for _, c := range []struct {
		g    *graph.Graph
		r, d float64
	}{{r5, 0.3, 0.5}, {p4, 0.3, 0.5}, {r4, 0.6, 0.5}, {r4, 0, 0.5}, {r4, 0.3, 1}, {r4, 0.3, 0}} {
		if _, err := RingRD(c.g, c.r, c.d); err == nil {
			t.Errorf("n=%d r=%v d=%v: no error", c.g.N, c.r, c.d)
		}
	}
	if _, err := RingRDForRhoW(0.1, 0.5); err == nil {
		t.Error("ρ_w = 0.5 at r = 0.1 needs d > ½: no error")
	}
}
