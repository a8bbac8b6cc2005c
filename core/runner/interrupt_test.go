package runner_test

import (
	"testing"

	"dpsim/core/privacy"
	"dpsim/core/scenario"
)

// Every accountant that loops over the horizon to predict ε takes a
// calibration's cancel hook into its loop (privacy.Interruptible): with a
// hook that always says stop, a 10^6-iteration prediction makes one look
// per agent's loop and no more. Walks every preset, so every such
// accountant, present and future.
func TestLongPredictionsLookAtTheCancelHook(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range conformanceCases(t) {
		s := parseCase(t, c)
		if seen[s.Algorithm.Kind] {
			continue
		}
		s.Calibrate, s.Record.Checkpoints = nil, nil
		b, err := scenario.Build(s)
		if err != nil {
			continue // a preset that needs data or fails on purpose elsewhere
		}
		in, ok := b.Accountant.(privacy.Interruptible)
		pred, ok2 := b.Accountant.(privacy.Predictor)
		if !ok || !ok2 {
			continue
		}
		seen[s.Algorithm.Kind] = true
		looks := 0
		in.SetCancel(func() bool { looks++; return true })
		pred.PredictEpsilon(1_000_000, 1)
		in.SetCancel(nil)
		if n := b.Env.Graph.N; looks < 1 || looks > n {
			t.Errorf("%s (%s): a cancelled 10^6-iteration prediction made %d looks, want 1 to %d", s.Algorithm.Kind, c.name, looks, n)
		}
	}
	for _, want := range []string{"gt-dp", "dpop", "diadsp"} {
		if !seen[want] {
			t.Errorf("no preset exercised %s's interruptible prediction", want)
		}
	}
}
