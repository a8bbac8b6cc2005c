package diffdradt_test

import (
	"math"
	"testing"

	"dpsim/core/problems/dispatch"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// On an undirected graph with a doubly-stochastic W, without noise, the
// trackers keep Σy_k = Σd − Σw_k and the constant step converges to w*:
// the method works where it was designed to.
func TestUndirectedConverges(t *testing.T) {
	b := runnertest.Preset(t, "diffdradt-ieee14", func(s *scenario.Scenario) {
		s.Graph = scenario.Graph{Kind: "ring", N: 14}
		s.Weights = scenario.Weights{Kind: "metropolis"}
		s.Noise["xi"].Scale, s.Noise["zeta"].Scale = 0, 0
		s.Iterations, s.Record.Every = 20000, 20000
	})
	prob := b.Env.Problem.(*dispatch.Dispatch)
	alg := b.Algorithm
	for k := range 200 {
		st := alg.Advance()
		var y []float64
		for _, v := range alg.State() {
			if v.Name == "y" {
				y = v.Data
			}
		}
		sumY, sumW := 0.0, 0.0
		for i := range y {
			sumY += y[i]
			sumW += st.Estimates[i]
		}
		if math.Abs(sumY-(prob.TotalDemand()-sumW)) > 1e-9 {
			t.Fatalf("k = %d: Σy = %v, Σd − Σw = %v", k, sumY, prob.TotalDemand()-sumW)
		}
	}
	b = runnertest.Preset(t, "diffdradt-ieee14", func(s *scenario.Scenario) {
		s.Graph = scenario.Graph{Kind: "ring", N: 14}
		s.Weights = scenario.Weights{Kind: "metropolis"}
		s.Noise["xi"].Scale, s.Noise["zeta"].Scale = 0, 0
		s.Iterations, s.Record.Every = 20000, 20000
	})
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if e := r.Metrics.Latest().Optimality; !(e < 1e-6) {
		t.Errorf("‖w − w*‖² = %v after 20000 iterations on a ring, want < 1e-6", e)
	}
}

// With W = R on the paper's digraph (the preset), Σy stops tracking the
// gap and the allocation settles far from w*, noise or not.
func TestDigraphBias(t *testing.T) {
	b := runnertest.Preset(t, "diffdradt-ieee14", func(s *scenario.Scenario) {
		s.Noise["xi"].Scale, s.Noise["zeta"].Scale = 0, 0
	})
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if e := r.Metrics.Latest().Optimality; !(e > 1) {
		t.Errorf("noise-free on the digraph with W = R: ‖w − w*‖² = %v, expected a bias above 1", e)
	}
}
