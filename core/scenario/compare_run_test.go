package scenario_test

import (
	"math"
	"strings"
	"testing"

	"dpsim/core/noise"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// Calibrate all: GT-DP, DPOP and DiaDSP on the GT-DP paper's Fig. 2
// problem, calibrated to one ε, each report that ε from their own
// ledgers after the run (checked there, not assumed); a noise-free
// GT-DP entry cannot be calibrated and its note says why.
func TestComparisonCalibrateAll(t *testing.T) {
	base, err := scenario.PresetScenario("gtdp-fig2")
	if err != nil {
		t.Fatal(err)
	}
	base.Iterations = 200
	const eps = 1000.0
	entries := []scenario.Entry{
		{Kind: "gt-dp", Params: []byte(`{"alpha": 0.1, "clip_gradients": true}`)},
		{Kind: "dpop", Params: []byte(`{"c": 0.25, "q": 0.98}`)},
		{Kind: "diadsp", Params: []byte(`{"alpha": 0.1}`)},
		{Kind: "gt-dp", Label: "GT-DP without noise", Params: []byte(`{"alpha": 0.1, "clip_gradients": true}`),
			Noise: map[string]*noise.Spec{"eta": {Dist: "laplace"}, "xi": {Dist: "laplace"}}},
	}
	c, err := scenario.NewComparison(base, &scenario.Calibrate{Epsilon: eps}, entries)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := scenario.BuildComparison(c, scenario.CLI)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range cb.Entries {
		r := runner.New(b)
		r.Start()
		if err := r.Run(); err != nil {
			t.Fatalf("%s: %v", cb.Labels[i], err)
		}
		got := r.Ledger().Max.Value()
		if i == 3 {
			if note := cb.Notes[i]; note == "" || strings.Contains(note, "\n") {
				t.Errorf("%s: note %q, want one line saying why it was not calibrated", cb.Labels[i], note)
			}
			continue
		}
		if cb.Notes[i] != "" {
			t.Errorf("%s: not calibrated: %s", cb.Labels[i], cb.Notes[i])
		}
		if math.Abs(got-eps) > 1e-6*eps {
			t.Errorf("%s: the ledger reports ε = %v after the run, want %v within 1e-6", cb.Labels[i], got, eps)
		}
	}
}
