package gtdp_test

import (
	"errors"
	"testing"

	"dpsim/core/algorithms/gtdp"
	"dpsim/core/privacy"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// A calibration's cancel hook reaches inside eq. (18)'s prediction loop:
// at a horizon of 10^7 iterations (seconds of work per prediction) the
// calibration stops after a handful of looks, not after the whole
// horizon, and reports ErrInterrupted. Looks are counted, not timed.
func TestCalibrationCancelReachesThePrediction(t *testing.T) {
	b := runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) { s.Iterations, s.Record.Checkpoints = 10, nil })
	ac := b.Accountant.(*gtdp.Accountant)
	const horizon = 10_000_000
	looks := 0
	cancel := func() bool { looks++; return looks >= 3 }
	_, err := privacy.CalibrateWith(ac, horizon, 5, "calibrate.epsilon", privacy.Limits{Cancel: cancel})
	if !errors.Is(err, privacy.ErrInterrupted) {
		t.Fatalf("got %v, want ErrInterrupted", err)
	}
	// Without the hook inside the loop the two long predictions before
	// the first look that says stop would each run the whole horizon;
	// with it, every agent's loop stops at its first look after that.
	if agents := b.Env.Graph.N; looks > 3+agents {
		t.Errorf("%d looks, want at most %d: the prediction did not stop at the hook", looks, 3+agents)
	}
	// The prediction itself consults the hook inside its loop (without
	// that, no look would happen here) and stops at the first that says
	// stop: one look per distinct agent, of the 10^7/4096 it would make.
	looks = 0
	ac.SetCancel(func() bool { looks++; return true })
	ac.PredictEpsilon(horizon, 1)
	ac.SetCancel(nil)
	if agents := b.Env.Graph.N; looks < 1 || looks > agents {
		t.Errorf("a cancelled prediction made %d looks, want 1 to %d (one per agent's loop)", looks, agents)
	}
	// After the calibration the hook is gone: a prediction runs to its end.
	looks = 0
	if e := ac.PredictEpsilon(20_000, 1); looks != 0 || e.NoGuarantee() {
		t.Errorf("after the calibration: %d looks, ε %v", looks, e)
	}
}
