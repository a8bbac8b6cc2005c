package privacy

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// zeroScale predicts like an accountant whose noise scale is 0 from
// iteration 1 on (a decay with r = 0): ε is finite after one iteration and
// infinite after two, at any factor. It records the longest horizon asked.
type zeroScale struct{ longest int }

func (z *zeroScale) PredictEpsilon(iterations int, factor float64) Amount {
	z.longest = max(z.longest, iterations)
	if iterations < 2 {
		return Of(1 / factor)
	}
	return Infinite()
}

// proportional predicts ε = k/λ (a Laplace budget), without a closed-form
// inverse, so Calibrate bisects.
type proportional struct{}

func (proportional) PredictEpsilon(iterations int, factor float64) Amount {
	return Of(float64(iterations) / factor)
}

// A calibration that cannot succeed is refused in one line from a short
// horizon: once the accountant ran the whole horizon (10^7 iterations, a
// few seconds) before saying so.
func TestCalibrateRefusesHopelessAtOnce(t *testing.T) {
	z := &zeroScale{}
	_, err := Calibrate(z, 10_000_000, 1, "calibrate.epsilon")
	if err == nil {
		t.Fatal("a zero noise scale was calibrated")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "calibrate.epsilon: cannot be reached") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming the field", msg)
	}
	if z.longest > probeIterations {
		t.Errorf("the predictor was asked for %d iterations before the refusal, want ≤ %d", z.longest, probeIterations)
	}
	// A reachable target still calibrates (by bisection here).
	c, err := Calibrate(proportional{}, 1000, 10, "calibrate.epsilon")
	if err != nil || math.Abs(c.Factor-100) > 1e-9 || c.Method != "bisection" {
		t.Errorf("ε = 1000/λ to 10: factor %v (%s), %v; want 100 by bisection", c.Factor, c.Method, err)
	}
}

// counting predicts ε = k/λ and records every horizon it was asked for.
type counting struct {
	longest, calls int
}

func (c *counting) PredictEpsilon(iterations int, factor float64) Amount {
	c.longest = max(c.longest, iterations)
	c.calls++
	return Of(float64(iterations) / factor)
}

// A target that needs a factor beyond Limits.MaxFactor is refused from a
// horizon shorter than the full one (once it was found only after the
// full horizon, 4 s for GT-DP at 10^7 iterations); a target within the
// bound is calibrated as before.
func TestCalibrateRefusesBeyondMaxFactorEarly(t *testing.T) {
	lim := Limits{MaxFactor: 1e6, Scale: "the eta noise scale 1", Base: 1, Bound: 1e6}
	for _, tc := range []struct {
		iterations int
		target     float64
		refused    bool
	}{
		{10_000_000, 1, true},     // needs ×10^7 > 10^6: seen at k = 16^5 ≈ 10^6
		{10_000_000, 0.001, true}, // needs ×10^10: seen at k = 16
		{10_000_000, 100, false},  // needs ×10^5
		{10, 1e-6, true},          // short horizon: probed at the full one
		{10, 1, false},
		// Needs ×1.0101·10^6, just beyond the bound: the short horizons
		// (up to 2.5·10^6 iterations) cannot see it, one prediction at the
		// full horizon and the largest factor does, before any bisection
		// (once it was found only after the whole bisection, 2.7 s for
		// GT-DP at 10^7 iterations).
		{10_000_000, 9.9, true},
		{10_000_000, 10.1, false}, // ×0.990·10^6, just within
	} {
		p := &counting{}
		c, err := CalibrateWith(p, tc.iterations, tc.target, "calibrate.epsilon", lim)
		if tc.refused {
			if err == nil {
				t.Errorf("%d iterations, ε = %g: calibrated to ×%g beyond the bound", tc.iterations, tc.target, c.Factor)
				continue
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "calibrate.epsilon: ε = ") || !strings.Contains(msg, "beyond 1e+06") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming the field, the scale and the bound", msg)
			}
			if tc.iterations > probeIterations && p.longest > tc.iterations/probeShare && tc.target != 9.9 {
				t.Errorf("%d iterations, ε = %g: asked for %d iterations before refusing, want ≤ %d", tc.iterations, tc.target, p.longest, tc.iterations/probeShare)
			}
			// No bisection: the probes (16, 256, …, 16^5, the quarter and
			// the full horizon, and hopeless's two) and nothing else.
			if p.calls > 10 {
				t.Errorf("%d iterations, ε = %g: %d predictions before refusing, want ≤ 10 (no bisection)", tc.iterations, tc.target, p.calls)
			}
			continue
		}
		want := float64(tc.iterations) / tc.target
		if err != nil || math.Abs(c.Factor/want-1) > 1e-9 {
			t.Errorf("%d iterations, ε = %g: factor %v, %v; want %g", tc.iterations, tc.target, c.Factor, err, want)
		}
	}
}

// A cancelled calibration stops within a bounded number of predictions,
// in the probes as in the bisection, with ErrInterrupted.
func TestCalibrateCancel(t *testing.T) {
	for _, after := range []int{0, 1, 3, 20} {
		for _, lim := range []Limits{{}, {MaxFactor: 1e300, Base: 1, Bound: 1e300}} {
			p := &counting{}
			asked := 0
			lim.Cancel = func() bool { asked++; return asked > after }
			_, err := CalibrateWith(p, 1000, 1e-3, "calibrate.epsilon", lim)
			if !errors.Is(err, ErrInterrupted) {
				t.Errorf("cancel after %d asks (max factor %g): %v, want ErrInterrupted", after, lim.MaxFactor, err)
			}
			// hopeless's two probes run before the first ask.
			if p.calls > after+2 {
				t.Errorf("cancel after %d asks (max factor %g): %d predictions, want ≤ %d", after, lim.MaxFactor, p.calls, after+2)
			}
		}
	}
}

// invCounting is counting with a closed-form inverse, counting the
// full-horizon work it does (predictions and inversions at that horizon).
type invCounting struct {
	counting
	full, horizon int
}

func (c *invCounting) PredictEpsilon(iterations int, factor float64) Amount {
	if iterations == c.horizon {
		c.full++
	}
	return c.counting.PredictEpsilon(iterations, factor)
}

func (c *invCounting) FactorFor(iterations int, target float64) (float64, error) {
	if iterations == c.horizon {
		c.full++
	}
	return float64(iterations) / target, nil
}

// With a closed form, a target just beyond the bound is refused after
// the closed form's one full-horizon evaluation, naming the factor it
// needs (once Before, the closed form and After all ran first, and the
// caller refused after: 2.5 s for GT-DP at 10^7 iterations, now 1.0 s);
// one just within is calibrated as before.
func TestCalibrateClosedFormRefusesAfterOneFullHorizon(t *testing.T) {
	lim := Limits{MaxFactor: 1e6, Scale: "the eta noise scale 1", Base: 1, Bound: 1e6}
	p := &invCounting{horizon: 10_000_000}
	_, err := CalibrateWith(p, 10_000_000, 9.9, "calibrate.epsilon", lim)
	if err == nil || !strings.Contains(err.Error(), "multiplied by 1.01e+06, a scale of 1.01e+06, beyond 1e+06") {
		t.Errorf("ε = 9.9: error %v, want the factor 1.01e+06 beyond the bound", err)
	}
	if p.full != 1 {
		t.Errorf("ε = 9.9: %d full-horizon evaluations before refusing, want 1", p.full)
	}
	p = &invCounting{horizon: 10_000_000}
	c, err := CalibrateWith(p, 10_000_000, 10.1, "calibrate.epsilon", lim)
	if err != nil || c.Method != "closed form" || math.Abs(c.Factor*10.1/1e7-1) > 1e-12 {
		t.Errorf("ε = 10.1: %+v, %v", c, err)
	}
}

// A calibration whose rebuilt accountant does not predict its target
// fails, in one line naming the field, and says it cannot reach it: an
// algorithm that ignored the calibrated scales (its σ fixed by its own
// target, ε = 12 after a calibration to 5) reported success before.
func TestCalibrationCheck(t *testing.T) {
	for _, c := range []struct {
		after Amount
		ok    bool
	}{
		{Of(5), true},
		{Of(5 * (1 + 0.5e-9)), true},
		{Of(5 * (1 - 0.5e-9)), true},
		{Of(5 * (1 + 2e-9)), false},
		{Of(12), false},
		{Infinite(), false},
		{OfLog10(400), false},
	} {
		err := Calibration{Target: 5, Iterations: 500, Factor: 1.97725, After: c.after}.Check("calibrate.epsilon")
		if (err == nil) != c.ok {
			t.Errorf("after %s: %v, want ok %v", c.after, err, c.ok)
		}
		if err != nil && (!strings.HasPrefix(err.Error(), "calibrate.epsilon: cannot reach ε = 5") || strings.Contains(err.Error(), "\n")) {
			t.Errorf("after %s: %q, want one line naming the field", c.after, err)
		}
	}
}
