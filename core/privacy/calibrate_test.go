package privacy

import (
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
