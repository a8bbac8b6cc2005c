package noise

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

func TestZeroScaleIsExactlyZeroAndDrawsNothing(t *testing.T) {
	a := NewSampler(Laplace, rng.NewStream(1, "x"))
	b := NewSampler(Laplace, rng.NewStream(1, "x"))
	xs := []float64{1, 2, 3}
	a.Fill(xs, 0)
	for _, x := range xs {
		if x != 0 {
			t.Fatalf("scale 0 gave %v", xs)
		}
	}
	ya, yb := make([]float64, 4), make([]float64, 4)
	a.Fill(ya, 1)
	b.Fill(yb, 1)
	for i := range ya {
		if ya[i] != yb[i] {
			t.Fatal("a zero-scale fill consumed the stream")
		}
	}
}

func TestSchedules(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		k    int
		want float64
	}{
		{Const(2), 7, 2},
		{Geom(1, 0.5), 3, 0.125},
		{Geom(3, 0), 0, 3}, // 0^0 = 1: noise at k = 0 only
		{Geom(3, 0), 1, 0},
		{Poly(2, 1, 1.1), 0, 2},
		{Poly(1, 1, 0.5), 3, 0.5},
		// c = 0 is zero at every k, where r^k or (m+k)^p leaves float64.
		{Geom(0, 10), 400, 0},
		{Poly(0, 1e-100, 4), 0, 0},
	} {
		if got := tc.s.At(tc.k); !(math.Abs(got-tc.want) <= 1e-15) { // NaN fails too
			t.Errorf("%v at %d = %g, want %g", tc.s, tc.k, got, tc.want)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []struct {
		spec  Spec
		field string
	}{
		{Spec{Dist: "cauchy"}, "n.dist"},
		{Spec{Dist: Laplace, Scale: -1}, "n.scale"},
		{Spec{Dist: Laplace, Scale: math.NaN()}, "n.scale"},
		{Spec{Dist: Laplace, Scales: []float64{1}}, "n.scales"},
		{Spec{Dist: Laplace, Decay: Schedule{Kind: Polynomial, C: 1, M: 0, P: 1}}, "n.decay.m"},
		{Spec{Dist: Laplace, Decay: Schedule{Kind: "exp", C: 1}}, "n.decay.kind"},
		{Spec{Dist: Laplace, Decay: Schedule{Kind: Polynomial, C: 1, M: 1e-100, P: 4}}, "n.decay"},
		{Spec{Dist: Laplace, Decay: Schedule{Kind: Polynomial, C: 1e300, M: 1e-100, P: 1}}, "n.decay"},
		{Spec{Dist: Laplace, Scale: 1, Draws: []float64{}}, "n.draws"},
		{Spec{Dist: Laplace, Scale: 1, Draws: []float64{0.5, 1e4}}, "n.draws[1]"},
		{Spec{Dist: Gaussian, Scale: 1, Draws: []float64{math.Inf(1)}}, "n.draws[0]"},
	}
	for _, tc := range bad {
		err := tc.spec.Validate("n", 2)
		if err == nil {
			t.Errorf("%+v: no error", tc.spec)
			continue
		}
		if got := err.Error(); len(got) < len(tc.field) || got[:len(tc.field)] != tc.field {
			t.Errorf("%+v: error %q does not name %s", tc.spec, got, tc.field)
		}
	}
	ok := Spec{Dist: Gaussian, Scale: 1}
	if err := ok.Validate("n", 3); err != nil || ok.Decay.Kind != Constant {
		t.Errorf("omitted decay: err %v, decay %+v", err, ok.Decay)
	}
	pinned := Spec{Dist: Gaussian, Scale: 1, Draws: []float64{-1000, 0, 1000}}
	if err := pinned.Validate("n", 3); err != nil {
		t.Errorf("draws at ±1000: %v", err)
	}
}

// Both readings of the GT-DP paper's "noise variance 0.01" (spec §5.6):
// per vector, b = √(0.01/(2·dim)); per coordinate, b = √(0.01/2).
func TestVarianceReadings(t *testing.T) {
	for _, c := range []struct {
		dist, of string
		dim      int
		want     float64
	}{
		{Laplace, PerVector, 2, math.Sqrt(0.01 / 4)},
		{Laplace, PerCoordinate, 2, math.Sqrt(0.005)},
		{Gaussian, PerVector, 4, math.Sqrt(0.01 / 4)},
		{Gaussian, PerCoordinate, 4, 0.1},
	} {
		s := &Spec{Dist: c.dist, Var: 0.01, VarOf: c.of, Decay: Const(1)}
		r, err := s.Resolve("noise.eta", c.dim)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Scale-c.want) > 1e-15 || r.Var != 0 || s.Var != 0.01 {
			t.Errorf("%s %s dim %d: scale %v, want %v", c.dist, c.of, c.dim, r.Scale, c.want)
		}
		if v := float64(float64(c.dim) * r.Variance(r.Scale)); c.of == PerVector && math.Abs(v-0.01) > 1e-15 {
			t.Errorf("E‖η_i‖² = %v, want 0.01", v)
		}
	}
	for _, s := range []*Spec{
		{Dist: Laplace, Var: 0.01},
		{Dist: Laplace, Var: 0.01, VarOf: "vector", Scale: 1},
		{Dist: Laplace, Var: -1, VarOf: "vector"},
	} {
		if _, err := s.Resolve("noise.eta", 2); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

// Pinned draws at scale 1 times b are the seeded draws at scale b, bit
// for bit, cycle after the last, and a fill at scale 0 takes none.
func TestPinnedSampler(t *testing.T) {
	for _, dist := range []string{Laplace, Gaussian} {
		seeded := NewSampler(dist, rng.NewStream(7, "noise/test"))
		unit := NewSampler(dist, rng.NewStream(7, "noise/test"))
		u := make([]float64, 40)
		unit.Fill(u, 1)
		pinned := NewPinnedSampler(u)
		for _, b := range []float64{0.3, 0, 1e-7, 2.5} {
			want, got := make([]float64, 10), make([]float64, 10)
			seeded.Fill(want, b)
			pinned.Fill(got, b)
			for k := range want {
				if math.Float64bits(want[k]) != math.Float64bits(got[k]) {
					t.Fatalf("%s at scale %v: pinned %v, seeded %v", dist, b, got[k], want[k])
				}
			}
		}
		if pinned.Served() != 30 || pinned.At() != 30 {
			t.Fatalf("%s: served %d, at %d; want 30 (the fill at scale 0 takes none)", dist, pinned.Served(), pinned.At())
		}
		more := make([]float64, 15)
		pinned.Fill(more, 1)
		if more[10] != u[0] || pinned.At() != 5 {
			t.Fatalf("%s: the draws do not cycle: %v after the last, at %d", dist, more[10], pinned.At())
		}
	}
}
