package noise

import (
	"strings"
	"testing"

	"dpsim/core/rng"
)

// FillAt with per-agent decays draws agent i's block at Base(i)·Decays[i].At(k),
// from the same stream words as filling each block by hand; with one decay
// it is FillChannel at Decay.At(k).
func TestFillAtPerAgentDecays(t *testing.T) {
	const n, d, k = 4, 3, 7
	for _, dist := range []string{Laplace, Gaussian} {
		spec := &Spec{Dist: dist, Scales: []float64{1, 0, 2, 0.5}, Decays: []Schedule{Poly(1, 1, 0.51), Geom(2, 0.9), Const(1), Poly(1, 1, 0.54)}}
		if err := spec.Validate("noise.x", n); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, n*d)
		NewSampler(dist, rng.NewStream(5, "x")).FillAt(spec, k, got, d)
		ref := NewSampler(dist, rng.NewStream(5, "x"))
		want := make([]float64, n*d)
		for i := range n {
			ref.Fill(want[i*d:(i+1)*d], spec.ScaleAt(i, k))
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("%s: value %d = %v, want %v", dist, j, got[j], want[j])
			}
		}
		for j := d; j < 2*d; j++ {
			if got[j] != 0 {
				t.Fatalf("%s: agent 1 has scale 0 but drew %v", dist, got[j])
			}
		}
		one := &Spec{Dist: dist, Scale: 0.3, Decay: Poly(1, 1, 0.6)}
		a, b := make([]float64, n*d), make([]float64, n*d)
		NewSampler(dist, rng.NewStream(6, "x")).FillAt(one, k, a, d)
		NewSampler(dist, rng.NewStream(6, "x")).FillChannel(one, one.Decay.At(k), b, d)
		for j := range a {
			if a[j] != b[j] {
				t.Fatalf("%s: one decay: FillAt differs from FillChannel at %d", dist, j)
			}
		}
	}
}

// Per-agent decays: scale, log scale, off and growth read each agent's
// own schedule; the spec refuses them where asked.
func TestPerAgentDecaySpec(t *testing.T) {
	s := &Spec{Dist: Laplace, Scale: 2, Decays: []Schedule{Const(0), Geom(1, 1.5)}}
	if err := s.Validate("noise.x", 2); err != nil {
		t.Fatal(err)
	}
	if s.ScaleAt(0, 3) != 0 || s.ScaleAt(1, 2) != 2*1.5*1.5 {
		t.Errorf("ScaleAt: %v, %v", s.ScaleAt(0, 3), s.ScaleAt(1, 2))
	}
	if s.IsOff() || !s.Grows() || !s.PerAgentDecay() {
		t.Errorf("IsOff %v, Grows %v, PerAgentDecay %v", s.IsOff(), s.Grows(), s.PerAgentDecay())
	}
	if off := (&Spec{Dist: Laplace, Scale: 2, Decays: []Schedule{Const(0), Const(0)}}); !off.IsOff() {
		t.Error("every decay 0, yet not off")
	}
	err := s.RequireOneDecay("noise.x", "X's accountant assumes one decay")
	if err == nil || !strings.HasPrefix(err.Error(), "noise.x.decays: X's accountant assumes one decay") {
		t.Errorf("got %v", err)
	}
	if err := (&Spec{Dist: Laplace, Decay: Const(1)}).RequireOneDecay("noise.x", "why"); err != nil {
		t.Error(err)
	}
}

// FillAt with one decay costs what FillChannel does; with one decay per
// agent it adds n schedule evaluations per iteration.
func BenchmarkFillAt(b *testing.B) {
	const n, d = 100, 10
	nz := make([]float64, n*d)
	decays := make([]Schedule, n)
	for i := range decays {
		decays[i] = Poly(1, 1, 0.5+float64(0.01*float64(i+1)))
	}
	for _, c := range []struct {
		name string
		spec *Spec
	}{
		{"one-decay", &Spec{Dist: Laplace, Scale: 1, Decay: Poly(1, 1, 0.51)}},
		{"per-agent", &Spec{Dist: Laplace, Scale: 1, Decays: decays}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := NewSampler(Laplace, rng.NewStream(1, "bench"))
			for k := 0; b.Loop(); k++ {
				s.FillAt(c.spec, k, nz, d)
			}
		})
	}
}
