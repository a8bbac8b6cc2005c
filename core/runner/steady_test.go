package runner_test

import (
	"testing"

	"dpsim/core/metrics"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestSteadyStateNamesItsMetric checks that the steady state says what it
// averages, as the problem defines it.
func TestSteadyStateNamesItsMetric(t *testing.T) {
	short := func(s *scenario.Scenario) { s.Iterations = 10; s.Record.Checkpoints = nil }
	for _, c := range []struct{ preset, want string }{
		{"gtdp-rendezvous", metrics.OptimalityLabel},
		{"dpdgt-ieee14", "‖w − w*‖² = Σ_i (w_i − w_i*)²"},
	} {
		st := runnertest.Run(t, runnertest.Preset(t, c.preset, short)).SteadyState()
		if st.Metric != c.want {
			t.Errorf("%s: steady_state.metric = %q, want %q", c.preset, st.Metric, c.want)
		}
	}
}
