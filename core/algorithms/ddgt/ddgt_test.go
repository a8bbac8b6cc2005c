package ddgt_test

import (
	"math"
	"testing"

	"dpsim/core/problems/dispatch"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// DDGT's invariant and its flaw (DP-DGT paper, eqs. (9)–(11)): with
// 1ᵀz_0 = −ι(Σw_0 − Σd), 1ᵀz_k = −ι(Σ_i w_{i,k} − Σ_i d_i) + Σ_{l<k} 1ᵀξ_l:
// the noise on the pushed z accumulates.
func TestNoiseAccumulates(t *testing.T) {
	b := runnertest.Preset(t, "ddgt-ieee14", nil)
	prob := b.Env.Problem.(*dispatch.Dispatch)
	alg := b.Algorithm
	iota := 0.034
	acc := 0.0
	st := alg.Initial()
	for k := 0; k <= 1500; k++ {
		z := runnertest.State(alg, "z")
		sumZ, sumW := 0.0, 0.0
		for i := range z {
			sumZ += z[i]
			sumW += st.Estimates[i]
		}
		want := float64(-iota*(sumW-prob.TotalDemand())) + acc
		if math.Abs(sumZ-want) > 1e-9 {
			t.Fatalf("k = %d: 1ᵀz = %.15g, −ι(Σw − Σd) + Σ1ᵀξ = %.15g", k, sumZ, want)
		}
		st = alg.Advance()
		for _, r := range st.Releases {
			if r.Channel == "z" {
				acc += r.Noise[0]
			}
		}
	}
	if acc == 0 {
		t.Fatal("no noise was drawn")
	}
}

// Noise-free, DDGT's 1ᵀz tracks the gap exactly and the summable steps
// leave it in a neighbourhood of w*.
func TestNoiseFree(t *testing.T) {
	b := runnertest.Preset(t, "ddgt-ieee14", func(s *scenario.Scenario) {
		s.Noise["xi"].Scale, s.Noise["zeta"].Scale = 0, 0
		s.Record.Every = 1500
	})
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if e := r.Metrics.Latest().Optimality; !(e < 1) {
		t.Errorf("noise-free ‖w − w*‖² = %v, want < 1", e)
	}
}
