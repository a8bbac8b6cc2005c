package ui

import (
	"slices"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/render/scene"
	"dpsim/render/sceneof"
)

// rendezvous is GT-DP's rendezvous on a ring of 8, the page's landing
// when issue 29 was found (its packets, its ghost at rounding); the page
// now opens on the Tour's DP-RECAL.
const rendezvous = "gtdp-rendezvous"

// packetRatios runs GT-DP's rendezvous calibrated to eps (0: its own
// noise) for iters iterations with the noise-free twin as the picture's
// reference (or none) and returns the median packet ratio of the last
// iteration, as the packets' colour shows it.
func packetRatios(t *testing.T, eps float64, iters int, twin bool) float64 {
	t.Helper()
	s, err := scenario.PresetScenario(rendezvous)
	if err != nil {
		t.Fatal(err)
	}
	if eps > 0 {
		s.Calibrate = &scenario.Calibrate{Epsilon: eps}
	}
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	m := scene.NewModel(b.Env.Graph, sceneof.Plane(b.Env.Problem))
	recs := []sim.Recorder{m}
	if twin {
		tw := NewTwin(b)
		if tw == nil {
			t.Fatal("no twin for a noisy preset")
		}
		m.SetReference(tw)
		recs = append(recs, tw)
	}
	r := runner.New(b, recs...)
	for range iters {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	if twin && !m.Referenced() {
		t.Fatal("the packets were not coloured against the twin")
	}
	var rs []float64
	for _, p := range m.Packets() {
		rs = append(rs, p.Ratio)
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

// TestPacketColourAgainstTwin checks that the packets' colour reflects
// all the noise a message carries (issue 29: at ε ≈ 1 the estimates shot
// to the corners while every packet stayed teal or amber, each fresh
// noise being about the size of an estimate made of earlier noise).
// Against the noise-free twin, the rendezvous at ε = 1 is red
// (noise-dominated) at iteration 50, and at its own ε, late in the run,
// the signal dominates (ratio below 1: teal or green, not amber).
func TestPacketColourAgainstTwin(t *testing.T) {
	if r := packetRatios(t, 1, 50, true); scene.RatioT(r) < 0.99 {
		t.Errorf("ε = 1, iteration 50: median packet ratio %.3g (t = %.2f), want noise-dominated red", r, scene.RatioT(r))
	}
	if r := packetRatios(t, 0, 600, true); !(r < 1) {
		t.Errorf("the preset's own noise, iteration 600: median packet ratio %.3g (t = %.2f), want the signal to dominate", r, scene.RatioT(r))
	}
	// The fresh noise alone reads ≈ 1 at ε = 1: what the page showed.
	if r := packetRatios(t, 1, 50, false); scene.RatioT(r) > 0.75 {
		t.Errorf("ε = 1 without the twin: median ratio %.3g: the test no longer shows the issue", r)
	}
}

// TestTwinStops checks that a twin stopped (fast-forward) gives no
// releases, and that the model then colours by the fresh noise.
func TestTwinStops(t *testing.T) {
	s, _ := scenario.PresetScenario(rendezvous)
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	tw := NewTwin(b)
	m := scene.NewModel(b.Env.Graph, sceneof.Plane(b.Env.Problem))
	m.SetReference(tw)
	r := runner.New(b, m, tw)
	for range 3 {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	if !m.Referenced() || !m.Referencing() || tw.Releases(3) == nil {
		t.Fatal("the twin does not follow")
	}
	tw.Stop()
	if _, err := r.Advance(); err != nil {
		t.Fatal(err)
	}
	if m.Referenced() || m.Referencing() || tw.Releases(4) != nil {
		t.Error("a stopped twin still colours the packets")
	}
}
