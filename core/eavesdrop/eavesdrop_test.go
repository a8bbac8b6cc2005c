package eavesdrop_test

import (
	"strings"
	"testing"

	"dpsim/core/eavesdrop"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestNoInverter checks the view of an algorithm that offers no inversion
// (DiaDSP): the messages and the truth, no reconstruction, said so.
func TestNoInverter(t *testing.T) {
	b := runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) { s.Calibrate = nil; s.Iterations = 3 })
	if _, err := eavesdrop.New(b.Env.Problem, b.Algorithm, 6, 1); err == nil || !strings.Contains(err.Error(), "from 0 to 5") {
		t.Errorf("agent 6 of 6: error %v", err)
	}
	r, err := eavesdrop.New(b.Env.Problem, b.Algorithm, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Record(b.Algorithm.Initial())
	for range 3 {
		r.Record(b.Algorithm.Advance())
	}
	rep := r.Report("diadsp")
	if rep.Inverts || len(rep.Frames) != 3 || !strings.Contains(rep.Note, "no reconstruction") {
		t.Fatalf("report: inverts %v, %d frames, note %q", rep.Inverts, len(rep.Frames), rep.Note)
	}
	f := rep.Frames[0]
	if f.XHat != nil || len(f.Sent) != 2 || len(f.Received) != 4 || len(f.X) != 2 || len(f.Grad) != 2 {
		t.Errorf("frame 0: x̂ %v, %d sent, %d received (ring: 2 channels × 2 neighbours), x %v, ∇f %v", f.XHat, len(f.Sent), len(f.Received), f.X, f.Grad)
	}
}

// TestKeep checks the live window: only the last Keep frames stay.
func TestKeep(t *testing.T) {
	b := runnertest.Preset(t, "dpp2-classifier", func(s *scenario.Scenario) { s.Iterations = 10 })
	r, err := eavesdrop.New(b.Env.Problem, b.Algorithm, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Keep = 3
	r.Record(b.Algorithm.Initial())
	for range 10 {
		r.Record(b.Algorithm.Advance())
	}
	if len(r.Frames) != 3 || r.Frames[0].Iter != 7 || r.Frames[2].Iter != 9 || r.Truncated {
		t.Errorf("%d frames from %d, truncated %v; want iterations 7..9", len(r.Frames), r.Frames[0].Iter, r.Truncated)
	}
}
