package runner_test

import (
	"fmt"
	"testing"
	"time"

	"dpsim/core/scenario"
)

// BenchmarkCNNIteration is one iteration of GT-DP training the CNN with
// 10 agents holding 32 MNIST images each (every agent's gradient is one
// batch of 32 images, the LDP online paper's batch) on 1, 2, 4 and 8
// workers. Each sub-benchmark after the first reports its speed-up over
// one worker measured in the same run (x-vs-1); issue 32's goal is ≥ 5 on
// 8 cores. Quote medians of -count runs (docs/performance.md).
func BenchmarkCNNIteration(b *testing.B) {
	s, err := scenario.PresetScenario("gtdp-cnn-mnist")
	if err != nil {
		b.Fatal(err)
	}
	s.Graph.N = 10
	s.Problem.Params = []byte(`{"dataset": "mnist", "train_rows": 320, "eval_rows": 32, "shards": "shuffled", "l2": 0}`)
	s.Iterations = scenario.MaxIterations
	var one time.Duration
	for _, w := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			bt, err := scenario.Build(s)
			if err != nil {
				b.Fatal(err)
			}
			bt.Env.Pool.Set(w)
			alg := bt.Algorithm
			alg.Advance() // the workspaces, allocated once
			b.ResetTimer()
			for range b.N {
				alg.Advance()
			}
			per := b.Elapsed() / time.Duration(b.N)
			if w == 1 {
				one = per
			} else if one > 0 {
				b.ReportMetric(float64(one)/float64(per), "x-vs-1")
			}
		})
	}
}
