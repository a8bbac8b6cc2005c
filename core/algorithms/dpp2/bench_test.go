package dpp2_test

import (
	"encoding/json"
	"testing"

	"dpsim/core/scenario"
)

// BenchmarkIteration is one DPP² iteration on the paper's setting (the
// dpp2-classifier preset: N = 50, d = 10, m = 200 samples per agent,
// RGG(50, 0.3), noise on), the 50 gradients of the classifier included
// ("rgg50"), and the same update on f_i = ‖x − a_i‖² in dimension 10, whose
// gradient costs nothing ("rgg50-update"): bench/dpp2 compares both
// natively and under js/wasm with a vectorised NumPy iteration.
func BenchmarkIteration(b *testing.B) {
	for _, c := range []struct {
		name    string
		scale   float64
		problem string
	}{{"rgg50", 1, ""}, {"rgg50-update", 1, `{"kind": "rendezvous", "params": {"dim": 10}}`}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := scenario.PresetScenario("dpp2-classifier")
			if err != nil {
				b.Fatal(err)
			}
			s.Noise["w"].Scale, s.Noise["e"].Scale = c.scale, c.scale
			if c.problem != "" {
				if err := json.Unmarshal([]byte(c.problem), &s.Problem); err != nil {
					b.Fatal(err)
				}
			}
			bl, err := scenario.Build(s)
			if err != nil {
				b.Fatal(err)
			}
			alg := bl.Algorithm
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				alg.Advance()
			}
		})
	}
}
