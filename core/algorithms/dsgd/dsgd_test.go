package dsgd_test

import (
	"encoding/json"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// DSGD with A = I + W is Algorithm 1 of the LDP online paper without
// noise: the same update θ + Σ_j w_ij(θ_j − θ) − λ_t·g. The two runs agree
// bit for bit, and DSGD reports no privacy (ε = ∞, "no noise").
func TestIsNoiseFreeAlgorithm1(t *testing.T) {
	small := func(s *scenario.Scenario) {
		s.Iterations = 40
		s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 200, "features": 6, "test_rows": 0, "l2": 0.05}`)
	}
	d := runnertest.Run(t, runnertest.Preset(t, "dsgd-mushrooms", small))
	l := runnertest.Run(t, runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
		small(s)
		s.Noise["theta"].Scale = 0
	}))
	a, b := d.Metrics.Series.Optimality, l.Metrics.Series.Optimality
	if len(a) != len(b) || len(a) < 2 {
		t.Fatalf("series of %d and %d points", len(a), len(b))
	}
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("point %d: DSGD %.17g, noise-free Algorithm 1 %.17g", k, a[k], b[k])
		}
	}
	if led := d.Ledger(); !led.Max.IsInf() || led.Agents[0].Reason != "no noise" {
		t.Errorf("DSGD's ledger: max %v, reason %q", led.Max, led.Agents[0].Reason)
	}
}
