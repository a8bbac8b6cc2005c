package scenario

import (
	"strings"
	"testing"
)

// A calibration that would need a noise scale beyond MaxMagnitude is
// refused in one line naming calibrate.epsilon and the bound (from a
// short horizon, see privacy.CalibrateWith); a cancelled build stops the
// calibration search at the first look and says "interrupted".
func TestCalibrationBoundAndCancel(t *testing.T) {
	s, err := PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	s.Calibrate = &Calibrate{Epsilon: 5, Iterations: 10_000_000}
	_, err = Build(s.Clone())
	if err == nil {
		t.Fatal("ε = 5 after 10^7 iterations was calibrated beyond the noise bound")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "calibrate.epsilon: ") || !strings.Contains(msg, "beyond 1e+12") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming calibrate.epsilon and the bound", msg)
	}

	s.Calibrate = &Calibrate{Epsilon: 1e6, Iterations: 10_000_000}
	asks := 0
	_, err = BuildCancel(s.Clone(), CLI, nil, func() bool { asks++; return true })
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled build: %v, want an interrupted error", err)
	}
	if asks != 1 {
		t.Errorf("cancelled build asked %d times, want 1 (stop at the first look)", asks)
	}
}
