package dola_test

import (
	"encoding/json"
	"math"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// DOLA and DMOD at the preset's privacy matching: their own ledgers, after
// the calibration horizon of 500 iterations, report Algorithm 1's largest
// ε^i after 500 iterations (200942.3…, to the 7 digits the preset writes),
// and that ε is the literal sum Σ_t 2√n·C·α_{t−1}/b_t.
func TestCalibratedToAlgorithm1(t *testing.T) {
	ldp := runnertest.Run(t, runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
		s.Iterations = 500
		s.Record.EvalEvery = 0
		s.Problem.Params = json.RawMessage(`{"dataset": "mushrooms", "l2": 0.05, "shards": "shuffled", "test_accuracy": false}`)
	})).Ledger().Max.Value()
	for _, name := range []string{"dola-mushrooms", "dmod-mushrooms"} {
		b := runnertest.Preset(t, name, func(s *scenario.Scenario) {
			s.Iterations = 500
			s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 200, "features": 112, "test_rows": 0, "l2": 0.05}`)
		})
		led := runnertest.Run(t, b).Ledger()
		got := led.Max.Value()
		if math.Abs(got-ldp) > 1e-6*ldp {
			t.Errorf("%s: ε = %.10g, Algorithm 1's max ε^i = %.10g", name, got, ldp)
		}
		var ch string
		for k := range b.Env.Noise {
			ch = k
		}
		bs := b.Env.Noise[ch].Base(0)
		want := 0.0
		for tt := 1; tt < 500; tt++ {
			want += 2 * math.Sqrt(112) * 4.58 * 0.25 / math.Sqrt(float64(tt)) / (bs / math.Sqrt(float64(tt+1)))
		}
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: ε = %.12g, literal sum %.12g", name, got, want)
		}
	}
}
