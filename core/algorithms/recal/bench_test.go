package recal_test

import (
	"testing"

	"dpsim/core/scenario"
)

// BenchmarkIteration times one DP-RECAL iteration — one communication:
// the holder's gradient on its shard, the prox, the noise and the walk —
// on the paper's least squares, 8 agents on a ring, ε = 12 (bench/recal
// compares it with a NumPy implementation of the same update).
func BenchmarkIteration(b *testing.B) {
	for _, ds := range []string{"ijcnn1", "mnist-01"} {
		b.Run(ds, func(b *testing.B) {
			s, err := scenario.PresetScenario("dp-recal-ijcnn1")
			if err != nil {
				b.Fatal(err)
			}
			s.Problem.Params = []byte(`{"dataset": "` + ds + `", "loss": "squares", "l2": 0, "regularizer": "elastic-net", "r_l1": 0.01, "r_l2": 1, "shards": "contiguous"}`)
			bl, err := scenario.Build(s)
			if err != nil {
				b.Fatal(err)
			}
			a := bl.Algorithm
			a.Initial()
			b.ResetTimer()
			for range b.N {
				a.Advance()
			}
		})
	}
}
