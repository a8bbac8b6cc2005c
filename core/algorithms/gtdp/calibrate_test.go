package gtdp_test

import (
	"math"
	"strings"
	"testing"

	"dpsim/core/algorithms/gtdp"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// bisectOnly hides the closed form so that Calibrate bisects.
type bisectOnly struct{ p privacy.Predictor }

func (b bisectOnly) PredictEpsilon(k int, f float64) privacy.Amount { return b.p.PredictEpsilon(k, f) }

// Calibrating GT-DP to a target ε: the closed form and the bisection give
// the same factor, the ledger after the run reports the target, and the
// inverse b of spec §5.4 reproduces it.
func TestCalibrationMeetsTarget(t *testing.T) {
	for _, target := range []float64{0.5, 5, 80} {
		s, err := scenario.PresetScenario("gtdp-paper-fig1")
		if err != nil {
			t.Fatal(err)
		}
		s.Calibrate = &scenario.Calibrate{Epsilon: target}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		cal := b.Calibration
		if cal == nil || cal.Method != "closed form" || cal.Iterations != 500 {
			t.Fatalf("calibration %+v", cal)
		}
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		if got := r.Ledger().Max.Value(); math.Abs(got-target) > 1e-9*target {
			t.Errorf("ε = %.15g after the calibrated run, target %g", got, target)
		}
		if l := r.Ledger(); l.Calibration == nil {
			t.Error("the ledger does not record the calibration")
		}
		// Bisection on the uncalibrated accountant finds the same factor.
		s2, _ := scenario.PresetScenario("gtdp-paper-fig1")
		b2, err := scenario.Build(s2)
		if err != nil {
			t.Fatal(err)
		}
		bc, err := privacy.Calibrate(bisectOnly{b2.Accountant.(privacy.Predictor)}, 500, target, "calibrate.epsilon")
		if err != nil {
			t.Fatal(err)
		}
		if bc.Method != "bisection" || math.Abs(bc.Factor-cal.Factor) > 1e-9*cal.Factor {
			t.Errorf("bisection factor %.15g (%s), closed form %.15g", bc.Factor, bc.Method, cal.Factor)
		}
		// The inverse b (b_η = b_ξ = b; the preset has both 0.1).
		bInv, err := b2.Accountant.(*gtdp.Accountant).NoiseScaleFor(500, target)
		if err != nil {
			t.Fatal(err)
		}
		if want := float64(0.1 * cal.Factor); math.Abs(bInv-want) > 1e-12*want {
			t.Errorf("inverse b = %.15g, calibrated scale %.15g", bInv, want)
		}
		s3, _ := scenario.PresetScenario("gtdp-paper-fig1")
		s3.Noise["eta"].Scale, s3.Noise["xi"].Scale = bInv, bInv
		b3, err := scenario.Build(s3)
		if err != nil {
			t.Fatal(err)
		}
		r3 := runner.New(b3)
		if err := r3.Run(); err != nil {
			t.Fatal(err)
		}
		if got := r3.Ledger().Max.Value(); math.Abs(got-target) > 1e-9*target {
			t.Errorf("ε = %.15g at the inverse b = %.15g, target %g", got, bInv, target)
		}
	}
}

func TestCalibrationErrors(t *testing.T) {
	for _, c := range []struct {
		preset string
		eps    float64
		want   string
	}{
		{"gtdp-paper-fig1", -1, "calibrate.epsilon"},
		{"gtdp-paper-fig1", math.Inf(1), "calibrate.epsilon"},
		{"gtdp-rendezvous-noisefree", 5, "calibrate.epsilon"},
	} {
		s, _ := scenario.PresetScenario(c.preset)
		s.Calibrate = &scenario.Calibrate{Epsilon: c.eps}
		_, err := scenario.Build(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s ε=%v: error %v, want one naming %s", c.preset, c.eps, err, c.want)
		}
	}
}
