package ui

import (
	"math"
	"testing"
	"time"

	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// TestGhostIsNoiseFree checks that the ghost of a noisy preset runs the
// same scenario without noise: it matches the preset's own noise-free
// twin point for point, and ends far closer to the optimum than the
// noisy run.
func TestGhostIsNoiseFree(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	if !Noisy(s) {
		t.Fatal("gtdp-rendezvous should be noisy")
	}
	cp := *s
	cp.Iterations = 200
	cp.Record.Checkpoints = nil
	g := NewGhost(&cp)
	if g == nil {
		t.Fatal("no ghost for a noisy scenario")
	}
	if got := g.CatchUp(200, time.Hour); got != 200 {
		t.Fatalf("ghost reached iteration %d, want 200", got)
	}
	b, err := scenario.BuildFor(&cp, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	for r.Iter() < 200 {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	noisy := r.Metrics.Latest().Optimality
	ghost := g.At([]float64{0, 100, 200, 201}, false)
	if !(ghost[2] < noisy/100) {
		t.Errorf("ghost optimality %g at 200 is not ≪ the noisy run's %g", ghost[2], noisy)
	}
	if !math.IsNaN(ghost[3]) {
		t.Errorf("ghost at 201 (not run yet) = %g, want NaN", ghost[3])
	}
	if !(ghost[0] > 0) || math.IsNaN(ghost[1]) {
		t.Errorf("ghost values %v: want finite at 0 and 100", ghost)
	}
	// A noise-free scenario has no ghost.
	nf, err := scenario.PresetScenario("gtdp-rendezvous-noisefree")
	if err != nil {
		t.Fatal(err)
	}
	if Noisy(nf) || NewGhost(nf) != nil {
		t.Error("a noise-free scenario got a ghost")
	}
}

// TestPreviewCalibration checks the numbers the page shows before a
// calibration: ε = 1 on gtdp-rendezvous multiplies the noise by about
// 4·10⁷ (the case), which is Large, and its trial run ends with
// a far larger error than the current one; ε = 10⁸ is not Large.
func TestPreviewCalibration(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		eps        float64
		large      bool
		fmin, fmax float64
	}{
		{1, true, 1e7, 1e8},
		{1e8, false, 0.1, 1},
	} {
		p, err := PreviewCalibration(s, c.eps)
		if err != nil {
			t.Fatalf("ε = %g: %v", c.eps, err)
		}
		if p.Large != c.large || !(p.Factor >= c.fmin && p.Factor <= c.fmax) {
			t.Errorf("ε = %g: factor %g large %v, want in [%g, %g] and large %v", c.eps, p.Factor, p.Large, c.fmin, c.fmax, c.large)
		}
		if len(p.Channels) == 0 || p.Trial.Iter == 0 {
			t.Errorf("ε = %g: channels %v trial %+v: want both", c.eps, p.Channels, p.Trial)
		}
		if c.large && !(p.Trial.Then > 1e6*p.Trial.Now) {
			t.Errorf("ε = %g: trial error %g after against %g now: want ≫", c.eps, p.Trial.Then, p.Trial.Now)
		}
	}
}
