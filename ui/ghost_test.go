package ui

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	_ "dpsim/core/data/files" // the committed datasets, for the presets that train on them
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
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

// noiseLog records whether any release of a run carried noise, and the
// first that did.
type noiseLog struct {
	noisy bool
	where string
}

func (l *noiseLog) Record(s *sim.Step) {
	for _, r := range s.Releases {
		for _, v := range r.Noise {
			if v != 0 && !l.noisy {
				l.noisy, l.where = true, fmt.Sprintf("iteration %d, agent %d's release on %s: noise %g", s.Iter, r.From, r.Channel, v)
			}
		}
	}
}

// runShort builds s for the page and runs it to its end with a noise log.
func runShort(t *testing.T, s *scenario.Scenario) (*runner.Runner, *noiseLog) {
	t.Helper()
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	log := &noiseLog{}
	r := runner.New(b, log)
	if err := r.Run(); err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	return r, log
}

// TestGhostOfEveryPreset checks the ghost of every preset: a noisy
// preset has one, and its scenario (the one NewGhost builds) draws no
// noise — every release's noise part is exactly 0 and the ledger gives
// no finite ε, each agent's entry saying why — and its trajectory
// differs from the run's whenever the run drew noise. The ghosts of
// DP-EXTRA, DP-NIDS, DP-ADMM, DP-RWADMM, DP-MRADMM and DP-RECAL were the
// noisy run itself: their noise followed their own target_epsilon.
func TestGhostOfEveryPreset(t *testing.T) {
	const horizon = 4
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		s.Iterations, s.Stop, s.Record.Checkpoints = min(s.Iterations, horizon), nil, nil
		if !Noisy(s) {
			if NewGhost(s) != nil {
				t.Errorf("%s adds no noise but has a ghost", p.Name)
			}
			continue
		}
		if NewGhost(s.Clone()) == nil {
			t.Errorf("%s is noisy but has no ghost", p.Name)
			continue
		}
		ghost, glog := runShort(t, noiseFree(s.Clone()))
		if glog.noisy {
			t.Errorf("%s: the ghost drew noise (%s)", p.Name, glog.where)
		}
		// No finite guarantee, and every agent's entry says why: no noise
		// (∞), nothing sensitive sent (0), or no DP claimed at all.
		l := ghost.Ledger()
		if !l.Max.IsInf() {
			t.Errorf("%s: the ghost's ledger reports ε = %s, want ∞ (no noise)", p.Name, l.Max)
		}
		for _, e := range l.Agents {
			if !(e.Epsilon.IsInf() || e.Epsilon.Value() == 0) || e.Reason == "" {
				t.Errorf("%s: the ghost's ledger gives agent %d ε = %s (%q), want ∞ for no noise", p.Name, e.Agent, e.Epsilon, e.Reason)
				break
			}
		}
		run, rlog := runShort(t, s.Clone())
		if !rlog.noisy {
			continue
		}
		if slices.EqualFunc(run.Built().Algorithm.State(), ghost.Built().Algorithm.State(), func(a, b sim.Var) bool { return slices.Equal(a.Data, b.Data) }) {
			t.Errorf("%s: the ghost's state after %d iterations is the noisy run's", p.Name, s.Iterations)
		}
	}
}
