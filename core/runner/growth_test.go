package runner_test

import (
	"errors"
	"runtime"
	"testing"

	"dpsim/core/noise"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// A run growing by 10^21 per 100 iterations diverges by growth before
// iteration 200; it used to complete its 500 iterations at 1e105 because
// it never reached runner.Limit.
func TestGrowthDiverges(t *testing.T) {
	r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Checkpoints = 500, nil
		for _, ch := range []string{"eta", "xi"} {
			s.Noise[ch].Decay = noise.Geom(1, 1.62) // 1.62^100 ≈ 10^21
		}
	}))
	err := r.Run()
	var d *runner.Diverged
	if !errors.As(err, &d) || !d.Growth || d.Iter > 200 {
		t.Fatalf("got %v, want a divergence by growth before iteration 200", err)
	}
	if r.Export().Status != "diverged" {
		t.Errorf("status %q, want diverged", r.Export().Status)
	}
	t.Log(err)
}

// TestGrowthRuleSparesPresets: every preset runs to its end without
// meeting the growth rule (or any divergence).
func TestGrowthRuleSparesPresets(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("runs every preset in full: natively (step (e2) runs them all under js/wasm)")
	}
	if testing.Short() {
		t.Skip("runs every preset in full")
	}
	total := 0
	for _, p := range scenario.Presets() {
		for seed := range uint64(4) {
			r := runner.New(runnertest.Preset(t, p.Name, func(s *scenario.Scenario) {
				s.Record.Checkpoints = nil
				if s.Seed != nil && s.Seeds == nil {
					v := *s.Seed + seed
					s.Seed = &v
				}
			}))
			if err := r.Run(); err != nil {
				t.Errorf("%s, seed +%d: %v", p.Name, seed, err)
			}
			total += r.Iter()
		}
	}
	t.Logf("%d iterations in all", total)
}
